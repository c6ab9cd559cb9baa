"""Every view of random games against the view of a twin state (``tests/games/twins.py``)."""

from __future__ import annotations

import random

import pytest

from games.black_spy import ENGINE
from tests.games.twins import check_twins, timed_seeds

from .helpers import VARIANTS
from .twins import twin

MAX_STEPS = 20_000


@pytest.mark.slow
def test_every_view_of_random_games_is_the_view_of_its_twins() -> None:
    games = 0
    for seed in timed_seeds():
        players = 3 + seed % 4
        rng = random.Random(seed)
        options: dict[str, object] = {name: rng.random() < 0.5 for name in VARIANTS}
        options["end_value"] = 40  # a few deals, so that many games fit in the time
        state = ENGINE.start(players, seed, options)
        for step in range(MAX_STEPS):
            check_twins(ENGINE, state, [None, *range(players)], twin, rng, (players, seed, step))
            acting = sorted(ENGINE.to_act(state))
            if not acting:
                break
            seat = rng.choice(acting)
            state = ENGINE.apply(state, seat, dict(rng.choice(ENGINE.legal(state, seat))))
        assert ENGINE.outcome(state) is not None
        games += 1
    assert games >= 4
