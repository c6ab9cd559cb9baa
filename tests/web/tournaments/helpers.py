from __future__ import annotations

import random
from typing import Any

from django.test import TestCase

from games import get_engine
from games.core import play_out
from pairing.standings import TIEBREAKS
from spyleague.clubs.models import Membership, Player, Role
from spyleague.scores.services import EntryLine, result_confirm, result_enter
from spyleague.tournaments import services
from spyleague.tournaments.models import Entrant, Event, Round


def make_event(
    club: Any, organiser: Any, *, players: int, game: str = "black-spy", size: int = 4, **kw: Any
) -> Event:
    defaults = {"format": Event.Format.SWISS, "rounds": 5}
    event = services.event_create(
        club=club,
        user=organiser,
        name=kw.pop("name", "Test Open"),
        game=game,
        table_size=size,
        **{**defaults, **kw},
    )
    for i in range(players):
        player = Player.objects.create(name=f"P{i:02d}", guest_of=club)
        Membership.objects.create(club=club, player=player, role=Role.PLAYER)
        services.entrant_register(user=organiser, event=event, player=player)
    return event


def play_round(event: Event, organiser: Any, rng: random.Random | None = None) -> Round:
    """Pair, publish and confirm a full round with distinct random scores.

    The jobs queued on commit (standings, ratings) run as they would after a real commit.
    """
    with TestCase.captureOnCommitCallbacks(execute=True):
        return _play_round(event, organiser, rng or random.Random(1))


def _play_round(event: Event, organiser: Any, rng: random.Random) -> Round:
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    for table in rnd.tables.filter(is_bye=False).prefetch_related("seats__entrant__player"):
        seats = list(table.seats.all())
        scores = distinct_scores(event, len(seats), rng)
        result = result_enter(
            user=organiser,
            game=event.game,
            club=event.club,
            table=table,
            entries=[EntryLine(s.entrant.player, float(sc)) for s, sc in zip(seats, scores, strict=True)],
        )
        result_confirm(user=organiser, result=result)
    rnd.refresh_from_db()
    return rnd


def distinct_scores(event: Event, seats: int, rng: random.Random) -> list[int]:
    """Scores without ties that the game's sheet accepts: a real Black Spy game's totals (the
    sheet checks them against whole deals), random numbers for the other games."""
    if event.game != "black-spy":
        return rng.sample(range(100), seats)
    while True:
        outcome = play_out(get_engine(event.game), seats, rng.randrange(2**31), event.options)
        if len(set(outcome.scores)) == seats:
            return [int(score) for score in outcome.scores]


def pairs_of(rnd: Round) -> set[frozenset[int]]:
    out = set()
    for table in rnd.tables.filter(is_bye=False).prefetch_related("seats"):
        ids = [s.entrant_id for s in table.seats.all()]
        out |= {frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :]}
    return out


def entrant(event: Event, name: str) -> Entrant:
    return Entrant.objects.get(event=event, player__name=name)


def play_one_table(event: Event, organiser: Any, results: dict[str, tuple[float, int]]) -> None:
    """Pair, publish and confirm a round of one table: each player's (score, place) by name. The
    jobs queued on commit (standings, ratings) run as they would after a real commit."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
        table = rnd.tables.get()
        seated = [
            s.entrant.player for s in table.seats.select_related("entrant__player").order_by("position")
        ]
        result = result_enter(
            user=organiser,
            game=event.game,
            club=event.club,
            table=table,
            entries=[EntryLine(p, *results[p.name]) for p in seated],
        )
        result_confirm(user=organiser, result=result)


def settings_post(event: Event, **changes: Any) -> dict[str, Any]:
    """An event's settings form as its page posts it (tiebreaks listed in their standard order),
    unchanged but for ``changes``."""
    return {
        "name": event.name,
        "kind": event.kind,
        "starts": "",
        "league": str(event.league_id or ""),
        "rounds": str(event.rounds),
        "points_by_place": ", ".join(f"{p:g}" for p in event.points_by_place),
        "bye_rule": event.bye_rule,
        "format": event.format,
        "table_size": str(event.table_size),
        "uneven": event.uneven,
        "advance": str(event.advance),
        "groups": str(event.groups),
        "order": list(TIEBREAKS),
        "tiebreaks": list(event.tiebreaks),
    } | changes


def repeats_said(rnd: Round) -> tuple[int, bool]:
    """What a Swiss round's notes say of its repeated pairs: (how many, whether that is the
    fewest possible), read from its one summary line ("No pair meets again." or "3 pairs meet
    again: Ann-Ben (round 1), ...; the fewest possible.")."""
    import re

    for note in rnd.notes:
        if note == "No pair meets again.":
            return 0, True
        found = re.match(r"^(\d+) pairs? meets? again[:;].*; the fewest possible( is at least \d+)?\.$", note)
        if found:
            return int(found[1]), found[2] is None
    raise AssertionError(f"no summary of repeated pairs in {rnd.notes}")
