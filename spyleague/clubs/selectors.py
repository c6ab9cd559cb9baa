"""Read-side queries for clubs and people."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, QuerySet

from .models import Club, Membership, Player, Role


def player_for_user(user: AbstractBaseUser | AnonymousUser) -> Player | None:
    if not user.is_authenticated:
        return None
    return getattr(user, "player", None)


def club_role(*, user: AbstractBaseUser | AnonymousUser, club: Club) -> str | None:
    """The user's role in the club, or None. Superusers count as organisers everywhere."""
    if not user.is_authenticated:
        return None
    if getattr(user, "is_superuser", False):
        return Role.ORGANISER
    player = player_for_user(user)
    if player is None:
        return None
    roles = roles_of(player)
    if roles is None:  # in more clubs than are kept: this one's, read
        membership = Membership.objects.filter(club=club, player=player).only("role").first()
        return membership.role if membership else None
    return roles.get(club.pk)


ROLES_KEPT = 100  # a player's clubs whose roles are kept together (more: each read when asked)


def roles_of(player: Player) -> dict[int, str] | None:
    """The player's role in each of their clubs (one query), kept at their user's version, which
    a membership saved or deleted moves on (``core.auth``): every signed-in page asks it. None
    for a player in more than ``ROLES_KEPT`` clubs."""
    from ..core import cache
    from ..core.auth import user_version

    def read() -> dict[int, str] | None:
        found = Membership.objects.filter(player=player).order_by("club_id").values_list("club_id", "role")
        roles = dict(found[: ROLES_KEPT + 1])
        return roles if len(roles) <= ROLES_KEPT else None

    if player.user_id is None:
        return read()
    roles: dict[int, str] | None = cache.kept(user_version(player.user_id), f"roles:{player.pk}", read)
    return roles


def has_club_role(*, user: AbstractBaseUser | AnonymousUser, club: Club, role: str) -> bool:
    current = club_role(user=user, club=club)
    if current is None:
        return False
    return Membership(role=current).has_role(role)


def club_list() -> QuerySet[Club]:
    return Club.objects.annotate(member_count=Count("memberships")).order_by("name")


def clubs_of(player: Player) -> QuerySet[Club]:
    return Club.objects.filter(memberships__player=player).order_by("name")
