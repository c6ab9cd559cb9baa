from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "spyleague.tournaments"
    label = "tournaments"
    verbose_name = "Events and leagues"

    def ready(self) -> None:
        from .event_parts import connect_versions

        connect_versions()  # a saved event, round, table or entrant moves its event's version on
