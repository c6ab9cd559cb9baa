"""Write-side operations for clubs and people. Views and the API call these."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from .models import Club, Membership, Player, Role
from .selectors import has_club_role, player_for_user


def player_ensure_for_user(*, user: AbstractBaseUser) -> Player:
    player = getattr(user, "player", None)
    if player is None:
        name = user.get_full_name() if hasattr(user, "get_full_name") else ""
        player, _ = Player.objects.get_or_create(
            user=cast(User, user), defaults={"name": name or user.get_username()}
        )
    return player


@transaction.atomic
def club_create(*, user: AbstractBaseUser, name: str, description: str = "", city: str = "") -> Club:
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A club needs a name."})
    if Club.objects.filter(name__iexact=name).exists():
        raise ValidationError({"name": f"A club called {name!r} already exists."})
    club = Club.objects.create(name=name, description=description.strip(), city=city.strip())
    Membership.objects.create(club=club, player=player_ensure_for_user(user=user), role=Role.ORGANISER)
    return club


def _require(user: AbstractBaseUser | AnonymousUser, club: Club, role: str) -> None:
    if not has_club_role(user=user, club=club, role=role):
        raise PermissionDenied(f"Only a club {role} may do that.")


@transaction.atomic
def club_join(*, user: AbstractBaseUser, club: Club) -> Membership:
    membership, _ = Membership.objects.get_or_create(
        club=club, player=player_ensure_for_user(user=user), defaults={"role": Role.PLAYER}
    )
    return membership


@transaction.atomic
def club_leave(*, user: AbstractBaseUser, club: Club) -> None:
    player = player_for_user(user)
    membership = Membership.objects.filter(club=club, player=player).first() if player else None
    if membership is None:
        return
    if (
        membership.role == Role.ORGANISER
        and not club.memberships.filter(role=Role.ORGANISER).exclude(pk=membership.pk).exists()
    ):
        raise ValidationError("You are the club's only organiser: name another organiser before leaving.")
    membership.delete()


@transaction.atomic
def member_set_role(
    *, user: AbstractBaseUser | AnonymousUser, club: Club, membership: Membership, role: str
) -> Membership:
    _require(user, club, Role.ORGANISER)
    if membership.club_id != club.pk:
        raise ValidationError("That person is not a member of this club.")
    if role not in Role.values:
        raise ValidationError(f"Unknown role {role!r}.")
    if (
        membership.role == Role.ORGANISER
        and role != Role.ORGANISER
        and not club.memberships.filter(role=Role.ORGANISER).exclude(pk=membership.pk).exists()
    ):
        raise ValidationError("A club must keep at least one organiser.")
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def guest_add(*, user: AbstractBaseUser | AnonymousUser, club: Club, name: str) -> Membership:
    """Add a person without an account (a regular at the table) to the club."""
    _require(user, club, Role.SCORER)
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A player needs a name."})
    if club.memberships.filter(player__name__iexact=name).exists():
        raise ValidationError({"name": f"{name} is already a member of {club}."})
    player = Player.objects.create(name=name, guest_of=club)
    return Membership.objects.create(club=club, player=player, role=Role.PLAYER)


@transaction.atomic
def club_delete(*, user: AbstractBaseUser | AnonymousUser, club: Club) -> None:
    """Delete a club that has nothing on record yet; a club with events or results stays."""
    _require(user, club, Role.ORGANISER)
    if club.events.exists() or club.results.exists() or club.scorepads.exists():
        raise ValidationError(
            "A club with events, results or scorepads keeps its records: it cannot be deleted."
        )
    club.delete()
