"""Golden replays: whole games recorded once, checked by hand against the rules, replayed exactly.

Each file in ``golden/`` holds (seats, seed, options, moves), the expected outcome and
a few expected views. After a deliberate rules change, regenerate them with

    .venv/bin/python -m tests.games.spy_vs_spy.make_golden

and check the new files by hand before committing them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.spy_vs_spy import ENGINE

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_there_are_golden_games() -> None:
    assert {path.stem for path in GOLDEN} >= {
        "two_players_half_decks",
        "single_player",
        "three_players_tie_break",
    }


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_golden_replay(path: Path) -> None:
    record: dict[str, Any] = json.loads(path.read_text())
    assert record["game"] == ENGINE.slug
    views = {(view["after_moves"], view["seat"]): view["view"] for view in record["views"]}
    state = ENGINE.start(record["seats"], record["seed"], record["options"])
    for index, (seat, action) in enumerate([(None, None), *record["moves"]]):
        if index:
            assert action in ENGINE.legal(state, seat), (index, seat, action)
            state = ENGINE.apply(state, seat, action)
        for viewer in (*range(record["seats"]), None):
            if (index, viewer) in views:
                assert ENGINE.view(state, viewer) == views[(index, viewer)], (index, viewer)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.as_dict() == record["outcome"]


def test_the_tie_break_game_is_a_tie_break() -> None:
    record = json.loads((Path(__file__).parent / "golden" / "three_players_tie_break.json").read_text())
    assert record["outcome"]["detail"]["tie_break_races"] == 1
    final = record["views"][-1]["view"]
    tied = final["history"][-2]
    assert [row["score"] for row in tied["rows"] if row["bonus"]] == [-2, -2]  # both reach -2 at once
    assert final["history"][-1]["tie_break"] and len(final["history"][-1]["rows"]) == 2
    assert record["outcome"]["places"] == [2, 3, 1]
