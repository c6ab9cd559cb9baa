from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "spyleague.api"
    label = "api"
    verbose_name = "API"
