"""One scenario per variant of the rule book, and the rulings of the package docstring."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Any

import pytest

from games.black_spy import ENGINE
from games.black_spy import engine as bs
from games.core import InvalidOptions

from .helpers import (
    ALL_CODES,
    all_cards,
    drive,
    hand,
    pack,
    play,
    play_cards,
    random_game,
    rejects,
    rigged_play,
)
from .test_rules import TWENTY, after_pass, all_black_hands, finish_deal, take_all_black

COLOURED_SPIES = ["blue-7", "yellow-7", "red-7", "green-7"]


# -- No Good Spies ------------------------------------------------------------------------------


def test_no_good_spies_the_coloured_spies_are_worth_0() -> None:
    taken = {0: ["blue-7", "black-1"], 1: ["red-7", "yellow-7"], 2: ["black-7", "green-7"]}
    normal = finish_deal(3, [0, 0, 0], taken)
    assert ENGINE.view(normal, 0)["history"][0]["points"] == [-4, -10, 5]
    variant = finish_deal(3, [0, 0, 0], taken, {"no_good_spies": True})
    assert ENGINE.view(variant, 0)["history"][0]["points"] == [1, 0, 10]


def test_no_good_spies_every_deal_totals_80() -> None:
    for seed in range(3):
        state, _ = random_game(4 + seed, seed, {"no_good_spies": True})
        for line in ENGINE.view(state, None)["history"]:
            assert sum(line["points"]) == 80


# -- Capture or Release -------------------------------------------------------------------------


def test_capture_or_release_the_taker_of_all_black_cards_may_subtract_60_instead() -> None:
    state = take_all_black(rigged_play(all_black_hands(), {"capture_or_release": True}, scores=[70, 10, 20]))
    view = ENGINE.view(state, 1)
    assert view["phase"] == "all_black"
    assert view["all_black"] == {"taker": 0}
    assert ENGINE.to_act(state) == {0}
    assert ENGINE.legal(state, 0) == [
        {"type": "all_black", "choice": "give"},
        {"type": "all_black", "choice": "subtract"},
    ]
    assert ENGINE.legal(state, 1) == []
    rejects(state, 1, {"type": "all_black", "choice": "give"}, "not your turn")
    rejects(state, 0, {"type": "all_black", "choice": "keep"}, "give")
    assert view["history"] == []  # ruling 7: the deal is recorded once the taker has chosen

    subtract = ENGINE.apply(state, 0, {"type": "all_black", "choice": "subtract"})
    line = ENGINE.view(subtract, 0)["history"][0]
    assert (line["points"], line["all_black"], line["choice"]) == ([-60, 0, 0], 0, "subtract")
    assert ENGINE.view(subtract, 0)["scores"] == [10, 10, 20]

    give = ENGINE.apply(state, 0, {"type": "all_black", "choice": "give"})
    assert ENGINE.view(give, 0)["history"][0]["points"] == [0, 60, 60]
    assert ENGINE.view(give, 0)["scores"] == [70, 70, 80]


def test_capture_or_release_coloured_spies_count_0_when_one_player_takes_all_black_cards() -> None:
    state = take_all_black(rigged_play(all_black_hands(), {"capture_or_release": True}))
    won = Counter(bs.CODES[c] for _, cards, winner in state[bs.TRICKS] if winner == 0 for c in cards)
    assert won["black-7"] == 6 and won["blue-7"] == 1  # seat 1 shed the Blue Spy on a black trick
    for choice, points in (("give", [0, 60, 60]), ("subtract", [-60, 0, 0])):
        done = ENGINE.apply(state, 0, {"type": "all_black", "choice": choice})
        assert ENGINE.view(done, 0)["history"][0]["points"] == points


def test_without_capture_or_release_there_is_no_choice() -> None:
    state = take_all_black(rigged_play(all_black_hands()))
    assert ENGINE.view(state, 0)["phase"] == "pass"
    rejects(state, 0, {"type": "all_black", "choice": "subtract"})


# -- The Mole -----------------------------------------------------------------------------------

MOLE = {"the_mole": True}


def second_deal(scores: list[int], options: dict[str, Any] | None = None, players: int = 4) -> bs.State:
    return finish_deal(players, scores, {}, {**MOLE, **(options or {})})


def test_the_mole_the_first_deal_is_dealt_normally() -> None:
    state = ENGINE.start(4, 3, MOLE)
    view = ENGINE.view(state, 0)
    assert view["phase"] == "pass"
    assert view["hand_counts"] == [15] * 4
    assert view["mole"] is None


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_mole_from_the_second_deal_three_cards_per_player_are_set_aside(players: int) -> None:
    state = second_deal([0] * players, players=players)
    view = ENGINE.view(state, None)
    assert view["deal"] == 2
    assert view["phase"] == "mole"
    assert view["hand_counts"] == [60 // players - 3] * players
    assert view["mole"]["cards_left"] == 3 * players
    assert all_cards(state) == Counter(ALL_CODES)


def test_ruling_10_the_mole_highest_score_chooses_first_and_ties_go_to_the_youngest() -> None:
    state = second_deal([10, 30, 30, 0])
    assert ENGINE.view(state, None)["mole"]["order"] == [1, 2, 0, 3]
    assert ENGINE.to_act(state) == {1}
    state = second_deal([10, 30, 30, 0], {"youngest_first": [3, 2, 1, 0]})
    assert ENGINE.view(state, None)["mole"]["order"] == [2, 1, 0, 3]
    assert ENGINE.to_act(state) == {2}


def test_the_mole_only_the_chooser_sees_its_cards() -> None:
    state = second_deal([10, 30, 20, 0])
    chooser = 1
    mole = ENGINE.view(state, chooser)["mole"]
    assert len(mole["cards"]) == 12
    assert mole["chooser"] == chooser
    for seat in (0, 2, 3, None):
        assert ENGINE.view(state, seat)["mole"]["cards"] is None
        assert ENGINE.view(state, seat)["mole"]["cards_left"] == 12
    assert Counter(mole["cards"]) == Counter(ALL_CODES) - sum(
        (Counter(hand(state, s)) for s in range(4)), Counter()
    )


def test_the_mole_each_player_selects_any_three_cards_and_passes_the_rest_on() -> None:
    state = second_deal([10, 30, 20, 0])
    cards = ENGINE.view(state, 1)["mole"]["cards"]
    legal = ENGINE.legal(state, 1)
    combos = {tuple(c) for c in itertools.combinations(cards, 3)}
    assert len(legal) == len(combos) <= math.comb(12, 3)
    assert {tuple(a["cards"]) for a in legal} == combos
    pick = legal[-1]["cards"]
    rejects(
        state, 1, {"type": "mole", "cards": list(reversed(pick))} if len(set(pick)) > 1 else {"type": "mole"}
    )
    rejects(state, 0, {"type": "mole", "cards": pick}, "not your turn")
    outside = next(c for c in ALL_CODES if c not in cards)
    rejects(state, 1, {"type": "mole", "cards": [*pick[:2], outside]}, "does not hold")
    before = hand(state, 1)
    state = ENGINE.apply(state, 1, {"type": "mole", "cards": pick})
    # Ruling 10: the chosen cards join the hand at once.
    assert Counter(hand(state, 1)) == Counter(before) + Counter(pick)
    assert ENGINE.view(state, 1)["mole"]["taken"] == pick
    assert ENGINE.view(state, 1)["mole"]["cards"] is None
    assert ENGINE.to_act(state) == {2}
    assert ENGINE.view(state, 2)["mole"]["cards_left"] == 9
    assert len(ENGINE.view(state, 2)["mole"]["cards"]) == 9


def test_the_mole_the_lowest_score_gets_the_last_three_cards_then_everyone_passes() -> None:
    state = second_deal([10, 30, 20, 0])
    for seat in (1, 2, 0):
        assert ENGINE.to_act(state) == {seat}
        state = ENGINE.apply(state, seat, ENGINE.legal(state, seat)[0])
    view = ENGINE.view(state, 3)
    assert view["phase"] == "pass"
    assert len(view["mole"]["taken"]) == 3
    assert Counter(view["mole"]["taken"]) <= Counter(view["hand"])
    assert view["hand_counts"] == [15] * 4
    assert ENGINE.to_act(state) == {0, 1, 2, 3}
    assert all_cards(state) == Counter(ALL_CODES)


def test_the_mole_games_keep_every_deal_at_60_points() -> None:
    state, _ = random_game(5, 4, MOLE)
    history = ENGINE.view(state, None)["history"]
    assert len(history) >= 2
    assert all(sum(line["points"]) == 60 for line in history)


# -- Calling Color ------------------------------------------------------------------------------


def rigged_call(hands: list[list[str]], dealer: int, options: dict[str, Any] | None = None) -> bs.State:
    state = ENGINE.start(len(hands), 1, {"calling_color": True, **(options or {})})
    info = state[bs.DEAL]._replace(dealer=dealer)
    return bs.evolve(
        state, hands=pack(hands), phase=bs.CALL, turn=dealer, acting=bs.SINGLE[dealer], deal=info
    )


def test_ruling_11_calling_color_the_dealer_calls_a_colour_after_the_pass() -> None:
    state = ENGINE.start(4, 5, {"calling_color": True})
    dealer = ENGINE.view(state, None)["dealer"]
    state = drive(state, until=lambda s: s[bs.PHASE] != bs.PASS)
    view = ENGINE.view(state, None)
    assert view["phase"] == "call"
    assert ENGINE.to_act(state) == {dealer}
    assert ENGINE.legal(state, dealer) == [
        {"type": "call", "color": c} for c in ("blue", "yellow", "red", "green")
    ]
    rejects(state, dealer, {"type": "call", "color": "black"}, "not 'black'")
    rejects(state, (dealer + 1) % 4, {"type": "call", "color": "red"}, "not your turn")


def test_calling_color_the_player_to_the_dealers_left_leads_that_colour() -> None:
    hands = [["green-1", "red-2"], ["green-5", "red-1"], ["green-9", "blue-3"]]
    state = ENGINE.apply(rigged_call(hands, dealer=0), 0, {"type": "call", "color": "green"})
    assert ENGINE.view(state, 2)["called_color"] == "green"
    assert ENGINE.to_act(state) == {1}  # not the Red 1 rule: seat 1 leads because it is left of the dealer
    assert [a["card"] for a in ENGINE.legal(state, 1)] == ["green-5"]
    reason = rejects(state, 1, {"type": "play", "card": "red-1"})
    assert "colour called, green" in reason


def test_calling_color_if_that_player_cannot_the_lead_passes_left() -> None:
    hands = [["green-1", "red-2"], ["blue-5", "red-1"], ["yellow-9", "blue-3"], ["green-4", "black-7"]]
    state = ENGINE.apply(rigged_call(hands, dealer=0), 0, {"type": "call", "color": "green"})
    assert ENGINE.to_act(state) == {3}
    state = ENGINE.apply(rigged_call(hands, dealer=1), 1, {"type": "call", "color": "green"})
    assert ENGINE.to_act(state) == {3}
    state = ENGINE.apply(rigged_call(hands, dealer=3), 3, {"type": "call", "color": "green"})
    assert ENGINE.to_act(state) == {0}


def test_calling_color_from_the_second_trick_any_card_may_be_led() -> None:
    hands = [["green-1", "black-2"], ["green-5", "black-3"], ["green-9", "black-7"]]
    state = ENGINE.apply(rigged_call(hands, dealer=0), 0, {"type": "call", "color": "green"})
    state = play_cards(state, ["green-5", "green-9", "green-1"])
    assert ENGINE.to_act(state) == {2}
    assert [a["card"] for a in ENGINE.legal(state, 2)] == ["black-7"]


# -- Following Rank -----------------------------------------------------------------------------


def test_following_rank_a_card_may_match_the_rank_of_the_card_just_played() -> None:
    hands = [["red-1", "red-4"], ["red-9", "blue-1"], ["red-2", "green-9", "green-4", "blue-5"]]
    plain = play_cards(rigged_play(hands), ["red-4", "red-9"])
    assert sorted(a["card"] for a in ENGINE.legal(plain, 2)) == ["green-4", "red-2"]
    rejects(plain, 2, {"type": "play", "card": "green-9"}, "must follow")
    state = play_cards(rigged_play(hands, {"following_rank": True}), ["red-4", "red-9"])
    assert sorted(a["card"] for a in ENGINE.legal(state, 2)) == ["green-4", "green-9", "red-2"]
    state = play(state, 2, "green-9")
    # Ruling 5: a card following by rank in another colour does not win the trick.
    assert ENGINE.view(state, 0)["last_trick"]["winner"] == 1


def test_following_rank_the_leader_may_play_any_card() -> None:
    hands = [["red-1", "red-4"], ["red-9", "blue-1"], ["red-2", "green-9"]]
    state = play_cards(rigged_play(hands, {"following_rank": True}), ["red-4", "red-9", "red-2"])
    assert sorted(a["card"] for a in ENGINE.legal(state, 1)) == ["blue-1"]


# -- Going Back ---------------------------------------------------------------------------------

GOING_BACK = {"going_back": True}


def scores_after(state: bs.State) -> list[int]:
    return list(ENGINE.view(state, None)["history"][-1]["scores"])


def test_going_back_exactly_the_end_value_halves_the_score() -> None:
    state = finish_deal(4, [130, 0, 0, 0], {0: TWENTY}, GOING_BACK)
    assert scores_after(state) == [75, 0, 0, 0]
    assert ENGINE.view(state, None)["history"][-1]["went_back"] == [0]
    assert ENGINE.outcome(state) is None
    plain = finish_deal(4, [130, 0, 0, 0], {0: TWENTY})
    assert ENGINE.outcome(plain) is not None


def test_going_back_exactly_half_the_end_value_halves_the_score() -> None:
    state = finish_deal(3, [80, 0, 0], {0: TWENTY}, GOING_BACK)
    assert scores_after(state) == [50, 0, 0]
    state = finish_deal(4, [55, 0, 0, 0], {0: TWENTY}, GOING_BACK)
    assert scores_after(state) == [37, 0, 0, 0]  # ruling 9: 75 halves to 37, rounded down


def test_going_back_a_player_must_exceed_the_end_value_to_end_the_game() -> None:
    state = finish_deal(4, [131, 0, 0, 0], {0: TWENTY}, GOING_BACK)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.scores == (151, 0, 0, 0)


def test_ruling_9_halving_comes_before_the_end_check_in_the_same_deal() -> None:
    state = finish_deal(4, [130, 145, 10, 0], {0: TWENTY, 1: ["black-7"]}, GOING_BACK)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == (75, 155, 10, 0)
    assert outcome.places == (3, 4, 2, 1)


def test_ruling_9_a_halved_score_is_not_checked_again_nor_halved_without_scoring() -> None:
    state = finish_deal(4, [130, 0, 0, 0], {0: TWENTY}, GOING_BACK)
    assert scores_after(state) == [75, 0, 0, 0]  # 75 is half of 150, but it is not halved again
    state = finish_deal(4, [75, 0, 0, 0], {1: ["black-1"]}, GOING_BACK)
    assert scores_after(state) == [75, 1, 0, 0]  # no points this deal: not "getting" 75


def test_ruling_9_half_of_an_odd_end_value_is_never_reached() -> None:
    state = finish_deal(4, [55, 0, 0, 0], {0: TWENTY}, {**GOING_BACK, "end_value": 151})
    assert scores_after(state) == [75, 0, 0, 0]
    state = finish_deal(4, [131, 0, 0, 0], {0: TWENTY}, {**GOING_BACK, "end_value": 151})
    assert scores_after(state) == [75, 0, 0, 0]


# -- end value and options ----------------------------------------------------------------------


def test_ruling_12_end_value_overrides_the_default() -> None:
    state = ENGINE.start(4, 1, {"end_value": 60})
    assert ENGINE.view(state, 0)["end_value"] == 60
    done = finish_deal(4, [40, 0, 0, 0], {0: TWENTY}, {"end_value": 60})
    assert ENGINE.outcome(done) is not None
    halved = finish_deal(4, [10, 0, 0, 0], {0: TWENTY}, {"end_value": 60, "going_back": True})
    assert scores_after(halved) == [15, 0, 0, 0]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"mole": True}, "Unknown option"),
        ({"the_mole": 1}, "true or false"),
        ({"end_value": 0}, "positive"),
        ({"end_value": "150"}, "whole number"),
        ({"youngest_first": [0, 1, 2]}, "every seat"),
        ({"youngest_first": [0, 1, 2, 2]}, "every seat"),
        ({"youngest_first": "0123"}, "list"),
        ({"youngest_first": [0, 1, 2, True]}, "seat numbers"),
    ],
)
def test_options_are_checked(options: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidOptions, match=words):
        ENGINE.start(4, 1, options)


def test_all_variants_combine() -> None:
    names = (
        "no_good_spies",
        "capture_or_release",
        "the_mole",
        "calling_color",
        "following_rank",
        "going_back",
    )
    options: dict[str, Any] = dict.fromkeys(names, True)
    state, moves = random_game(4, 77, options)
    view = ENGINE.view(state, None)
    assert view["options"] == {**options, "end_value": None, "youngest_first": [0, 1, 2, 3]}
    assert all(sum(line["points"]) == 80 for line in view["history"])
    assert any(action["type"] == "mole" for _, action in moves)
    assert any(action["type"] == "call" for _, action in moves)


# -- what a seat sees ---------------------------------------------------------------------------


def test_ruling_6_taken_tricks_show_as_counts_and_the_last_trick_only() -> None:
    state = drive(after_pass(4, 14), until=lambda s: len(s[bs.TRICKS]) == 3)
    view = ENGINE.view(state, 2)
    assert sum(view["tricks_taken"]) == 3
    _, cards, winner = state[bs.TRICKS][-1]
    assert view["last_trick"]["winner"] == winner
    assert [p["card"] for p in view["last_trick"]["cards"]] == [bs.CODES[c] for c in cards]
    earlier = {bs.CODES[c] for _, cards, _ in state[bs.TRICKS][:-1] for c in cards}
    shown = repr(
        {k: v for k, v in view.items() if k not in ("hand", "first_dealer_draws", "passing", "received")}
    )
    assert not any(
        f"'{code}'" in shown for code in earlier - {p["card"] for p in view["last_trick"]["cards"]}
    )
    # Nothing in the view tells the points taken so far in the deal.
    assert set(view) == VIEW_KEYS and view["history"] == []
    assert all(isinstance(count, int) for count in view["tricks_taken"])


VIEW_KEYS = {
    "game",
    "players",
    "seat",
    "phase",
    "deal",
    "dealer",
    "first_dealer",
    "first_dealer_draws",
    "end_value",
    "options",
    "scores",
    "history",
    "to_act",
    "turn",
    "pass_direction",
    "pass_to",
    "hand",
    "hand_counts",
    "passed_seats",
    "passing",
    "received",
    "called_color",
    "trick",
    "trick_leader",
    "tricks_taken",
    "last_trick",
    "mole",
    "all_black",
}


def test_the_spectator_sees_no_hand_and_no_pass() -> None:
    state = ENGINE.start(4, 2, {})
    state = ENGINE.apply(state, 0, ENGINE.legal(state, 0)[0])
    view = ENGINE.view(state, None)
    assert view["hand"] == [] and view["passing"] == [] and view["received"] == []
    assert view["seat"] is None and view["pass_to"] is None
    assert view["hand_counts"] == [14, 15, 15, 15]
    with pytest.raises(ValueError):
        ENGINE.view(state, 4)


def test_views_are_json() -> None:
    import json

    state, _ = random_game(4, 3, {"the_mole": True, "calling_color": True})
    for seat in (0, 1, 2, 3, None):
        assert json.loads(json.dumps(ENGINE.view(state, seat))) == ENGINE.view(state, seat)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    json.dumps(outcome.as_dict())


def test_legal_actions_are_shared_read_only_dicts_that_copy_as_plain_dicts() -> None:
    import copy
    import json
    import pickle

    state = ENGINE.start(4, 2, {})
    action = ENGINE.legal(state, 0)[0]
    with pytest.raises(TypeError):
        action["card"] = "red-1"
    assert isinstance(action, dict) and json.loads(json.dumps(action)) == action
    for clone in (dict(action), copy.copy(action), copy.deepcopy(action), pickle.loads(pickle.dumps(action))):
        assert clone == action and type(clone) is dict
    clone = dict(action)
    clone["card"] = "red-1"
    assert ENGINE.legal(state, 0)[0] == action


def test_random_play_is_deterministic_for_a_seed() -> None:
    a, moves_a = random_game(5, 9, {"the_mole": True}, move_seed=3)
    b, moves_b = random_game(5, 9, {"the_mole": True}, move_seed=3)
    assert a == b and moves_a == moves_b
    assert ENGINE.start(5, 9, {}) != ENGINE.start(5, 10, {})
