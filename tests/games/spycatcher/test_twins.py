"""Every view of random games against the view of a twin state (``tests/games/twins.py``)."""

from __future__ import annotations

import random

import pytest

from games.spycatcher import ENGINE
from games.spycatcher.bots import BOTS
from tests.games.twins import check_twins, timed_seeds

from .twins import twin

LIMIT = 25  # rounds: short games, so that many of them fit in the time


@pytest.mark.slow
def test_every_view_of_random_games_is_the_view_of_its_twins() -> None:
    games = 0
    for seed in timed_seeds():
        seats = 2 + seed % 5
        rng = random.Random(seed)
        options = {"turn_limit": LIMIT, "hand_size": 5 if seed % 3 == 0 else 7, "may_stay": seed % 4 != 1}
        state = ENGINE.start(seats, seed, options)
        step = 0
        while to_act := sorted(ENGINE.to_act(state)):
            check_twins(ENGINE, state, [None, *range(seats)], twin, rng, (seats, seed, step))
            seat = rng.choice(to_act)
            legal = ENGINE.legal(state, seat)
            if rng.random() < 0.7:  # the heuristic bot seeks and challenges, so windows open often
                action = BOTS["heuristic"].choose(ENGINE.view(state, seat), legal, rng)
            else:
                action = rng.choice(legal)
            state = ENGINE.apply(state, seat, action)
            step += 1
        check_twins(ENGINE, state, [None, *range(seats)], twin, rng, (seats, seed, "over"))
        games += 1
    assert games >= 4
