from django.urls import include, path
from rest_framework.routers import DefaultRouter

from . import (
    account_views,
    import_views,
    league_views,
    play_views,
    ratings_views,
    scorepad_views,
    tournament_views,
    views,
)

router = DefaultRouter()
router.register("clubs", views.ClubViewSet, basename="club")
router.register("players", views.PlayerViewSet, basename="player")
router.register("events", views.EventViewSet, basename="event")
router.register("leagues", league_views.LeagueViewSet, basename="league")
router.register("scorepads", scorepad_views.ScorepadViewSet, basename="scorepad")
router.register("jobs", views.JobViewSet, basename="job")

urlpatterns = [
    path("games/", views.game_list, name="api-games"),
    path("me/", views.me, name="api-me"),
    path("signup/", account_views.signup, name="api-signup"),
    path("token/", account_views.token_get, name="api-token"),
    path("events/<id:pk>/register/", tournament_views.event_register, name="api-event-register"),
    path("events/<id:pk>/check-in/", tournament_views.event_self_check_in, name="api-event-check-in"),
    path("events/<id:pk>/entrants/<id:entrant_id>/check-in/", tournament_views.entrant_check_in),
    path("events/<id:pk>/entrants/register/", import_views.entrants_register, name="api-entrants-register"),
    path("events/<id:pk>/entrants/check-in/", import_views.entrants_check_in, name="api-entrants-check-in"),
    path("events/<id:pk>/import/", import_views.event_import, name="api-event-import"),
    path("events/<id:pk>/import/confirm/", import_views.event_import_confirm, name="api-import-confirm"),
    path("events/<id:pk>/entrants/<id:entrant_id>/drop/", tournament_views.entrant_drop),
    path("events/<id:pk>/pair/", tournament_views.event_pair, name="api-event-pair"),
    path("events/<id:pk>/rounds/", tournament_views.EventRounds.as_view(), name="api-event-rounds"),
    path("events/<id:pk>/rounds/<id:number>/", tournament_views.round_detail, name="api-event-round"),
    path(
        "events/<id:pk>/rounds/<id:number>/tables/",
        tournament_views.RoundTables.as_view(),
        name="api-event-round-tables",
    ),
    path("events/<id:pk>/rounds/<id:number>/publish/", tournament_views.round_publish),
    path("events/<id:pk>/rounds/<id:number>/swap/", tournament_views.round_swap),
    path("events/<id:pk>/standings/", tournament_views.EventStandings.as_view(), name="api-event-standings"),
    path("tables/<id:table_id>/result/", tournament_views.table_result, name="api-table-result"),
    path("tables/<id:table_id>/confirm/", tournament_views.table_confirm, name="api-table-confirm"),
    path("matches/", play_views.match_create, name="api-match-create"),
    path("matches/<id:pk>/", play_views.match_detail, name="api-match"),
    path("matches/<id:pk>/join/", play_views.match_join),
    path("matches/<id:pk>/start/", play_views.match_start),
    path("matches/<id:pk>/act/", play_views.match_act, name="api-match-act"),
    path("matches/<id:pk>/replay/", play_views.match_replay, name="api-match-replay"),
    path("matches/<id:pk>/resign/", play_views.match_resign, name="api-match-resign"),
    path("matches/<id:pk>/abandon/", play_views.match_abandon, name="api-match-abandon"),
    path("matches/<id:pk>/rematch/", play_views.match_rematch, name="api-match-rematch"),
    path("leaderboards/<str:game>/", ratings_views.GameLeaderboard.as_view(), name="api-leaderboard"),
    path("leaderboards/<str:game>/bots/", ratings_views.GameBotLevels.as_view(), name="api-leaderboard-bots"),
    path(
        "players/<id:pk>/ratings/<str:game>/",
        ratings_views.PlayerRatingHistory.as_view(),
        name="api-rating-history",
    ),
    path("", include(router.urls)),
]
