"""Golden replays: recorded games replayed move by move must give the same outcome, events and views.

The files in ``golden/`` were made once with the bots, and their event logs checked by hand
against the rules (searches, captures, discoveries, cash-ins, the 1939 count). To regenerate them
after a deliberate rules change (and check them again!):

    .venv/bin/python -m tests.games.spies.test_golden
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from games.spies import ENGINE
from games.spies.bots import BOTS, play_game
from tests.games.golden import BotGames

GOLDEN = BotGames(
    engine=ENGINE,
    folder=Path(__file__).parent / "golden",
    play_game=play_game,
    bots=BOTS,
    # name: (bot per seat, seed, options)
    games={
        "five_players": (["heuristic", "heuristic", "random", "heuristic", "heuristic"], 11, {}),
        "four_players": (["heuristic", "heuristic", "heuristic", "heuristic"], 5, {"offers_per_turn": 1}),
        "three_players": (["heuristic", "random", "heuristic"], 2, {"offers_per_turn": 0}),
        "two_players_russia_alternates": (["heuristic", "heuristic"], 8, {"turn_minutes": 5}),
    },
    events=partial(ENGINE.events, everything=True),
    checkpoints=lambda moves: (0, moves // 2, moves),
    compact=True,  # the games are long: one line a file
)


@pytest.mark.parametrize("name", sorted(GOLDEN.games))
def test_golden_replay(name: str) -> None:
    GOLDEN.check_replay(name)


def test_golden_games_are_still_what_the_bots_play() -> None:
    GOLDEN.check_still_played()


def test_golden_games_show_the_main_rules_at_work() -> None:
    """What the hand check looked for is in the recorded logs."""
    seen: set[str] = set()
    for name in GOLDEN.games:
        data = GOLDEN.load(name)
        seen.update(e["event"] for e in data["events"])
        turns = [e for e in data["events"] if e["event"] == "turn"]
        assert len(turns) == 35 and turns[-1] == {"event": "turn", "power": "B", "year": 1939}
    for event in ("search_result", "captured", "discovery", "control", "cash_in", "original_secrets_counted"):
        assert event in seen, event


if __name__ == "__main__":
    GOLDEN.regenerate()
