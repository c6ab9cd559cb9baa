"""Golden replays: recorded games replayed move by move must give the same outcome and views.

The files in ``golden/`` were made once with bots, and their event logs checked by hand
against the rules. To regenerate them after a deliberate rules change (check them again!):

    .venv/bin/python -m tests.games.mister_spy.test_golden
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.mister_spy import ENGINE
from games.mister_spy.bots import BOTS, play_game
from tests.games.golden import BotGames

GOLDEN = BotGames(
    engine=ENGINE,
    folder=Path(__file__).parent / "golden",
    play_game=play_game,
    bots=BOTS,
    # name: (bot per seat, seed, options)
    games={
        "four_players_33_points": (["random", "heuristic", "random", "random"], 34, {}),
        "two_players_deck_empty": (["random", "random"], 6, {}),
        "three_players_tie": (["random", "random", "random"], 49, {}),
        "six_players": (["random", "random", "heuristic", "random", "random", "random"], 7, {}),
    },
    events=ENGINE.events,
    checkpoints=lambda moves: (0, moves // 2, moves),
)


@pytest.mark.parametrize("name", sorted(GOLDEN.games))
def test_golden_replay(name: str) -> None:
    GOLDEN.check_replay(name)


def test_golden_games_are_still_what_the_bots_play() -> None:
    GOLDEN.check_still_played()


if __name__ == "__main__":
    GOLDEN.regenerate()
