from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "spyleague.clubs"
    label = "clubs"
    verbose_name = "Clubs and players"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_save

        from .signals import give_every_user_a_player

        post_save.connect(give_every_user_a_player, sender=settings.AUTH_USER_MODEL)
