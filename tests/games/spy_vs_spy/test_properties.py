"""Property tests over random games for 1 to 6 players, driven through the protocol."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalAction
from games.spy_vs_spy import ENGINE
from games.spy_vs_spy.bots import BOTS
from games.spy_vs_spy.cards import DECK
from games.spy_vs_spy.engine import SpyVsSpyState
from tests.games.protocol import check_replay

from .helpers import deck_counts, play

FULL_DECK = Counter(DECK)

tables = st.one_of(
    st.tuples(st.integers(1, 6), st.just(False)),
    st.tuples(st.just(2), st.just(True)),
)
seeds = st.integers(0, 2**32)


def _hide_differently(state: SpyVsSpyState, rng: random.Random) -> SpyVsSpyState:
    """The same table with every face-down card (racing hands, points piles) dealt differently."""
    spies = []
    for spy in state.spies:
        hidden = [*spy.hand, *spy.points_pile]
        rng.shuffle(hidden)
        spies.append(
            replace(spy, hand=tuple(hidden[: len(spy.hand)]), points_pile=tuple(hidden[len(spy.hand) :]))
        )
    return replace(state, spies=tuple(spies))


def _check_invariants(state: SpyVsSpyState) -> None:
    if state.half_decks:
        assert deck_counts(state) == [FULL_DECK]
    else:
        assert deck_counts(state) == [FULL_DECK] * state.seats
    to_act = ENGINE.to_act(state)
    for seat in range(state.seats):
        legal = ENGINE.legal(state, seat)
        assert bool(legal) == (seat in to_act)
    for seat in state.racers:
        spy = state.spies[seat]
        assert 4 <= len(spy.piles) <= 6 or state.phase == "over"
        if spy.stuck:  # never stuck before the called card has come round
            assert spy.called is not None and spy.came_round and len(spy.piles) == 6
        if spy.card is not None and not spy.stuck:
            assert ENGINE.legal(state, seat) or spy.finished


def _random_game(
    seats: int, half: bool, seed: int, *, heuristic: bool, max_races: int, check_views: bool = False
) -> tuple[SpyVsSpyState, list[tuple[int, dict[str, Any]]]]:
    rng = random.Random(seed)
    bots = [BOTS["heuristic"] if heuristic and seat % 2 == 0 else BOTS["random"] for seat in range(seats)]
    state = ENGINE.start(seats, seed, {"half_decks": half})
    moves: list[tuple[int, dict[str, Any]]] = []
    race, race_moves = 1, 0
    while ENGINE.outcome(state) is None and state.race <= max_races:
        _check_invariants(state)
        if check_views and len(moves) % 23 == 0:
            other = _hide_differently(state, rng)
            for viewer in (*range(seats), None):
                assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        action = bots[seat].choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rng)
        state = ENGINE.apply(state, seat, action)
        moves.append((seat, action))
        race_moves += 1
        # A race ends: at most one action per card, one finish and one take per seat.
        assert race_moves <= seats * (52 + 2)
        if state.race != race:
            race, race_moves = state.race, 0
            for racer in state.racers:  # every race starts with at least 5 racing cards
                spy = state.spies[racer]
                assert len(spy.cards()) - len(spy.points_pile) >= 5
    _check_invariants(state)
    return state, moves


@settings(max_examples=40, deadline=None)
@given(table=tables, seed=seeds)
def test_random_races_conserve_cards_and_end(table: tuple[int, bool], seed: int) -> None:
    seats, half = table
    _random_game(seats, half, seed, heuristic=seed % 2 == 0, max_races=12)


@settings(max_examples=20, deadline=None)
@given(table=tables, seed=seeds)
def test_no_seat_sees_another_racing_hand_or_any_face_down_card(table: tuple[int, bool], seed: int) -> None:
    seats, half = table
    _random_game(seats, half, seed, heuristic=True, max_races=5, check_views=True)


@settings(max_examples=15, deadline=None)
@given(table=tables, seed=seeds)
def test_replay_is_exact(table: tuple[int, bool], seed: int) -> None:
    seats, half = table
    state, moves = _random_game(seats, half, seed, heuristic=True, max_races=20)
    check_replay(ENGINE, seats, seed, {"half_decks": half}, moves, state, snapshot=lambda state: state)


def _candidates(state: SpyVsSpyState) -> list[tuple[Any, Any]]:
    actions: list[Any] = [
        {"type": "finish"},
        {"type": "finish", "pile": 0},
        {"type": "skip"},
        {"type": "flip"},
        {"type": "place"},
        {"type": "place", "pile": True},
        {"type": "place", "pile": "1"},
        {"type": "place", "pile": -1},
        {"type": "take", "pile": False},
        {"type": 3},
        {},
        "place",
        None,
    ]
    actions += [{"type": kind, "pile": pile} for kind in ("place", "take") for pile in range(8)]
    seats: list[Any] = [*range(state.seats), -1, state.seats, True, "0"]
    return [(seat, action) for seat in seats for action in actions]


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(table=tables, seed=seeds)
def test_apply_accepts_exactly_the_legal_actions(table: tuple[int, bool], seed: int) -> None:
    seats, half = table
    rng = random.Random(seed)
    state = ENGINE.start(seats, seed, {"half_decks": half})
    for _ in range(40 * seats):
        if ENGINE.outcome(state) is not None:
            break
        snapshot = copy.deepcopy(state)
        for seat, action in _candidates(state):
            real_seat = type(seat) is int and 0 <= seat < seats
            legal = ENGINE.legal(state, seat) if real_seat else []
            if isinstance(action, dict) and any(action == a and repr(action) == repr(a) for a in legal):
                ENGINE.apply(state, seat, action)  # accepted, and the old state is untouched
            else:
                with pytest.raises(IllegalAction):
                    ENGINE.apply(state, seat, action)
            assert state == snapshot
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal(state, seat)))


@pytest.mark.parametrize(("seats", "half"), [(1, False), (2, True), (3, False), (4, False), (6, False)])
def test_heuristic_games_end_with_a_winner(seats: int, half: bool) -> None:
    for seed in range(3):
        state, _ = play(seats, seed, {"half_decks": half}, bots=[BOTS["heuristic"]] * seats)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        assert list(outcome.places).count(1) == 1
        winner = outcome.places.index(1)
        assert outcome.scores[winner] <= 0
        assert ENGINE.view(state, None)["outcome"] == outcome.as_dict()
        assert ENGINE.to_act(state) == frozenset()
