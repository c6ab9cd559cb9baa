"""The draw: who plays whom in the next round, at which tables, by the event's format.

``plan_round`` reads the event (its entrants present, its rounds and results as the pure
``pairing`` package's plain data: ``scoring.rounds_data``) and asks the package for the round:
a Swiss by the standings, a round robin's schedule, a knockout's bracket or heats, groups then a
bracket. It writes nothing: the services (``round_pair``, ``rounds.draft_follow``) save what it plans
as a draft round and its tables. The rulings of each format are in ``pairing.knockout``,
``pairing.round_robin`` and ``pairing.tables``; the words of its notes are here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from django.core.exceptions import ValidationError
from django.db.models import Prefetch

from games import game_info
from pairing import explain, knockout, round_robin, seating, swiss
from pairing.history import EventHistory, PlayerStanding, RoundPlan
from pairing.history import Round as PRound
from pairing.standings import (
    StandingsRow,
)
from pairing.tables import DEFAULT_SEATS, describe_sizes

from ..core.words import and_list
from .models import (
    MAX_ROUNDS,
    Entrant,
    Event,
    Round,
    Seat,
    Table,
)
from .scoring import RoundsData, rounds_data, standings_compute

Progress = Callable[[int, int, str], None]


def quiet(done: int, total: int, message: str) -> None:
    return None


def present_entrants(event: Event, number: int) -> list[Entrant]:
    entrants = [
        e
        for e in Entrant.objects.filter(event=event).select_related("player")
        if e.dropped_after is None and e.joined_round <= number
    ]
    if any(e.checked_in for e in entrants):
        entrants = [e for e in entrants if e.checked_in]
    return entrants


def _seeded(entrants: Iterable[Entrant]) -> list[int]:
    """Entrants by rating (highest first), then by registration."""
    return [e.pk for e in sorted(entrants, key=lambda e: (-(e.rating or float("-inf")), e.registered, e.pk))]


def _standing_order(rows: Sequence[StandingsRow], present: Sequence[Entrant]) -> list[PlayerStanding]:
    ids = {e.pk for e in present}
    ranked = [PlayerStanding(r.player, r.points) for r in rows if r.player in ids]
    seen = {r.player for r in ranked}
    late = [PlayerStanding(p, 0.0) for p in _seeded([e for e in present if e.pk not in seen])]
    return ranked + late


class PlannedRound(NamedTuple):
    """What :func:`plan_round` works out for a round.

    ``tables`` are in order (in a bracket a table of one is a bye kept in its place), ``byes``
    follow them; ``notes`` tell the organiser why; ``stage`` names the round ("heats", "final",
    "group", "semi-finals" ...); ``rounds`` is, for a round robin's first round, the number of
    rounds its schedule needs (the event takes it).
    """

    plan: RoundPlan | None
    tables: list[tuple[int, ...]]
    byes: list[int]
    notes: list[str]
    stage: str = ""
    rounds: int | None = None


def _sentence(exc: Exception) -> str:
    """The pairing code's refusal as a sentence for the organiser."""
    text = str(exc).strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def entrant_names(event: Event) -> dict[int, str]:
    return dict(Entrant.objects.filter(event=event).values_list("pk", "player__name"))


def _dropped(event: Event) -> set[int]:
    return set(Entrant.objects.filter(event=event, dropped_after__isnull=False).values_list("pk", flat=True))


def _sizes_note(count: int, tables: Sequence[Sequence[int]], byes: int) -> str:
    return f"{count} players: {describe_sizes([len(t) for t in tables], byes)}."


def plan_round(event: Event, number: int, progress: Progress = quiet) -> PlannedRound:
    """Work out round ``number`` (see :class:`PlannedRound`). Pure reads; writes nothing.

    Every refusal of the pairing code (a count that cannot be seated, a decided knockout ...)
    comes back as a ``ValidationError`` in words.
    """
    present = present_entrants(event, number)
    if len(present) < 2:
        raise ValidationError("At least two players must be present to pair a round.")
    data = rounds_data(event)
    progress(1, 4, "Reading the standings")
    progress(2, 4, f"Pairing {len(present)} players")
    try:
        sizes = event.table_sizes
        if event.format == Event.Format.SWISS:
            return _swiss(event, number, present, data, sizes)
        if event.format == Event.Format.ROUND_ROBIN:
            return _round_robin(event, number, present, data, sizes)
        if event.format == Event.Format.KNOCKOUT:
            if event.table_size == 2:
                return _knockout_bracket(event, present, data)
            return _heats(event, present, data, sizes)
        if event.format == Event.Format.GROUPS_KNOCKOUT:
            return _groups_knockout(event, number, present, data)
    except ValueError as exc:  # the pairing code's refusals (TableSizeError among them)
        raise ValidationError(_sentence(exc)) from exc
    raise ValidationError(f"Unknown format {event.format!r}.")


def _swiss(
    event: Event, number: int, present: list[Entrant], data: RoundsData, sizes: tuple[int, ...]
) -> PlannedRound:
    """Swiss: the fewest repeated opponents, at the sizes the event allows (byes when none fit)."""
    history = EventHistory([played for _, played, _ in data])
    standing = _standing_order(standings_compute(event, data), present)
    seed = event.seed * 1000 + number
    if sizes == (2,):
        plan = swiss.pair_swiss(standing, history, seed=seed)
    else:
        plan = seating.seat_swiss_tables(
            standing, history, preferred=event.table_size, allowed=sizes, max_byes=None, seed=seed
        )
    tables, byes = list(plan.round.tables), list(plan.round.byes)
    notes = [*plan.notes, _sizes_note(len(present), tables, len(byes))]
    return PlannedRound(plan, tables, byes, notes)


def _round_robin(
    event: Event, number: int, present: list[Entrant], data: RoundsData, sizes: tuple[int, ...]
) -> PlannedRound:
    """A round robin has as many rounds as it needs for everyone to meet everyone: worked out for
    the players of round 1 when it is paired (the event takes that number of rounds, and the
    notes say so), then rebuilt from the same players and seed for every later round."""
    if number == 1 or not data:
        players = _seeded(present)
    else:
        players = _seeded(Entrant.objects.filter(event=event, pk__in=data[0][1].players))
    schedule = round_robin.round_robin_schedule(
        players,
        preferred=event.table_size,
        allowed=sizes,
        max_byes=None,
        rounds=None if number == 1 else event.rounds,
        max_rounds=MAX_ROUNDS,
        seed=event.seed,
    )
    count = len(schedule.rounds)
    notes: list[str] = []
    if count > MAX_ROUNDS:
        raise ValidationError(
            f"A round robin of {len(players)} players at tables of {event.table_size} needs {count} rounds, "
            f"more than the {MAX_ROUNDS} an event can have: play groups then knockout, a Swiss, or at "
            "bigger tables."
        )
    if number > count:
        raise ValidationError(f"The round robin has only {count} rounds.")
    if number == 1:
        sizes_used = sorted({len(t) for r in schedule.rounds for t in r.tables}, reverse=True)
        notes.append(
            f"Round robin of {len(players)} players at tables of {' and '.join(map(str, sizes_used))}: "
            f"{count} rounds, so that everyone meets everyone."
        )
        if count != event.rounds:
            notes.append(
                f"The event was set to {event.rounds} rounds; a round robin has as many as it needs, so it "
                f"now has {count}."
            )
        if schedule.unmet_pairs:
            notes.append(
                f"In {count} rounds, the most an event can have, {schedule.unmet_pairs} pairs of players "
                "do not meet."
            )
        if schedule.repeats:
            notes.append(
                f"Seated at tables of more than two, {schedule.repeats} meetings repeat a pair over the "
                f"rounds (at least {schedule.lower_bound} cannot be avoided)."
            )
    here = {e.pk for e in present}
    tables: list[tuple[int, ...]] = []
    byes = [p for p in schedule.rounds[number - 1].byes if p in here]
    for table in schedule.rounds[number - 1].tables:
        seated = tuple(p for p in table if p in here)
        if len(seated) >= 2:
            tables.append(seated)
        else:
            byes.extend(seated)
    gone = len(players) - len([p for p in players if p in here])
    if gone:
        notes.append(f"{gone} of the round robin's players are not here: their opponents sit out.")
    return PlannedRound(None, tables, byes, notes, "", count if number == 1 else None)


def _knockout_bracket(event: Event, present: list[Entrant], data: RoundsData) -> PlannedRound:
    """A knockout at tables of 2: seeded by rating in round 1, then the bracket goes on."""
    notes: list[str] = []
    if not data:
        matches: Sequence[knockout.Match | None] = knockout.first_round(_seeded(present))
        notes.append(
            "Seeded by rating: the top seeds have the byes; seeds 1 and 2 can meet only in the final."
        )
    else:
        matches = _bracket_next(event, 1, notes)
    return _bracket_round(matches, notes)


def _heats(event: Event, present: list[Entrant], data: RoundsData, sizes: tuple[int, ...]) -> PlannedRound:
    """Heats: the top ``advance`` of each table go through, until one final table decides it (see
    :mod:`pairing.knockout` for the rulings)."""
    notes: list[str] = []
    if not data:
        players = _seeded(present)
    else:
        last = data[-1][1]
        if len(last.tables) == 1 and not last.byes:
            raise ValidationError("The knockout is decided: its final has been played.")
        players = _knockout_survivors(event, data, notes)
    # The final seats everyone left once they fit at a table of the game, up to 6 (a game listed
    # for more, Spy vs Spy, takes a final as large as the event's own tables).
    seats = game_info(event.game).seats
    largest = max(DEFAULT_SEATS.stop - 1, *sizes)
    heat = knockout.heat_plan(
        players,
        event.table_size,
        sizes,
        max_byes=None,
        seats=range(seats.start, min(seats.stop, largest + 1)),
    )
    tables, byes = list(heat.round.tables), list(heat.round.byes)
    if heat.final:
        notes.append(f"The final: the last {len(players)} players at one table; its winner wins the event.")
        return PlannedRound(None, tables, byes, notes, "final")
    shape = describe_sizes([len(t) for t in tables], len(byes))
    notes.append(
        f"Heats: {len(players)} players, {shape}; the top {event.advance} of each table go through "
        "(at a table of s, at most s - 1)."
    )
    if byes:
        notes.append(
            f"The top {len(byes)} seed{'s have a bye' if len(byes) != 1 else ' has a bye'} and go through."
        )
    return PlannedRound(None, tables, byes, notes, "heats")


def _bracket(matches: Sequence[knockout.Match | None]) -> list[tuple[int, ...]]:
    """Knockout tables in bracket order; a bye is a table of one, kept in its bracket slot (an
    empty pair of slots has no table)."""
    return [(m.first,) if m.second is None else (m.first, m.second) for m in matches if m is not None]


def _stage(pairs: int) -> str:
    return {1: "final", 2: "semi-finals", 4: "quarter-finals"}.get(pairs, f"round of {2 * pairs}")


def _bracket_round(matches: Sequence[knockout.Match | None], notes: list[str]) -> PlannedRound:
    return PlannedRound(None, _bracket(matches), [], notes, _stage(len(matches)))


def _table_winner(rnd: Round, table: Table, seats: Sequence[Seat]) -> int | None:
    """Who goes through from a bracket table: the one player of a bye, else the sole first."""
    if table.is_bye:
        return seats[0].entrant_id if seats else None
    if table.status != Table.Status.CONFIRMED or any(s.place is None for s in seats):
        raise ValidationError(f"Round {rnd.number} still has tables without a confirmed result.")
    best = min(s.place for s in seats if s.place is not None)
    first = [s.entrant_id for s in seats if s.place == best]
    if len(first) != 1:
        raise ValidationError(
            f"Table {table.number} of round {rnd.number} ended in a tie: the organiser must correct its "
            "result so that one player goes through."
        )
    return first[0]


def _bracket_slots(event: Event, first: int) -> list[int | None]:
    """The bracket replayed from its first round (round ``first``): who holds each slot now.

    The first round's tables are the slots in bracket order; each later round's slot is the
    winner of the table that seated either player of its pair. A player who has dropped out
    leaves their slot empty (``None``), so their next opponent has a walkover.
    """
    tables = Table.objects.order_by("number").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.order_by("position"))
    )
    rounds = (
        event.round_set.exclude(status=Round.Status.DRAFT)
        .filter(number__gte=first)
        .order_by("number")
        .prefetch_related(Prefetch("tables", queryset=tables))
    )
    slots: list[int | None] | None = None
    for rnd in rounds:
        winner_of: dict[int, int | None] = {}
        order: list[int | None] = []
        for table in rnd.tables.all():
            seats = list(table.seats.all())
            winner = _table_winner(rnd, table, seats)
            order.append(winner)
            winner_of.update((s.entrant_id, winner) for s in seats)
        if slots is None:
            slots = order
        else:
            pairs = [slots[i : i + 2] for i in range(0, len(slots), 2)]
            slots = [
                next((winner_of[p] for p in pair if p is not None and p in winner_of), None) for pair in pairs
            ]
    dropped = _dropped(event)
    return [None if p in dropped else p for p in slots or []]


def _bracket_next(event: Event, first: int, notes: list[str]) -> Sequence[knockout.Match | None]:
    """The bracket's next round; rounds in which nobody would play (walkovers only) are skipped."""
    slots = _bracket_slots(event, first)
    if sum(p is not None for p in slots) < 2:
        raise ValidationError("The knockout is decided: there is a winner.")
    matches = knockout.bracket_next(slots)
    while all(m is None or m.second is None for m in matches):
        matches = knockout.bracket_next([m.first if m is not None else None for m in matches])
    names = entrant_names(event)
    for m in matches:
        if m is not None and m.second is None:
            notes.append(f"{names.get(m.first, m.first)} has a walkover: their opponent dropped out.")
    return matches


def _knockout_survivors(event: Event, data: RoundsData, notes: list[str]) -> list[int]:
    """Who goes through from the last round of heats, in seed order for the next round."""
    rnd, played, result = data[-1]
    places = {s.player: s.place for t in (result.tables if result else ()) for s in t.seats}
    if any(p not in places for t in played.tables for p in t):
        raise ValidationError(f"Round {rnd.number} still has tables without a confirmed result.")
    seeds = knockout.heat_seeds(played)
    dropped = _dropped(event)
    smallest = max(2, game_info(event.game).seats.start)
    names = entrant_names(event)
    would = knockout.heat_qualifiers(played, places, event.advance, seeds)
    plain = knockout.heat_qualifiers(played, places, event.advance, seeds, absent=dropped)
    through = knockout.heat_qualifiers(
        played, places, event.advance, seeds, at_least=smallest, absent=dropped
    )
    for p in would:
        if p in dropped:
            notes.append(f"{names[p]} dropped out: the next at their table goes through instead.")
    extra = [names[p] for p in through if p not in plain]
    if extra:
        title = game_info(event.game).title
        notes.append(
            f"Only {len(plain)} went through, fewer than the {smallest} a table of {title} needs: "
            f"{', '.join(extra)} join{'s' if len(extra) == 1 else ''} them, the best placed of the others "
            "(by place at their table, then by seed)."
        )
    return through


def _group_players(event: Event, number: int, present: list[Entrant], data: RoundsData) -> list[int]:
    """The players of the group stage by seed: those present for round 1, kept from then on."""
    if number == 1 or not data:
        return _seeded(present)
    return _seeded(Entrant.objects.filter(event=event, pk__in=data[0][1].players))


def _group_schedules(
    event: Event, players: list[int]
) -> tuple[list[tuple[int, ...]], list[tuple[PRound, ...]]]:
    count = event.groups or max(1, round(len(players) / 4))
    if count > len(players) // 2:
        raise ValidationError(
            f"{len(players)} players make at most {max(1, len(players) // 2)} groups of two or more: "
            "ask for fewer groups."
        )
    groups = list(knockout.snake_groups(players, count))
    return groups, [round_robin.round_robin_pairs(list(g)) for g in groups]


def _groups_knockout(event: Event, number: int, present: list[Entrant], data: RoundsData) -> PlannedRound:
    """Groups (a round robin in each), then a bracket of the top ``advance`` of each group, seeded
    so that group-mates meet as late as it allows. A player who dropped out does not go through:
    the next of their group does."""
    players = _group_players(event, number, present, data)
    groups, schedules = _group_schedules(event, players)
    group_rounds = max(len(s) for s in schedules)
    notes: list[str] = []
    if number <= group_rounds:
        here = {e.pk for e in present}
        tables: list[tuple[int, ...]] = []
        byes: list[int] = []
        for schedule in schedules:
            if number <= len(schedule):
                for table in schedule[number - 1].tables:
                    seated = tuple(p for p in table if p in here)
                    if len(seated) == 2:
                        tables.append(seated)
                    else:
                        byes.extend(seated)
                byes.extend(p for p in schedule[number - 1].byes if p in here)
        sizes = sorted({len(g) for g in groups}, reverse=True)
        count = f"{len(groups)} group{'s' if len(groups) != 1 else ''}"
        notes.append(
            f"Group stage, round {number} of {group_rounds}: {count} of {' or '.join(str(s) for s in sizes)}."
        )
        return PlannedRound(None, tables, byes, notes, "group")
    if number == group_rounds + 1:
        rows = standings_compute(event, data[:group_rounds])
        rank = {r.player: r.rank for r in rows}
        dropped = _dropped(event)
        rankings = [
            sorted((p for p in g if p not in dropped), key=lambda p: (rank.get(p, 10**6), p)) for g in groups
        ]
        matches: Sequence[knockout.Match | None] = knockout.groups_to_bracket(rankings, event.advance)
        notes.append(
            f"Knockout: the top {event.advance} of each group, group winners seeded first, then runners-up; "
            "players of one group meet as late as the bracket allows."
        )
        return _bracket_round(matches, notes)
    return _bracket_round(_bracket_next(event, group_rounds + 1, notes), notes)


def _rounds_words(rounds: Sequence[int]) -> str:
    """Rounds in words: "round 1", "rounds 1 and 3", "rounds 1, 2 and 4"."""
    return f"round{'s' if len(rounds) > 1 else ''} {and_list([str(r) for r in rounds])}"


PAIR_DASH = "\u2013"  # an en dash: "Ann\u2013Ben"


REPEATS_NAMED = 8


def repeats_notes(
    plan: RoundPlan, whys: Sequence[explain.RepeatExplanation], names: dict[int, str]
) -> list[str]:
    """The draft's notes on repeated pairs: one summary line ("3 pairs meet again: Ann-Ben
    (round 1), ...; the fewest possible."), then, for a pair that a swap could separate, the
    explanation of what that swap would cost (the event page folds those away, see
    ``selectors.draft_notes``). A pair that had to meet again needs no more than the summary."""
    count = plan.repeats
    if count == 0:
        return ["No pair meets again."]
    pairs = [
        f"{names.get(w.players[0], '?')}{PAIR_DASH}{names.get(w.players[1], '?')} ({_rounds_words(w.rounds)})"
        for w in whys
    ]
    named = ", ".join(pairs[:REPEATS_NAMED])
    if len(pairs) > REPEATS_NAMED:
        named += f" and {len(pairs) - REPEATS_NAMED} more"
    fewest = (
        "the fewest possible"
        if plan.repeats_minimal
        else f"the fewest possible is at least {plan.repeat_lower_bound}"
    )
    verb = "pair meets" if count == 1 else "pairs meet"
    summary = f"{count} {verb} again: {named}; {fewest}." if pairs else f"{count} {verb} again; {fewest}."
    return [summary, *(w.text for w in whys if not w.forced)]


def round_as_plain(rnd: Round) -> PRound:
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    for table in rnd.tables.prefetch_related("seats").order_by("number"):
        ids = tuple(s.entrant_id for s in sorted(table.seats.all(), key=lambda s: s.position))
        if table.is_bye:
            byes.extend(ids)
        else:
            tables.append(ids)
    return PRound(tuple(tables), tuple(byes))


def event_decided(event: Event, rnd: Round) -> bool:
    """Whether the event is over now that ``rnd`` is complete: a Swiss or round robin's last
    round, the final table of heats, or a bracket with one player left in it."""
    if event.status == Event.Status.FINISHED:
        return False
    if event.format in (Event.Format.SWISS, Event.Format.ROUND_ROBIN):
        return rnd.number >= event.rounds
    if event.round_set.filter(number__gt=rnd.number).exists():
        return False
    if event.format == Event.Format.KNOCKOUT and event.table_size > 2:
        kinds = list(rnd.tables.values_list("is_bye", flat=True))
        return kinds == [False]
    first = 1
    if event.format == Event.Format.GROUPS_KNOCKOUT:
        data = rounds_data(event)
        _, schedules = _group_schedules(event, _group_players(event, 2, [], data))
        first = max(len(s) for s in schedules) + 1
        if rnd.number < first:
            return False
    try:
        slots = _bracket_slots(event, first)
    except ValidationError:
        return False  # a tie to correct, or a result to come: not over yet
    return sum(p is not None for p in slots) <= 1
