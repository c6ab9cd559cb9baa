"""One scenario per rule sentence of shared/rules/spy-vs-spy.md, each named after its rule.

Rigged hands are written top card first; the first four cards are the square.
Ranks as numbers: A0 2:1 3:2 4:3 5:4 6:5 7:6 8:7 9:8 10:9 J10 Q11 K12.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games import get_engine
from games.core import IllegalAction, InvalidOptions
from games.spy_vs_spy import ENGINE
from games.spy_vs_spy.cards import DECK, goes_on
from games.spy_vs_spy.engine import SpyVsSpyState, start_from_decks

from .helpers import act, rigged, rigged_spy

# A square of four aces leaves 3-4, 6-12 uncovered; 5H and 9H then make piles 5 and 6,
# after which 3, 7, J and Q still fit nowhere.
ACES = "AS AH AD AC 5H 9H"


def test_the_engine_is_registered_as_spy_vs_spy_for_online_races_of_1_to_8() -> None:
    assert get_engine("spy-vs-spy") is ENGINE
    assert (ENGINE.slug, ENGINE.title, ENGINE.seats) == ("spy-vs-spy", "Spy vs Spy", range(1, 9))
    with pytest.raises(InvalidOptions):
        ENGINE.start(9, 1, {})
    with pytest.raises(InvalidOptions):
        ENGINE.start(0, 1, {})
    with pytest.raises(InvalidOptions, match="Unknown option"):
        ENGINE.start(2, 1, {"jokers": True})


# --- decks ---------------------------------------------------------------------------


def test_a_normal_deck_of_52_cards_with_no_jokers() -> None:
    assert len(DECK) == 52 == len(set(DECK))
    assert {card[:-1] for card in DECK} == {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}
    assert {card[-1] for card in DECK} == {"S", "H", "D", "C"}


def test_all_players_use_their_own_full_deck() -> None:
    state = ENGINE.start(4, 11, {})
    for spy in state.spies:
        assert sorted(spy.cards()) == sorted(DECK)
    orders = {spy.points_pile + spy.hand for spy in state.spies}
    assert len(orders) == 4  # each deck shuffled on its own


def test_deal_the_deck_in_half_for_a_2_player_game() -> None:
    state = ENGINE.start(2, 11, {"half_decks": True})
    first, second = (set(spy.cards()) for spy in state.spies)
    assert len(first) == len(second) == 26
    assert first | second == set(DECK)
    for seats in (1, 3, 6):
        with pytest.raises(InvalidOptions, match="only for a 2 player game"):
            ENGINE.start(seats, 11, {"half_decks": True})


def test_a_table_deal_can_be_given_deck_by_deck() -> None:
    deck = list(DECK)  # top first: 5 points pile cards, then the square
    state = start_from_decks(2, 0, [deck, list(reversed(deck))])
    assert state.spies[0].points_pile == tuple(deck[:5])
    assert state.spies[0].piles[:4] == tuple((card,) for card in deck[5:9])
    assert state.spies[1].points_pile == tuple(reversed(deck))[:5]
    with pytest.raises(InvalidOptions, match="Expected 2 decks"):
        start_from_decks(2, 0, [deck])
    with pytest.raises(InvalidOptions, match="51 cards"):
        start_from_decks(1, 0, [deck[1:]])
    with pytest.raises(InvalidOptions, match="distinct standard cards"):
        start_from_decks(1, 0, [[*deck[1:], "AH"]])
    with pytest.raises(InvalidOptions, match="two halves of one deck"):
        start_from_decks(2, 0, [deck[:26], deck[:26]], half_decks=True)
    halves = start_from_decks(2, 0, [deck[:26], deck[26:]], half_decks=True)
    assert sorted(halves.spies[0].cards() + halves.spies[1].cards()) == sorted(DECK)


# --- start ---------------------------------------------------------------------------


def test_deal_out_5_cards_face_down_to_begin_the_points_pile() -> None:
    state = ENGINE.start(3, 5, {})
    view = ENGINE.view(state, 0)
    for seat in range(3):
        assert len(state.spies[seat].points_pile) == 5
        assert view["players"][seat]["points_pile"] == 5
        assert view["players"][seat]["score"] == 5
    assert view["scores"] == [5, 5, 5]


def test_you_are_not_supposed_to_look_at_the_points_pile_but_can_count_it() -> None:
    spy = rigged_spy("AS 5H 9D KC 2S 6S 10S QS", points=5)
    state = rigged(spy)
    text = json.dumps([ENGINE.view(state, 0), ENGINE.view(state, None)])
    for card in spy.points_pile:
        assert f'"{card}"' not in text
    assert ENGINE.view(state, 0)["players"][0]["points_pile"] == 5


def test_the_racing_hand_cannot_be_looked_at() -> None:
    spy = rigged_spy("AS 5H 9D KC 2S 6S 10S QS")
    state = rigged(spy, rigged_spy("AS 5H 9D KC 2S 6S 10S QS"))
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        me = view["players"][0]
        assert me["hand"] == 3  # 6S 10S QS: counted, never shown
        assert me["card"] == "2S"
        text = json.dumps(view)
        for card in ("6S", "10S", "QS"):
            assert f'"{card}"' not in text


def test_deal_out_4_cards_face_up_from_the_racing_hand() -> None:
    state = rigged(rigged_spy("AS 5H 9D KC 2S 6S 10S QS"))
    assert state.spies[0].piles == (("AS",), ("5H",), ("9D",), ("KC",))
    assert ENGINE.view(state, None)["players"][0]["piles"] == [["AS"], ["5H"], ["9D"], ["KC"]]
    started = ENGINE.start(2, 3, {})
    assert all(len(spy.piles) >= 4 for spy in started.spies)


def test_when_you_start_you_immediately_flip_the_top_card() -> None:
    state = rigged(rigged_spy("AS 5H 9D KC 2S 6S 10S QS"))
    assert state.spies[0].card == "2S"
    assert ENGINE.legal(state, 0) == [{"type": "place", "pile": 0}]


def test_all_players_start_together_like_a_race() -> None:
    state = ENGINE.start(5, 2, {})
    assert ENGINE.to_act(state) == frozenset(range(5))
    # Each seat acts on its own cards, in any order.
    for seat in (3, 0, 4):
        state = ENGINE.apply(state, seat, ENGINE.legal(state, seat)[0])
    assert ENGINE.to_act(state) == frozenset(range(5))


# --- placing -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "top", "fits"),
    [
        ("6S", "5H", True),  # 6 goes on 5
        ("5S", "5H", True),  # 5 goes on 5
        ("5S", "6H", True),  # 5 goes on 6
        ("7S", "5H", False),  # a 7 will not go on 5
        ("QS", "KH", True),  # a queen goes on king
        ("KS", "QH", True),  # a king goes on a queen
        ("AS", "KH", True),  # an ace goes on a king
        ("KS", "AH", True),  # a king goes on an ace
        ("2S", "AH", True),  # and a 2 on an ace
        ("AS", "2H", True),
        ("10S", "JH", True),
        ("JS", "9H", False),
        ("QS", "AH", False),
        ("2S", "KH", False),
    ],
)
def test_match_the_rank_or_one_above_or_below(card: str, top: str, fits: bool) -> None:
    assert goes_on(card, top) is fits
    # The same through the engine: the square's first pile is ``top``.
    others = [c for c in ("8D", "8C", "8S") if c not in (card, top)]
    hand = f"{top} {' '.join(others)} {card} 3C"
    state = rigged(rigged_spy(hand))
    if state.spies[0].card == card:  # it fits somewhere: is pile 0 among the choices?
        assert ({"type": "place", "pile": 0} in ENGINE.legal(state, 0)) is fits
    else:  # it fitted nowhere and went on a new pile by itself
        assert not fits
        assert state.spies[0].piles[4] == (card,)


def test_the_ranking_order_wraps_king_ace_two() -> None:
    state = rigged(rigged_spy("KS 5H 5D 9C AH 2D"))
    # AH goes on the king; 2D then goes on the ace (now the top of pile 0).
    assert ENGINE.legal(state, 0) == [{"type": "place", "pile": 0}]
    state = act(state, 0, {"type": "place", "pile": 0})
    assert state.spies[0].card == "2D"
    assert ENGINE.legal(state, 0) == [{"type": "place", "pile": 0}]


def test_you_may_put_a_card_on_any_pile_it_fits() -> None:
    state = rigged(rigged_spy("5S 6H QD 2C 5D 9S"))
    legal = ENGINE.legal(state, 0)
    assert legal == [{"type": "place", "pile": 0}, {"type": "place", "pile": 1}]
    for action in legal:
        after = act(state, 0, action)
        assert after.spies[0].piles[action["pile"]][-1] == "5D"


def test_you_cannot_skip_a_card_on_purpose() -> None:
    state = rigged(rigged_spy("5S 6H QD 2C 5D 9S"))
    for action in (
        {"type": "skip"},
        {"type": "finish"},
        {"type": "bottom"},
        {"type": "new_pile"},
        {"type": "place", "pile": 2},  # QD: the 5D does not fit
        {"type": "place", "pile": 4},
    ):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, action)


def test_just_keep_flipping_cards_adding_them_to_the_piles() -> None:
    state = rigged(rigged_spy("AS 5H 9D KC 2S 6S 10S QS"))
    for expected_pile, card in ((0, "2S"), (1, "6S"), (2, "10S"), (3, "QS")):
        assert state.spies[0].card == card
        state = act(state, 0, {"type": "place", "pile": expected_pile})
        assert state.spies[0].piles[expected_pile][-1] == card
    assert state.spies[0].done


# --- obstacles -----------------------------------------------------------------------


def test_a_card_you_cannot_put_down_starts_a_new_pile() -> None:
    # Tops A 5 9 K leave 3, 7 and J uncovered: the 3H makes pile 5 without asking.
    state = rigged(rigged_spy("AS 5H 9D KC 3H 3D 8S"))
    spy = state.spies[0]
    assert spy.piles == (("AS",), ("5H",), ("9D",), ("KC",), ("3H",))
    assert spy.card == "3D"
    assert ENGINE.legal(state, 0) == [{"type": "place", "pile": 4}]


def test_6_is_the_maximum_number_of_piles() -> None:
    state = rigged(rigged_spy("AS 5H 9D KC 3H 7H JH 2D 8S"))
    spy = state.spies[0]
    assert len(spy.piles) == 6
    assert spy.piles[4:] == (("3H",), ("7H",))
    assert spy.called == "JH"  # the next card that fits nowhere is called, not a 7th pile


def test_with_6_piles_the_card_you_cannot_put_down_is_called_and_put_on_the_bottom() -> None:
    state = rigged(rigged_spy("AS 5H 9D KC 3H 7H JH 2D 8S"))
    spy = state.spies[0]
    assert spy.called == "JH"
    assert spy.hand == ("8S", "JH")  # 2D is face up waiting for a pile; JH at the bottom
    assert spy.card == "2D"
    for seat in (0, None):
        assert ENGINE.view(state, seat)["players"][0]["called"] == "JH"  # told to everyone


def test_later_cards_you_cannot_put_down_go_to_the_bottom_without_calling_them() -> None:
    # JS is called; QS and 3D fit nowhere either and go to the bottom silently.
    state = rigged(rigged_spy(f"{ACES} JS QS 10S 3D"))
    spy = state.spies[0]
    assert spy.called == "JS"
    assert spy.card == "10S"
    assert spy.hand == ("3D", "JS", "QS")
    text = json.dumps(ENGINE.view(state, None))
    assert '"QS"' not in text and '"3D"' not in text


def test_once_the_called_card_comes_round_a_card_you_cannot_put_down_leaves_you_stuck() -> None:
    state = rigged(rigged_spy(f"{ACES} JS QS 10S 3D"))
    state = act(state, 0, {"type": "place", "pile": 5})  # 10S on 9H; 3D fits nowhere: bottom
    assert state.spies[0].card == "JS"  # the called card has come round, and fits the 10S
    assert state.spies[0].came_round
    state = act(state, 0, {"type": "place", "pile": 5})
    assert state.spies[0].card == "QS"
    state = act(state, 0, {"type": "place", "pile": 5})
    spy = state.spies[0]
    assert spy.stuck and spy.card == "3D" and spy.hand == ()
    assert ENGINE.legal(state, 0) == [{"type": "finish"}]


def test_stuck_still_finishes_the_race() -> None:
    state = rigged(rigged_spy(f"{ACES} JS QS"), rigged_spy("AS 5H 9D KC 2S 6S 10S QS"))
    assert state.spies[0].stuck
    state = act(state, 0, {"type": "finish"})
    assert state.finish_order == (0,)
    assert ENGINE.view(state, 1)["players"][0]["finished"]


def test_the_race_is_won_when_you_have_no_cards_left_in_your_racing_hand() -> None:
    state = rigged(rigged_spy("AS 5H 9D KC 2S 6S 10S QS"), rigged_spy(f"{ACES} JS QS 10S 3D"))
    for pile in range(4):
        state = act(state, 0, {"type": "place", "pile": pile})
    assert state.spies[0].hand == () and state.spies[0].card is None
    assert ENGINE.legal(state, 0) == [{"type": "finish"}]
    state = act(state, 0, {"type": "finish"})
    assert state.finish_order == (0,)
    assert ENGINE.to_act(state) == frozenset({1})


def test_finishing_order_is_the_order_players_say_finished() -> None:
    state = rigged(*(rigged_spy(f"{ACES} JS QS") for _ in range(3)))
    for seat in (2, 0, 1):
        state = act(state, seat, {"type": "finish"})
    for seat in range(3):
        state = act(state, seat, {"type": "take", "pile": 0})
    assert state.history[-1].finish_order == (2, 0, 1)
    rows = {row.seat: row for row in state.history[-1].rows}
    assert [rows[seat].place for seat in range(3)] == [2, 3, 1]
    assert rows[2].removed == 5 and rows[0].removed == rows[1].removed == 0


# --- finishing -----------------------------------------------------------------------


def _three_seat_race() -> SpyVsSpyState:
    """Seat 0 uses its hand up on the square (bonus), seat 1 is stuck at once with JS QS
    left, seat 2 uses its hand up after making 6 piles."""
    return rigged(
        rigged_spy("AS 5H 9D KC 2S 6S 10S QS", points=30),
        rigged_spy(f"{ACES} JS QS"),
        rigged_spy(f"{ACES} 10S 2S"),
    )


def _finish_three_seat_race(take: tuple[int, int] = (0, 5)) -> tuple[SpyVsSpyState, SpyVsSpyState]:
    state = _three_seat_race()
    state = act(state, 1, {"type": "finish"})  # seat 1 first
    state = act(state, 2, {"type": "place", "pile": 5})  # 10S on 9H
    state = act(state, 2, {"type": "place", "pile": 0})  # 2S on AS
    state = act(state, 2, {"type": "finish"})  # second
    for pile in range(4):
        state = act(state, 0, {"type": "place", "pile": pile})
    state = act(state, 0, {"type": "finish"})  # third, with the bonus
    before = state
    state = act(state, 1, {"type": "take", "pile": take[0]})
    state = act(state, 2, {"type": "take", "pile": take[1]})
    return before, state


def test_do_not_add_up_the_points_till_everyone_finishes_the_race() -> None:
    state = _three_seat_race()
    state = act(state, 1, {"type": "finish"})
    assert ENGINE.view(state, None)["scores"] == [30, 5, 5]
    assert len(state.spies[1].points_pile) == 5
    before, after = _finish_three_seat_race()
    assert before.phase == "take"
    assert ENGINE.view(before, None)["scores"] == [30, 5, 5]
    assert ENGINE.view(after, None)["scores"] == [10, 3, 7]


def test_the_left_over_cards_in_your_hand_go_into_the_points_pile() -> None:
    # Seat 0 finishes first with the bonus, so seat 1 (stuck with JS QS) removes nothing.
    state = rigged(rigged_spy("AS 5H 9D KC 2S 6S 10S QS", points=30), rigged_spy(f"{ACES} JS QS"))
    for pile in range(4):
        state = act(state, 0, {"type": "place", "pile": pile})
    state = act(state, 0, {"type": "finish"})
    state = act(state, 1, {"type": "finish"})
    assert state.spies[1].leftover == ("JS", "QS")
    filler = state.spies[1].points_pile
    state = act(state, 1, {"type": "take", "pile": 4})  # the 5H
    assert Counter(state.spies[1].points_pile) == Counter((*filler, "JS", "QS", "5H"))
    row = state.history[-1].rows[1]
    assert (row.leftover, row.pile, row.removed, row.score) == (2, 1, 0, 8)


def test_everyone_must_pick_one_of_the_piles_to_add_to_their_points_pile() -> None:
    before, after = _finish_three_seat_race(take=(3, 5))
    assert ENGINE.to_act(before) == frozenset({1, 2})  # at the same time; not seat 0 (bonus)
    assert ENGINE.legal(before, 1) == [{"type": "take", "pile": i} for i in range(6)]
    rows = {row.seat: row for row in after.history[-1].rows}
    assert (rows[1].took, rows[1].pile) == (3, 1)
    assert (rows[2].took, rows[2].pile) == (5, 2)  # 9H 10S
    assert rows[2].change == 2 and rows[2].score == 7
    assert before.spies[2].piles[5] == ("9H", "10S")


def test_the_first_finisher_removes_5_points_back_into_the_race_piles() -> None:
    _, after = _finish_three_seat_race()
    row = after.history[-1].rows[1]
    assert (row.place, row.leftover, row.pile, row.removed, row.change, row.score) == (1, 2, 1, 5, -2, 3)
    # 5 + 2 leftover + 1 taken - 5 removed: 3 cards stay, the other 5 join the race cards.
    assert len(after.spies[1].points_pile) == 3
    spy = after.spies[1]
    racing = Counter(spy.hand) + Counter(c for pile in spy.piles for c in pile)
    if spy.card:
        racing[spy.card] += 1
    assert sum(racing.values()) == 5 + 5  # five piles left on the table + the 5 removed


def test_finishing_with_one_or_two_empty_spaces_is_a_bonus_of_20() -> None:
    # Two empty spaces (4 piles):
    _, after = _finish_three_seat_race()
    row = after.history[-1].rows[0]
    assert (row.bonus, row.removed, row.change, row.score) == (True, 20, -20, 10)
    # One empty space (5 piles): 3H makes pile 5, 2S goes on the ace.
    state = rigged(rigged_spy("AS 5H 9D KC 3H 2S", points=25))
    state = act(state, 0, {"type": "place", "pile": 0})
    assert len(state.spies[0].piles) == 5
    assert ENGINE.view(state, 0)["players"][0]["bonus"]
    state = act(state, 0, {"type": "finish"})
    assert state.history[-1].rows[0].change == -20
    assert state.spies[0].score == 5


def test_the_bonus_winner_does_not_pick_a_pile() -> None:
    before, after = _finish_three_seat_race()
    assert 0 not in ENGINE.to_act(before)
    assert ENGINE.legal(before, 0) == []
    with pytest.raises(IllegalAction, match="bonus"):
        ENGINE.apply(before, 0, {"type": "take", "pile": 0})
    assert after.history[-1].rows[0].took is None


def test_half_deck_bonus_is_10() -> None:
    state = rigged(
        rigged_spy("AS 5H 9D KC 2S 6S 10S QS", points=12),
        rigged_spy(f"{ACES} JS QS"),
        half_decks=True,
    )
    state = act(state, 1, {"type": "finish"})
    for pile in range(4):
        state = act(state, 0, {"type": "place", "pile": pile})
    state = act(state, 0, {"type": "finish"})
    state = act(state, 1, {"type": "take", "pile": 0})
    assert state.history[-1].rows[0].removed == 10
    assert state.spies[0].score == 2
    assert ENGINE.view(state, None)["bonus_points"] == 10


def test_you_cannot_add_the_winning_5_to_the_bonus_to_make_25() -> None:
    state = rigged(rigged_spy("AS 5H 9D KC 2S 6S 10S QS", points=30), rigged_spy(f"{ACES} JS QS"))
    for pile in range(4):
        state = act(state, 0, {"type": "place", "pile": pile})
    state = act(state, 0, {"type": "finish"})  # first, with the bonus
    state = act(state, 1, {"type": "finish"})
    state = act(state, 1, {"type": "take", "pile": 0})
    rows = state.history[-1].rows
    assert (rows[0].removed, rows[0].change) == (20, -20)
    assert state.spies[0].score == 10


# --- repeat race ---------------------------------------------------------------------


def test_race_again_with_the_remaining_piles_shuffled_and_dealt_into_4_piles() -> None:
    before, after = _finish_three_seat_race()
    assert after.race == 2 and after.phase == "race"
    assert ENGINE.to_act(after) == frozenset({0, 1, 2})
    for seat, took in ((0, None), (1, 0), (2, 5)):
        old, new = before.spies[seat], after.spies[seat]
        left_on_table = Counter(c for i, pile in enumerate(old.piles) if i != took for c in pile)
        moved_back = Counter(old.points_pile) + Counter(old.leftover if took is not None else ())
        if took is not None:
            moved_back += Counter(old.piles[took])
        moved_back -= Counter(new.points_pile)
        racing = Counter(new.hand) + Counter(c for pile in new.piles for c in pile)
        if new.card:
            racing[new.card] += 1
        assert racing == left_on_table + moved_back
        assert len(new.piles) >= 4
        assert all(len(pile) == 1 for pile in new.piles[:4])  # a fresh square of four


# --- winning -------------------------------------------------------------------------


def test_reaching_0_or_a_negative_number_wins_the_game() -> None:
    state = rigged(
        rigged_spy("AS 5H 9D KC 2S 6S 10S QS", points=20),  # bonus: 20 - 20 = 0
        rigged_spy(f"{ACES} JS QS"),
    )
    state = act(state, 1, {"type": "finish"})
    for pile in range(4):
        state = act(state, 0, {"type": "place", "pile": pile})
    state = act(state, 0, {"type": "finish"})
    state = act(state, 1, {"type": "take", "pile": 0})
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == (0, 3)
    assert outcome.places == (1, 2)
    assert state.phase == "over" and ENGINE.to_act(state) == frozenset()
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(state, 0, {"type": "finish"})


def test_a_tie_goes_to_the_better_negative_score() -> None:
    # Seat 0 reaches 0 with the bonus; seat 1 reaches -1 at the same time (1 + 2 + 1 - 5).
    state = rigged(
        rigged_spy("AS 5H 9D KC 2S 6S 10S QS", points=20),
        rigged_spy(f"{ACES} JS QS", points=1),
    )
    state = act(state, 1, {"type": "finish"})
    for pile in range(4):
        state = act(state, 0, {"type": "place", "pile": pile})
    state = act(state, 0, {"type": "finish"})
    state = act(state, 1, {"type": "take", "pile": 0})
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == (0, -1)
    assert outcome.places == (2, 1)
    assert outcome.winners == {1}


def test_an_exact_tie_means_a_new_race_between_the_tied_players() -> None:
    state = rigged(
        rigged_spy("AS 5H 9D KC 2S 6S 10S QS", points=19),  # bonus: -1
        rigged_spy(f"{ACES} JS QS", points=1),  # first: 1 + 2 + 1 - 5 = -1
        rigged_spy(f"{ACES} JS QS", points=8),
    )
    state = act(state, 1, {"type": "finish"})
    state = act(state, 2, {"type": "finish"})
    for pile in range(4):
        state = act(state, 0, {"type": "place", "pile": pile})
    state = act(state, 0, {"type": "finish"})
    state = act(state, 1, {"type": "take", "pile": 0})
    state = act(state, 2, {"type": "take", "pile": 0})
    assert ENGINE.outcome(state) is None
    assert [spy.score for spy in state.spies] == [-1, -1, 11]
    assert state.race == 2 and state.racers == (0, 1)
    view = ENGINE.view(state, 2)
    assert view["tie_break"] and view["racing"] == [0, 1]
    assert ENGINE.to_act(state) == frozenset({0, 1})
    assert ENGINE.legal(state, 2) == []
    with pytest.raises(IllegalAction, match="tie-break"):
        ENGINE.apply(state, 2, {"type": "finish"})
    sitting_out = state.spies[2]
    assert sitting_out.piles == () and sitting_out.card is None
    for seat in (0, 1):
        state = ENGINE.apply(state, seat, ENGINE.legal(state, seat)[0])
    assert state.spies[2] is sitting_out


# --- single player -------------------------------------------------------------------


def test_single_player_deals_10_cards_for_the_start() -> None:
    state = ENGINE.start(1, 4, {})
    assert len(state.spies[0].points_pile) == 10
    assert ENGINE.view(state, 0)["scores"] == [10]


def test_single_player_always_gets_minus_5_at_the_end_of_every_round() -> None:
    state = rigged(rigged_spy(f"{ACES} JS QS", points=10))
    state = act(state, 0, {"type": "finish"})
    state = act(state, 0, {"type": "take", "pile": 0})
    row = state.history[-1].rows[0]
    assert (row.leftover, row.pile, row.removed, row.score) == (2, 1, 5, 8)


def test_single_player_bonus_is_the_same_minus_20() -> None:
    state = rigged(rigged_spy("AS 5H 9D KC 2S 6S 10S QS", points=30))
    for pile in range(4):
        state = act(state, 0, {"type": "place", "pile": pile})
    state = act(state, 0, {"type": "finish"})
    row = state.history[-1].rows[0]
    assert (row.bonus, row.removed, row.score) == (True, 20, 10)


# --- after the race ------------------------------------------------------------------


def test_when_the_race_is_over_you_may_check_the_other_players_piles() -> None:
    before, _ = _finish_three_seat_race()
    view = ENGINE.view(before, 1)
    assert view["players"][2]["piles"] == [["AS", "2S"], ["AH"], ["AD"], ["AC"], ["5H"], ["9H", "10S"]]
    assert view["players"][0]["piles"] == [["AS", "2S"], ["5H", "6S"], ["9D", "10S"], ["KC", "QS"]]
