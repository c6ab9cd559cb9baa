"""Properties of random legal games for 2 to 6 players."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.mister_spy import ENGINE, MisterSpyState
from games.mister_spy.cards import DECK
from games.mister_spy.engine import OVER, WINDOW
from tests.games.protocol import apply_keeping_state, check_refusals, check_replay, check_views_hide, unlisted

from .tables import all_cards
from .twins import twin

MAX_MOVES = 3000  # far more than any game takes (each turn draws a card from 54)

EXAMPLES = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def snapshot(state: MisterSpyState) -> tuple[Any, ...]:
    return (
        state.deck,
        state.top,
        state.hands,
        state.lairs,
        state.piles,
        state.scores,
        state.discard,
        state.turn,
        state.phase,
        state.captor,
        state.captive,
        state.window,
        state.stolen,
        state.serial,
        state.steals,
        state.log,
        json.dumps(ENGINE.events(state)),
    )


def illegal_candidates(state: MisterSpyState, seat: int, legal: list[dict[str, Any]]) -> list[Any]:
    out: list[Any] = [
        {"type": "pass", "extra": 1},
        {"type": "fly"},
        {"type": "capture", "card": "spy-8", "reveal": ["lair-4", "lair-4", "lair-4", "lair-4"]},
        {"type": "steal_spy", "from": True},
        {"type": "steal_spy", "from": seat},
        {"type": "play_lair", "card": "spy-2"},
        {"type": "foil", "card": "taunt-A"},
        {"type": "taunt", "card": "taunt-B"},
        {"type": "steal_lair", "card": "spy-2", "lair": "L999"},
        {"type": "keep"},
        {"type": "kill"},
        {"type": "let_pass"},
        "pass",
        None,
    ]
    for action in legal:
        if "card" in action:
            out.append({**action, "card": "taunt-Z"})
        if "reveal" in action:
            out.append({**action, "reveal": [*action["reveal"], "lair-2"]})
    return unlisted(out, legal)


def play_random(seats: int, seed: int, check: bool = True) -> tuple[MisterSpyState, list[tuple[int, Any]]]:
    rng = random.Random(seed)
    state = ENGINE.start(seats, seed, {})
    moves: list[tuple[int, Any]] = []
    full = Counter(DECK)
    for step in range(MAX_MOVES):
        to_act = ENGINE.to_act(state)
        if not to_act:
            assert state.phase == OVER
            return state, moves
        if check:
            assert all_cards(state) == full, "cards are not conserved"
            if state.phase == WINDOW:
                foilers = [s for s in to_act if any(a["type"] == "foil" for a in ENGINE.legal(state, s))]
                assert len(foilers) <= 1
                assert all({"type": "let_pass"} in ENGINE.legal(state, s) for s in to_act)
            if step % 4 == 0:
                check_views_hide(ENGINE, state, [None, *range(seats)], twin, rng)
        seat = sorted(to_act)[rng.randrange(len(to_act))]
        legal = ENGINE.legal(state, seat)
        assert legal, "a seat to act always has a legal action"
        if check and step % 3 == 0:
            bad = illegal_candidates(state, seat, legal)
            check_refusals(ENGINE, state, seat, bad, seats=seats, snapshot=snapshot)
        action = legal[rng.randrange(len(legal))]
        after = apply_keeping_state(ENGINE, state, seat, action, snapshot if check else None)
        moves.append((seat, json.loads(json.dumps(action))))
        state = after
    raise AssertionError("the game did not end")


@pytest.mark.slow
@EXAMPLES
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_random_legal_games_conserve_cards_end_leak_nothing_and_reject_illegal_actions(
    seats: int, seed: int
) -> None:
    state, _moves = play_random(seats, seed)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert len(outcome.places) == seats and min(outcome.places) == 1
    assert list(outcome.scores) == [sum(spy.points for spy in pile) for pile in state.piles]
    if outcome.detail["end"] == "33 points":
        assert len(outcome.winners) == 1 and max(outcome.scores) >= 33
    else:
        assert max(outcome.scores) < 33 and state.deck_left == 0


@EXAMPLES
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_replay_from_the_move_log_is_exact(seats: int, seed: int) -> None:
    state, moves = play_random(seats, seed, check=False)
    check_replay(ENGINE, seats, seed, {}, moves, state, snapshot)


@EXAMPLES
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_reaction_windows_always_close_when_every_seat_lets_the_taunt_pass(seats: int, seed: int) -> None:
    """The online layer's time limit: ``let_pass`` for every seat still to answer."""
    rng = random.Random(seed)
    state = ENGINE.start(seats, seed, {})
    while ENGINE.to_act(state):
        if state.phase == WINDOW:
            waiting = sorted(ENGINE.to_act(state))
            assert waiting and state.window is not None and state.window.taunter not in waiting
            for seat in waiting[: rng.randrange(len(waiting) + 1)]:
                legal = ENGINE.legal(state, seat)
                state = ENGINE.apply(state, seat, legal[rng.randrange(len(legal))])
                if state.phase != WINDOW:
                    break
            for seat in sorted(ENGINE.to_act(state)) if state.phase == WINDOW else []:
                state = ENGINE.apply(state, seat, {"type": "let_pass"})
            assert state.phase != WINDOW
            continue
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal(state, seat)
        # lean towards taunting so that windows open often
        taunts = [a for a in legal if a["type"] in ("taunt", "capture")]
        pool = taunts if taunts and rng.random() < 0.8 else legal
        state = ENGINE.apply(state, seat, pool[rng.randrange(len(pool))])
    assert ENGINE.outcome(state) is not None


def test_random_games_open_windows_and_reach_both_ends() -> None:
    """The random games above do exercise foils, both endings and every action type."""
    kinds: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for seed in range(60):
        state, moves = play_random(2 + seed % 5, seed, check=False)
        kinds.update(action["type"] for _, action in moves)
        kinds.update(
            e["event"] for e in ENGINE.events(state) if e["event"] in ("foil", "deathtrap", "henchman")
        )
        kinds.update(f"steal_lair:{e['result']}" for e in ENGINE.events(state) if e["event"] == "steal_lair")
        ends[state.end or ""] += 1
    for kind in ("pass", "play_lair", "capture", "steal_lair", "steal_spy", "keep", "kill", "taunt"):
        assert kinds[kind] > 0, kind
    for kind in ("let_pass", "foil", "deathtrap", "henchman"):
        assert kinds[kind] > 0, kind
    for result in ("match", "larger", "smaller", "deathtrap"):
        assert kinds[f"steal_lair:{result}"] > 0, result
    assert ends["33 points"] > 0 and ends["deck empty"] > 0
