"""Every view of random games against the view of its twin (``twins.py``, ``tests/games/twins.py``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.spies import ENGINE
from games.spies.bots import BOTS, play_game
from tests.games.twins import timed_seeds

from .test_properties import pick
from .test_two_countries import keen
from .twins import walk

EVERY = 11  # steps between checks: a game is some 800 steps, each check looks at up to six viewers


def random_moves(seats: int, seed: int, driver: Any = pick) -> Iterator[tuple[int, dict[str, Any]]]:
    rng = random.Random(seed)
    state = ENGINE.start(seats, seed, {})
    while ENGINE.to_act(state):
        (seat,) = ENGINE.to_act(state)
        action = driver(state, seat, rng)
        yield seat, action
        state = ENGINE.apply(state, seat, action)


@pytest.mark.slow
def test_every_view_of_random_games_is_the_view_of_its_twins() -> None:
    games = 0
    for seed in timed_seeds():
        seats = 2 + seed % 4
        assert walk(seats, seed, random_moves(seats, seed), EVERY) > 300
        games += 1
    assert games >= 4


def test_in_the_two_player_bot_game_of_seed_4242_neither_player_sees_what_the_other_learned() -> None:
    _state, moves = play_game([BOTS["heuristic"], BOTS["heuristic"]], 4242)
    walk(2, 4242, moves, every=5)


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "seed"), [(2, 0), (5, 3)])
def test_secrets_traded_in_diplomacy_show_their_faces_only_to_the_receiver(seats: int, seed: int) -> None:
    moves = list(random_moves(seats, seed, keen))  # trades secrets whenever it can
    traded = sum(1 for _seat, action in moves if action.get("item") in ("give_secret", "ask_secret"))
    assert traded >= 3
    walk(seats, seed, moves, every=EVERY)  # what a player learned stays in the state: a later check sees it
