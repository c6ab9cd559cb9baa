"""The random and heuristic bots play legal moves; the heuristic bot beats random ones."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.black_spy import ENGINE
from games.black_spy.bots import BOTS, HeuristicBot, danger
from games.core import Bot, RandomBot

from .test_rules import all_black_hands, rigged_play, take_all_black


def play(bots: list[Bot], seed: int, options: dict[str, Any] | None = None) -> tuple[list[int], int]:
    rng = random.Random(seed)
    state = ENGINE.start(len(bots), seed, options or {})
    while ENGINE.to_act(state):
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal(state, seat)
        action = bots[seat].choose(ENGINE.view(state, seat), legal, rng)
        assert action in legal
        state = ENGINE.apply(state, seat, action)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return [int(s) for s in outcome.scores], outcome.detail["deals"]


def test_the_bots_are_registered_under_their_names() -> None:
    assert set(BOTS) == {"random", "heuristic"}
    assert isinstance(BOTS["random"], RandomBot) and isinstance(BOTS["heuristic"], HeuristicBot)
    assert all(bot.name == name for name, bot in BOTS.items())


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_heuristic_bot_plays_every_variant_legally(players: int) -> None:
    options = {
        "no_good_spies": True,
        "the_mole": True,
        "calling_color": True,
        "following_rank": True,
        "going_back": True,
        "capture_or_release": True,
    }
    play([BOTS["heuristic"]] * players, players, options)


def test_the_heuristic_bot_scores_far_less_than_random_bots() -> None:
    heuristic = random_points = 0.0
    for game in range(24):
        me = game % 4
        bots = [BOTS["heuristic"] if seat == me else BOTS["random"] for seat in range(4)]
        scores, deals = play(bots, 500 + game)
        heuristic += scores[me] / deals
        random_points += sum(s for seat, s in enumerate(scores) if seat != me) / deals / 3
    assert heuristic / 24 < 0.6 * random_points / 24


def test_the_heuristic_bot_passes_its_most_dangerous_cards_first() -> None:
    assert danger("black-7") > danger("black-11") > danger("black-1") > danger("red-11") > danger("red-7")
    view = {"hand": ["blue-1", "black-7", "red-11"]}
    legal = [{"type": "pass", "card": c} for c in view["hand"]]
    assert BOTS["heuristic"].choose(view, legal, random.Random(0)) == {"type": "pass", "card": "black-7"}


def test_the_heuristic_bot_sheds_a_black_spy_when_it_cannot_follow() -> None:
    view = {
        "players": 3,
        "options": {},
        "trick": [{"seat": 0, "card": "red-4"}],
        "hand": ["blue-2", "black-7", "green-11"],
    }
    legal = [{"type": "play", "card": c} for c in view["hand"]]
    assert BOTS["heuristic"].choose(view, legal, random.Random(0))["card"] == "black-7"


def test_the_heuristic_bot_ducks_under_the_winning_card() -> None:
    view = {
        "players": 4,
        "options": {},
        "trick": [{"seat": 0, "card": "red-8"}],
        "hand": ["red-2", "red-6", "red-9"],
    }
    legal = [{"type": "play", "card": c} for c in view["hand"]]
    assert BOTS["heuristic"].choose(view, legal, random.Random(0))["card"] == "red-6"


def test_the_heuristic_bot_chooses_on_all_black_cards() -> None:
    state = take_all_black(rigged_play(all_black_hands(), {"capture_or_release": True}, scores=[10, 20, 30]))
    choice = BOTS["heuristic"].choose(ENGINE.view(state, 0), ENGINE.legal(state, 0), random.Random(0))
    assert choice == {"type": "all_black", "choice": "subtract"}
    options = {"capture_or_release": True, "end_value": 150}
    state = take_all_black(rigged_play(all_black_hands(), options, scores=[10, 100, 90]))
    choice = BOTS["heuristic"].choose(ENGINE.view(state, 0), ENGINE.legal(state, 0), random.Random(0))
    assert choice == {"type": "all_black", "choice": "give"}  # 160 and 150 end the game with seat 0 lowest
