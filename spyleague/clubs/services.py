"""Write-side operations for clubs and people. Views and the API call these."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from ..core.limits import DESCRIPTION_MAX, quota, quota_exempt
from ..core.locks import Conflict, atomic_retrying
from .models import Club, Membership, Player, Role
from .selectors import has_club_role, player_for_user

NAME_MAX = Player._meta.get_field("name").max_length or 80


def player_ensure_for_user(*, user: AbstractBaseUser) -> Player:
    player = getattr(user, "player", None)
    if player is None:
        name = user.get_full_name() if hasattr(user, "get_full_name") else ""
        player, _ = Player.objects.get_or_create(
            user=cast(User, user), defaults={"name": name or user.get_username()}
        )
    return player


def description_check(description: str, *, what: str) -> str:
    """A description as kept (stripped), or ValidationError in words when it is too long."""
    description = description.strip()
    if len(description) > DESCRIPTION_MAX:
        raise ValidationError(
            {
                "description": f"{what} description has at most {DESCRIPTION_MAX:,} characters; "
                f"this one has {len(description):,}."
            }
        )
    return description


def club_room_check(*, user: AbstractBaseUser | AnonymousUser) -> None:
    """ValidationError in words when ``user`` organises as many clubs as one account may."""
    if quota_exempt(user):
        return
    player = player_for_user(user)
    most = quota("clubs_per_account")
    if player is not None and player.memberships.filter(role=Role.ORGANISER).count() >= most:
        raise ValidationError(
            f"You organise {most} clubs already, the most one account may: hand one of them to "
            "another organiser, or delete one that has nothing on record, to start another."
        )


def league_room_check(*, user: AbstractBaseUser | AnonymousUser, club: Club) -> None:
    """ValidationError in words when the club has as many leagues as a club may have."""
    most = quota("leagues_per_club")
    if not quota_exempt(user) and club.leagues.count() >= most:
        raise ValidationError(
            {NON_FIELD_ERRORS: [f"{club.name} has {most} leagues already, the most a club may have."]}
        )


@transaction.atomic
def club_create(*, user: AbstractBaseUser, name: str, description: str = "", city: str = "") -> Club:
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A club needs a name."})
    if Club.objects.filter(name__iexact=name).exists():
        raise ValidationError({"name": f"A club called {name!r} already exists."})
    description = description_check(description, what="A club's")
    club_room_check(user=user)
    club = Club.objects.create(name=name, description=description, city=city.strip())
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


def _club_locked(club: Club) -> Club:
    """The club's row, locked: its members' roles change one at a time, each checked after the
    one before it (two organisers demoting each other at once would leave the club with none)."""
    return Club.objects.select_for_update(no_key=True).get(pk=club.pk)


@atomic_retrying
def club_leave(*, user: AbstractBaseUser, club: Club) -> None:
    player = player_for_user(user)
    club = _club_locked(club)
    membership = Membership.objects.filter(club=club, player=player).first() if player else None
    if membership is None:
        return
    if (
        membership.role == Role.ORGANISER
        and not club.memberships.filter(role=Role.ORGANISER).exclude(pk=membership.pk).exists()
    ):
        raise ValidationError("You are the club's only organiser: name another organiser before leaving.")
    membership.delete()


@atomic_retrying
def member_set_role(
    *, user: AbstractBaseUser | AnonymousUser, club: Club, membership: Membership, role: str
) -> Membership:
    _require(user, club, Role.ORGANISER)
    club = _club_locked(club)
    if membership.club_id != club.pk:
        raise ValidationError("That person is not a member of this club.")
    current = Membership.objects.filter(pk=membership.pk).first()
    if current is None:
        raise Conflict(f"{membership.player.name} left the club meanwhile.")
    membership = current
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


def guests_make(
    *, user: AbstractBaseUser | AnonymousUser, club: Club | None, names: Sequence[str]
) -> list[Player]:
    """The one way people without an account are made, wherever it happens (the club's page and
    its API, a scorepad's new names, a file of players, the demo data): the players named, in
    the order of ``names``, saved.

    With a club they are its guests, and members of it, and the rule is the same everywhere: only
    the club's organisers and scorers may add them, each name once, none a member's name already,
    and at most ``SPYLEAGUE_QUOTAS["guests_per_club_per_day"]`` a day. Without a club (a scorepad
    of one's own) they are players of nobody's club, for whoever is logged in. Every name has 1 to
    ``NAME_MAX`` characters. All or none: PermissionDenied or ValidationError, in words, and
    nothing saved.
    """
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied("Log in to add players.")
    if club is not None and not has_club_role(user=user, club=club, role=Role.SCORER):
        raise PermissionDenied(
            f"Only the organisers and scorers of {club.name} can add players without an account to it: "
            "choose players who are members already, or ask a scorer to add them."
        )
    cleaned = [name.strip() for name in names]
    taken = (
        {name.casefold() for name in club.memberships.values_list("player__name", flat=True)}
        if club is not None
        else set()
    )
    problems: list[str] = []
    seen: set[str] = set()
    for name in cleaned:
        if not name:
            problems.append("A player needs a name.")
        elif len(name) > NAME_MAX:
            problems.append(f"A player's name has at most {NAME_MAX} characters: {name[:30]}... is longer.")
        elif name.casefold() in taken:
            problems.append(f"{name} is already a member of {club}.")
        elif name.casefold() in seen:
            problems.append(f"{name} is given twice.")
        seen.add(name.casefold())
    if problems:
        raise ValidationError({"name": problems})
    if club is not None and not quota_exempt(user):
        most = quota("guests_per_club_per_day")
        today = Player.objects.filter(guest_of=club, created__gte=timezone.now() - timedelta(days=1)).count()
        if today + len(cleaned) > most:
            left = max(most - today, 0)
            raise ValidationError(
                {
                    "name": [
                        f"{club.name} may add {most} players without an account a day, and has added "
                        f"{today} since this time yesterday: {left} more can be added now, not "
                        f"{len(cleaned)}. Try again tomorrow."
                    ]
                }
            )
    with transaction.atomic():
        players = Player.objects.bulk_create([Player(name=name, guest_of=club) for name in cleaned])
        if club is not None:
            Membership.objects.bulk_create(
                [Membership(club=club, player=p, role=Role.PLAYER) for p in players]
            )
    return players


@transaction.atomic
def guest_add(*, user: AbstractBaseUser | AnonymousUser, club: Club, name: str) -> Membership:
    """Add a person without an account (a regular at the table) to the club (``guests_make``)."""
    (player,) = guests_make(user=user, club=club, names=[name])
    return Membership.objects.get(club=club, player=player)


@transaction.atomic
def guests_add_many(
    *, user: AbstractBaseUser | AnonymousUser, club: Club, names: Sequence[str]
) -> list[Player]:
    """Add many people without an account to the club at once (a file of players), as
    ``guest_add`` adds one (``guests_make``): the same people may, the same names are refused
    (empty, or a member's already), and a name given twice is refused too. All or none; the
    players in the order of ``names``."""
    return guests_make(user=user, club=club, names=names)


def guests_room(*, user: AbstractBaseUser | AnonymousUser, club: Club) -> int | None:
    """How many more people without an account ``user`` may add to ``club`` now, under the day's
    quota that ``guests_make`` applies; None when they are not counted (the site's staff). What a
    file of players' preview says before ``guests_make`` decides."""
    if quota_exempt(user):
        return None
    most = quota("guests_per_club_per_day")
    today = Player.objects.filter(guest_of=club, created__gte=timezone.now() - timedelta(days=1)).count()
    return max(most - today, 0)


@transaction.atomic
def club_delete(*, user: AbstractBaseUser | AnonymousUser, club: Club) -> None:
    """Delete a club that has nothing on record yet; a club with events or results stays."""
    _require(user, club, Role.ORGANISER)
    if club.events.exists() or club.results.exists() or club.scorepads.exists():
        raise ValidationError(
            "A club with events, results or scorepads keeps its records: it cannot be deleted."
        )
    club.delete()
