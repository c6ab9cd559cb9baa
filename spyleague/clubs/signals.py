from typing import Any


def give_every_user_a_player(
    sender: type, instance: Any, created: bool, raw: bool = False, **kw: Any
) -> None:
    """Every account plays as a Player; create it with the account."""
    if created and not raw:
        from .services import player_ensure_for_user

        player_ensure_for_user(user=instance)
