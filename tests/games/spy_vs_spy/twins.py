"""Twin states of Spy vs Spy: the same table with all that one viewer may not see changed."""

from __future__ import annotations

import random
from dataclasses import replace

from games.spy_vs_spy.engine import TAKE, SpyVsSpyState


def twin(state: SpyVsSpyState, viewer: int | None, rng: random.Random) -> SpyVsSpyState:
    """Redeal every face-down card and redraw every choice ``viewer`` cannot see.

    Nobody sees the order or faces of a racing hand (their own included) nor the faces of a
    points pile, so each seat's face-down cards are redealt between its racing hand and its
    points pile, each keeping its size; a called card that has not come round stays in the
    hand, where everyone knows it is. With half decks nobody knows which cards of the one deck
    each half holds, so the two seats' face-down cards share one pool. During the pick the
    piles the others chose are redrawn (only whether they chose shows), and so is the seed of
    the shuffles to come.
    """
    groups = [[0, 1]] if state.half_decks else [[seat] for seat in range(state.seats)]
    spies = list(state.spies)
    for group in groups:
        kept: dict[int, list[str]] = {}
        pool: list[str] = []
        for seat in group:
            spy = spies[seat]
            hand = list(spy.hand)
            kept[seat] = []
            if spy.called is not None and not spy.came_round and spy.called in hand:
                hand.remove(spy.called)
                kept[seat] = [spy.called]
            pool += hand + list(spy.points_pile)
        rng.shuffle(pool)
        for seat in group:
            spy = spies[seat]
            size = len(spy.hand) - len(kept[seat])
            hand, pool = pool[:size] + kept[seat], pool[size:]
            rng.shuffle(hand)
            points, pool = pool[: len(spy.points_pile)], pool[len(spy.points_pile) :]
            spies[seat] = replace(spy, hand=tuple(hand), points_pile=tuple(points))
        assert not pool
    choices = list(state.choices)
    if state.phase == TAKE:
        for seat, choice in enumerate(choices):
            if seat != viewer and choice is not None:
                choices[seat] = rng.randrange(len(state.spies[seat].piles))
    return replace(state, seed=rng.getrandbits(32), spies=tuple(spies), choices=tuple(choices))
