"""One scenario per rule sentence of shared/rules/mister-spy.md, named after the rule."""

from __future__ import annotations

from collections import Counter

import pytest

from games import get_engine
from games.core import Engine, IllegalAction, InvalidOptions
from games.mister_spy import ENGINE
from games.mister_spy.cards import DECK, HAND_SIZES, KIND
from games.mister_spy.engine import CAPTIVE, OVER, STOLEN, TURN, WINDOW

from .tables import play, table

PASS = {"type": "pass"}
KILL = {"type": "kill"}
LET_PASS = {"type": "let_pass"}


def capture(card: str, *reveal: str) -> dict[str, object]:
    return {"type": "capture", "card": card, "reveal": list(reveal)}


def taunt(card: str) -> dict[str, object]:
    return {"type": "taunt", "card": card}


def steal_lair(card: str, lair: str) -> dict[str, object]:
    return {"type": "steal_lair", "card": card, "lair": lair}


# The engine and the deck -------------------------------------------------------


def test_the_engine_is_registered_as_mister_spy() -> None:
    assert get_engine("mister-spy") is ENGINE
    assert isinstance(ENGINE, Engine)
    assert set(ENGINE.options) == {"dealer"}
    assert ENGINE.slug == "mister-spy"
    assert ENGINE.title == "Before I Kill You, Mister Spy"
    assert ENGINE.seats == range(2, 7)


def test_the_deck_contains_54_cards() -> None:
    assert len(DECK) == 54


def test_15_lair_cards_valued_2_through_4_five_of_each() -> None:
    lairs = Counter(c for c in DECK if KIND[c] == "lair")
    assert lairs == {"lair-2": 5, "lair-3": 5, "lair-4": 5}


def test_18_taunt_cards_lettered_a_through_i_two_of_each() -> None:
    taunts = Counter(c for c in DECK if KIND[c] == "taunt")
    assert taunts == {f"taunt-{letter}": 2 for letter in "ABCDEFGHI"}


def test_21_spy_cards_valued_2_through_8_in_the_listed_counts() -> None:
    spies = Counter(c for c in DECK if KIND[c] == "spy")
    assert spies == {"spy-2": 5, "spy-3": 5, "spy-4": 4, "spy-5": 3, "spy-6": 2, "spy-7": 1, "spy-8": 1}


# Setting up ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "cards"), [(2, 7), (3, 6), (4, 5), (5, 4), (6, 3)])
def test_starting_hands_vary_with_the_number_of_players(players: int, cards: int) -> None:
    state = ENGINE.start(players, 11, {})
    assert HAND_SIZES[players] == cards
    sizes = [len(hand) for hand in state.hands]
    # the dealer (seat 0) has already drawn for the first turn
    assert sizes == [cards + 1] + [cards] * (players - 1)
    assert state.deck_left == 54 - players * cards - 1


def test_shuffle_the_deck_the_same_seed_deals_the_same_cards() -> None:
    assert ENGINE.start(4, 5, {}).hands == ENGINE.start(4, 5, {}).hands
    assert ENGINE.start(4, 5, {}).deck != ENGINE.start(4, 6, {}).deck


def test_player_counts_outside_2_to_6_are_refused() -> None:
    for players in (1, 7):
        with pytest.raises(InvalidOptions, match="2 to 6"):
            ENGINE.start(players, 1, {})
    with pytest.raises(InvalidOptions, match="Unknown option"):
        ENGINE.start(3, 1, {"deeler": 1})


def test_the_dealer_goes_first_and_turns_proceed_to_the_left() -> None:
    state = ENGINE.start(4, 3, {"dealer": 2})
    seen = []
    for _ in range(6):
        assert state.phase == TURN
        seen.append(state.turn)
        assert ENGINE.to_act(state) == {state.turn}
        state = ENGINE.apply(state, state.turn, PASS)
    assert seen == [2, 3, 0, 1, 2, 3]


def test_pass_the_deal_to_the_winner_of_the_last_game() -> None:
    state = table([["spy-2"], ["spy-3"], []], lairs=[[("lair-2", True)], [], []], full_deck=False)
    state = play(state, (0, capture("spy-2")), (0, KILL))
    # the deck was empty: the game ended at seat 1's turn; seat 0 won with 2 points
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.detail["next_dealer"] == 0
    with pytest.raises(InvalidOptions, match="no seat 3"):
        ENGINE.start(3, 1, {"dealer": 3})
    assert ENGINE.start(3, 1, {"dealer": 1}).turn == 1


# Turns -------------------------------------------------------------------------


def test_at_the_start_of_your_turn_draw_a_card() -> None:
    state = table([["lair-2"], ["lair-3"]], deck=["spy-7", "taunt-B"])
    state = ENGINE.apply(state, 0, PASS)
    assert state.turn == 1
    assert state.hands[1] == ("lair-3", "spy-7")
    state = ENGINE.apply(state, 1, PASS)
    assert state.hands[0] == ("lair-2", "taunt-B")


def test_if_the_deck_is_already_empty_the_game_is_over_and_you_dont_get_a_turn() -> None:
    state = table([["lair-2"], ["lair-3"], ["spy-2"]], deck=["taunt-A"], full_deck=False)
    state = ENGINE.apply(state, 0, PASS)  # seat 1 draws the last card
    assert state.phase == TURN and state.turn == 1 and state.deck_left == 0
    state = ENGINE.apply(state, 1, PASS)  # seat 2 cannot draw: no turn for seat 2
    assert state.phase == OVER
    assert ENGINE.to_act(state) == frozenset()
    assert ENGINE.legal(state, 2) == []
    assert state.hands[2] == ("spy-2",)
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(state, 2, PASS)


def test_you_must_perform_one_of_these_actions_or_pass() -> None:
    state = table(
        [["lair-3", "taunt-A", "spy-2"], ["spy-4"]],
        lairs=[[("lair-2", True)], [("lair-4", True)]],
    )
    kinds = {action["type"] for action in ENGINE.legal(state, 0)}
    assert kinds == {"pass", "play_lair", "capture", "steal_lair", "steal_spy"}
    # one action only: after playing a Lair the turn passes on
    state = ENGINE.apply(state, 0, {"type": "play_lair", "card": "lair-3"})
    assert state.turn == 1


# Play a Lair card --------------------------------------------------------------


def test_play_one_lair_card_face_down_a_secret_lair_with_a_value_of_1() -> None:
    state = table([["lair-4"], []])
    state = ENGINE.apply(state, 0, {"type": "play_lair", "card": "lair-4"})
    (lair,) = state.lairs[0]
    assert lair.card == "lair-4" and not lair.face_up and lair.size == 1
    assert ENGINE.view(state, 1)["lair_sizes"][0] == 1
    assert ENGINE.view(state, 1)["lairs"][0] == [{"id": lair.id, "face_up": False, "size": 1, "card": None}]


def test_deathtraps_you_may_play_a_taunt_card_as_a_secret_lair() -> None:
    state = table([["taunt-C"], []])
    assert {"type": "play_lair", "card": "taunt-C"} in ENGINE.legal(state, 0)
    state = ENGINE.apply(state, 0, {"type": "play_lair", "card": "taunt-C"})
    (lair,) = state.lairs[0]
    assert lair.deathtrap and not lair.face_up and lair.size == 1
    assert ENGINE.view(state, 0)["lairs"][0][0]["deathtrap"] is True
    assert "deathtrap" not in ENGINE.view(state, 1)["lairs"][0][0]


# Play a Spy ----------------------------------------------------------------------


def test_play_a_spy_from_your_hand_into_your_own_lair() -> None:
    state = table([["spy-3"], []], lairs=[[("lair-3", True)], []])
    state = ENGINE.apply(state, 0, capture("spy-3"))
    assert state.phase == CAPTIVE and state.captor == 0
    assert state.captive is not None and state.captive.card == "spy-3"
    assert "spy-3" not in state.hands[0]


def test_the_value_of_your_lair_must_be_at_least_as_large_as_the_spy() -> None:
    state = table([["spy-4", "spy-5", "spy-6"], []], lairs=[[("lair-3", True), ("lair-2", True)], []])
    captures = {a["card"] for a in ENGINE.legal(state, 0) if a["type"] == "capture"}
    assert captures == {"spy-4", "spy-5"}  # 3 + 2 = 5 holds a 5, not a 6
    with pytest.raises(IllegalAction, match="cannot hold"):
        ENGINE.apply(state, 0, capture("spy-6"))


def test_you_may_turn_over_your_secret_lairs_to_make_your_lair_large_enough() -> None:
    # the rule book's example: a size-4 Lair plus a Secret Lair holds a size-5 Spy
    state = table([["spy-5", "spy-7"], []], lairs=[[("lair-4", True), ("lair-3", False)], []])
    legal = ENGINE.legal(state, 0)
    assert capture("spy-5") in legal  # 4 + 1
    assert capture("spy-5", "lair-3") not in legal  # not needed
    assert capture("spy-7", "lair-3") in legal  # 4 + 3
    state = ENGINE.apply(state, 0, capture("spy-7", "lair-3"))
    assert all(c.face_up for c in state.lairs[0])
    assert ENGINE.view(state, 1)["lair_sizes"][0] == 7


def test_you_cant_turn_over_your_own_deathtraps() -> None:
    state = table([["spy-5"], []], lairs=[[("lair-4", True), ("taunt-A", False)], []])
    legal = ENGINE.legal(state, 0)
    assert capture("spy-5") in legal  # the Deathtrap is a Secret Lair: it counts 1
    state = table([["spy-6"], []], lairs=[[("lair-4", True), ("taunt-A", False)], []])
    assert not [a for a in ENGINE.legal(state, 0) if a["type"] == "capture"]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, capture("spy-6", "taunt-A"))


# Killing and taunting -----------------------------------------------------------


def test_if_you_kill_the_spy_shes_worth_only_her_printed_point_value() -> None:
    state = table([["spy-6"], []], lairs=[[("lair-4", True), ("lair-2", True)], []])
    state = play(state, (0, capture("spy-6")), (0, KILL))
    assert state.scores == (6, 0)
    assert state.piles[0][0].card == "spy-6"
    assert state.turn == 1


def test_each_time_you_taunt_her_that_point_value_doubles() -> None:
    state = table([["spy-3", "taunt-A", "taunt-B"], []], lairs=[[("lair-3", True)], []])
    state = play(
        state,
        (0, capture("spy-3")),
        (0, taunt("taunt-A")),
        (1, LET_PASS),
        (0, taunt("taunt-B")),
        (1, LET_PASS),
    )
    assert state.captive is not None and state.captive.points == 12
    state = ENGINE.apply(state, 0, KILL)
    assert state.scores == (12, 0)
    assert state.piles[0][0].taunts == ("taunt-A", "taunt-B")


def test_when_you_play_a_taunt_card_your_opponents_get_one_chance_to_foil_you() -> None:
    state = table([["spy-3", "taunt-A"], ["taunt-A"], ["lair-2"]], lairs=[[("lair-3", True)], [], []])
    state = play(state, (0, capture("spy-3")), (0, taunt("taunt-A")))
    assert state.phase == WINDOW
    assert ENGINE.to_act(state) == {1, 2}
    assert ENGINE.legal(state, 1) == [LET_PASS, {"type": "foil", "card": "taunt-A"}]
    assert ENGINE.legal(state, 2) == [LET_PASS]
    # one chance: once answered, that seat is not asked again
    state = ENGINE.apply(state, 1, LET_PASS)
    assert ENGINE.to_act(state) == {2}
    with pytest.raises(IllegalAction, match="already answered"):
        ENGINE.apply(state, 1, {"type": "foil", "card": "taunt-A"})


def test_if_someone_foils_your_taunt_fails_and_the_spy_escapes_to_the_discard_pile() -> None:
    state = table([["spy-3", "taunt-A"], ["taunt-A"], []], lairs=[[("lair-3", True)], [], []])
    state = play(state, (0, capture("spy-3")), (0, taunt("taunt-A")), (2, LET_PASS))
    state = ENGINE.apply(state, 1, {"type": "foil", "card": "taunt-A"})
    assert state.phase == TURN and state.turn == 1
    assert state.captive is None and state.scores == (0, 0, 0)
    assert sorted(state.discard) == ["spy-3", "taunt-A", "taunt-A"]
    assert "taunt-A" not in state.hands[1]


def test_if_your_first_taunt_succeeds_you_may_taunt_again_as_long_as_you_want() -> None:
    taunts = ["taunt-A", "taunt-B", "taunt-C", "taunt-D"]
    state = table([["spy-2", *taunts], []], lairs=[[("lair-2", True)], []])
    state = ENGINE.apply(state, 0, capture("spy-2"))
    for card in taunts:
        assert taunt(card) in ENGINE.legal(state, 0)
        state = play(state, (0, taunt(card)), (1, LET_PASS))
        assert state.phase == CAPTIVE
    assert state.captive is not None and state.captive.points == 2 * 16
    state = ENGINE.apply(state, 0, KILL)
    assert state.scores[0] == 32


def test_your_opponents_can_only_cancel_your_most_recent_taunt() -> None:
    # seat 1 holds the other A: once A has succeeded, it cannot foil the B taunt
    state = table(
        [["spy-3", "taunt-A", "taunt-B"], ["taunt-A"], ["taunt-B"]], lairs=[[("lair-3", True)], [], []]
    )
    state = play(state, (0, capture("spy-3")), (0, taunt("taunt-A")), (1, LET_PASS), (2, LET_PASS))
    state = ENGINE.apply(state, 0, taunt("taunt-B"))
    assert ENGINE.legal(state, 1) == [LET_PASS]
    with pytest.raises(IllegalAction, match="Only the other Taunt B"):
        ENGINE.apply(state, 1, {"type": "foil", "card": "taunt-A"})
    state = play(state, (1, LET_PASS), (2, {"type": "foil", "card": "taunt-B"}))
    # the whole Spy escapes, with the A that had succeeded
    assert sorted(state.discard) == ["spy-3", "taunt-A", "taunt-B", "taunt-B"]


def test_you_cant_play_two_matching_taunt_cards_on_the_same_spy() -> None:
    state = table([["spy-3", "taunt-E", "taunt-E"], []], lairs=[[("lair-3", True)], []])
    state = play(state, (0, capture("spy-3")), (0, taunt("taunt-E")), (1, LET_PASS))
    assert ENGINE.legal(state, 0) == [KILL]
    with pytest.raises(IllegalAction, match="two matching taunts"):
        ENGINE.apply(state, 0, taunt("taunt-E"))


def test_a_note_about_foiling_you_may_hold_on_to_the_matching_card_instead() -> None:
    state = table([["spy-3", "taunt-A"], ["taunt-A"]], lairs=[[("lair-3", True)], []])
    state = play(state, (0, capture("spy-3")), (0, taunt("taunt-A")), (1, LET_PASS), (0, KILL))
    assert state.scores == (6, 0)
    assert "taunt-A" in state.hands[1]


# Steal a Lair ------------------------------------------------------------------


def test_steal_a_lair_play_a_spy_as_a_double_agent_to_steal_a_single_lair_card() -> None:
    state = table([["spy-3"], [], []], lairs=[[], [("lair-2", True), ("lair-3", False)], [("lair-4", True)]])
    targets = {a["lair"] for a in ENGINE.legal(state, 0) if a["type"] == "steal_lair"}
    assert targets == {"L1", "L2", "L3"}  # any single Lair card of another player


def test_if_the_spy_matches_the_lair_you_steal_it_and_keep_the_spy_as_a_henchman() -> None:
    state = table([["spy-3"], []], lairs=[[], [("lair-3", False)]])
    state = ENGINE.apply(state, 0, steal_lair("spy-3", "L1"))
    assert state.lairs[1] == ()
    assert [(c.card, c.face_up) for c in state.lairs[0]] == [("lair-3", True)]
    (spy,) = state.piles[0]
    assert spy.how == "henchman" and spy.points == 3 and state.scores == (3, 0)
    # you cannot taunt a Double Agent: the turn is simply over
    assert state.phase == TURN and state.turn == 1


def test_if_the_spy_is_larger_you_steal_the_lair_and_the_spy_escapes_to_the_discard_pile() -> None:
    state = table([["spy-5"], []], lairs=[[], [("lair-4", True)]])
    state = ENGINE.apply(state, 0, steal_lair("spy-5", "L1"))
    assert [c.card for c in state.lairs[0]] == ["lair-4"] and state.lairs[1] == ()
    assert state.discard == ("spy-5",) and state.scores == (0, 0)


def test_if_the_spy_is_smaller_the_owner_of_the_lair_captures_it_and_may_taunt_or_kill_right_now() -> None:
    state = table([["spy-2"], ["taunt-D"], ["taunt-D"]], lairs=[[], [("lair-4", False)], []])
    state = ENGINE.apply(state, 0, steal_lair("spy-2", "L1"))
    assert state.phase == CAPTIVE and state.captor == 1
    assert ENGINE.to_act(state) == {1}
    assert ENGINE.legal(state, 1) == [KILL, taunt("taunt-D")]
    assert [(c.card, c.face_up) for c in state.lairs[1]] == [("lair-4", True)]  # not stolen
    state = ENGINE.apply(state, 1, taunt("taunt-D"))
    assert ENGINE.to_act(state) == {0, 2}  # the thief is an opponent of the taunter too
    state = play(state, (0, LET_PASS), (2, LET_PASS), (1, KILL))
    assert state.scores == (0, 4, 0)
    assert state.turn == 1  # the thief's turn is over; play goes on to its left


def test_if_you_find_a_deathtrap_your_spy_is_killed_and_collected_by_its_owner() -> None:
    state = table([["spy-8"], ["taunt-A"]], lairs=[[], [("taunt-B", False)]])
    state = ENGINE.apply(state, 0, steal_lair("spy-8", "L1"))
    assert state.lairs == ((), ())
    assert state.discard == ("taunt-B",)  # the Deathtrap card is discarded
    (spy,) = state.piles[1]
    assert spy.card == "spy-8" and spy.how == "deathtrap" and spy.taunts == ()  # without a taunt
    assert state.scores == (0, 8)
    assert state.phase == TURN and state.turn == 1


def test_you_can_steal_face_up_lairs_in_which_case_you_know_what_will_happen() -> None:
    state = table([["spy-2"], []], lairs=[[], [("lair-2", True)]])
    view = ENGINE.view(state, 0)
    assert view["lairs"][1][0]["card"] == "lair-2"
    state = ENGINE.apply(state, 0, steal_lair("spy-2", "L1"))
    assert state.scores == (2, 0)


def test_you_cant_play_spies_into_your_own_deathtraps() -> None:
    state = table([["spy-2"], []], lairs=[[("taunt-A", False), ("lair-2", True)], []])
    assert not [a for a in ENGINE.legal(state, 0) if a["type"] == "steal_lair"]
    with pytest.raises(IllegalAction, match="own"):
        ENGINE.apply(state, 0, steal_lair("spy-2", "L1"))


# Steal a Spy ---------------------------------------------------------------------


def test_steal_a_spy_from_an_opponents_hand() -> None:
    state = table([[], ["spy-6", "lair-2"], ["lair-3"]])
    assert {"type": "steal_spy", "from": 1} in ENGINE.legal(state, 0)
    assert {"type": "steal_spy", "from": 2} not in ENGINE.legal(state, 0)  # no Spy there
    state = ENGINE.apply(state, 0, {"type": "steal_spy", "from": 1})
    assert state.hands[0] == ("spy-6",) and state.hands[1] == ("lair-2",)
    assert state.phase == STOLEN


def test_steal_a_spy_from_the_top_of_the_deck() -> None:
    state = table([[], []], deck=["spy-4", "lair-2"])
    assert {"type": "steal_spy", "from": "deck"} in ENGINE.legal(state, 0)
    state = ENGINE.apply(state, 0, {"type": "steal_spy", "from": "deck"})
    assert state.hands[0] == ("spy-4",) and state.deck[state.top] == "lair-2"
    state = table([[], []], deck=["lair-2", "spy-4"])
    assert {"type": "steal_spy", "from": "deck"} not in ENGINE.legal(state, 0)


def test_you_can_keep_the_stolen_spy_in_your_hand() -> None:
    state = table([["lair-3"], ["spy-6"]], lairs=[[("lair-4", True)], []])
    state = ENGINE.apply(state, 0, {"type": "steal_spy", "from": 1})
    assert {"type": "keep"} in ENGINE.legal(state, 0)
    state = ENGINE.apply(state, 0, {"type": "keep"})
    assert state.phase == TURN and state.turn == 1 and "spy-6" in state.hands[0]


def test_you_may_play_the_stolen_spy_right_away_capturing_it_in_your_own_lair() -> None:
    state = table([["spy-2"], ["spy-4"]], lairs=[[("lair-4", True)], []])
    state = ENGINE.apply(state, 0, {"type": "steal_spy", "from": 1})
    legal = ENGINE.legal(state, 0)
    assert capture("spy-4") in legal
    assert capture("spy-2") not in legal  # only the Spy just stolen
    state = play(state, (0, capture("spy-4")), (0, KILL))
    assert state.scores == (4, 0)


def test_you_may_play_the_stolen_spy_as_a_double_agent() -> None:
    state = table([[], ["spy-3"], []], lairs=[[], [], [("lair-3", True)]])
    state = ENGINE.apply(state, 0, {"type": "steal_spy", "from": 1})
    state = ENGINE.apply(state, 0, steal_lair("spy-3", "L1"))
    assert state.scores == (3, 0, 0) and [c.card for c in state.lairs[0]] == ["lair-3"]


def test_you_cant_steal_a_lair_from_the_player_from_whom_you_just_stole_the_spy() -> None:
    state = table([[], ["spy-3"], []], lairs=[[], [("lair-3", True)], [("lair-2", True)]])
    state = ENGINE.apply(state, 0, {"type": "steal_spy", "from": 1})
    targets = {a["lair"] for a in ENGINE.legal(state, 0) if a["type"] == "steal_lair"}
    assert targets == {"L2"}
    with pytest.raises(IllegalAction, match="just stole"):
        ENGINE.apply(state, 0, steal_lair("spy-3", "L1"))


def test_a_spy_stolen_from_the_deck_may_be_played_against_anyone() -> None:
    state = table([[], [], []], lairs=[[], [("lair-3", True)], [("lair-2", True)]], deck=["spy-3"])
    state = ENGINE.apply(state, 0, {"type": "steal_spy", "from": "deck"})
    targets = {a["lair"] for a in ENGINE.legal(state, 0) if a["type"] == "steal_lair"}
    assert targets == {"L1", "L2"}


# Winning ---------------------------------------------------------------------------


def test_the_first_player_with_33_points_wins() -> None:
    state = table(
        [["spy-2"], ["spy-8"]],
        lairs=[[("lair-2", True)], [("lair-4", True), ("lair-4", True)]],
        piles=[[("spy-7", ["taunt-A", "taunt-B"])], [("spy-6", ["taunt-C", "taunt-D"])]],
    )
    assert state.scores == (28, 24)
    state = play(state, (0, capture("spy-2")), (0, KILL))
    assert state.scores == (30, 24) and state.phase == TURN
    state = play(state, (1, capture("spy-8")), (1, KILL))
    assert state.scores == (30, 32) and state.phase == TURN
    state = table(
        [["spy-5"], []],
        lairs=[[("lair-4", True), ("lair-2", True)], []],
        piles=[[("spy-7", ["taunt-A", "taunt-B"])], []],
    )
    state = play(state, (0, capture("spy-5")), (0, KILL))
    assert state.phase == OVER and state.scores == (33, 0)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.places == (1, 2) and outcome.winners == {0} and outcome.detail["end"] == "33 points"


def test_or_to_have_the_high_score_when_the_deck_runs_out() -> None:
    state = table(
        [["lair-2"], [], []],
        piles=[[("spy-5", [])], [("spy-3", ["taunt-A"])], [("spy-2", [])]],
        deck=[],
        full_deck=False,
    )
    state = ENGINE.apply(state, 0, PASS)
    assert state.phase == OVER
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == (5, 6, 2) and outcome.places == (2, 1, 3)
    assert outcome.detail["end"] == "deck empty"
    assert ENGINE.outcome(table([[], []])) is None
