from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "spyleague.play"
    label = "play"
    verbose_name = "Online play"
