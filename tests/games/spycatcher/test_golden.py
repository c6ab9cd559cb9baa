"""Golden replays: recorded games replayed move by move must give the same outcome and views.

The files in ``golden/`` were made once with the bots, and their event logs checked by hand
against the rules (see the notes in each file). To regenerate them after a deliberate rules
change (check them again!):

    .venv/bin/python -m tests.games.spycatcher.test_golden
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.core import replay
from games.spycatcher import ENGINE
from games.spycatcher.bots import BOTS, play_game

GOLDEN = Path(__file__).parent / "golden"

# name: (bot per seat, seed, options)
GAMES: dict[str, tuple[list[str], int, dict[str, Any]]] = {
    "two_players_centre": (["heuristic", "heuristic"], 3, {}),
    "four_players_centre": (["heuristic", "random", "heuristic", "heuristic"], 1, {}),
    "six_players_hand_of_five": (["heuristic"] * 6, 3, {"hand_size": 5, "may_stay": False}),
    "three_players_turn_limit": (["random", "heuristic", "random"], 16, {"turn_limit": 12}),
}


def record(bots: list[str], seed: int, options: dict[str, Any]) -> dict[str, Any]:
    state, moves = play_game([BOTS[name] for name in bots], seed, options)
    seats = len(bots)
    checkpoints = sorted({0, len(moves) // 3, len(moves) // 2, len(moves)})
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
        "events": ENGINE.events(state),
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
    assert ENGINE.events(state) == data["events"]
    for checkpoint in data["views"]:
        at = replay(ENGINE, data["seats"], data["seed"], data["options"], moves[: checkpoint["after"]])
        assert ENGINE.view(at, checkpoint["seat"]) == checkpoint["view"]


def test_golden_games_are_still_what_the_bots_play() -> None:
    """The bots are deterministic given the seed (a change here means regenerating on purpose)."""
    for name, (bots, seed, options) in GAMES.items():
        data = json.loads((GOLDEN / f"{name}.json").read_text())
        _, moves = play_game([BOTS[bot] for bot in bots], seed, options)
        assert [[seat, action] for seat, action in moves] == data["moves"], name


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (bots, seed, options) in GAMES.items():
        path = GOLDEN / f"{name}.json"
        path.write_text(json.dumps(record(bots, seed, options), indent=1) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
