"""One test per ruling in the package docstring (games/mister_spy/__init__.py), by number."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import games.mister_spy
from games.core import IllegalAction
from games.mister_spy import ENGINE
from games.mister_spy.engine import CAPTIVE, OVER, STOLEN, TURN

from .tables import play, table

LET_PASS = {"type": "let_pass"}
KILL = {"type": "kill"}


def capture(card: str, *reveal: str) -> dict[str, object]:
    return {"type": "capture", "card": card, "reveal": list(reveal)}


def test_every_ruling_is_written_in_the_docstring() -> None:
    doc = games.mister_spy.__doc__ or ""
    assert "Rulings" in doc
    for number in range(1, 17):
        assert f"\n{number}. **" in doc


def test_ruling_1_every_opponent_answers_every_taunt() -> None:
    state = table([["spy-2", "taunt-I"], [], [], [], []], lairs=[[("lair-2", True)], [], [], [], []])
    state = play(state, (0, capture("spy-2")), (0, {"type": "taunt", "card": "taunt-I"}))
    # nobody holds the other I (it is in the deck), yet all four are asked
    assert ENGINE.to_act(state) == {1, 2, 3, 4}
    assert all(ENGINE.legal(state, seat) == [LET_PASS] for seat in (1, 2, 3, 4))


def test_ruling_2_order_of_foilers_at_most_one_opponent_can_foil() -> None:
    # the two cards of a letter: the taunter played one, so only one other seat can hold the match
    state = table([["spy-2", "taunt-I"], ["taunt-I"], ["taunt-H"]], lairs=[[("lair-2", True)], [], []])
    state = play(state, (0, capture("spy-2")), (0, {"type": "taunt", "card": "taunt-I"}))
    can_foil = [seat for seat in ENGINE.to_act(state) if len(ENGINE.legal(state, seat)) > 1]
    assert can_foil == [1]
    # the order with several foilers is tested in test_window (an impossible table)


def test_ruling_3_a_foiled_taunt_sends_the_spy_its_taunts_and_the_foil_to_the_discard_face_up() -> None:
    state = table(
        [["spy-4", "taunt-A", "taunt-B"], ["taunt-B"]],
        lairs=[[("lair-4", True)], []],
    )
    state = play(
        state,
        (0, capture("spy-4")),
        (0, {"type": "taunt", "card": "taunt-A"}),
        (1, LET_PASS),
        (0, {"type": "taunt", "card": "taunt-B"}),
        (1, {"type": "foil", "card": "taunt-B"}),
    )
    assert Counter(state.discard) == Counter(["taunt-A", "taunt-B", "taunt-B", "spy-4"])
    assert ENGINE.view(state, None)["discard"] == list(state.discard)
    assert state.phase == TURN and state.turn == 1 and state.scores == (0, 0)


def test_ruling_4_the_taunt_letter_is_public_only_while_its_window_is_open() -> None:
    state = table([["spy-2", "taunt-D"], []], lairs=[[("lair-2", True)], []])
    state = play(state, (0, capture("spy-2")), (0, {"type": "taunt", "card": "taunt-D"}))
    assert ENGINE.view(state, None)["window"]["taunt"] == "taunt-D"
    state = ENGINE.apply(state, 1, LET_PASS)
    assert "taunt-D" not in json.dumps(ENGINE.view(state, 1))
    assert "taunt-D" not in json.dumps(ENGINE.events(state))


def test_ruling_5_two_matching_taunts_on_one_spy_are_not_offered() -> None:
    state = table([["spy-2", "taunt-D", "taunt-D", "taunt-E"], []], lairs=[[("lair-2", True)], []])
    state = play(state, (0, capture("spy-2")), (0, {"type": "taunt", "card": "taunt-D"}), (1, LET_PASS))
    assert ENGINE.legal(state, 0) == [KILL, {"type": "taunt", "card": "taunt-E"}]


def test_ruling_6_secret_lairs_are_turned_over_only_as_needed_oldest_first() -> None:
    state = table(
        [["spy-5", "spy-4"], []],
        lairs=[[("lair-2", False), ("lair-3", False), ("lair-2", False), ("taunt-A", False)], []],
    )
    # face down: 1 + 1 + 1 + 1 = 4 holds a spy-4 without turning anything over
    assert [a for a in ENGINE.legal(state, 0) if a["type"] == "capture" and a["card"] == "spy-4"] == [
        capture("spy-4")
    ]
    # a spy-5 needs one more: one lair-2 or the lair-3, never both, never the Deathtrap
    fives = [a["reveal"] for a in ENGINE.legal(state, 0) if a["type"] == "capture" and a["card"] == "spy-5"]
    assert fives == [["lair-2"], ["lair-3"]]
    with pytest.raises(IllegalAction, match="only as many as are needed"):
        ENGINE.apply(state, 0, capture("spy-5", "lair-2", "lair-3"))
    state = ENGINE.apply(state, 0, capture("spy-5", "lair-2"))
    assert [c.face_up for c in state.lairs[0]] == [True, False, False, False]  # the oldest lair-2


def test_ruling_7_henchmen_and_deathtrap_victims_are_never_taunted() -> None:
    state = table([["spy-3", "taunt-A"], []], lairs=[[], [("lair-3", True)]])
    state = ENGINE.apply(state, 0, {"type": "steal_lair", "card": "spy-3", "lair": "L1"})
    assert state.phase == TURN and state.turn == 1 and state.piles[0][0].how == "henchman"
    state = table([["spy-3"], ["taunt-A"]], lairs=[[], [("taunt-B", False)]])
    state = ENGINE.apply(state, 0, {"type": "steal_lair", "card": "spy-3", "lair": "L1"})
    assert state.phase == TURN and state.piles[1][0].how == "deathtrap" and state.piles[1][0].taunts == ()


def test_ruling_8_a_stolen_secret_lair_is_turned_face_up() -> None:
    state = table([["spy-3"], []], lairs=[[], [("lair-3", False)]])
    state = ENGINE.apply(state, 0, {"type": "steal_lair", "card": "spy-3", "lair": "L1"})
    assert [(c.id, c.face_up) for c in state.lairs[0]] == [("L1", True)]
    state = table([["spy-2"], []], lairs=[[], [("lair-3", False)]])
    state = ENGINE.apply(state, 0, {"type": "steal_lair", "card": "spy-2", "lair": "L1"})
    assert [(c.id, c.face_up) for c in state.lairs[1]] == [("L1", True)]


def test_ruling_9_the_spy_stolen_from_a_hand_is_chosen_by_seeded_chance() -> None:
    hands = [[], ["spy-2", "spy-5", "spy-8", "lair-2"]]
    taken: Counter[str] = Counter()
    for seed in range(40):
        state = ENGINE.apply(table(hands, seed=seed), 0, {"type": "steal_spy", "from": 1})
        again = ENGINE.apply(table(hands, seed=seed), 0, {"type": "steal_spy", "from": 1})
        assert state.hands == again.hands  # the same seed takes the same Spy
        (card,) = state.hands[0]
        taken[card] += 1
        assert "lair-2" in state.hands[1]  # never a card with the other back
    assert set(taken) == {"spy-2", "spy-5", "spy-8"}


def test_ruling_10_spies_are_stolen_only_from_an_opponents_hand_or_the_top_of_the_deck() -> None:
    state = table(
        [["spy-3"], ["lair-2"]],
        piles=[[], [("spy-6", [])]],
        discard=["spy-5"],
        deck=["lair-3"],
    )
    steals = [a for a in ENGINE.legal(state, 0) if a["type"] == "steal_spy"]
    assert steals == []  # not the discard pile, a score pile, your own hand, or a non-Spy top card
    for source in (0, 1, "deck", "discard"):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, {"type": "steal_spy", "from": source})


def test_ruling_11_the_thief_is_always_asked_and_stealing_the_last_card_ends_the_game_next_turn() -> None:
    state = table([[], []], deck=["spy-8"], full_deck=False)
    state = ENGINE.apply(state, 0, {"type": "steal_spy", "from": "deck"})
    assert state.phase == STOLEN and ENGINE.legal(state, 0) == [{"type": "keep"}]  # no Lair: only keep
    assert ENGINE.view(state, 1)["phase"] == "stolen"
    state = ENGINE.apply(state, 0, {"type": "keep"})
    assert state.phase == OVER and state.end == "deck empty"


def test_ruling_12_points_count_when_the_spy_dies_and_33_ends_the_game_at_once_even_out_of_turn() -> None:
    # a captive being taunted counts nothing yet
    state = table([["spy-8", "taunt-A", "taunt-B"], []], lairs=[[("lair-4", True), ("lair-4", True)], []])
    state = play(state, (0, capture("spy-8")), (0, {"type": "taunt", "card": "taunt-A"}), (1, LET_PASS))
    state = play(state, (0, {"type": "taunt", "card": "taunt-B"}), (1, LET_PASS))
    assert state.phase == CAPTIVE and state.scores == (0, 0) and state.captive.points == 32  # type: ignore[union-attr]
    state = ENGINE.apply(state, 0, KILL)
    assert state.scores == (32, 0) and state.phase == TURN
    # a Deathtrap wins the game for its owner in the thief's turn
    state = table(
        [["spy-4"], []], lairs=[[], [("taunt-A", False)]], piles=[[], [("spy-8", ["taunt-B", "taunt-C"])]]
    )
    state = ENGINE.apply(state, 0, {"type": "steal_lair", "card": "spy-4", "lair": "L1"})
    assert state.phase == OVER and state.scores == (0, 36) and ENGINE.to_act(state) == frozenset()
    assert ENGINE.outcome(state).winners == {1}  # type: ignore[union-attr]
    # so does a smaller Double Agent captured and killed by the Lair's owner
    state = table(
        [["spy-2"], []], lairs=[[], [("lair-4", True)]], piles=[[], [("spy-8", ["taunt-B", "taunt-C"])]]
    )
    state = play(state, (0, {"type": "steal_lair", "card": "spy-2", "lair": "L1"}), (1, KILL))
    assert state.phase == OVER and state.scores == (0, 34)


def test_ruling_13_ties_share_the_place_and_the_next_dealer_is_the_first_tied_winner_to_the_left() -> None:
    state = table(
        [[], [], [], []],
        piles=[[("spy-5", [])], [("spy-3", [])], [("spy-5", [])], [("spy-2", [])]],
        full_deck=False,
    )
    state = ENGINE.apply(state, 0, {"type": "pass"})
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.places == (1, 3, 1, 4) and outcome.winners == {0, 2}
    assert outcome.detail["next_dealer"] == 2  # the dealer is seat 0: its left is 1, 2, ...


def test_ruling_14_dealing_is_one_card_at_a_time_from_the_dealers_left() -> None:
    state = ENGINE.start(3, 9, {"dealer": 1})
    deck = state.deck
    # seat 2 gets cards 0, 3, 6, ..., seat 0 gets 1, 4, ..., the dealer (seat 1) 2, 5, ... and then draws
    assert state.hands[2] == tuple(sorted(deck[0:18:3]))
    assert state.hands[0] == tuple(sorted(deck[1:18:3]))
    assert state.hands[1] == tuple(sorted((*deck[2:18:3], deck[18])))
    assert state.turn == 1 and state.phase == TURN


def test_ruling_15_spies_are_never_secret_lairs_and_you_never_steal_from_your_own_lair() -> None:
    state = table([["spy-2", "spy-4"], []], lairs=[[("lair-2", True)], [("lair-4", True)]])
    legal = ENGINE.legal(state, 0)
    assert not [a for a in legal if a["type"] == "play_lair"]
    with pytest.raises(IllegalAction, match="never a Spy"):
        ENGINE.apply(state, 0, {"type": "play_lair", "card": "spy-2"})
    assert {a["lair"] for a in legal if a["type"] == "steal_lair"} == {"L2"}


def test_ruling_16_a_stolen_spy_is_seen_by_the_thief_and_the_robbed_seat_only() -> None:
    # seed 0, 3 seats: pass, pass, and seat 2 steals the Spy on top of the deck
    state = ENGINE.start(3, 0, {})
    state = play(state, (0, {"type": "pass"}), (1, {"type": "pass"}))
    state = ENGINE.apply(state, 2, {"type": "steal_spy", "from": "deck"})
    assert state.stolen is not None
    card = state.stolen.card
    assert ENGINE.view(state, 2)["stolen"] == {"seat": 2, "from": "deck", "card": card}
    for viewer in (None, 0, 1):
        assert ENGINE.view(state, viewer)["stolen"] == {"seat": 2, "from": "deck", "card": None}
    # from a hand: the thief and the robbed seat see it; a third seat and a spectator do not
    state = table([[], ["spy-5", "lair-2"], ["lair-3"]])
    state = ENGINE.apply(state, 0, {"type": "steal_spy", "from": 1})
    for viewer, seen in ((0, "spy-5"), (1, "spy-5"), (2, None), (None, None)):
        assert ENGINE.view(state, viewer)["stolen"] == {"seat": 0, "from": 1, "card": seen}
