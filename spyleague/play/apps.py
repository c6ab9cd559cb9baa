from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "spyleague.play"
    label = "play"
    verbose_name = "Online play"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from .models import Match, MatchSeat
        from .selectors import lobby_changed

        for model in (Match, MatchSeat):
            post_save.connect(lobby_changed, sender=model, dispatch_uid=f"lobby-{model.__name__}-saved")
            post_delete.connect(lobby_changed, sender=model, dispatch_uid=f"lobby-{model.__name__}-deleted")
