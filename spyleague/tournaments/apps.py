from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "spyleague.tournaments"
    label = "tournaments"
    verbose_name = "Events and leagues"
