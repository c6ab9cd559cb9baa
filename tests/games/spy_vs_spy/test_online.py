"""What the engine tells the web layer for online races: the bot speed option and race starts."""

from __future__ import annotations

import random

import pytest

from games.core import InvalidOptions, replay
from games.spy_vs_spy import ENGINE
from games.spy_vs_spy.bots import HeuristicBot


def test_the_engine_is_real_time() -> None:
    assert ENGINE.real_time is True


def test_the_bot_speed_option_defaults_to_one_and_a_half_cards_a_second() -> None:
    spec = ENGINE.options["bot_cards_per_minute"]
    assert spec.kind is int and spec.default == 90
    ENGINE.start(3, 1, {"bot_cards_per_minute": 6})
    ENGINE.start(3, 1, {"bot_cards_per_minute": 600})


@pytest.mark.parametrize(
    ("value", "reason"),
    [(5, "6 to 600 cards a minute, not 5"), (601, "not 601"), (1.5, "whole number"), (True, "whole number")],
)
def test_a_bad_bot_speed_is_refused_with_a_reason(value: object, reason: str) -> None:
    with pytest.raises(InvalidOptions, match=reason):
        ENGINE.start(2, 1, {"bot_cards_per_minute": value})


def test_the_bot_speed_changes_nothing_in_the_rules() -> None:
    slow = ENGINE.start(4, 7, {"bot_cards_per_minute": 6})
    fast = ENGINE.start(4, 7, {"bot_cards_per_minute": 600})
    assert slow == fast == ENGINE.start(4, 7, {})


def _play(seats: int, seed: int, races: int) -> tuple[list[tuple[int, dict[str, object]]], list[int]]:
    """Bot moves for ``races`` races; the move numbers (from 1) at which each new race began."""
    bot, rng = HeuristicBot(), random.Random(seed)
    state = ENGINE.start(seats, seed, {})
    moves: list[tuple[int, dict[str, object]]] = []
    began: list[int] = []
    while ENGINE.outcome(state) is None and len(state.history) < races:
        assert ENGINE.race_started(state) == (began[-1] if began else 0)
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        action = bot.choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rng)
        race = state.race
        state = ENGINE.apply(state, seat, action)
        moves.append((seat, action))
        assert state.actions == len(moves)
        if state.race != race:
            began.append(len(moves))
    return moves, began


def test_race_started_counts_the_actions_before_the_current_race() -> None:
    moves, began = _play(3, 11, races=3)
    assert len(began) == 3 and began == sorted(began)
    # The move that starts a race is the last "take" (or "finish") of the race before it.
    for number in began:
        assert moves[number - 1][1]["type"] in ("take", "finish")
    state = replay(ENGINE, 3, 11, {}, moves)
    assert ENGINE.race_started(state) == began[-1]
    assert "race_began" not in ENGINE.view(state, 0)  # bookkeeping, not part of what a seat sees
