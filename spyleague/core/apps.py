from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "spyleague.core"
    label = "sl_core"
