"""Ratings with openskill's Plackett-Luce model."""

import random

import pytest
from openskill.models import PlackettLuce

from pairing import recompute_ratings


def random_results(count: int, seed: int) -> list[list[tuple[int, int]]]:
    rng = random.Random(seed)
    results = []
    for _ in range(count):
        k = rng.randint(2, 6)
        players = rng.sample(range(30), k)
        places = sorted(rng.randint(1, k) for _ in range(k))  # ties happen
        rng.shuffle(places)
        results.append(list(zip(players, places, strict=True)))
    return results


def test_direct_method_equals_the_public_rate_call() -> None:
    results = random_results(400, 3)
    direct = recompute_ratings(results)
    public = recompute_ratings(results, method="rate")
    assert direct.ratings.keys() == public.ratings.keys()
    for p, r in direct.ratings.items():
        assert r.mu == pytest.approx(public.ratings[p].mu, abs=1e-12)
        assert r.sigma == pytest.approx(public.ratings[p].sigma, abs=1e-12)
    assert len(direct.history) == len(public.history)
    for mine, theirs in zip(direct.history, public.history, strict=True):
        assert mine[:2] == theirs[:2]
        assert max(abs(x - y) for x, y in zip(mine[2:], theirs[2:], strict=True)) < 1e-12


def test_matches_openskill_step_by_step_for_one_table() -> None:
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    [[a2], [b2], [c2]] = model.rate([[a], [b], [c]], ranks=[2.0, 1.0, 2.0])
    table = recompute_ratings([[(1, 2), (2, 1), (3, 2)]])
    assert table.ratings[2].mu == pytest.approx(b2.mu)
    assert table.ratings[1].sigma == pytest.approx(a2.sigma)
    assert table.ratings[3].mu == pytest.approx(c2.mu)


def test_winners_rise_history_is_kept_and_leaderboard_uses_ordinal() -> None:
    results = [[(1, 1), (2, 2), (3, 3), (4, 4)]] * 5
    table = recompute_ratings(results)
    board = table.leaderboard()
    assert [r.player for r in board] == [1, 2, 3, 4]
    assert board[0].ordinal == pytest.approx(board[0].mu - 3 * board[0].sigma)
    assert board[0].games == 5
    history = table.history_of(1)
    assert [h.result for h in history] == [0, 1, 2, 3, 4]
    assert history[0].mu < history[-1].mu
    assert len(table.history) == 20
    assert recompute_ratings(results, keep_history=False).history == ()


def test_bad_results_are_refused() -> None:
    with pytest.raises(ValueError, match="fewer than 2"):
        recompute_ratings([[(1, 1)]])
    with pytest.raises(ValueError, match="twice"):
        recompute_ratings([[(1, 1), (1, 2)]])


def test_ruling_13_ties_share_a_rank() -> None:
    table = recompute_ratings([[(1, 1), (2, 1)]])
    assert table.ratings[1].mu == pytest.approx(table.ratings[2].mu)
