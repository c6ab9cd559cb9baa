"""Twin states of Black Spy: the same table with all that one viewer may not see changed."""

from __future__ import annotations

import random

from games.black_spy import engine as bs
from games.black_spy.cards import CODES, ids_of

from .helpers import hand_mask

Slot = tuple[str, int, int]  # (where, seat, index): a hand, a pass in transit or the Mole


def twin(state: bs.State, viewer: int | None, rng: random.Random) -> bs.State:
    """Redeal every card ``viewer`` cannot see among the places it cannot tell apart.

    The other hands (each keeping its size), the cards the others are passing while the pass
    is still on, and the Mole's cards (but for the seat choosing from it) share one pool.
    Once the pass is over, the passes ``viewer`` neither made nor received, and what the
    others took from the Mole, are redrawn; so is the seed of the deals to come.
    """
    cfg, deal = state.cfg, state.deal
    n = cfg.players
    others = [s for s in range(n) if s != viewer]
    in_transit = state.phase in (bs.PASS, bs.MOLE)
    chooser = state.turn if state.phase == bs.MOLE else None
    hands = [ids_of(hand) for hand in state.hands]
    passes = [list(cards) for cards in state.passes]
    mole = list(deal.mole)

    slots: list[Slot] = []
    for s in others:
        slots += [("hand", s, i) for i in range(len(hands[s]))]
        if in_transit:
            slots += [("pass", s, i) for i in range(len(passes[s]))]
    if viewer is None or viewer != chooser:
        slots += [("mole", 0, i) for i in range(len(mole))]
    places = {"hand": hands, "pass": passes, "mole": [mole]}
    cards = [places[where][row][i] for where, row, i in slots]
    rng.shuffle(cards)
    for (where, row, i), card in zip(slots, cards, strict=True):
        places[where][row][i] = card

    offset = cfg.pass_offsets[(deal.number - 1) % len(cfg.pass_offsets)]
    if not in_transit:
        seen = set() if viewer is None else {viewer, (viewer - offset) % n}
        for s in others:
            if s not in seen and len(passes[s]) == bs.PASS_CARDS and len(cards) >= bs.PASS_CARDS:
                passes[s] = rng.sample(cards, bs.PASS_CARDS)
    taken = [list(cards_taken) for cards_taken in deal.mole_taken]
    for s in others:
        if taken[s] and len(cards) >= len(taken[s]):
            taken[s] = sorted(rng.sample(cards, len(taken[s])))

    values = dict(zip(bs.Config.FIELDS, cfg.field_values(), strict=True))
    values["seed"] = rng.getrandbits(32)
    return bs.evolve(
        state,
        hands=tuple(hand_mask(CODES[cid] for cid in hand) for hand in hands),
        passes=tuple(tuple(cards_passed) for cards_passed in passes),
        cfg=bs.Config(**values),
        deal=deal._replace(mole=tuple(sorted(mole)), mole_taken=tuple(tuple(t) for t in taken)),
    )
