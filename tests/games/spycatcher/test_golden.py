"""Golden replays: recorded games replayed move by move must give the same outcome and views.

The files in ``golden/`` were made once with the bots, and their event logs checked by hand
against the rules (see the notes in each file). To regenerate them after a deliberate rules
change (check them again!):

    .venv/bin/python -m tests.games.spycatcher.test_golden
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.spycatcher import ENGINE
from games.spycatcher.bots import BOTS, play_game
from tests.games.golden import BotGames

GOLDEN = BotGames(
    engine=ENGINE,
    folder=Path(__file__).parent / "golden",
    play_game=play_game,
    bots=BOTS,
    # name: (bot per seat, seed, options)
    games={
        "two_players_centre": (["heuristic", "heuristic"], 3, {}),
        "four_players_centre": (["heuristic", "random", "heuristic", "heuristic"], 1, {}),
        "six_players_hand_of_five": (["heuristic"] * 6, 3, {"hand_size": 5, "may_stay": False}),
        "three_players_turn_limit": (["random", "heuristic", "random"], 16, {"turn_limit": 12}),
    },
    events=ENGINE.events,
    checkpoints=lambda moves: (0, moves // 3, moves // 2, moves),
)


@pytest.mark.parametrize("name", sorted(GOLDEN.games))
def test_golden_replay(name: str) -> None:
    GOLDEN.check_replay(name)


def test_golden_games_are_still_what_the_bots_play() -> None:
    GOLDEN.check_still_played()


if __name__ == "__main__":
    GOLDEN.regenerate()
