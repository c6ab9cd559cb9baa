"""Every view of random games against the view of a twin state (``tests/games/twins.py``)."""

from __future__ import annotations

import random

import pytest

from games.mister_spy import ENGINE, MisterSpyState
from tests.games.twins import check_twins, timed_seeds

from .tables import play
from .twins import twin

MAX_MOVES = 3000


def check_every_view(state: MisterSpyState, rng: random.Random, where: object = None) -> None:
    check_twins(ENGINE, state, [None, *range(state.seats)], twin, rng, where)


def test_a_spy_stolen_from_the_deck_looks_the_same_to_all_but_the_thief_whichever_it_is() -> None:
    state = ENGINE.start(3, 0, {})
    state = play(
        state, (0, {"type": "pass"}), (1, {"type": "pass"}), (2, {"type": "steal_spy", "from": "deck"})
    )
    rng = random.Random(0)
    for _ in range(20):
        check_every_view(state, rng)


@pytest.mark.slow
def test_every_view_of_random_games_is_the_view_of_its_twins() -> None:
    games = 0
    for seed in timed_seeds():
        seats = 2 + seed % 5
        rng = random.Random(seed)
        state = ENGINE.start(seats, seed, {"dealer": seed % seats})
        for step in range(MAX_MOVES):
            check_every_view(state, rng, (seats, seed, step))
            to_act = sorted(ENGINE.to_act(state))
            if not to_act:
                break
            seat = rng.choice(to_act)
            legal = ENGINE.legal(state, seat)
            # lean towards stealing and taunting, the moves that hide a card from some seats only
            keen = [a for a in legal if a["type"] in ("steal_spy", "taunt", "capture", "foil")]
            pool = keen if keen and rng.random() < 0.6 else legal
            state = ENGINE.apply(state, seat, rng.choice(pool))
        assert ENGINE.outcome(state) is not None
        games += 1
    assert games >= 4
