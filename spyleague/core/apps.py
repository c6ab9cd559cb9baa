from django.apps import AppConfig
from django.urls import register_converter


class CoreConfig(AppConfig):
    name = "spyleague.core"
    label = "sl_core"

    def ready(self) -> None:
        from .inputs import IdConverter

        register_converter(IdConverter, "id")
