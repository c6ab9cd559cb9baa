import contextlib

from django.apps import AppConfig, apps
from django.urls import register_converter

# The admin's names for two apps of other projects, as a club's administrator reads them: django-axes
# calls its records "Axes", and Django REST Framework its tokens "Auth Token". (Both check for their
# own module name in INSTALLED_APPS, so they keep their own AppConfig and get the name here.)
OTHER_APPS_NAMED = {"axes": "Login lockouts", "authtoken": "API tokens"}


class CoreConfig(AppConfig):
    name = "spyleague.core"
    label = "sl_core"
    verbose_name = "Background jobs"

    def ready(self) -> None:
        from . import auth
        from .inputs import IdConverter

        auth.connect()

        register_converter(IdConverter, "id")
        for label, words in OTHER_APPS_NAMED.items():
            with contextlib.suppress(LookupError):  # (one of them left out of INSTALLED_APPS)
                apps.get_app_config(label).verbose_name = words
