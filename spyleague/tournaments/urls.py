from django.urls import path

from . import views

app_name = "tournaments"
urlpatterns = [
    path("", views.event_index, name="list"),
    path("new/<slug:slug>/", views.event_create, name="create"),
    path("leagues/new/<slug:slug>/", views.league_create, name="league-create"),
    path("leagues/<int:pk>/", views.league_detail, name="league"),
    path("<int:pk>/", views.event_detail, name="event"),
    path("<int:pk>/screen/", views.event_public, name="public"),
    path("<int:pk>/entrants/", views.entrant_add, name="entrant-add"),
    path("<int:pk>/entrants/<int:entrant_id>/", views.entrant_update, name="entrant-update"),
    path("<int:pk>/pair/", views.round_pair, name="pair"),
    path("<int:pk>/rounds/<int:number>/", views.round_action, name="round-action"),
    path("<int:pk>/rounds/<int:number>/print/", views.round_print, name="round-print"),
    path("<int:pk>/tables/<int:table_id>/", views.table_sheet, name="sheet"),
    path("<int:pk>/tables/<int:table_id>/confirm/", views.table_confirm, name="confirm"),
    path("<int:pk>/tables/<int:table_id>/online/", views.table_play_online, name="online"),
    path("<int:pk>/export/<str:what>.csv", views.export_csv, name="export"),
]
