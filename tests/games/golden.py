"""Golden replays: whole games recorded once in ``golden/<name>.json``, checked by hand against
the rules, and replayed move by move by the tests, so that any change of an engine that alters
a recorded game shows up.

A golden file holds the game's slug, ``seats``, ``seed``, ``options`` and ``moves`` (a list of
``[seat, action]``), the expected ``outcome``, a few expected ``views`` (each ``{"after": n,
"seat": s, "view": ...}``: what ``s`` sees after the first ``n`` moves) and, for some games,
the expected ``events``. The files are written only when a game's golden module is run as a
script after a deliberate change of the rules; the tests never write them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from games.core import Bot, replay
from games.core.protocol import Action, Engine, State

Record = dict[str, Any]
Moves = list[tuple[int, Action]]


def load(folder: Path, name: str) -> Record:
    record: Record = json.loads((folder / f"{name}.json").read_text())
    return record


def text(record: Record, *, compact: bool = False) -> str:
    """A golden file's text: one key a line (easy to review), or compact for long games."""
    if compact:
        return json.dumps(record, separators=(",", ":")) + "\n"
    return json.dumps(record, indent=1) + "\n"


def moves_of(record: Record) -> Moves:
    return [(seat, action) for seat, action in record["moves"]]


def views_at(
    engine: Engine,
    seats: int,
    seed: int,
    options: Mapping[str, Any],
    moves: Moves,
    checkpoints: Iterable[int],
    viewers: Iterable[int | None] = (None, 0),
) -> list[Record]:
    """The views to record: each viewer's view after the first ``after`` moves, for each checkpoint."""
    views = []
    for after in checkpoints:
        at = replay(engine, seats, seed, options, moves[:after])
        for seat in viewers:
            views.append({"after": after, "seat": seat, "view": engine.view(at, seat)})
    return views


def check_replay(engine: Engine, record: Record, events: Callable[[State], Any] | None = None) -> None:
    """Replay a golden game move by move from its seed and options.

    Every recorded move must still be legal, every recorded view must be what that seat sees
    at that point, and the game must end with the recorded outcome (and, given ``events``,
    the recorded event log).
    """
    assert record["game"] == engine.slug
    moves = moves_of(record)
    seats, seed, options = record["seats"], record["seed"], record["options"]
    marks: dict[int, list[Record]] = {}
    for mark in record["views"]:
        assert 0 <= mark["after"] <= len(moves), f"a view after {mark['after']} of {len(moves)} moves"
        marks.setdefault(mark["after"], []).append(mark)
    state = engine.start(seats, seed, options)
    for index in range(len(moves) + 1):
        for mark in marks.get(index, []):
            assert engine.view(state, mark["seat"]) == mark["view"], (
                f"view of {mark['seat']} after {index} moves"
            )
        if index < len(moves):
            seat, action = moves[index]
            assert action in engine.legal(state, seat), (index, seat, action)
            state = engine.apply(state, seat, action)
    outcome = engine.outcome(state)
    assert outcome is not None
    assert json.loads(json.dumps(outcome.as_dict())) == record["outcome"]
    if events is not None:
        assert events(state) == record["events"]


def regenerate(folder: Path, records: Mapping[str, Callable[[], Record]], *, compact: bool = False) -> None:
    """Write the golden files again (after a deliberate rules change: review the diff by hand)."""
    folder.mkdir(exist_ok=True)
    for name, make in records.items():
        path = folder / f"{name}.json"
        path.write_text(text(make(), compact=compact))
        print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


PlayGame = Callable[[list[Bot], int, dict[str, Any]], tuple[State, Moves]]


@dataclass(frozen=True)
class BotGames:
    """Golden games played by the game's own bots, one bot per seat.

    ``games`` maps a file name to (bot name per seat, seed, options); ``checkpoints`` gives the
    move counts after which the spectator's and seat 0's views are recorded; ``events`` gives
    the event log to record.
    """

    engine: Engine
    folder: Path
    play_game: PlayGame
    bots: Mapping[str, Bot]
    games: Mapping[str, tuple[list[str], int, dict[str, Any]]]
    events: Callable[[State], Any]
    checkpoints: Callable[[int], Iterable[int]] = field(default=lambda n: (0, n // 2, n))
    compact: bool = False

    def record(self, name: str) -> Record:
        bots, seed, options = self.games[name]
        state, moves = self.play_game([self.bots[bot] for bot in bots], seed, options)
        seats = len(bots)
        checkpoints = sorted(set(self.checkpoints(len(moves))))
        outcome = self.engine.outcome(state)
        assert outcome is not None
        return {
            "game": self.engine.slug,
            "bots": bots,
            "seats": seats,
            "seed": seed,
            "options": options,
            "moves": [[seat, action] for seat, action in moves],
            "outcome": outcome.as_dict(),
            "events": self.events(state),
            "views": views_at(self.engine, seats, seed, options, moves, checkpoints),
        }

    def load(self, name: str) -> Record:
        return load(self.folder, name)

    def check_replay(self, name: str) -> None:
        check_replay(self.engine, self.load(name), self.events)

    def check_still_played(self) -> None:
        """The bots are deterministic given the seed (a change here means regenerating on purpose)."""
        for name, (bots, seed, options) in self.games.items():
            _, moves = self.play_game([self.bots[bot] for bot in bots], seed, options)
            assert [[seat, action] for seat, action in moves] == self.load(name)["moves"], name

    def regenerate(self) -> None:
        records = {name: partial(self.record, name) for name in self.games}
        regenerate(self.folder, records, compact=self.compact)
