"""The Black Spy scorepad: deals entered at the table, checked, totalled, audited.

The rules live in ``games.black_spy.scorepad``; this module stores deals and keeps the
trail. A deal is refused with every problem in words and nothing is saved; a saved deal
can be corrected, and each change keeps who, when, before and after. When the end value
is reached the pad is finished and becomes a result (reported, for another player to
confirm), which feeds the tournament table and the ratings like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from games.black_spy.scorepad import ScoreRules, Taken, Tally, check_deal, deal_from_taken, tally

from ..clubs.models import Club, Player, Role
from ..clubs.selectors import has_club_role
from .models import Result, Scorepad, ScorepadChange, ScorepadDeal, ScorepadSeat

SCORING_OPTIONS = ("no_good_spies", "capture_or_release", "going_back", "end_value")


@dataclass(frozen=True)
class TakenEntry:
    black_spies: int = 0
    black_ranks: tuple[int, ...] = ()
    coloured_spies: int = 0


def rules_of(pad: Scorepad) -> ScoreRules:
    return ScoreRules.from_options(pad.seats.count(), pad.options)


def names_of(pad: Scorepad) -> list[str]:
    return [seat.player.name for seat in pad.seats.select_related("player").order_by("position")]


def players_of(pad: Scorepad) -> list[Player]:
    return [seat.player for seat in pad.seats.select_related("player").order_by("position")]


def can_enter(*, user: Any, pad: Scorepad) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if pad.created_by_id == user.pk or any(p.user_id == user.pk for p in players_of(pad)):
        return True
    return pad.club is not None and has_club_role(user=user, club=pad.club, role=Role.SCORER)


@transaction.atomic
def scorepad_open(
    *,
    user: Any,
    players: Sequence[Player],
    options: dict[str, Any] | None = None,
    club: Club | None = None,
    table: Any = None,
) -> Scorepad:
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied("Log in to keep a scorepad.")
    if len({p.pk for p in players}) != len(players):
        raise ValidationError("Each player can sit at the table once.")
    if not 3 <= len(players) <= 6:
        raise ValidationError(f"Black Spy is played by 3 to 6 players, not {len(players)}.")
    known = (*SCORING_OPTIONS, "the_mole", "calling_color", "following_rank")
    options = {k: v for k, v in (options or {}).items() if k in known}
    ScoreRules.from_options(len(players), options)  # explains a bad end value
    if table is not None and Scorepad.objects.filter(table=table).exists():
        return Scorepad.objects.get(table=table)
    pad = Scorepad.objects.create(club=club, table=table, options=options, created_by=user)
    ScorepadSeat.objects.bulk_create(
        [ScorepadSeat(scorepad=pad, position=i, player=player) for i, player in enumerate(players)]
    )
    return pad


def _deal_points(
    pad: Scorepad, points: Sequence[int] | None, takens: Sequence[TakenEntry] | None, choice: str
) -> tuple[list[int], Any]:
    rules, names = rules_of(pad), names_of(pad)
    if takens is not None:
        check = deal_from_taken(
            [Taken(t.black_spies, frozenset(t.black_ranks), t.coloured_spies) for t in takens],
            rules,
            choice=choice or None,  # type: ignore[arg-type]
            names=names,
        )
    elif points is not None:
        if len(points) != len(names):
            raise ValidationError(f"Give a score for each of the {len(names)} players.")
        check = check_deal(points, rules, names=names)
    else:
        raise ValidationError("Enter each player's points, or what each player took.")
    if not check.ok:
        raise ValidationError(list(check.problems))
    taken_data = (
        [t.__dict__ | {"black_ranks": list(t.black_ranks)} for t in takens] if takens is not None else None
    )
    return list(check.points), taken_data


def _require(user: Any, pad: Scorepad) -> None:
    if not can_enter(user=user, pad=pad):
        raise PermissionDenied(
            "Only the players at this table, whoever opened the pad, or a club scorer can enter deals."
        )


@transaction.atomic
def scorepad_deal_add(
    *,
    user: Any,
    pad: Scorepad,
    points: Sequence[int] | None = None,
    takens: Sequence[TakenEntry] | None = None,
    choice: str = "",
) -> Tally:
    pad = Scorepad.objects.select_for_update().get(pk=pad.pk)
    _require(user, pad)
    if pad.status == Scorepad.Status.FINISHED:
        raise ValidationError("The game is over: correct a deal instead of adding one.")
    deal_points, taken_data = _deal_points(pad, points, takens, choice)
    number = pad.deals.count() + 1
    ScorepadDeal.objects.create(
        scorepad=pad, number=number, points=deal_points, taken=taken_data, choice=choice, entered_by=user
    )
    ScorepadChange.objects.create(scorepad=pad, deal=number, who=user, action="entered", after=deal_points)
    return _settle(pad, user)


@transaction.atomic
def scorepad_deal_correct(
    *,
    user: Any,
    pad: Scorepad,
    number: int,
    points: Sequence[int] | None = None,
    takens: Sequence[TakenEntry] | None = None,
    choice: str = "",
) -> Tally:
    pad = Scorepad.objects.select_for_update().get(pk=pad.pk)
    _require(user, pad)
    deal = pad.deals.filter(number=number).first()
    if deal is None:
        raise ValidationError(f"There is no deal {number}.")
    deal_points, taken_data = _deal_points(pad, points, takens, choice)
    before = deal.points
    deal.points, deal.taken, deal.choice = deal_points, taken_data, choice
    deal.save(update_fields=["points", "taken", "choice"])
    ScorepadChange.objects.create(
        scorepad=pad, deal=number, who=user, action="corrected", before=before, after=deal_points
    )
    # Deals after the game ended are no longer possible once a correction ends it earlier.
    result = pad_tally(pad)
    if result.over and result.lines and len(result.lines) < pad.deals.count():
        raise ValidationError(
            f"With this correction the game ends after deal {len(result.lines)}, "
            f"but deals up to {pad.deals.count()} were played: correct the later deals first."
        )
    return _settle(pad, user)


def pad_tally(pad: Scorepad) -> Tally:
    deals = [d.points for d in pad.deals.order_by("number")]
    return tally(deals, rules_of(pad), names=names_of(pad))


def _settle(pad: Scorepad, user: Any) -> Tally:
    """Finish the pad when the end value is reached, and keep its result in step."""
    from .services import EntryLine, result_correct, result_enter

    current = pad_tally(pad)
    if not current.over:
        if pad.status != Scorepad.Status.OPEN:
            pad.status = Scorepad.Status.OPEN
            pad.save(update_fields=["status", "updated"])
        return current
    pad.status = Scorepad.Status.FINISHED
    entries = [
        EntryLine(player, float(total), place)
        for player, total, place in zip(players_of(pad), current.totals, current.places, strict=True)
    ]
    data = {"scorepad": pad.pk, "deals": [list(line.points) for line in current.lines]}
    if pad.result_id is None:
        event_club = pad.table.round.event.club if pad.table is not None else pad.club
        pad.result = result_enter(
            user=user,
            game="black-spy",
            club=event_club,
            entries=entries,
            table=pad.table,
            source=Result.Source.SCOREPAD,
            data=data,
            checked=True,
        )
    elif pad.result is not None:
        result_correct(user=user, result=pad.result, entries=entries, note="Scorepad corrected", data=data)
    pad.save(update_fields=["status", "result", "updated"])
    return current
