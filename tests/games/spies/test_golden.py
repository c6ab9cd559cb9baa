"""Golden replays: recorded games replayed move by move must give the same outcome, events and views.

The files in ``golden/`` were made once with the bots, and their event logs checked by hand
against the rules (searches, captures, discoveries, cash-ins, the 1939 count). To regenerate them
after a deliberate rules change (and check them again!):

    .venv/bin/python -m tests.games.spies.test_golden
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.core import replay
from games.spies import ENGINE
from games.spies.bots import BOTS, play_game

GOLDEN = Path(__file__).parent / "golden"

# name: (bot per seat, seed, options)
GAMES: dict[str, tuple[list[str], int, dict[str, Any]]] = {
    "five_players": (["heuristic", "heuristic", "random", "heuristic", "heuristic"], 11, {}),
    "four_players": (["heuristic", "heuristic", "heuristic", "heuristic"], 5, {"offers_per_turn": 1}),
    "three_players": (["heuristic", "random", "heuristic"], 2, {"offers_per_turn": 0}),
    "two_players_russia_alternates": (["heuristic", "heuristic"], 8, {"turn_minutes": 5}),
}


def record(bots: list[str], seed: int, options: dict[str, Any]) -> dict[str, Any]:
    state, moves = play_game([BOTS[name] for name in bots], seed, options)
    seats = len(bots)
    checkpoints = sorted({0, len(moves) // 2, len(moves)})
    views = []
    for after in checkpoints:
        at = replay(ENGINE, seats, seed, options, moves[:after])
        for seat in (None, 0):
            views.append({"after": after, "seat": seat, "view": ENGINE.view(at, seat)})
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return {
        "game": ENGINE.slug,
        "bots": bots,
        "seats": seats,
        "seed": seed,
        "options": options,
        "moves": [[seat, action] for seat, action in moves],
        "outcome": outcome.as_dict(),
        "events": ENGINE.events(state, everything=True),
        "views": views,
    }


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_replay(name: str) -> None:
    data = json.loads((GOLDEN / f"{name}.json").read_text())
    moves = [(seat, action) for seat, action in data["moves"]]
    state = replay(ENGINE, data["seats"], data["seed"], data["options"], moves)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert json.loads(json.dumps(outcome.as_dict())) == data["outcome"]
    assert ENGINE.events(state, everything=True) == data["events"]
    for checkpoint in data["views"]:
        at = replay(ENGINE, data["seats"], data["seed"], data["options"], moves[: checkpoint["after"]])
        assert ENGINE.view(at, checkpoint["seat"]) == checkpoint["view"]


def test_golden_games_are_still_what_the_bots_play() -> None:
    """The bots are deterministic given the seed (a change here means regenerating on purpose)."""
    for name, (bots, seed, options) in GAMES.items():
        data = json.loads((GOLDEN / f"{name}.json").read_text())
        _, moves = play_game([BOTS[bot] for bot in bots], seed, options)
        assert [[seat, action] for seat, action in moves] == data["moves"], name


def test_golden_games_show_the_main_rules_at_work() -> None:
    """What the hand check looked for is in the recorded logs."""
    seen: set[str] = set()
    for name in GAMES:
        data = json.loads((GOLDEN / f"{name}.json").read_text())
        seen.update(e["event"] for e in data["events"])
        turns = [e for e in data["events"] if e["event"] == "turn"]
        assert len(turns) == 35 and turns[-1] == {"event": "turn", "power": "B", "year": 1939}
    for event in ("search_result", "captured", "discovery", "control", "cash_in", "original_secrets_counted"):
        assert event in seen, event


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (bots, seed, options) in GAMES.items():
        path = GOLDEN / f"{name}.json"
        path.write_text(json.dumps(record(bots, seed, options), separators=(",", ":")) + "\n")
        print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
