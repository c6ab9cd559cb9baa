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
    membership = Membership.objects.filter(club=club, player=player).only("role").first()
    return membership.role if membership else None


def has_club_role(*, user: AbstractBaseUser | AnonymousUser, club: Club, role: str) -> bool:
    current = club_role(user=user, club=club)
    if current is None:
        return False
    return Membership(role=current).has_role(role)


def club_list() -> QuerySet[Club]:
    return Club.objects.annotate(member_count=Count("memberships")).order_by("name")


def clubs_of(player: Player) -> QuerySet[Club]:
    return Club.objects.filter(memberships__player=player).order_by("name")
