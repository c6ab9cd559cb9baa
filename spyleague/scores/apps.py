from django.apps import AppConfig


class ScoresConfig(AppConfig):
    name = "spyleague.scores"
    label = "scores"
