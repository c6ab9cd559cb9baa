"""Twin states of Spies!: the same table with all that one viewer may not see changed.

What a viewer may see is worked out here from the rules and the rulings, step by step, from what
the table sees (the public events) and who acted, not from the engine's own bookkeeping:

- a seat sees its own powers' pieces, chits, tiles, reserves and original secrets (in the
  two-player game both seats see Russia's own things: they take turns running it);
- a face-up piece or secret (captured, sanctioned, escaped, cashed, counted, removed) is public;
- a strength comparison tells the spy to the searcher's player and the police to the spy's player;
  a counterspy tells the discovering spy to the counterspy's controller's player;
- a discovery, or a trade, shows the secret's face to the player whose spy takes it;
- "the player" of a power is the seat running it at that moment (Russia changes hands in the
  two-player game; what a player learned stays with that player).

The twin changes every strength, value, secret face, chit, tile and private event the viewer may
not see; ``test_twins.py`` checks that the viewer's view, its event list and (when it acts) its
legal actions do not change.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from games.spies import ENGINE, SpiesState
from games.spies.board import CHIT_KINDS, FIRST_YEAR, POWER_CODES
from games.spies.engine import BOARD, HAND, ON_MAP, LogEntry
from tests.games.protocol import check_views_hide

CODE = {code: i for i, code in enumerate(POWER_CODES)}
#: The powers each seat runs, by the number of players (the rules' "fewer than five players").
RUNS: dict[int, tuple[frozenset[int], ...]] = {
    5: tuple(frozenset({p}) for p in range(5)),
    4: (frozenset({0, 1}), frozenset({2}), frozenset({3}), frozenset({4})),
    3: (frozenset({0, 1}), frozenset({2}), frozenset({3, 4})),
    2: (frozenset({0, 1, 2}), frozenset({2, 3, 4})),  # Russia on alternate years, its things open to both
}
TILES = sorted(BOARD.events)
FACE_UP = ("captured", "box", "sanctioned")


def own(seats: int, viewer: int | None) -> frozenset[int]:
    return frozenset() if viewer is None else RUNS[seats][viewer]


def runner(seats: int, year: int, power: int) -> int:
    """The seat running ``power`` in ``year``."""
    if seats == 2 and power == CODE["R"]:
        return (year - FIRST_YEAR) % 2
    return next(seat for seat, powers in enumerate(RUNS[seats]) if power in powers)


def other_face(spec: int) -> int:
    """A secret of the counter sheet that looks different from ``spec``."""
    mine = BOARD.secrets[spec]
    return next(
        i
        for i, s in enumerate(BOARD.secrets)
        if (s.value, s.counterspy, s.strength) != (mine.value, mine.counterspy, mine.strength)
    )


def new_entries(before: LogEntry | None, after: LogEntry | None) -> list[LogEntry]:
    out = []
    while after is not None and after is not before:
        out.append(after)
        after = after.previous
    return out[::-1]


@dataclass
class Knowledge:
    """What each viewer (a seat, or None for a spectator) may know, learned step by step."""

    seats: int
    pieces: dict[int, set[str]] = field(default_factory=dict)  # strengths learned
    secrets: dict[int, set[str]] = field(default_factory=dict)  # faces seen
    readable: dict[int, set[int]] = field(default_factory=dict)  # private log entries (by id)
    face_up: set[str] = field(default_factory=set)  # pieces once face up stay so

    def __post_init__(self) -> None:
        for seat in range(self.seats):
            self.pieces[seat], self.secrets[seat], self.readable[seat] = set(), set(), set()

    def owners(self, power: int) -> list[int]:
        return [seat for seat in range(self.seats) if power in RUNS[self.seats][seat]]

    def step(self, before: SpiesState, after: SpiesState) -> None:
        """Learn from one applied action: the public events it wrote and who was running what."""
        year = before.year
        pair: tuple[int, int] | None = None  # (searcher or controller, spy owner) of a comparison
        seer: int | None = None  # the power whose spy took control by a discovery
        traded: dict[str, int] = {}  # secret -> the power whose spy took it in a trade
        for entry in new_entries(before.log, after.log):
            event = entry.event
            kind = event["event"]
            if entry.to is None:
                if kind == "search_result":
                    searcher, spy_id = CODE[event["power"]], event["spy"]
                    owner = CODE[spy_id[0]]
                    pair = (searcher, owner)
                    self.pieces[runner(self.seats, year, searcher)].add(spy_id)
                    police = [
                        p.id
                        for p in after.police
                        if p.power == searcher and p.where == event["city"] and p.status == ON_MAP
                    ]
                    self.pieces[runner(self.seats, year, owner)].update(police)
                elif kind == "counterspy" and event["controller"] is not None:
                    controller, spy_id = CODE[event["controller"]], event["spy"]
                    pair = (controller, CODE[spy_id[0]])
                    self.pieces[runner(self.seats, year, controller)].add(spy_id)
                elif kind == "control":
                    seer = CODE[event["power"]]
                elif kind == "offer_accepted":
                    traded = {sid: CODE[spy_id[0]] for sid, spy_id in event.get("new_control", {}).items()}
                continue
            if kind == "comparison":
                assert pair is not None, event
                readers = [runner(self.seats, year, p) for p in pair]
            elif kind == "secret_seen":
                power = traded.get(event["secret"], seer)
                assert power is not None, event
                readers = [runner(self.seats, year, power)]
                self.secrets[readers[0]].add(event["secret"])
            elif kind == "drew":
                readers = self.owners(CODE[event["power"]])
            elif kind == "discarded":
                readers = self.owners(before.power)
            elif kind == "offer_terms":
                readers = self.owners(CODE[event["from"]]) + self.owners(CODE[event["to"]])
            else:
                raise AssertionError(f"a private event this test does not know: {event}")
            for reader in readers:
                self.readable[reader].add(id(entry))
        self.face_up.update(s.id for s in after.spies if s.status in FACE_UP)

    def twin(self, state: SpiesState, viewer: int | None) -> SpiesState:
        """``state`` with everything ``viewer`` may not see changed."""
        mine = own(state.seats, viewer)
        pieces = set() if viewer is None else self.pieces[viewer]
        faces = set() if viewer is None else self.secrets[viewer]
        readable = set() if viewer is None else self.readable[viewer]

        def hidden(piece: Any) -> bool:
            return piece.power not in mine and piece.id not in pieces and piece.id not in self.face_up

        spies = tuple(
            replace(s, strength=s.strength + 100, value=s.value + 100) if hidden(s) else s
            for s in state.spies
        )
        police = tuple(replace(s, strength=s.strength + 100) if hidden(s) else s for s in state.police)
        secrets = tuple(
            replace(s, spec=other_face(s.spec))
            if s.status in (HAND, ON_MAP) and s.origin not in mine and s.id not in faces
            else s
            for s in state.secrets
        )
        others = [p for p in range(5) if p not in mine]

        def swap(row: tuple[Any, ...], change: Any) -> tuple[Any, ...]:
            return tuple(change(x) for x in row)

        def chit(kind: str) -> str:
            return CHIT_KINDS[(CHIT_KINDS.index(kind) + 1) % len(CHIT_KINDS)]

        def tile(tile_id: str) -> str:
            return TILES[(TILES.index(tile_id) + 1) % len(TILES)]

        def per_power(rows: tuple[Any, ...], change: Any) -> tuple[Any, ...]:
            return tuple(change(row) if p in others else row for p, row in enumerate(rows))

        offer = state.offer
        if offer is not None and offer.source not in mine and offer.target not in mine:
            offer = replace(offer, give_money=offer.give_money + 100, ask_chits=(*offer.ask_chits, "cover"))
        log: LogEntry | None = None
        for entry in new_entries(None, state.log):
            event = entry.event
            if entry.to is not None and id(entry) not in readable:
                event = {**event, "twin": "changed"}
            log = LogEntry(event, entry.to, log)
        return replace(
            state,
            spies=spies,
            police=police,
            secrets=secrets,
            spy_reserve=per_power(
                state.spy_reserve, lambda row: swap(row, lambda sv: (sv[0] + 100, sv[1] + 100))
            ),
            police_reserve=per_power(state.police_reserve, lambda row: swap(row, lambda s: s + 100)),
            hands=per_power(state.hands, lambda row: tuple(sorted(swap(row, chit)))),
            cup=tuple(sorted(swap(state.cup, chit))),
            tiles=per_power(state.tiles, lambda row: swap(row, tile)),
            discards=per_power(state.discards, lambda row: swap(row, tile)),
            offer=offer,
            log=log,
        )

    def check(self, state: SpiesState, where: object = None) -> None:
        """Every view, event list and legal list of ``state`` is that of its twin."""
        viewers: list[int | None] = [None, *range(state.seats)]
        twins = {viewer: self.twin(state, viewer) for viewer in viewers}
        check_views_hide(ENGINE, state, viewers, lambda _s, v, _r: twins[v], random.Random(0), where)
        for viewer, twin in twins.items():
            events = json.dumps(ENGINE.events(state, viewer), sort_keys=True)
            assert json.dumps(ENGINE.events(twin, viewer), sort_keys=True) == events, (
                "events",
                viewer,
                where,
            )
            if viewer is not None:
                assert ENGINE.legal(twin, viewer) == ENGINE.legal(state, viewer), ("legal", viewer, where)


def walk(seats: int, seed: int, moves: Iterable[tuple[int, dict[str, Any]]], every: int) -> int:
    """Play ``moves`` from the start, checking every view against its twin every ``every`` steps
    (and at the end); the number of steps played."""
    state = ENGINE.start(seats, seed, {})
    known = Knowledge(seats)
    steps = 0
    for steps, (seat, action) in enumerate(moves, 1):
        after = ENGINE.apply(state, seat, action)
        known.step(state, after)
        state = after
        if steps % every == 0 or state.phase == "over":
            known.check(state, (seats, seed, steps))
    return steps
