"""Twin states of Mister Spy: the same table with all that one viewer may not see changed."""

from __future__ import annotations

import random
from dataclasses import replace

from games.mister_spy import MisterSpyState
from games.mister_spy.cards import KIND, SPY, TAUNT
from games.mister_spy.engine import Lair, Spy

Slot = tuple[str, int, int]  # (where, row, index): a hand, a Lair or the deck


def twin(state: MisterSpyState, viewer: int | None, rng: random.Random) -> MisterSpyState:
    """Move every card ``viewer`` cannot see to another place it cannot tell apart.

    Spies swap with Spies and other cards with other cards (the backs differ), then the deck
    below its top card is reordered whatever the backs (only the top back shows). A stolen
    Spy stays in the thief's hand for the seats that saw it, and becomes another Spy of that
    hand for the others. Face-down taunts on Spies swap with hidden taunts, the answers other
    seats gave in an open window are redrawn, and so is the seed of the chance to come.
    """
    n = state.seats
    others = [s for s in range(n) if s != viewer]
    hands = [list(h) for h in state.hands]
    deck = list(state.deck)
    lairs = [list(row) for row in state.lairs]
    stolen = state.stolen
    sees_stolen = stolen is not None and viewer is not None and viewer in (state.turn, stolen.source)
    pinned: Slot | None = None
    if stolen is not None and sees_stolen and state.turn != viewer:
        pinned = ("hand", state.turn, hands[state.turn].index(stolen.card))

    slots: list[Slot] = []
    for s in others:
        slots += [("hand", s, i) for i in range(len(hands[s])) if ("hand", s, i) != pinned]
        slots += [("lair", s, i) for i, c in enumerate(lairs[s]) if not c.face_up]
    slots += [("deck", 0, i) for i in range(state.top, len(deck))]

    def get(slot: Slot) -> str:
        where, row, i = slot
        if where == "hand":
            return hands[row][i]
        if where == "lair":
            return lairs[row][i].card
        return deck[i]

    def put(slot: Slot, card: str) -> None:
        where, row, i = slot
        if where == "hand":
            hands[row][i] = card
        elif where == "lair":
            lairs[row][i] = Lair(lairs[row][i].id, card, False)
        else:
            deck[i] = card

    for spy_back in (True, False):
        group = [slot for slot in slots if (KIND[get(slot)] == SPY) == spy_back]
        cards = [get(slot) for slot in group]
        rng.shuffle(cards)
        for slot, card in zip(group, cards, strict=True):
            put(slot, card)
    below = deck[state.top + 1 :]
    rng.shuffle(below)
    deck[state.top + 1 :] = below

    hidden_taunts = [slot for slot in slots if KIND[get(slot)] == TAUNT]

    def swap_taunts(spy: Spy) -> Spy:
        taunts = list(spy.taunts)
        for k in range(len(taunts)):
            if not hidden_taunts:
                break
            slot = rng.choice(hidden_taunts)
            card = get(slot)
            if card in taunts:
                continue  # two matching taunts never lie on one Spy
            put(slot, taunts[k])
            taunts[k] = card
        return Spy(spy.id, spy.card, tuple(taunts), spy.how)

    piles = [list(row) for row in state.piles]
    for s in others:
        piles[s] = [swap_taunts(spy) for spy in piles[s]]
    captive = state.captive
    if captive is not None and state.captor != viewer:
        captive = swap_taunts(captive)
    if stolen is not None and not sees_stolen:
        stolen = replace(stolen, card=rng.choice([c for c in hands[state.turn] if KIND[c] == SPY]))
    window = state.window
    if window is not None:
        answered = [s for s in others if s != window.taunter and s not in window.waiting]
        mine = window.foilers & {viewer} if viewer is not None else frozenset()
        window = replace(window, foilers=frozenset(s for s in answered if rng.random() < 0.5) | mine)
    return replace(
        state,
        seed=rng.getrandbits(32),
        deck=tuple(deck),
        hands=tuple(tuple(sorted(h)) for h in hands),
        lairs=tuple(tuple(row) for row in lairs),
        piles=tuple(tuple(row) for row in piles),
        captive=captive,
        stolen=stolen,
        window=window,
    )
