"""Every view of random games against the view of a twin state (``tests/games/twins.py``)."""

from __future__ import annotations

import random

import pytest

from games.spy_vs_spy import ENGINE
from games.spy_vs_spy.bots import BOTS
from tests.games.twins import check_twins, timed_seeds

from .twins import twin

MAX_RACES = 4  # a few races each, so that many games fit in the time
TABLES = [(1, False), (2, True), (2, False), (3, False), (4, False), (6, False), (8, False)]  # 8: MAX_RACERS


@pytest.mark.slow
def test_every_view_of_random_games_is_the_view_of_its_twins() -> None:
    games = 0
    for seed in timed_seeds(least=len(TABLES)):  # every table at least once
        seats, half = TABLES[seed % len(TABLES)]
        rng = random.Random(seed)
        bots = [BOTS["heuristic"] if (seat + seed) % 2 else BOTS["random"] for seat in range(seats)]
        state = ENGINE.start(seats, seed, {"half_decks": half})
        step = 0
        while (to_act := sorted(ENGINE.to_act(state))) and state.race <= MAX_RACES:
            if step % 3 == 0 or state.phase != "race":
                check_twins(ENGINE, state, [None, *range(seats)], twin, rng, (seats, half, seed, step))
            seat = rng.choice(to_act)
            state = ENGINE.apply(
                state, seat, bots[seat].choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rng)
            )
            step += 1
        check_twins(ENGINE, state, [None, *range(seats)], twin, rng, (seats, half, seed, "end"))
        games += 1
    assert games >= 4
