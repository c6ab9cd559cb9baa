"""Golden replays: recorded games replayed move by move must give the same views and outcome.

The files in ``golden/`` were generated once with this engine (the heuristic bot against
random bots) and checked by hand against the rule book. To regenerate them after an
intended change of the rules or of the views, run from the repository root:

    PYTHONPATH=. .venv/bin/python -m tests.games.black_spy.test_golden

and review the diff of ``golden/*.json`` before committing it.
"""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from games.black_spy import ENGINE
from games.black_spy.bots import BOTS
from tests.games import golden

GOLDEN = Path(__file__).with_name("golden")
GAMES: dict[str, tuple[int, int, dict[str, Any]]] = {
    "four_players_base_game": (4, 2024, {}),
    "three_players_mole_calling_capture": (
        3,
        7,
        {"the_mole": True, "calling_color": True, "capture_or_release": True, "youngest_first": [2, 0, 1]},
    ),
    "six_players_rank_going_back_no_good_spies": (
        6,
        99,
        {"following_rank": True, "going_back": True, "no_good_spies": True},
    ),
}


def record(players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    rng = random.Random(seed)
    state = ENGINE.start(players, seed, options)
    moves: list[list[Any]] = []
    views: list[dict[str, Any]] = []
    marks = {0, players * 3, players * 3 + 5, 60 + players * 3}
    while ENGINE.to_act(state):
        seat = min(ENGINE.to_act(state))
        bot = BOTS["heuristic"] if seat == 0 else BOTS["random"]
        action = dict(bot.choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rng))
        if len(moves) in marks:
            views.append({"after": len(moves), "seat": seat, "view": ENGINE.view(state, seat)})
        moves.append([seat, action])
        state = ENGINE.apply(state, seat, action)
    views.append({"after": len(moves), "seat": None, "view": ENGINE.view(state, None)})
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return {
        "game": "black-spy",
        "seats": players,
        "seed": seed,
        "options": options,
        "moves": moves,
        "views": views,
        "outcome": outcome.as_dict(),
    }


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_replay(name: str) -> None:
    golden.check_replay(ENGINE, golden.load(GOLDEN, name))


if __name__ == "__main__":
    golden.regenerate(GOLDEN, {name: partial(record, *spec) for name, spec in GAMES.items()})
