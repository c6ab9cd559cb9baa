"""The Spy vs Spy bots: legal, quick, and the heuristic one plays sensibly."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from games.core import Bot
from games.spy_vs_spy import ENGINE
from games.spy_vs_spy.bots import BOTS, LevelBot, paced_game

from .helpers import play


def _view(piles: list[list[str]], card: str | None, *, half: bool = False) -> dict[str, Any]:
    return {"seat": 0, "half_decks": half, "players": [{"seat": 0, "piles": piles, "card": card}]}


def _place(pile: int) -> dict[str, Any]:
    return {"type": "place", "pile": pile}


def test_the_bots_are_registered() -> None:
    assert set(BOTS) == {"random", "heuristic", "intermediate", "expert"}
    assert all(bot.name == name for name, bot in BOTS.items())
    assert [BOTS[n].label for n in ("random", "heuristic", "intermediate", "expert")] == [
        "Novice",
        "Beginner",
        "Intermediate",
        "Expert",
    ]


def test_heuristic_keeps_the_same_ranks_together() -> None:
    bot = BOTS["heuristic"]
    view = _view([["5S"], ["6H"], ["QD"], ["2C"]], "5D")
    assert bot.choose(view, [_place(0), _place(1)], random.Random(0)) == _place(0)
    view = _view([["6H"], ["9C", "5S"], ["QD"], ["2C"]], "5D")
    assert bot.choose(view, [_place(0), _place(1)], random.Random(0)) == _place(1)


def test_heuristic_leaves_the_pile_tops_fitting_the_most_unseen_cards() -> None:
    # 6D on the 5H leaves tops 6 7 K 9 (9 ranks fit); on the 7C it leaves 5 6 K 9 (10 ranks).
    view = _view([["5H"], ["7C"], ["KD"], ["9S"]], "6D")
    assert BOTS["heuristic"].choose(view, [_place(0), _place(1)], random.Random(0)) == _place(1)


def test_heuristic_takes_the_smallest_pile() -> None:
    view = _view([["AS", "2S"], ["AH"], ["AD", "2D", "3D"], ["AC"], ["5H", "6H"], ["9H"]], None)
    legal = [{"type": "take", "pile": pile} for pile in range(6)]
    assert BOTS["heuristic"].choose(view, legal, random.Random(0)) == {"type": "take", "pile": 1}


def _solo_race_points(bot: Bot, seeds: range) -> int:
    """Points a seat adds over many single races (leftovers plus the smallest pile, or the bonus)."""
    total = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = ENGINE.start(1, seed, {})
        while state.race == 1 and ENGINE.outcome(state) is None:
            state = ENGINE.apply(state, 0, bot.choose(ENGINE.view(state, 0), ENGINE.legal(state, 0), rng))
        total += state.history[0].rows[0].change
    return total


def test_heuristic_placing_beats_random_placing() -> None:
    class RandomPlacer:
        name = "random placer"

        def choose(
            self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
        ) -> dict[str, Any]:
            if legal[0]["type"] == "take":  # take the smallest pile, as the heuristic does
                return BOTS["heuristic"].choose(view, legal, rng)
            return rng.choice(legal)

    seeds = range(150)
    assert _solo_race_points(BOTS["heuristic"], seeds) < _solo_race_points(RandomPlacer(), seeds) - 50


def test_bots_only_choose_legal_actions_and_choose_fast() -> None:
    for name, bot in BOTS.items():
        rng = random.Random(3)
        state = ENGINE.start(4, 3, {})
        spent, calls = 0.0, 0
        while ENGINE.outcome(state) is None and calls < 3000:
            seat = rng.choice(sorted(ENGINE.to_act(state)))
            view, legal = ENGINE.view(state, seat), ENGINE.legal(state, seat)
            began = time.perf_counter()
            action = bot.choose(view, legal, rng)
            spent += time.perf_counter() - began
            calls += 1
            assert action in legal, name
            state = ENGINE.apply(state, seat, action)
        assert spent / calls < 0.001, name


def test_heuristic_bots_win_against_random_bots() -> None:
    wins = 0
    for seed in range(20):
        state, _ = play(2, seed, bots=[BOTS["heuristic"], BOTS["random"]])
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        wins += outcome.places[0] == 1
    assert wins >= 14


def test_the_levels_race_faster_and_judge_no_worse_as_they_rise() -> None:
    levels = [BOTS[n] for n in ("random", "heuristic", "intermediate", "expert")]
    paces = [bot.cards_per_minute for bot in levels]
    judgements = [bot.judgement for bot in levels]
    assert paces == sorted(paces) and len(set(paces)) == 4
    assert judgements == sorted(judgements) and judgements[0] == 0.0


def test_a_level_with_some_judgement_mixes_the_heuristic_and_random_choices() -> None:
    bot = LevelBot("half", "Half", 60, 0.5)
    view = _view([["5S"], ["6H"], ["QD"], ["2C"]], "5D")
    legal = [_place(0), _place(1)]
    picks = {bot.choose(view, legal, random.Random(seed))["pile"] for seed in range(40)}
    assert picks == {0, 1}
    assert {
        LevelBot("all", "All", 60, 1.0).choose(view, legal, random.Random(s))["pile"] for s in range(40)
    } == {0}
    with pytest.raises(ValueError):
        LevelBot("bad", "Bad", 60, 1.5)


def test_a_paced_game_is_played_to_the_end_the_same_way_every_time() -> None:
    slow, fast = LevelBot("slow", "Slow", 10, 1.0), LevelBot("fast", "Fast", 600, 1.0)
    outcome = paced_game([slow, fast], 3)
    assert sorted(outcome.places) in ([1, 2], [1, 1])
    assert paced_game([slow, fast], 3) == outcome
    assert paced_game([BOTS["random"], BOTS["expert"], BOTS["heuristic"]], 4).places != ()
