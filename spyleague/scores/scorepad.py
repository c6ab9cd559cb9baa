"""Scorepads: a game kept round by round at a real table, checked, totalled, audited.

Two games are kept this way: Black Spy, deal by deal to the end value, and Spy vs Spy,
race by race until a points pile reaches 0 or below (its tournament mode). The rules live
in ``games.black_spy.scorepad`` and ``games.spy_vs_spy.scoresheet``; this module stores the
rounds and keeps the trail. A round is refused with every problem in words and nothing is
saved; a saved round can be corrected, and each change keeps who, when, before and after.
When the game ends the pad is finished and becomes a result (reported, for another player
to confirm), which feeds the tournament table and the ratings like any other.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import game_info
from games.black_spy.scorepad import ScoreRules, Taken, check_deal, deal_from_taken, tally
from games.spy_vs_spy.scoresheet import RaceEntry, ScoreSheet, check_sheet

from ..clubs.models import Club, Player, Role
from ..clubs.selectors import has_club_role
from ..clubs.services import guests_make
from ..core.limits import PAD_ROUNDS_MAX, quota, quota_exempt
from ..core.locks import atomic_retrying
from .models import Result, Scorepad, ScorepadChange, ScorepadDeal, ScorepadSeat

GAMES = ("black-spy", "spy-vs-spy")
SCORING_OPTIONS = ("no_good_spies", "capture_or_release", "going_back", "end_value")


@dataclass(frozen=True)
class TakenEntry:
    black_spies: int = 0
    black_ranks: tuple[int, ...] = ()
    coloured_spies: int = 0


@dataclass(frozen=True)
class PadLine:
    deal: int
    points: tuple[int | None, ...]
    totals: tuple[int, ...]
    went_back: tuple[int, ...] = ()


@dataclass(frozen=True)
class PadState:
    """Where a scorepad stands, whatever the game."""

    lines: tuple[PadLine, ...]
    totals: tuple[int, ...]
    over: bool
    winners: tuple[int, ...]
    places: tuple[int, ...]
    end_value: int | None  # Black Spy's end value; None for Spy vs Spy (the target is 0)
    problems: tuple[str, ...] = ()
    replay_between: tuple[str, ...] = ()
    racing: tuple[int, ...] = ()  # Spy vs Spy: who races next (a tie-break races only the tied)


def rules_of(pad: Scorepad) -> ScoreRules:
    return ScoreRules.from_options(max(3, pad.seats.count()), pad.options if pad.game == "black-spy" else {})


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
    game: str = "black-spy",
) -> Scorepad:
    """Open a pad for ``players`` in seat order. A player not yet saved is a new guest of ``club``,
    made by ``guests_make`` like any other (so only the club's scorers and organisers may; without
    a club, a player of nobody's club).

    Who may: on a tournament table, a player seated there or a scorer of the event's club (the
    players are the table's); otherwise anyone logged in, with themself and the players of
    their own clubs, in a club (for its ratings and guests) where they have a role.
    """
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied("Log in to keep a scorepad.")
    if table is not None:
        may_score_table(user, table)
        club = table.round.event.club
    else:
        _may_seat(user, players, club)
    keys = [p.pk if p.pk is not None else p.name.strip().casefold() for p in players]
    if len(set(keys)) != len(keys):
        raise ValidationError("Each player can sit at the table once.")
    if game == "black-spy":
        if len(players) not in game_info(game).seats:
            raise ValidationError(f"Black Spy is played by {game_info(game).players}, not {len(players)}.")
        known = (*SCORING_OPTIONS, "the_mole", "calling_color", "following_rank")
        options = {k: v for k, v in (options or {}).items() if k in known}
        ScoreRules.from_options(len(players), options)  # explains a bad end value
    elif game == "spy-vs-spy":
        if len(players) not in game_info(game).seats:  # any number: the text's "unlimited amount"
            raise ValidationError(f"Spy vs Spy is played by {game_info(game).players}, not {len(players)}.")
        options = {"half_decks": bool((options or {}).get("half_decks"))} if len(players) == 2 else {}
    else:
        raise ValidationError("Scorepads keep Black Spy and Spy vs Spy games.")
    if table is not None and Scorepad.objects.filter(table=table).exists():
        return Scorepad.objects.get(table=table)
    if table is None:
        _pad_room_check(user)
    new = [player.name for player in players if player.pk is None]
    made = iter(guests_make(user=user, club=club, names=new) if new else [])
    seated = [player if player.pk is not None else next(made) for player in players]
    pad = Scorepad.objects.create(game=game, club=club, table=table, options=options, created_by=user)
    ScorepadSeat.objects.bulk_create(
        [ScorepadSeat(scorepad=pad, position=i, player=player) for i, player in enumerate(seated)]
    )
    return pad


def _pad_room_check(user: Any) -> None:
    """ValidationError in words when ``user`` opened as many pads among friends (not for a
    tournament table: a table has one pad) since this time yesterday as one account may."""
    if quota_exempt(user):
        return
    most = quota("scorepads_per_day")
    since = timezone.now() - timedelta(days=1)
    if Scorepad.objects.filter(created_by=user, table=None, created__gte=since).count() >= most:
        raise ValidationError(
            f"You opened {most} scorepads since this time yesterday, the most one account may open "
            "in a day (a tournament table's pad does not count): carry on with one of them, or try "
            "again tomorrow."
        )


def may_score_table(user: Any, table: Any) -> None:
    """PermissionDenied or ValidationError (in words) unless ``user`` may keep this table's pad."""
    from .services import table_open_problem

    event = table.round.event
    seated = table.seats.filter(entrant__player__user=user).exists()
    if not (seated or has_club_role(user=user, club=event.club, role=Role.SCORER)):
        raise PermissionDenied("Only a player at this table, or a scorer of its club, can keep its score.")
    if problem := table_open_problem(table):
        raise ValidationError(problem)
    if Result.objects.filter(table=table).exists() and not Scorepad.objects.filter(table=table).exists():
        raise ValidationError(
            "This table's result is already entered on its score sheet: correct it there if it is wrong."
        )


def players_for(user: Any) -> list[Player]:
    """The players someone may seat on a pad of their own: themself, and the members and guests
    of their clubs."""
    me = getattr(user, "player", None)
    if me is None:
        return []
    clubs = Club.objects.filter(memberships__player=me)
    others = Player.objects.filter(Q(memberships__club__in=clubs) | Q(guest_of__in=clubs)).distinct()
    return sorted({me.pk: me, **{p.pk: p for p in others}}.values(), key=lambda p: (p.name, p.pk))


def _may_seat(user: Any, players: Sequence[Player], club: Club | None) -> None:
    if club is not None and not has_club_role(user=user, club=club, role=Role.PLAYER):
        raise PermissionDenied(f"You are not a member of {club.name}: keep the pad without a club.")
    allowed = {p.pk for p in players_for(user)}
    strangers = [p.name for p in players if p.pk is not None and p.pk not in allowed]
    if strangers:
        raise ValidationError(
            f"{', '.join(strangers)}: choose players from your clubs, or type a new name for a guest."
        )


def _deals(pad: Scorepad) -> list[ScorepadDeal]:
    return list(pad.deals.order_by("number"))


def _races(pad: Scorepad, deals: Sequence[ScorepadDeal]) -> ScoreSheet:
    return ScoreSheet(
        players=tuple(names_of(pad)),
        races=tuple(RaceEntry(tuple(d.points), d.taken.get("first") if d.taken else None) for d in deals),
        half_decks=bool(pad.options.get("half_decks")),
    )


def pad_state(pad: Scorepad, deals: Sequence[ScorepadDeal] | None = None) -> PadState:
    deals = _deals(pad) if deals is None else deals
    names = names_of(pad)
    if pad.game == "spy-vs-spy":
        sheet = check_sheet(_races(pad, deals))
        lines = tuple(
            PadLine(d.number, tuple(d.points), totals) for d, totals in zip(deals, sheet.totals, strict=False)
        )
        return PadState(
            lines=lines,
            totals=sheet.totals[-1] if sheet.totals else tuple([sheet.start] * len(names)),
            over=sheet.over,
            winners=(sheet.winner,) if sheet.winner is not None else (),
            places=sheet.places or (),
            end_value=None,
            problems=tuple(p.message for p in sheet.problems),
            replay_between=tuple(names[p] for p in sheet.replay_between),
            racing=sheet.next_racers or tuple(range(len(names))),
        )
    current = tally([d.points for d in deals], rules_of(pad), names=names)
    return PadState(
        lines=tuple(PadLine(line.deal, line.points, line.totals, line.went_back) for line in current.lines),
        totals=current.totals,
        over=current.over,
        winners=current.winners,
        places=current.places,
        end_value=current.end_value,
        problems=current.problems,
    )


def _check_round(
    pad: Scorepad,
    number: int,
    points: Sequence[int | None] | None,
    takens: Sequence[TakenEntry] | None,
    choice: str,
    first: int | None,
) -> tuple[list[int | None], Any]:
    """The points of round ``number`` as they will be stored, or ValidationError with the reasons."""
    names = names_of(pad)
    if number > PAD_ROUNDS_MAX:
        raise ValidationError(f"A scorepad keeps at most {PAD_ROUNDS_MAX} rounds: this game has them all.")
    if choice not in ("", "give", "subtract"):  # stored with the round: only what the pad offers
        raise ValidationError(
            f"After taking all 16 black cards a player gives or subtracts 60, not {choice[:30]!r}."
        )
    if pad.game == "spy-vs-spy":
        if points is None or len(points) != len(names):
            raise ValidationError(
                f"Give the points of each of the {len(names)} players (blank if they sat out)."
            )
        if first is not None and not 0 <= first < len(names):
            raise ValidationError(f"Who raced first is a seat from 0 to {len(names) - 1}.")
        deals = _deals(pad)
        trial = [d for d in deals if d.number < number]
        trial.append(ScorepadDeal(number=number, points=list(points), taken={"first": first}))
        sheet = check_sheet(_races(pad, trial))
        mine = [p.message for p in sheet.problems if p.race == number or p.race is None]
        if mine:
            raise ValidationError(mine)
        return list(points), {"first": first}
    rules = rules_of(pad)
    if takens is not None:
        # The counts first: every entry names a seat, so there is one entry per player.
        if len(takens) != len(names):
            raise ValidationError(f"Enter what each of the {len(names)} players took, not {len(takens)}.")
        check = deal_from_taken(
            [Taken(t.black_spies, frozenset(t.black_ranks), t.coloured_spies) for t in takens],
            rules,
            choice=choice or None,  # type: ignore[arg-type]
            names=names,
        )
    elif points is not None:
        if len(points) != len(names) or any(p is None for p in points):
            raise ValidationError(f"Give a score for each of the {len(names)} players.")
        check = check_deal([int(p or 0) for p in points], rules, names=names)
    else:
        raise ValidationError("Enter each player's points, or what each player took.")
    if not check.ok:
        raise ValidationError(list(check.problems))
    taken_data = (
        [{**t.__dict__, "black_ranks": list(t.black_ranks)} for t in takens] if takens is not None else None
    )
    return list(check.points), taken_data


def _pad_locked(pad: Scorepad) -> Scorepad:
    """The pad's row, locked; a tournament table's pad after its event's and table's locks (the
    order of ``core.locks``: the pad's last round writes the table's result)."""
    if pad.table_id is not None:
        from ..tournaments.services import table_locked

        table_locked(pad.table_id)
    return Scorepad.objects.select_for_update(no_key=True).get(pk=pad.pk)


def _require(user: Any, pad: Scorepad) -> None:
    if not can_enter(user=user, pad=pad):
        raise PermissionDenied(
            "Only the players at this table, whoever opened the pad, or a club scorer can enter its rounds."
        )


@atomic_retrying
def scorepad_deal_add(
    *,
    user: Any,
    pad: Scorepad,
    points: Sequence[int | None] | None = None,
    takens: Sequence[TakenEntry] | None = None,
    choice: str = "",
    first: int | None = None,
) -> PadState:
    pad = _pad_locked(pad)
    _require(user, pad)
    if pad.status == Scorepad.Status.FINISHED:
        raise ValidationError("The game is over: correct a round instead of adding one.")
    number = pad.deals.count() + 1
    stored, extra = _check_round(pad, number, points, takens, choice, first)
    ScorepadDeal.objects.create(
        scorepad=pad, number=number, points=stored, taken=extra, choice=choice, entered_by=user
    )
    ScorepadChange.objects.create(scorepad=pad, deal=number, who=user, action="entered", after=stored)
    return _settle(pad, user)


@atomic_retrying
def scorepad_deal_correct(
    *,
    user: Any,
    pad: Scorepad,
    number: int,
    points: Sequence[int | None] | None = None,
    takens: Sequence[TakenEntry] | None = None,
    choice: str = "",
    first: int | None = None,
    reason: str = "",
) -> PadState:
    """Correct round ``number``. Once the game is over the pad is a result, and correcting a
    round corrects it: then the correction says why (``reason``, kept in both histories). A
    correction that changes nothing is refused (``NothingChanged``) and adds no history."""
    from .services import NothingChanged, reason_problem, result_correct_allowed

    pad = _pad_locked(pad)
    _require(user, pad)
    deal = pad.deals.filter(number=number).first()
    if deal is None:
        raise ValidationError(f"There is no round {number}.")
    stored, extra = _check_round(pad, number, points, takens, choice, first)
    if (stored, extra, choice) == (deal.points, deal.taken, deal.choice):
        raise NothingChanged(pad.result, f"round {number}")
    if pad.result is not None:  # the correction corrects the pad's result: who may, and why
        result_correct_allowed(user=user, result=pad.result)
        if problem := reason_problem(reason):
            raise ValidationError(problem)
    before = deal.points
    deal.points, deal.taken, deal.choice = stored, extra, choice
    deal.save(update_fields=["points", "taken", "choice"])
    ScorepadChange.objects.create(
        scorepad=pad,
        deal=number,
        who=user,
        action="corrected",
        before=before,
        after=stored,
        note=reason.strip(),
    )
    state = pad_state(pad)
    problems = list(state.problems)
    if state.over and len(state.lines) < pad.deals.count():
        problems.append(
            f"With this correction the game ends after round {len(state.lines)}: "
            "correct the later rounds first."
        )
    if problems:
        raise ValidationError(problems)
    return _settle(pad, user, reason=reason.strip())


def _settle(pad: Scorepad, user: Any, reason: str = "") -> PadState:
    """Finish the pad when the game ends, and keep its result in step."""
    from .services import EntryLine, NothingChanged, result_correct, result_enter

    state = pad_state(pad)
    if not state.over:
        if pad.status != Scorepad.Status.OPEN:
            pad.status = Scorepad.Status.OPEN
            pad.save(update_fields=["status", "updated"])
        return state
    pad.status = Scorepad.Status.FINISHED
    entries = [
        EntryLine(player, float(total), place)
        for player, total, place in zip(players_of(pad), state.totals, state.places, strict=True)
    ]
    data = {"scorepad": pad.pk, "rounds": [list(line.points) for line in state.lines]}
    if pad.result is None:
        if pad.table is not None and Result.objects.filter(table=pad.table).exists():
            raise ValidationError(
                "This table's result was entered on its score sheet while the pad was kept: "
                "nothing was saved here. Correct the sheet if the pad's totals are right."
            )
        club = pad.table.round.event.club if pad.table is not None else pad.club
        pad.result = result_enter(
            user=user,
            game=pad.game,
            club=club,
            entries=entries,
            table=pad.table,
            source=Result.Source.SCOREPAD,
            data=data,
            checked=True,
        )
    else:
        note = reason or "A round of the scorepad was corrected."
        # (NothingChanged: the round changed, not the result: what a player took, the same points.)
        with contextlib.suppress(NothingChanged):
            result_correct(user=user, result=pad.result, entries=entries, note=note, data=data)
    pad.save(update_fields=["status", "result", "updated"])
    return state
