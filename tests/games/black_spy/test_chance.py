"""The engine's own chance (``cards.shuffled``, see the package docstring): seeded, exact,
uniform enough to deal with, and the source of every deal and first-dealer draw."""

from __future__ import annotations

from collections import Counter

from games.black_spy import ENGINE, cards
from games.black_spy import engine as bs


def test_a_shuffle_is_a_permutation_of_the_deck_fixed_by_seed_event_and_number() -> None:
    deck = cards.shuffled(12345, cards.DEAL_EVENT, 1)
    assert sorted(deck) == list(cards.DECK)
    assert cards.shuffled(12345, cards.DEAL_EVENT, 1) == deck
    others = [
        cards.shuffled(12346, cards.DEAL_EVENT, 1),
        cards.shuffled(12345, cards.DEAL_EVENT, 2),
        cards.shuffled(12345, cards.DRAW_EVENT, 1),
        cards.shuffled(-12346, cards.DEAL_EVENT, 1),  # ~12345 with the sign flag
        cards.shuffled(12345 + 2**32, cards.DEAL_EVENT, 1),  # every bit of a seed counts
        cards.shuffled(2**200 + 5, cards.DEAL_EVENT, 1),
    ]
    assert all(sorted(other) == list(cards.DECK) for other in others)
    assert len({tuple(d) for d in [deck, *others]}) == 7


def test_the_generator_gives_known_numbers_compiled_or_not() -> None:
    # Pinned so that a change of the generator is a deliberate one (it changes every deal).
    assert cards.shuffled(5, cards.DEAL_EVENT, 1)[:10] == [54, 56, 35, 28, 15, 22, 27, 14, 25, 44]
    assert cards.shuffled(3, cards.DRAW_EVENT, 0, 4)[:4] == [19, 15, 25, 13]
    # MurmurHash3's finaliser, with its products split, against the plain formula.
    for x in (0, 1, 0x12345678, 0xFFFFFFFF):
        y = x ^ x >> 16
        y = y * 0x85EBCA6B & 0xFFFFFFFF
        y ^= y >> 13
        y = y * 0xC2B2AE35 & 0xFFFFFFFF
        assert cards._mix32(x) == y ^ y >> 16


def test_every_card_is_equally_likely_in_every_place() -> None:
    seeds = 3000
    first: Counter[int] = Counter()
    where: Counter[int] = Counter()
    for seed in range(seeds):
        deck = cards.shuffled(seed, cards.DEAL_EVENT, 1)
        first[deck[0]] += 1
        where[deck.index(59)] += 1
    # 50 expected per card or place: a chi-square with 59 degrees of freedom stays far
    # below 120 (p < 1e-5) for a uniform shuffle.
    for counts in (first, where):
        chi2 = sum((counts[k] - seeds / 60) ** 2 / (seeds / 60) for k in range(60))
        assert chi2 < 120, chi2


def test_the_deal_and_the_first_dealer_draws_come_from_it() -> None:
    state = ENGINE.start(4, 77, {})
    dealer = state.deal.dealer
    deck = cards.shuffled(77, cards.DEAL_EVENT, 1)
    for k in range(4):
        assert state.hand((dealer + 1 + k) % 4) == cards.hand_of(deck[k::4])
    drawn = cards.shuffled(77, cards.DRAW_EVENT, 0, 4)[:4]
    assert state.cfg.draws[0] == tuple((seat, cards.DECK_ID[card]) for seat, card in enumerate(drawn))
    assert bs._shuffled_deck(77, 1) == deck
