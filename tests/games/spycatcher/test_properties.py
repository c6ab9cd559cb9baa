"""Properties of random legal games for 2 to 6 players."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.spycatcher import ENGINE, SpycatcherState
from games.spycatcher.bots import BOTS
from games.spycatcher.cards import DECK, SUITS
from games.spycatcher.engine import DRAW, OVER, WINDOW
from tests.games.protocol import apply_keeping_state, check_refusals, check_replay, check_views_hide, unlisted

from .tables import all_cards, all_location_cards
from .twins import twin

MAX_MOVES = 20_000  # the turn limit ends every game long before
LIMIT = 30  # rounds, to keep the random games short

EXAMPLES = settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def snapshot(state: SpycatcherState) -> tuple[Any, ...]:
    return (
        state.pack,
        state.top,
        state.discard,
        state.hands,
        state.positions,
        state.permissions,
        state.locations,
        state.turn,
        state.phase,
        state.turns,
        state.roll,
        state.rolls,
        state.shuffles,
        state.obeyed,
        state.must_move,
        state.missing,
        state.moving,
        state.window,
        state.instruction,
        state.end,
        state.winner,
        json.dumps(ENGINE.events(state)),
    )


def illegal_candidates(state: SpycatcherState, seat: int, legal: list[dict[str, Any]]) -> list[Any]:
    out: list[Any] = [
        {"type": "fly"},
        {"type": "roll", "extra": 1},
        {"type": "draw", "from": "deck"},
        {"type": "discard", "card": "court-13"},
        {"type": "seek", "cards": ["court-1", "court-2", "court-4"]},
        {"type": "seek", "cards": "court-1"},
        {"type": "challenge", "cards": []},
        {"type": "challenge", "cards": ["court-1", "court-2", "court-3", "court-4"]},
        {"type": "move", "to": "nowhere"},
        {"type": "give", "card": "court-permission-1", "to": seat},
        {"type": "replace", "card": "no-such-card"},
        {"type": "stay"},
        {"type": "pass"},
        {"type": "decline"},
        "roll",
        None,
    ]
    for action in legal:
        if "cards" in action:
            out.append(
                {**action, "cards": list(reversed(action["cards"]))} if len(action["cards"]) > 1 else None
            )
            out.append({**action, "cards": [*action["cards"], "publisher-M"]})
        if "card" in action:
            out.append({**action, "card": "press-99"})
        if "to" in action:
            out.append({**action, "to": True})
    return unlisted(out, legal)


def choose(state: SpycatcherState, seat: int, rng: random.Random, smart: float) -> dict[str, Any]:
    legal = ENGINE.legal(state, seat)
    if rng.random() < smart:
        return BOTS["heuristic"].choose(ENGINE.view(state, seat), legal, rng)
    return legal[rng.randrange(len(legal))]


def play_random(
    seats: int, seed: int, check: bool = True, smart: float = 0.7, options: dict[str, Any] | None = None
) -> tuple[SpycatcherState, list[tuple[int, Any]]]:
    """A game of random legal actions mixed with the heuristic bot's (so that games are won too)."""
    rng = random.Random(seed)
    options = {"turn_limit": LIMIT, **(options or {})}
    state = ENGINE.start(seats, seed, options)
    moves: list[tuple[int, Any]] = []
    deck = Counter(DECK)
    locations = all_location_cards(state)
    for step in range(MAX_MOVES):
        to_act = ENGINE.to_act(state)
        if not to_act:
            assert state.phase == OVER
            return state, moves
        if check:
            assert all_cards(state) == deck, "influence cards are not conserved"
            assert all_location_cards(state) == locations, "location cards are not conserved"
            for held in state.permissions:
                suits = [state.board.cards[c].suit for c in held]
                assert len(suits) == len(set(suits)) <= len(SUITS)
            if state.phase == DRAW:
                assert [len(h) for h in state.hands] == [state.hand_size] * seats
            if state.phase == WINDOW:
                assert all({"type": "decline"} in ENGINE.legal(state, s) for s in to_act)
                assert ENGINE.reaction_window(state)
            if step % 6 == 0:
                check_views_hide(ENGINE, state, [None, *range(seats)], twin, rng)
        seat = sorted(to_act)[rng.randrange(len(to_act))]
        legal = ENGINE.legal(state, seat)
        assert legal, "a seat to act always has a legal action"
        if check and step % 4 == 0:
            bad = illegal_candidates(state, seat, legal)
            check_refusals(ENGINE, state, seat, bad, seats=seats, snapshot=snapshot)
        action = choose(state, seat, rng, smart)
        after = apply_keeping_state(ENGINE, state, seat, action, snapshot if check else None)
        moves.append((seat, json.loads(json.dumps(action))))
        state = after
    raise AssertionError("the game did not end")


@pytest.mark.slow
@EXAMPLES
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**32), smart=st.sampled_from([0.0, 0.5, 0.9]))
def test_random_games_conserve_cards_end_leak_nothing_and_reject_illegal_actions(
    seats: int, seed: int, smart: float
) -> None:
    state, _ = play_random(seats, seed, smart=smart)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and len(outcome.places) == seats and min(outcome.places) == 1
    if outcome.detail["end"] == "centre":
        winner = outcome.detail["winner"]
        assert outcome.winners == {winner} and sorted(outcome.detail["permissions"][winner]) == sorted(SUITS)
        assert state.board.squares[state.positions[winner]].kind == "centre"
    else:
        assert outcome.detail["end"] == "turn limit" and state.turns == LIMIT * seats
        assert list(outcome.scores) == [len(held) for held in state.permissions]


@EXAMPLES
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_replay_from_the_move_log_is_exact_dice_included(seats: int, seed: int) -> None:
    state, moves = play_random(seats, seed, check=False)
    check_replay(ENGINE, seats, seed, {"turn_limit": LIMIT}, moves, state, snapshot)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_challenge_windows_always_close_when_late_seats_are_timed_out(seats: int, seed: int) -> None:
    """What the online layer does when time runs out: ``timeout_action`` for every seat still asked."""
    rng = random.Random(seed)
    state = ENGINE.start(seats, seed, {"turn_limit": LIMIT})
    windows = 0
    while ENGINE.to_act(state):
        if ENGINE.reaction_window(state):
            windows += 1
            waiting = sorted(ENGINE.to_act(state))
            assert state.window is not None and state.window.seeker not in waiting
            for seat in waiting[: rng.randrange(len(waiting))]:
                state = ENGINE.apply(state, seat, choose(state, seat, rng, 0.5))
            for seat in sorted(ENGINE.to_act(state)):
                action = ENGINE.timeout_action(state, seat)
                assert action == {"type": "decline"}
                state = ENGINE.apply(state, seat, action)
            assert not ENGINE.reaction_window(state)
            continue
        seat = min(ENGINE.to_act(state))
        assert ENGINE.timeout_action(state, seat) is None
        legal = ENGINE.legal(state, seat)
        seeks = [a for a in legal if a["type"] in ("seek", "stay")]
        state = ENGINE.apply(state, seat, seeks[0] if seeks else choose(state, seat, rng, 0.8))
    assert ENGINE.outcome(state) is not None


def test_random_games_reach_every_action_both_ends_and_every_instruction() -> None:
    """The random games above do exercise the whole game."""
    kinds: Counter[str] = Counter()
    for seed in range(24):
        state, moves = play_random(2 + seed % 5, seed, check=False, smart=0.8, options={"turn_limit": 60})
        kinds.update(action["type"] for _, action in moves)
        for event in ENGINE.events(state):
            kinds[f"event:{event['event']}"] += 1
            if event["event"] == "instruction":
                kinds[f"do:{event['do']}"] += 1
            if event["event"] == "challenge":
                kinds[f"result:{event['result']}"] += 1
            if event["event"] == "game_over":
                kinds[f"end:{event['end']}"] += 1
    for kind in ("draw", "discard", "roll", "stay", "move", "seek", "pass", "decline", "challenge", "give"):
        assert kinds[kind] > 0, kind
    for name in ("reshuffle", "miss_turn", "location_card", "replace_permission", "unchallenged"):
        assert kinds[f"event:{name}"] > 0, name
    for do in (
        "go_to_mi5",
        "replace_influence",
        "replace_permission",
        "give_permission",
        "miss_turn",
        "move",
        "go_to",
        "roll_again",
        "nothing",
    ):
        assert kinds[f"do:{do}"] > 0, do
    assert kinds["result:granted"] > 0 and kinds["result:refused"] > 0
    assert kinds["end:centre"] > 0 and kinds["end:turn limit"] > 0
