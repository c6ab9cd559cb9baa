from django.urls import path

from . import import_views, sheet_views, views

app_name = "tournaments"
urlpatterns = [
    path("", views.event_index, name="list"),
    path("scoring/", views.scoring_help, name="scoring-help"),
    path("new/<slug:slug>/", views.event_create, name="create"),
    path("leagues/new/<slug:slug>/", views.league_create, name="league-create"),
    path("leagues/<id:pk>/", views.league_detail, name="league"),
    path("<id:pk>/", views.event_detail, name="event"),
    path("<id:pk>/screen/", views.event_public, name="public"),
    path("<id:pk>/check-in/", views.self_check_in, name="self-check-in"),
    path("<id:pk>/standings/", views.event_standings, name="standings"),
    path("<id:pk>/settings/", views.event_settings, name="settings"),
    path("<id:pk>/entrants/", views.entrant_add, name="entrant-add"),
    path("<id:pk>/entrants/check-in/", views.entrants_check_in_all, name="check-in-all"),
    path("<id:pk>/import/", import_views.player_import, name="import"),
    path("<id:pk>/import/confirm/", import_views.player_import_confirm, name="import-confirm"),
    path("<id:pk>/entrants/<id:entrant_id>/", views.entrant_update, name="entrant-update"),
    path("<id:pk>/pair/", views.round_pair, name="pair"),
    path("<id:pk>/finish/", views.event_finish, name="finish"),
    path("<id:pk>/rounds/<id:number>/", views.round_action, name="round-action"),
    path("<id:pk>/rounds/<id:number>/print/", views.round_print, name="round-print"),
    path("<id:pk>/tables/<id:table_id>/", sheet_views.table_sheet, name="sheet"),
    path("<id:pk>/tables/<id:table_id>/confirm/", sheet_views.table_confirm, name="confirm"),
    path("<id:pk>/tables/<id:table_id>/online/", sheet_views.table_play_online, name="online"),
    path("<id:pk>/export/<str:what>.csv", views.export_csv, name="export"),
]
