"""One result rated on its own gives, to the last bit, what the full replay gives."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.ratings import Rater, rate_result, recompute_ratings

tables = st.integers(2, 6).flatmap(
    lambda k: st.tuples(
        st.lists(st.integers(0, 11), min_size=k, max_size=k, unique=True),
        st.lists(st.integers(1, k), min_size=k, max_size=k),  # places, ties included
    )
)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(results=st.lists(tables, min_size=1, max_size=30))
def test_results_applied_one_by_one_equal_the_replay(results: list[tuple[list[int], list[int]]]) -> None:
    games = [list(zip(players, places, strict=True)) for players, places in results]
    current: dict[int, tuple[float, float]] = {}
    history = []
    for index, game in enumerate(games):
        for player, mu, sigma in rate_result(game, current):
            current[player] = (mu, sigma)
            history.append((index, player, mu, sigma))
    full = recompute_ratings(games)
    assert current == {p: (r.mu, r.sigma) for p, r in full.ratings.items()}  # exact, not approximate
    assert history == [(h.result, h.player, h.mu, h.sigma) for h in full.history]


def test_a_late_result_of_players_with_nothing_after_it_commutes_with_the_others() -> None:
    """What lets the site rate a result confirmed late on the spot: results with no player in
    common do not touch each other, so their order does not matter."""
    rng = random.Random(7)
    for _ in range(50):
        a = [(p, rng.randint(1, 3)) for p in rng.sample(range(6), 3)]
        b = [(p, rng.randint(1, 3)) for p in rng.sample(range(6, 12), 3)]
        earlier = [[(p, rng.randint(1, 4)) for p in rng.sample(range(12), 4)] for _ in range(5)]
        one, two = recompute_ratings([*earlier, a, b]), recompute_ratings([*earlier, b, a])
        assert {p: (r.mu, r.sigma) for p, r in one.ratings.items()} == {
            p: (r.mu, r.sigma) for p, r in two.ratings.items()
        }


def test_the_public_rate_call_agrees_through_the_rater() -> None:
    direct, public = Rater(), Rater(method="rate")
    game = [(1, 2), (2, 1), (3, 2), (4, 3)]
    mine = rate_result(game, {1: (27.0, 6.0)}, rater=direct)
    theirs = rate_result(game, {1: (27.0, 6.0)}, rater=public)
    for (p, mu, sigma), (q, mu2, sigma2) in zip(mine, theirs, strict=True):
        assert p == q and abs(mu - mu2) < 1e-12 and abs(sigma - sigma2) < 1e-12
