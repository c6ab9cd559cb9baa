"""Property tests: random legal games for 3 to 6 players under every combination of variants."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.black_spy import ENGINE
from games.black_spy import engine as bs
from games.black_spy.cards import CODES, DECK_ID, ids_of
from games.core import IllegalAction, replay

from .helpers import VARIANTS

FULL_DECK = Counter(DECK_ID)
CODE_SET = set(CODES)
MAX_STEPS = 20_000


def card_ids(state: bs.State) -> Counter[int]:
    """Every card of a state, wherever it lies, by card id."""
    cards: Counter[int] = Counter()
    for seat in range(state[bs.CFG].players):
        cards.update(ids_of(bs.hand_at(state[bs.HANDS], seat)))
    cards.update(state[bs.TRICK])
    for _, trick, _ in state[bs.TRICKS]:
        cards.update(trick)
    if state[bs.PHASE] == bs.PASS:
        for passed in state[bs.PASSES]:
            cards.update(passed)
    cards.update(state[bs.DEAL].mole)
    return cards


def codes_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if value in CODE_SET else set()
    if isinstance(value, dict):
        return set().union(*(codes_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(codes_in(v) for v in value)) if value else set()
    return set()


def check_view_privacy(state: bs.State) -> None:
    n = state[bs.CFG].players
    for seat in [*range(n), None]:
        view = ENGINE.view(state, seat)
        may_know = (
            codes_in(view["trick"]) | codes_in(view["last_trick"]) | codes_in(view["first_dealer_draws"])
        )
        if seat is None:
            assert view["hand"] == [] and view["passing"] == [] and view["received"] == []
            assert view["mole"] is None or (view["mole"]["cards"] is None and view["mole"]["taken"] is None)
        else:
            own = [CODES[c] for c in ids_of(bs.hand_at(state[bs.HANDS], seat))]
            assert view["hand"] == own
            may_know |= set(own) | set(view["passing"]) | set(view["received"])
            if view["mole"] is not None:
                may_know |= set(view["mole"]["taken"]) | set(view["mole"]["cards"] or [])
                if view["mole"]["cards"] is not None:
                    assert view["mole"]["chooser"] == seat
            if state[bs.PHASE] == bs.PASS:
                # Nothing passed to this seat is visible before everyone has passed: the cards
                # in transit are in no hand, so the subset check below covers them too.
                assert view["received"] == []
        assert codes_in(view) <= may_know, (seat, codes_in(view) - may_know)


def some_actions(rng: random.Random) -> list[Any]:
    code = rng.choice(CODES)
    codes = sorted(rng.sample(CODES, 3), key=CODES.index)
    return [
        {"type": "play", "card": code},
        {"type": "pass", "card": code},
        {"type": "play", "card": code, "extra": True},
        {"type": "call", "color": rng.choice(["blue", "red", "black", "purple"])},
        {"type": "mole", "cards": codes},
        {"type": "mole", "cards": list(reversed(codes))},
        {"type": "all_black", "choice": rng.choice(["give", "subtract", "keep"])},
        {"type": "play", "card": "black-12"},
        {"type": "dance"},
        {},
        "play",
        None,
    ]


def check_illegal_actions(state: bs.State, rng: random.Random) -> None:
    n = state[bs.CFG].players
    snapshot = state.fields()  # (a tuple of the values: a change to the state would show)
    acting = ENGINE.to_act(state)
    for seat in range(n):
        legal = ENGINE.legal(state, seat)
        assert bool(legal) == (seat in acting)
        candidates = some_actions(rng)
        # Another seat's legal action is usually not legal here.
        other = ENGINE.legal(state, rng.randrange(n))
        if other:
            candidates.append(dict(rng.choice(other)))
        if legal:
            # Near misses of a legal action: an extra key, Mole cards out of deck order.
            near = dict(rng.choice(legal))
            candidates.append({**near, "seat": seat})
            if near["type"] == "mole" and len(set(near["cards"])) > 1:
                candidates.append({"type": "mole", "cards": list(reversed(near["cards"]))})
        for action in candidates:
            if action in legal:
                continue
            with pytest.raises(IllegalAction):
                ENGINE.apply(state, seat, action)
        for action in rng.sample(legal, min(2, len(legal))):
            ENGINE.apply(state, seat, dict(action))  # every listed action is accepted
    assert state.fields() == snapshot


def check_history(state: bs.State) -> None:
    cfg = state[bs.CFG]
    total = 80 if cfg.no_good_spies else 60
    for line in state[bs.DEAL].history:
        points = list(line.points)
        others = [p for s, p in enumerate(points) if s != line.all_black]
        if line.all_black >= 0:
            assert line.choice in ((None,) if not cfg.capture_or_release else ("give", "subtract"))
            if line.choice == "subtract":
                assert points[line.all_black] == -60 and others == [0] * (cfg.players - 1)
            else:
                assert points[line.all_black] == 0 and others == [60] * (cfg.players - 1)
        else:
            assert sum(points) == total


def play_game(players: int, seed: int, options: dict[str, Any], move_seed: int, *, deep: bool) -> bs.State:
    rng = random.Random(move_seed)
    state = ENGINE.start(players, seed, options)
    moves: list[tuple[int, dict[str, Any]]] = []
    deal = 1
    for _ in range(MAX_STEPS):
        acting = ENGINE.to_act(state)
        if not acting:
            break
        if deep and rng.random() < (0.08 if state[bs.PHASE] == bs.PLAY else 0.5):
            check_view_privacy(state)
            check_illegal_actions(state, rng)
        if deep or state[bs.DEAL].number != deal:
            assert card_ids(state) == FULL_DECK
            deal = state[bs.DEAL].number
        seat = rng.choice(sorted(acting))
        legal = ENGINE.legal(state, seat)
        action = dict(legal[rng.randrange(len(legal))])
        moves.append((seat, action))
        state = ENGINE.apply(state, seat, action)
    else:
        raise AssertionError(f"no end after {MAX_STEPS} steps")
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    cfg = state[bs.CFG]
    if cfg.going_back:
        assert max(outcome.scores) > cfg.end_value
    else:
        assert max(outcome.scores) >= cfg.end_value
    assert outcome.places == tuple(sorted(outcome.scores).index(s) + 1 for s in outcome.scores)
    check_history(state)
    assert card_ids(state) == FULL_DECK
    if deep:
        check_view_privacy(state)
        assert replay(ENGINE, players, seed, options, moves) == state
        half = len(moves) // 2
        assert replay(ENGINE, players, seed, options, moves[:half]) == replay(
            ENGINE, players, seed, dict(options), [(s, dict(a)) for s, a in moves[:half]]
        )
    return state


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(
    players=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    options=st.fixed_dictionaries({name: st.booleans() for name in VARIANTS}),
    move_seed=st.integers(0, 2**16),
)
def test_random_legal_games_keep_every_invariant(
    players: int, seed: int, options: dict[str, bool], move_seed: int
) -> None:
    play_game(players, seed, options, move_seed, deep=True)


COMBINATIONS = [dict(zip(VARIANTS, bits, strict=True)) for bits in itertools.product([False, True], repeat=6)]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_combination_of_variants_plays_to_the_end(players: int) -> None:
    for index, options in enumerate(COMBINATIONS):
        play_game(players, 1000 * players + index, options, index, deep=False)
