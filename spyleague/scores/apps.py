from django.apps import AppConfig


class ScoresConfig(AppConfig):
    name = "spyleague.scores"
    label = "scores"
    verbose_name = "Results and scorepads"
