from django.urls import path

from . import views

app_name = "play"
RACE_SOCKET = "matches/<id:pk>/race/ws/"  # under /play/: the WebSocket's route too (spyleague.asgi)
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.match_new, name="new"),
    path("invite/<str:code>/", views.match_invite, name="invite"),
    path("matches/<id:pk>/", views.match_detail, name="match"),
    path("matches/<id:pk>/board/", views.match_board, name="board"),
    path("matches/<id:pk>/events/", views.match_events, name="events"),
    path("matches/<id:pk>/act/", views.match_act, name="act"),
    path("matches/<id:pk>/join/", views.match_join, name="join"),
    path("matches/<id:pk>/start/", views.match_start, name="start"),
    path("matches/<id:pk>/bot/", views.match_bot, name="bot"),
    path("matches/<id:pk>/resign/", views.match_resign, name="resign"),
    path("matches/<id:pk>/abandon/", views.match_abandon, name="abandon"),
    path("matches/<id:pk>/rematch/", views.match_rematch, name="rematch"),
    path("rules/<str:game>/", views.rules, name="rules"),
    path("matches/<id:pk>/replay/", views.match_replay, name="replay"),
    path("matches/<id:pk>/race/act/", views.race_act, name="race-act"),
    path("matches/<id:pk>/race/tick/", views.race_tick, name="race-tick"),
    path("matches/<id:pk>/race/events/", views.race_events, name="race-events"),
    path("matches/<id:pk>/race/progress/", views.race_progress, name="race-progress"),
    path(RACE_SOCKET, views.race_socket, name="race-socket"),
]
