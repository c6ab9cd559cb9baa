"""Write-side operations for events: registration, pairing, publishing, results, standings.

The algorithms live in the pure ``pairing`` package; this module turns the database into
their plain inputs (entrant ids, past rounds, results) and their outputs back into rows.
Pairing a round and recomputing standings run as Celery jobs (see ``tasks.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from games import game_info
from pairing import explain, knockout, round_robin, seating, swiss
from pairing.history import EventHistory, PlayerStanding, RoundPlan
from pairing.history import Round as PRound
from pairing.standings import (
    DEFAULT_POINTS,
    ByeScoring,
    PointsScheme,
    RoundResult,
    SeatResult,
    StandingsRow,
    TableResult,
    compute_standings,
)
from pairing.tables import TableSizeError

from ..clubs.models import Club, Player, Role
from ..clubs.selectors import has_club_role
from ..core.jobs import job_queue
from ..core.models import Job
from .models import Entrant, Event, League, Round, Seat, Standing, Table

DEFAULT_TIEBREAKS = ["tournament_points", "game_points", "opponents_average", "wins", "head_to_head"]
Progress = Callable[[int, int, str], None]


def _quiet(done: int, total: int, message: str) -> None:
    return None


def require_organiser(*, user: Any, event: Event) -> None:
    if not has_club_role(user=user, club=event.club, role=Role.ORGANISER):
        raise PermissionDenied("Only the club's organisers can do that.")


def table_size_problem(*, game: str, table_size: int) -> str | None:
    """Why a game cannot be played at tables of that size, or None."""
    info = game_info(game)
    if table_size in info.seats:
        return None
    return f"{info.title} is played by {info.seats.start} to {info.seats.stop - 1} players."


@transaction.atomic
def event_create(
    *,
    club: Club,
    user: Any,
    name: str,
    game: str,
    format: str = Event.Format.SWISS,
    rounds: int = 5,
    table_size: int = 4,
    kind: str = Event.Kind.TOURNAMENT,
    bye_rule: str = Event.ByeRule.WIN,
    starts: datetime | None = None,
    options: dict[str, Any] | None = None,
    advance: int = 2,
    groups: int = 0,
    league: League | None = None,
    points_by_place: list[float] | None = None,
    tiebreaks: list[str] | None = None,
) -> Event:
    problem = table_size_problem(game=game, table_size=table_size)
    if problem:
        raise ValidationError({"table_size": problem})
    if format == Event.Format.GROUPS_KNOCKOUT and table_size != 2:
        raise ValidationError({"format": "Groups then knockout is played at tables of 2."})
    if format == Event.Format.KNOCKOUT and table_size > 2 and not 1 <= advance < table_size:
        raise ValidationError(
            {"advance": f"At tables of {table_size}, between 1 and {table_size - 1} go through."}
        )
    return Event.objects.create(
        club=club,
        name=name.strip(),
        game=game,
        kind=kind,
        format=format,
        rounds=rounds,
        table_size=table_size,
        bye_rule=bye_rule,
        starts=starts,
        options=options or {},
        advance=advance,
        groups=groups,
        league=league if league is not None and league.club_id == club.pk else None,
        points_by_place=points_by_place or list(DEFAULT_POINTS[table_size]),
        tiebreaks=tiebreaks or DEFAULT_TIEBREAKS,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


# What an organiser may change, and until when: the game and the shape of its tables only before
# the first round is paired; what the standings are worked out from until the event is over.
CHANGEABLE_ANY_TIME = frozenset({"name", "starts", "kind"})
CHANGEABLE_UNTIL_FINISHED = frozenset({"rounds", "points_by_place", "tiebreaks", "bye_rule"})
CHANGEABLE_BEFORE_PAIRING = frozenset({"game", "format", "table_size", "options", "advance", "groups"})
RANKING_SETTINGS = frozenset({"points_by_place", "tiebreaks", "bye_rule"})


@transaction.atomic
def event_update(*, user: Any, event: Event, **changes: Any) -> Event:
    """Change an event's settings, as far as the event's progress allows; every refusal in words."""
    require_organiser(user=user, event=event)
    event = Event.objects.select_for_update().select_related("club").get(pk=event.pk)
    changed = {field: value for field, value in changes.items() if getattr(event, field) != value}
    problems: dict[str, str] = {}
    paired = event.round_set.exists()
    for field in changed:
        if field == "club":
            problems[field] = "An event stays in the club that runs it."
        elif field not in CHANGEABLE_ANY_TIME and event.status == Event.Status.FINISHED:
            problems[field] = f"The event is over: its {field.replace('_', ' ')} can no longer change."
        elif field in CHANGEABLE_BEFORE_PAIRING and paired:
            problems[field] = f"The {field.replace('_', ' ')} cannot change once a round has been paired."
        elif field not in CHANGEABLE_ANY_TIME | CHANGEABLE_UNTIL_FINISHED | CHANGEABLE_BEFORE_PAIRING:
            problems[field] = "This cannot be changed."
    played = event.round_set.order_by("-number").values_list("number", flat=True).first() or 0
    if "rounds" in changed and changed["rounds"] < played:
        problems["rounds"] = f"{played} rounds have been paired already."
    if problems:
        raise ValidationError(problems)
    for field, value in changed.items():
        setattr(event, field, value)
    if "table_size" in changed and "points_by_place" not in changed:
        event.points_by_place = list(DEFAULT_POINTS.get(event.table_size, ()))
    event.save()
    if RANKING_SETTINGS & set(changed) and paired:
        standings_recompute_queue(event=event, user=user)
    return event


@transaction.atomic
def event_delete(*, user: Any, event: Event) -> None:
    """Delete an event before its first round is paired; after that its results stay on record."""
    require_organiser(user=user, event=event)
    if event.round_set.exists():
        raise ValidationError("An event that has begun keeps its rounds and results: finish it instead.")
    event.delete()


@transaction.atomic
def league_create(
    *,
    user: Any,
    club: Club,
    name: str,
    game: str = "",
    starts: Any = None,
    ends: Any = None,
    description: str = "",
) -> League:
    if not has_club_role(user=user, club=club, role=Role.ORGANISER):
        raise PermissionDenied("Only the club's organisers can start a league.")
    if not name.strip():
        raise ValidationError({"name": "A league needs a name."})
    if game:
        game_info(game)
    if starts and ends and ends < starts:
        raise ValidationError({"ends": "A season ends after it starts."})
    return League.objects.create(
        club=club, name=name.strip(), game=game, starts=starts, ends=ends, description=description
    )


# --- entrants ---------------------------------------------------------------------------------


def _next_round_number(event: Event) -> int:
    last = event.round_set.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@transaction.atomic
def entrant_register(*, user: Any, event: Event, player: Player | None = None) -> Entrant:
    """Register a player (an organiser may register anyone; a player registers themself).

    Once the event runs this is a late entry: the player joins at the next round.
    """
    own = getattr(user, "player", None)
    if player is None or (own is not None and player.pk == own.pk):
        if own is None:
            raise PermissionDenied("Log in to register.")
        player = own
    elif not has_club_role(user=user, club=event.club, role=Role.ORGANISER):
        raise PermissionDenied("Only an organiser can register someone else.")
    elif not (
        player.guest_of_id == event.club_id or player.memberships.filter(club_id=event.club_id).exists()
    ):
        raise ValidationError(
            f"{player.name} is not a member of {event.club.name}: they register themselves, or join first."
        )
    if event.status == Event.Status.FINISHED:
        raise ValidationError("This event is over.")
    existing = Entrant.objects.filter(event=event, player=player).first()
    if existing is not None:
        if existing.dropped_after is not None:
            raise ValidationError(f"{player.name} dropped out of this event.")
        return existing
    from ..ratings.models import Rating

    rating = Rating.objects.filter(player=player, game=event.game).values_list("ordinal", flat=True).first()
    pending = event.round_set.filter(status=Round.Status.DRAFT).exists()
    return Entrant.objects.create(
        event=event,
        player=player,
        rating=rating,
        joined_round=_next_round_number(event) - (1 if pending else 0),
    )


def _not_over(event: Event) -> None:
    if event.status == Event.Status.FINISHED:
        raise ValidationError("This event is over: its entrants stay as they were.")


def _own_or_organiser(user: Any, entrant: Entrant) -> None:
    own = getattr(user, "player", None)
    if not (
        (own is not None and own.pk == entrant.player_id)
        or has_club_role(user=user, club=entrant.event.club, role=Role.ORGANISER)
    ):
        raise PermissionDenied("Only the player or an organiser can do that.")


@transaction.atomic
def entrant_check_in(*, user: Any, entrant: Entrant, present: bool = True) -> Entrant:
    _own_or_organiser(user, entrant)
    _not_over(entrant.event)
    entrant.checked_in = present
    entrant.save(update_fields=["checked_in"])
    return entrant


@transaction.atomic
def entrant_drop(*, user: Any, entrant: Entrant) -> Entrant:
    _own_or_organiser(user, entrant)
    _not_over(entrant.event)
    if entrant.dropped_after is None:
        completed = entrant.event.round_set.exclude(status=Round.Status.DRAFT).count()
        entrant.dropped_after = completed
        entrant.save(update_fields=["dropped_after"])
    return entrant


# --- reading the event as plain data ---------------------------------------------------------


def _rounds_data(event: Event) -> list[tuple[Round, PRound, RoundResult | None]]:
    """Every published round as a pairing ``Round`` and, for the results in, a ``RoundResult``.

    Two queries whatever the event's size.
    """
    rounds = list(event.round_set.exclude(status=Round.Status.DRAFT).order_by("number"))
    seats_by_table: dict[int, list[tuple[int, int, int | None, float | None]]] = {}
    tables_by_round: dict[int, list[tuple[int, bool, str]]] = {}
    for table_id, round_id, is_bye, status in (
        Table.objects.filter(round__in=rounds)
        .order_by("round_id", "number")
        .values_list("pk", "round_id", "is_bye", "status")
    ):
        tables_by_round.setdefault(round_id, []).append((table_id, is_bye, status))
    for table_id, entrant_id, position, place, score in (
        Seat.objects.filter(table__round__in=rounds)
        .order_by("table_id", "position")
        .values_list("table_id", "entrant_id", "position", "place", "score")
    ):
        seats_by_table.setdefault(table_id, []).append((entrant_id, position, place, score))
    out: list[tuple[Round, PRound, RoundResult | None]] = []
    for rnd in rounds:
        tables: list[tuple[int, ...]] = []
        byes: list[int] = []
        results: list[TableResult] = []
        for table_id, is_bye, status in tables_by_round.get(rnd.pk, []):
            seats = seats_by_table.get(table_id, [])
            if is_bye:
                byes.extend(s[0] for s in seats)
                continue
            tables.append(tuple(s[0] for s in seats))
            if status == Table.Status.CONFIRMED and all(s[2] is not None for s in seats):
                results.append(
                    TableResult(tuple(SeatResult(s[0], int(s[2] or 0), float(s[3] or 0.0)) for s in seats))
                )
        out.append((rnd, PRound(tuple(tables), tuple(byes)), RoundResult(tuple(results), tuple(byes))))
    return out


def points_scheme(event: Event) -> PointsScheme:
    by_size = dict(DEFAULT_POINTS)
    if event.points_by_place and len(event.points_by_place) == event.table_size:
        by_size[event.table_size] = tuple(float(p) for p in event.points_by_place)
    return PointsScheme(by_size=by_size)


def bye_scoring(event: Event) -> ByeScoring:
    rule = {"win": "win", "draw": "draw", "average": "average", "zero": "fixed"}[event.bye_rule]
    return ByeScoring(rule=rule, table_size=event.table_size)  # type: ignore[arg-type]


def standings_compute(
    event: Event, data: list[tuple[Round, PRound, RoundResult | None]] | None = None
) -> tuple[StandingsRow, ...]:
    data = _rounds_data(event) if data is None else data
    entrants = list(Entrant.objects.filter(event=event).values_list("pk", flat=True))
    return compute_standings(
        [r for _, _, r in data if r is not None],
        tiebreaks=tuple(event.tiebreaks or DEFAULT_TIEBREAKS),  # type: ignore[arg-type]
        points=points_scheme(event),
        bye=bye_scoring(event),
        lowest_wins=game_info(event.game).lowest_wins,
        players=entrants,
    )


# --- pairing ----------------------------------------------------------------------------------


def _present(event: Event, number: int) -> list[Entrant]:
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


def plan_round(
    event: Event, number: int, progress: Progress = _quiet
) -> tuple[RoundPlan | None, list[tuple[int, ...]], list[int], list[str]]:
    """Work out round ``number``: (plan, tables, byes, notes). Pure reads; writes nothing."""
    present = _present(event, number)
    if len(present) < 2:
        raise ValidationError("At least two players must be present to pair a round.")
    data = _rounds_data(event)
    history = EventHistory([played for _, played, _ in data])
    progress(1, 4, "Reading the standings")
    rows = standings_compute(event, data)
    standing = _standing_order(rows, present)
    seed = event.seed * 1000 + number
    size = event.table_size
    notes: list[str] = []
    progress(2, 4, f"Pairing {len(present)} players")
    try:
        if event.format == Event.Format.SWISS:
            plan = (
                swiss.pair_swiss(standing, history, seed=seed)
                if size == 2
                else seating.seat_swiss_tables(standing, history, preferred=size, seed=seed)
            )
            return plan, list(plan.round.tables), list(plan.round.byes), list(plan.notes)
        if event.format == Event.Format.ROUND_ROBIN:
            everyone = _seeded(Entrant.objects.filter(event=event, joined_round__lte=1))
            if size == 2:
                schedule = round_robin.round_robin_pairs(everyone)
            else:
                schedule = round_robin.group_schedule(
                    everyone, preferred=size, rounds=event.rounds, seed=event.seed
                ).rounds
            if number > len(schedule):
                raise ValidationError(f"The round robin has only {len(schedule)} rounds.")
            here = {e.pk for e in present}
            tables, byes = [], [p for p in schedule[number - 1].byes if p in here]
            for table in schedule[number - 1].tables:
                seated = tuple(p for p in table if p in here)
                if len(seated) >= 2:
                    tables.append(seated)
                else:
                    byes.extend(seated)
            return None, tables, byes, notes
        if event.format == Event.Format.KNOCKOUT:
            if not data:
                players = _seeded(present)
                if size == 2:
                    return None, _bracket(knockout.first_round(players)), [], notes
                heat = knockout.heat_round(players, size)
                return None, list(heat.tables), [], notes
            qualifiers = _knockout_survivors(event, data)
            if len(qualifiers) < 2:
                raise ValidationError("The knockout is decided: there is a winner.")
            if size == 2:
                return None, _bracket(knockout.next_round(qualifiers)), [], notes
            heat = knockout.heat_round(qualifiers, size)
            return None, list(heat.tables), [], notes
        if event.format == Event.Format.GROUPS_KNOCKOUT:
            return _groups_knockout(event, number, present, data, notes)
    except TableSizeError as exc:
        raise ValidationError(str(exc)) from exc
    raise ValidationError(f"Unknown format {event.format!r}.")


def _bracket(matches: Sequence[knockout.Match]) -> list[tuple[int, ...]]:
    """Knockout tables in bracket order; a bye is a table of one, kept in its bracket slot."""
    return [(m.first,) if m.second is None else (m.first, m.second) for m in matches]


def _knockout_survivors(event: Event, data: list[tuple[Round, PRound, RoundResult | None]]) -> list[int]:
    rnd, played, result = data[-1]
    places = {s.player: s.place for t in (result.tables if result else ()) for s in t.seats}
    if any(p not in places for t in played.tables for p in t):
        raise ValidationError(f"Round {rnd.number} still has tables without a confirmed result.")
    if event.table_size > 2:
        order = [p for t in played.tables for p in t]
        return knockout.heat_qualifiers(played, places, event.advance, order)
    survivors: list[int] = []
    for table in rnd.tables.order_by("number").prefetch_related("seats"):
        seats = list(table.seats.all())
        if table.is_bye:
            survivors.append(seats[0].entrant_id)
            continue
        best = min(places[s.entrant_id] for s in seats)
        first = [s.entrant_id for s in seats if places[s.entrant_id] == best]
        if len(first) != 1:
            raise ValidationError(
                f"Table {table.number} of round {rnd.number} ended in a tie: the organiser must correct its "
                "result so that one player goes through."
            )
        survivors.append(first[0])
    return survivors


def _groups_knockout(
    event: Event,
    number: int,
    present: list[Entrant],
    data: list[tuple[Round, PRound, RoundResult | None]],
    notes: list[str],
) -> tuple[None, list[tuple[int, ...]], list[int], list[str]]:
    everyone = Entrant.objects.filter(event=event, joined_round__lte=1)
    seeded = _seeded(everyone)
    count = event.groups or max(1, round(len(seeded) / 4))
    groups = knockout.snake_groups(seeded, count)
    schedules = [round_robin.round_robin_pairs(list(g)) for g in groups]
    group_rounds = max(len(s) for s in schedules)
    if number <= group_rounds:
        tables: list[tuple[int, ...]] = []
        byes: list[int] = []
        for schedule in schedules:
            if number <= len(schedule):
                tables.extend(schedule[number - 1].tables)
                byes.extend(schedule[number - 1].byes)
        notes.append(f"Group stage, round {number} of {group_rounds}.")
        return None, tables, byes, notes
    if number == group_rounds + 1:
        rows = standings_compute(event, data[:group_rounds])
        rank = {r.player: r.rank for r in rows}
        rankings = [sorted(g, key=lambda p: (rank.get(p, 10**6), p)) for g in groups]
        matches = knockout.groups_to_bracket(rankings, event.advance)
        notes.append("Knockout: group winners are seeded first; players from one group are kept apart.")
        return None, _bracket(matches), [], notes
    qualifiers = _knockout_survivors(event, data)
    if len(qualifiers) < 2:
        raise ValidationError("The knockout is decided: there is a winner.")
    return None, _bracket(knockout.next_round(qualifiers)), [], notes


@transaction.atomic
def round_pair(*, event: Event, progress: Progress = _quiet) -> Round:
    """Create the next round as a draft. Idempotent: a draft that already exists is returned."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    draft = event.round_set.filter(status=Round.Status.DRAFT).first()
    if draft is not None:
        return draft
    last = event.round_set.order_by("-number").first()
    if last is not None and last.tables.filter(is_bye=False).exclude(status=Table.Status.CONFIRMED).exists():
        raise ValidationError(f"Round {last.number} still has tables without a confirmed result.")
    number = (last.number if last else 0) + 1
    if event.format in (Event.Format.SWISS, Event.Format.ROUND_ROBIN) and number > event.rounds:
        raise ValidationError(f"All {event.rounds} rounds have been played.")
    plan, tables, byes, notes = plan_round(event, number, progress)
    progress(3, 4, "Saving the tables")
    if plan is not None:
        notes.append(
            f"Repeated pairs: {plan.repeats}, the fewest possible."
            if plan.repeats_minimal
            else f"Repeated pairs: {plan.repeats} (the fewest possible is at least "
            f"{plan.repeat_lower_bound})."
        )
        names = dict(Entrant.objects.filter(event=event).values_list("pk", "player__name"))
        data = _rounds_data(event)
        for why in explain.explain_repeats(plan.round, EventHistory([p for _, p, _ in data]), (), names):
            notes.append(why.text)
    rnd = Round.objects.create(event=event, number=number, status=Round.Status.DRAFT, notes=notes)
    _save_tables(rnd, tables, byes)
    if event.status == Event.Status.REGISTRATION:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    return rnd


def _save_tables(rnd: Round, tables: Sequence[Sequence[int]], byes: Sequence[int]) -> None:
    """Tables in order (a table of one is a bye in its place, as knockouts need), then the byes."""
    seats = []
    entries = [*tables, *((b,) for b in byes)]
    for number, table in enumerate(entries, start=1):
        bye = len(table) == 1
        row = Table.objects.create(
            round=rnd,
            number=number,
            is_bye=bye,
            status=Table.Status.CONFIRMED if bye else Table.Status.WAITING,
            source=Table.Source.BYE if bye else Table.Source.NONE,
        )
        seats += [Seat(table=row, entrant_id=e, position=i) for i, e in enumerate(table)]
    Seat.objects.bulk_create(seats)


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


@transaction.atomic
def round_swap(*, user: Any, rnd: Round, a: Entrant, b: Entrant) -> list[str]:
    """Swap two players in a draft round; returns the warnings (a repeat it creates, and so on)."""
    require_organiser(user=user, event=rnd.event)
    if rnd.status != Round.Status.DRAFT:
        raise ValidationError("Only a round that is not yet published can be changed.")
    plain = round_as_plain(rnd)
    if a.pk not in plain.players or b.pk not in plain.players:
        raise ValidationError("Both players must be in this round.")
    if a.pk == b.pk:
        raise ValidationError("Choose two different players to swap.")
    data = [d for d in _rounds_data(rnd.event) if d[0].number < rnd.number]
    names = dict(Entrant.objects.filter(event=rnd.event).values_list("pk", "player__name"))
    checked = explain.check_swap(plain, a.pk, b.pk, EventHistory([p for _, p, _ in data]), (), names)
    Table.objects.filter(round=rnd).delete()
    _save_tables(rnd, checked.round.tables, checked.round.byes)
    warnings = [w.message for w in checked.warnings]
    rnd.notes = [*rnd.notes, f"Swapped {names[a.pk]} and {names[b.pk]} by hand.", *warnings]
    rnd.save(update_fields=["notes"])
    return warnings


@transaction.atomic
def round_publish(*, user: Any, rnd: Round) -> Round:
    require_organiser(user=user, event=rnd.event)
    if rnd.status == Round.Status.DRAFT:
        rnd.status = Round.Status.PUBLISHED
        rnd.published = timezone.now()
        rnd.save(update_fields=["status", "published"])
        standings_recompute_queue(event=rnd.event)
    return rnd


@transaction.atomic
def round_discard(*, user: Any, rnd: Round) -> None:
    require_organiser(user=user, event=rnd.event)
    if rnd.status != Round.Status.DRAFT:
        raise ValidationError("A published round cannot be discarded.")
    rnd.delete()


def round_pair_queue(*, event: Event, user: Any) -> Job:
    from .tasks import pair_round_task

    require_organiser(user=user, event=event)
    return job_queue(
        kind="pairing",
        label=f"Pair the next round of {event.name}",
        task=pair_round_task,
        params={"event": event.pk},
        key=f"pair:{event.pk}",
        user=user,
    )


# --- results and standings -------------------------------------------------------------------


@transaction.atomic
def table_result_apply(*, result: Any) -> None:
    """Copy a confirmed result's places and scores onto its table's seats."""
    table = Table.objects.select_for_update().select_related("round__event").get(pk=result.table_id)
    lines = {line.player_id: line for line in result.lines.all()}
    seats = list(table.seats.select_related("entrant"))
    places = [lines[s.entrant.player_id].place for s in seats if s.entrant.player_id in lines]
    if len(places) != len(seats):
        raise ValidationError("The result does not list the players seated at this table.")
    points = points_scheme(table.round.event).table_points(places)
    for seat, pts in zip(seats, points, strict=True):
        line = lines[seat.entrant.player_id]
        seat.place, seat.score, seat.points = line.place, line.score, pts
        seat.save(update_fields=["place", "score", "points"])
    table.status = Table.Status.CONFIRMED
    table.source = {"sheet": "sheet", "scorepad": "scorepad", "online": "online", "override": "override"}[
        result.source
    ]
    table.save(update_fields=["status", "source"])
    rnd = table.round
    if (
        not rnd.tables.exclude(status=Table.Status.CONFIRMED).exists()
        and rnd.status == Round.Status.PUBLISHED
    ):
        rnd.status = Round.Status.COMPLETE
        rnd.save(update_fields=["status"])
        event = rnd.event
        if event.format in (Event.Format.SWISS, Event.Format.ROUND_ROBIN) and rnd.number >= event.rounds:
            event.status = Event.Status.FINISHED
            event.save(update_fields=["status"])
    standings_recompute_queue(event=table.round.event)


def standings_recompute(*, event: Event, progress: Progress = _quiet) -> int:
    progress(0, 3, "Reading results")
    data = _rounds_data(event)
    progress(1, 3, "Ranking")
    rows = standings_compute(event, data)
    after = max((rnd.number for rnd, _, _ in data if rnd.status == Round.Status.COMPLETE), default=0)
    progress(2, 3, "Saving the standings")
    with transaction.atomic():
        Standing.objects.filter(event=event).delete()
        Standing.objects.bulk_create(
            [
                Standing(
                    event=event,
                    entrant_id=r.player,
                    rank=r.rank,
                    points=r.points,
                    game_points=r.game_points,
                    opponents_average=r.opponents_average,
                    wins=r.wins,
                    games=r.games,
                    byes=r.byes,
                    tiebreaks=[[name, value] for name, value in r.tiebreaks],
                    after_round=after,
                )
                for r in rows
            ],
            batch_size=2000,
        )
    return len(rows)


def standings_recompute_queue(*, event: Event, user: Any = None) -> Job:
    from .tasks import recompute_standings_task

    return job_queue(
        kind="standings",
        label=f"Recompute the standings of {event.name}",
        task=recompute_standings_task,
        params={"event": event.pk},
        key=f"standings:{event.pk}",
        user=user,
    )


def finish_event(*, user: Any, event: Event) -> Event:
    require_organiser(user=user, event=event)
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    return event
