from django.urls import include, path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter()
router.register("clubs", views.ClubViewSet, basename="club")
router.register("players", views.PlayerViewSet, basename="player")
router.register("events", views.EventViewSet, basename="event")
router.register("jobs", views.JobViewSet, basename="job")

urlpatterns = [
    path("games/", views.game_list, name="api-games"),
    path("me/", views.me, name="api-me"),
    path("", include(router.urls)),
]
