"""Twin states of Spycatcher: the same table with all that one viewer may not see changed."""

from __future__ import annotations

import random
from dataclasses import replace

from games.spycatcher import SpycatcherState
from games.spycatcher.cards import sort_cards


def twin(state: SpycatcherState, viewer: int | None, rng: random.Random) -> SpycatcherState:
    """Redeal every influence card ``viewer`` cannot see among the places it cannot tell apart.

    The other hands, the pack, the discard pile under its top card and (but for the seeker)
    the run laid face down share one pool, each place keeping its number of cards; the four
    location packs are reordered; the seed of the dice still to come is replaced. Challenges
    are played face up, so the answers given stay as they are.
    """
    hands = [list(h) for h in state.hands]
    pack = list(state.pack[state.top :])
    below = list(state.discard[:-1])
    window = state.window
    face_down = list(window.cards) if window is not None and window.seeker != viewer else []
    others = [s for s in range(state.seats) if s != viewer]
    pool = [c for s in others for c in hands[s]] + pack + below + face_down
    rng.shuffle(pool)
    for s in others:
        hands[s], pool = pool[: len(hands[s])], pool[len(hands[s]) :]
    pack, pool = pool[: len(pack)], pool[len(pack) :]
    below, pool = pool[: len(below)], pool[len(below) :]
    if window is not None and face_down:
        window = replace(window, cards=tuple(pool))
    return replace(
        state,
        seed=rng.getrandbits(32),
        hands=tuple(sort_cards(h) for h in hands),
        pack=tuple(pack),
        top=0,
        discard=(*below, *state.discard[-1:]),
        locations=tuple(tuple(rng.sample(p, len(p))) for p in state.locations),
        window=window,
    )
