"""Helpers for the Black Spy tests: rigged positions and scripted play.

Positions are rigged by starting a real game and replacing parts of its state with
``engine.evolve`` (the engine's own copy-with-changes), then played through the
public protocol.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games.black_spy import ENGINE
from games.black_spy import engine as bs
from games.black_spy.cards import BLACK_SPY, CARD_ID, CODES, DECK_ID, hand_of
from games.core import IllegalAction

Action = dict[str, Any]
# The six variants' options, each on or off.
VARIANTS = (
    "no_good_spies",
    "capture_or_release",
    "the_mole",
    "calling_color",
    "following_rank",
    "going_back",
)
ALL_CODES = [CODES[DECK_ID[card]] for card in range(60)]  # the 60 cards, six black-7


def hand_mask(codes: Iterable[str]) -> int:
    """A hand bitmask from card codes (black-7 may repeat up to six times)."""
    physical = []
    spies = iter(range(55, 60))
    for code in codes:
        cid = CARD_ID[code]
        if cid == BLACK_SPY and BLACK_SPY in physical:
            physical.append(next(spies))
        else:
            physical.append(cid)
    return hand_of(physical)


def pack(hands: Sequence[Iterable[str]]) -> tuple[int, ...]:
    """The hands of a state (``state[bs.HANDS]``) from each seat's card codes."""
    return tuple(hand_mask(codes) for codes in hands)


def rigged_play(
    hands: Sequence[Sequence[str]],
    options: dict[str, Any] | None = None,
    *,
    seed: int = 1,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
    leader: int | None = None,
    lead_mask: int | None = None,
    taken: dict[int, list[str]] | None = None,
    deal: int = 1,
) -> bs.State:
    """A state in the play phase with these hands, the first trick about to be led.

    ``leader`` defaults to the holder of the Red 1 (with the first-trick rule). ``taken``
    puts cards in front of players as if they had won them earlier in the deal.
    """
    n = len(hands)
    state = ENGINE.start(n, seed, options or {})
    info = state[bs.DEAL]._replace(
        number=deal, dealer=dealer, scores=tuple(scores) if scores is not None else (0,) * n
    )
    # The taken cards as tricks of at most one card per player, each led and won by its taker.
    tricks = tuple(
        (seat, tuple(CARD_ID[c] for c in cards[at : at + n]), seat)
        for seat, cards in (taken or {}).items()
        for at in range(0, len(cards), n)
    )
    state = bs.evolve(state, hands=pack(hands), deal=info, tricks=tricks)
    if leader is None:
        leader = next(seat for seat, codes in enumerate(hands) if "red-1" in codes)
        lead_mask = bs.NON_BLACK if lead_mask is None else lead_mask
    return bs._first_lead(state, leader, bs.LOW55 if lead_mask is None else lead_mask)


def hand(state: bs.State, seat: int) -> list[str]:
    return list(ENGINE.view(state, seat)["hand"])


def play(state: bs.State, seat: int, code: str) -> bs.State:
    return ENGINE.apply(state, seat, {"type": "play", "card": code})


def play_cards(state: bs.State, codes: Sequence[str]) -> bs.State:
    """Play these cards in turn order, starting with the seat to act."""
    for code in codes:
        (seat,) = ENGINE.to_act(state)
        state = play(state, seat, code)
    return state


def drive(
    state: bs.State,
    choose: Callable[[bs.State, int, list[Action]], Action] | None = None,
    *,
    until: Callable[[bs.State], bool] | None = None,
    rng: random.Random | None = None,
    max_steps: int = 20_000,
) -> bs.State:
    """Play on (the lowest acting seat first) until ``until`` holds or no one may act."""
    rng = rng or random.Random(0)
    for _ in range(max_steps):
        if until is not None and until(state):
            return state
        acting = ENGINE.to_act(state)
        if not acting:
            return state
        seat = min(acting)
        legal = ENGINE.legal(state, seat)
        action = choose(state, seat, legal) if choose else legal[rng.randrange(len(legal))]
        state = ENGINE.apply(state, seat, action)
    raise AssertionError("the game did not end")


def random_game(
    players: int, seed: int, options: dict[str, Any] | None = None, move_seed: int = 0
) -> tuple[bs.State, list[tuple[int, Action]]]:
    rng = random.Random(move_seed)
    state = ENGINE.start(players, seed, options or {})
    moves: list[tuple[int, Action]] = []
    for _ in range(20_000):
        acting = ENGINE.to_act(state)
        if not acting:
            return state, moves
        seat = rng.choice(sorted(acting))
        legal = ENGINE.legal(state, seat)
        action = dict(legal[rng.randrange(len(legal))])
        moves.append((seat, action))
        state = ENGINE.apply(state, seat, action)
    raise AssertionError("the game did not end")


def all_cards(state: bs.State) -> Counter[str]:
    """Every card of the state wherever it is: hands, trick, tricks taken, passes, The Mole."""
    n = state[bs.CFG].players
    cards: Counter[str] = Counter()
    for seat in range(n):
        cards.update(ENGINE.view(state, seat)["hand"])
    cards.update(CODES[c] for c in state[bs.TRICK])
    for _, trick, _ in state[bs.TRICKS]:
        cards.update(CODES[c] for c in trick)
    if state[bs.PHASE] == bs.PASS:
        for passed in state[bs.PASSES]:
            cards.update(CODES[c] for c in passed)
    cards.update(CODES[c] for c in state[bs.DEAL].mole)
    return cards


def rejects(state: bs.State, seat: Any, action: Any, match: str | None = None) -> str:
    """Assert that ``apply`` refuses the action with IllegalAction; return the reason."""
    try:
        ENGINE.apply(state, seat, action)
    except IllegalAction as exc:
        if match is not None:
            assert match in exc.reason, exc.reason
        return exc.reason
    raise AssertionError(f"{action!r} by seat {seat!r} was accepted")
