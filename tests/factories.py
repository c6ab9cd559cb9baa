from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth.models import User

from spyleague.clubs.models import Club, Membership, Player, Role

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")

    @classmethod
    def _create(cls, model_class: type[User], *args: Any, **kwargs: Any) -> User:
        player_name = kwargs.pop("player_name", None)
        user = model_class.objects.create_user(*args, password=PASSWORD, **kwargs)
        player = user.player  # type: ignore[attr-defined]
        player.name = player_name or user.username.title()
        player.save(update_fields=["name"])
        return user


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")


class ClubFactory(factory.django.DjangoModelFactory[Club]):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")


def member(club: Club, player: Player, role: str = Role.PLAYER) -> Membership:
    return Membership.objects.create(club=club, player=player, role=role)
