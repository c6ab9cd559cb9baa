from django.urls import path

from . import views

app_name = "play"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.match_new, name="new"),
    path("invite/<str:code>/", views.match_invite, name="invite"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/board/", views.match_board, name="board"),
    path("matches/<int:pk>/events/", views.match_events, name="events"),
    path("matches/<int:pk>/act/", views.match_act, name="act"),
    path("matches/<int:pk>/join/", views.match_join, name="join"),
    path("matches/<int:pk>/start/", views.match_start, name="start"),
    path("matches/<int:pk>/bot/", views.match_bot, name="bot"),
    path("matches/<int:pk>/replay/", views.match_replay, name="replay"),
    path("matches/<int:pk>/race/act/", views.race_act, name="race-act"),
    path("matches/<int:pk>/race/tick/", views.race_tick, name="race-tick"),
    path("matches/<int:pk>/race/events/", views.race_events, name="race-events"),
    path("matches/<int:pk>/race/progress/", views.race_progress, name="race-progress"),
]
