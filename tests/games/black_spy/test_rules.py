"""One scenario per sentence of the rule book (the base game). Variants: test_variants.py."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from games import get_engine
from games.black_spy import ENGINE
from games.black_spy import engine as bs
from games.core import Engine, IllegalAction, InvalidOptions, describe_options

from .helpers import ALL_CODES, all_cards, drive, hand, play, play_cards, random_game, rejects, rigged_play

BLACK = [f"black-{r}" for r in (1, 2, 3, 4, 5, 6, 8, 9, 10, 11)] + ["black-7"] * 6


def colour(c: str, ranks: range | list[int]) -> list[str]:
    return [f"{c}-{r}" for r in ranks]


# -- the game and the deck --------------------------------------------------------------------


def test_the_engine_is_registered_for_3_to_6_players() -> None:
    engine = get_engine("black-spy")
    assert engine is ENGINE
    assert isinstance(engine, Engine)
    assert {o["name"] for o in describe_options(engine.options)} >= {"the_mole", "end_value", "going_back"}
    assert (engine.slug, engine.title, engine.seats) == ("black-spy", "Black Spy", range(3, 7))
    for bad in (2, 7, "4", True):
        with pytest.raises(InvalidOptions):
            ENGINE.start(bad, 1, {})  # type: ignore[arg-type]


def test_the_deck_has_60_cards_11_of_each_colour_and_16_black_with_six_black_spies() -> None:
    state = ENGINE.start(4, 3, {})
    cards = all_cards(state)
    assert sum(cards.values()) == 60
    assert cards == Counter(ALL_CODES)
    for c in ("blue", "yellow", "red", "green"):
        assert sum(n for code, n in cards.items() if code.startswith(c + "-")) == 11
    assert sum(n for code, n in cards.items() if code.startswith("black-")) == 16
    assert cards["black-7"] == 6


# -- the deal -----------------------------------------------------------------------------------


def test_ruling_1_the_first_dealer_draws_highest_and_ties_draw_again() -> None:
    tied = None
    for seed in range(300):
        state = ENGINE.start(4, seed, {})
        draws = ENGINE.view(state, 0)["first_dealer_draws"]
        rank = lambda d: int(d["card"].split("-")[1])
        # Every round's highest players, and only they, draw in the next round.
        for before, after in itertools.pairwise(draws):
            top = max(map(rank, before))
            assert [d["seat"] for d in after] == [d["seat"] for d in before if rank(d) == top]
            assert len(after) > 1
        last = draws[-1]
        top = max(map(rank, last))
        (dealer,) = [d["seat"] for d in last if rank(d) == top]
        assert state[bs.DEAL].dealer == dealer == ENGINE.view(state, None)["dealer"]
        assert [d["seat"] for d in draws[0]] == [0, 1, 2, 3]
        if len(draws) > 1:
            tied = seed
    assert tied is not None, "no seed gave a tie for the highest card"


def test_the_first_dealer_depends_only_on_the_seed() -> None:
    dealers = {ENGINE.start(5, seed, {})[bs.DEAL].dealer for seed in range(40)}
    assert dealers == set(range(5))
    assert ENGINE.start(5, 11, {}) == ENGINE.start(5, 11, {})


@pytest.mark.parametrize(("players", "size"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_all_cards_are_dealt_20_15_12_10(players: int, size: int) -> None:
    state = ENGINE.start(players, 5, {})
    assert ENGINE.view(state, None)["hand_counts"] == [size] * players
    assert all_cards(state) == Counter(ALL_CODES)


def test_ruling_2_cards_are_dealt_one_at_a_time_starting_with_the_dealers_left() -> None:
    state = ENGINE.start(4, 8, {})
    dealer = state[bs.DEAL].dealer
    deck = bs._shuffled_deck(8, 1)
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        expected = sorted(bs.CODES[bs.DECK_ID[card]] for card in deck[k::4])
        assert sorted(hand(state, seat)) == expected


def test_the_deal_passes_to_the_left_each_deal() -> None:
    state, _ = random_game(5, 21)
    history = ENGINE.view(state, None)["history"]
    assert len(history) >= 2
    first = history[0]["dealer"]
    assert [line["dealer"] for line in history] == [(first + k) % 5 for k in range(len(history))]


# -- the pass -----------------------------------------------------------------------------------


def pass_three(state: bs.State, seat: int) -> tuple[bs.State, list[str]]:
    cards = hand(state, seat)[:3]
    for code in cards:
        state = ENGINE.apply(state, seat, {"type": "pass", "card": code})
    return state, cards


def test_every_seat_passes_at_once() -> None:
    state = ENGINE.start(4, 2, {})
    assert ENGINE.to_act(state) == {0, 1, 2, 3}
    assert ENGINE.view(state, 0)["phase"] == "pass"
    state, _ = pass_three(state, 2)
    assert ENGINE.to_act(state) == {0, 1, 3}
    assert ENGINE.legal(state, 2) == []
    rejects(state, 2, {"type": "pass", "card": hand(state, 2)[0]}, "already passed")


def test_each_seat_passes_exactly_three_cards_one_at_a_time() -> None:
    state = ENGINE.start(3, 2, {})
    legal = ENGINE.legal(state, 1)
    assert all(set(a) == {"type", "card"} and a["type"] == "pass" for a in legal)
    assert sorted(a["card"] for a in legal) == sorted(set(hand(state, 1)))
    state = ENGINE.apply(state, 1, legal[0])
    assert ENGINE.view(state, 1)["passing"] == [legal[0]["card"]]
    assert 1 in ENGINE.to_act(state)
    rejects(state, 1, {"type": "pass", "cards": hand(state, 1)[:3]})


@pytest.mark.parametrize(
    ("players", "directions"),
    [
        (3, ["left", "right", "left", "right"]),
        (4, ["left", "right", "across", "left"]),
        (6, ["left", "right"]),
    ],
)
def test_the_pass_alternates_left_right_and_across_with_four(players: int, directions: list[str]) -> None:
    offsets = {"left": 1, "right": -1, "across": 2}
    state = ENGINE.start(players, 4, {})
    for deal, direction in enumerate(directions, start=1):
        assert ENGINE.view(state, 0)["deal"] == deal
        assert ENGINE.view(state, 0)["pass_direction"] == direction
        before = {seat: hand(state, seat) for seat in range(players)}
        passed = {}
        for seat in range(players):
            state, passed[seat] = pass_three(state, seat)
        for seat in range(players):
            target = (seat + offsets[direction]) % players
            got = Counter(hand(state, target))
            assert got == Counter(before[target]) - Counter(passed[target]) + Counter(passed[seat])
            assert ENGINE.view(state, target)["received"] == passed[seat]
            assert ENGINE.view(state, seat)["pass_to"] == target
        state = drive(state, until=lambda s, d=deal: s[bs.DEAL].number > d)


def test_ruling_3_no_one_sees_the_cards_passed_to_them_until_everyone_has_passed() -> None:
    state = ENGINE.start(4, 6, {})
    state, to_seat_1 = pass_three(state, 0)
    state, _ = pass_three(state, 1)
    state, _ = pass_three(state, 2)
    view = ENGINE.view(state, 1)
    assert view["received"] == []
    assert view["hand_counts"] == [12, 12, 12, 15]
    assert not Counter(to_seat_1) & Counter(view["hand"]) or set(to_seat_1) == {"black-7"}
    assert len(view["hand"]) == 12
    assert ENGINE.view(state, 0)["passing"] == to_seat_1
    assert ENGINE.view(state, 1)["passed_seats"] == [0, 1, 2]
    state, _ = pass_three(state, 3)
    assert ENGINE.view(state, 1)["received"] == to_seat_1
    assert Counter(to_seat_1) <= Counter(hand(state, 1))


def test_ruling_3_a_passed_card_cannot_be_taken_back() -> None:
    state = ENGINE.start(4, 6, {})
    card = hand(state, 0)[0]
    state = ENGINE.apply(state, 0, {"type": "pass", "card": card})
    assert all(a["type"] == "pass" for a in ENGINE.legal(state, 0))
    if card != "black-7":
        assert card not in hand(state, 0)
        rejects(state, 0, {"type": "pass", "card": card}, "do not hold")
    rejects(state, 0, {"type": "unpass", "card": card})


# -- the play -----------------------------------------------------------------------------------


def after_pass(players: int, seed: int) -> bs.State:
    return drive(ENGINE.start(players, seed, {}), until=lambda s: s[bs.PHASE] != bs.PASS)


def test_the_holder_of_the_red_1_leads_the_first_trick() -> None:
    for seed in range(5):
        state = after_pass(4, seed)
        (leader,) = ENGINE.to_act(state)
        assert "red-1" in hand(state, leader)
        assert ENGINE.view(state, leader)["trick_leader"] == leader


def test_a_black_card_may_not_be_led_on_the_first_trick() -> None:
    hands = [
        [*BLACK[:5], "red-1", "blue-2"],
        colour("blue", range(3, 10)),
        colour("green", range(1, 8)),
    ]
    state = rigged_play(hands)
    assert sorted(a["card"] for a in ENGINE.legal(state, 0)) == ["blue-2", "red-1"]
    reason = rejects(state, 0, {"type": "play", "card": "black-1"})
    assert "black card may not be led on the first trick" in reason


def test_ruling_4_the_red_1_itself_need_not_be_led() -> None:
    hands = [["red-1", "blue-2"], ["blue-3", "blue-4"], ["green-1", "green-2"]]
    state = play(rigged_play(hands), 0, "blue-2")
    assert ENGINE.view(state, 1)["trick"] == [{"seat": 0, "card": "blue-2"}]


def test_after_the_first_trick_any_card_may_be_led() -> None:
    hands = [["red-1", "black-7", "black-9"], ["red-5", "black-2", "blue-2"], ["red-3", "green-1", "green-2"]]
    state = play_cards(rigged_play(hands), ["red-1", "red-5", "red-3"])
    assert ENGINE.to_act(state) == {1}
    assert sorted(a["card"] for a in ENGINE.legal(state, 1)) == ["black-2", "blue-2"]
    state = play(state, 1, "black-2")
    assert ENGINE.view(state, 0)["trick"] == [{"seat": 1, "card": "black-2"}]


def test_play_goes_clockwise_one_card_each() -> None:
    hands = [["red-1", "red-2"], ["red-3", "red-4"], ["red-5", "red-6"], ["red-7", "red-8"]]
    state = rigged_play(hands)
    seen = []
    for _ in range(4):
        (seat,) = ENGINE.to_act(state)
        seen.append(seat)
        state = play(state, seat, hand(state, seat)[0])
    assert seen == [0, 1, 2, 3]


def test_players_must_follow_the_colour_or_the_rank_of_the_lead_card() -> None:
    hands = [["red-1", "red-4"], ["red-9", "blue-4", "blue-1", "black-4"], ["green-2", "green-3", "green-4"]]
    state = play(rigged_play(hands), 0, "red-4")
    assert sorted(a["card"] for a in ENGINE.legal(state, 1)) == ["black-4", "blue-4", "red-9"]
    reason = rejects(state, 1, {"type": "play", "card": "blue-1"})
    assert "must follow the Red 4" in reason


def test_a_player_with_no_card_of_the_colour_or_rank_may_play_any_card() -> None:
    hands = [["red-1", "red-4"], ["blue-1", "black-7", "green-9"], ["green-2", "green-3"]]
    state = play(rigged_play(hands), 0, "red-4")
    assert sorted(a["card"] for a in ENGINE.legal(state, 1)) == ["black-7", "blue-1", "green-9"]


def test_the_highest_card_of_the_colour_led_takes_the_trick() -> None:
    hands = [["red-1", "red-5", "red-6"], ["red-9", "blue-11", "blue-1"], ["black-11", "red-2", "red-3"]]
    state = play_cards(rigged_play(hands), ["red-5", "red-9", "red-2"])
    assert ENGINE.view(state, 0)["last_trick"]["winner"] == 1
    # A higher card of another colour, or a matching rank, never takes it.
    state = play_cards(state, ["blue-1", "black-11", "red-1"])
    assert ENGINE.view(state, 0)["last_trick"]["winner"] == 1


def test_ruling_5_the_first_black_spy_played_takes_a_trick_of_equal_black_spies() -> None:
    hands = [
        ["red-1", "black-7", "black-2"],
        ["red-2", "black-7", "black-3"],
        ["red-3", "black-7", "black-4"],
    ]
    state = play_cards(rigged_play(hands), ["red-1", "red-2", "red-3"])
    assert ENGINE.to_act(state) == {2}
    state = play_cards(state, ["black-4", "black-7", "black-7"])  # seat 0 plays the first Black Spy
    assert ENGINE.view(state, None)["last_trick"] == {
        "cards": [
            {"seat": 2, "card": "black-4"},
            {"seat": 0, "card": "black-7"},
            {"seat": 1, "card": "black-7"},
        ],
        "winner": 0,
    }
    assert ENGINE.to_act(state) == {0}


def test_the_taker_of_a_trick_leads_the_next() -> None:
    hands = [["red-1", "green-1"], ["red-11", "green-2"], ["red-3", "green-3"]]
    state = play_cards(rigged_play(hands), ["red-1", "red-11", "red-3"])
    assert ENGINE.to_act(state) == {1}
    assert ENGINE.view(state, 0)["trick"] == []
    assert ENGINE.view(state, 0)["tricks_taken"] == [0, 1, 0]


def test_play_continues_until_every_card_has_been_played() -> None:
    state = after_pass(4, 9)
    state = drive(state, until=lambda s: s[bs.DEAL].number == 2)
    line = ENGINE.view(state, 0)["history"][0]
    assert line["deal"] == 1 and sum(line["points"]) == 60


# -- scoring a deal -----------------------------------------------------------------------------

CARD_VALUES = {
    "black-1": 1,
    "black-2": 1,
    "black-3": 1,
    "black-4": 1,
    "black-5": 1,
    "black-6": 1,
    "black-7": 10,
    "black-8": 2,
    "black-9": 3,
    "black-10": 4,
    "black-11": 5,
    "blue-7": -5,
    "yellow-7": -5,
    "red-7": -5,
    "green-7": -5,
}


def test_card_values_of_the_rule_book() -> None:
    # Each seat has taken some cards; one last trick of low cards finishes the deal.
    taken = {
        0: ["black-1", "black-2", "black-3", "black-4", "black-5", "black-6", "blue-7"],
        1: ["black-7", "black-7", "black-8", "black-9", "red-7", "yellow-7"],
        2: ["black-7", "black-7", "black-7", "black-7", "black-10", "black-11", "green-7", "blue-11"],
    }
    state = rigged_play([["red-1"], ["red-2"], ["red-3"]], taken=taken)
    state = play_cards(state, ["red-1", "red-2", "red-3"])
    points = ENGINE.view(state, 0)["history"][0]["points"]
    assert points == [6 - 5, 20 + 2 + 3 - 10, 40 + 4 + 5 - 5]
    assert points == [sum(CARD_VALUES.get(c, 0) for c in taken[s]) for s in range(3)]


def test_every_deal_totals_60_points() -> None:
    for seed in range(6):
        state, _ = random_game(3 + seed % 4, seed)
        for line in ENGINE.view(state, None)["history"]:
            assert sum(line["points"]) == 60 or sorted(line["points"])[1:] == [60] * (len(line["points"]) - 1)


def trick_winner(trick: list[dict[str, Any]]) -> int:
    """The rule book's trick winner, computed independently of the engine."""
    led = trick[0]["card"].split("-")[0]
    best = None
    for play_ in trick:
        c, rank = play_["card"].split("-")
        if c == led and (best is None or int(rank) > best[0]):
            best = (int(rank), play_["seat"])
    assert best is not None
    return best[1]


@pytest.mark.parametrize("seed", range(4))
def test_each_trick_and_each_deal_is_scored_by_the_rule_book(seed: int) -> None:
    rng = random.Random(seed)
    state = after_pass(3 + seed % 4, seed)
    n = state[bs.CFG].players
    expected = [0] * n
    while state[bs.DEAL].number == 1:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal(state, seat)
        action = legal[rng.randrange(len(legal))]
        trick = ENGINE.view(state, None)["trick"]
        state = ENGINE.apply(state, seat, action)
        if len(trick) == n - 1:
            trick = [*trick, {"seat": seat, "card": action["card"]}]
            winner = trick_winner(trick)
            expected[winner] += sum(CARD_VALUES.get(p["card"], 0) for p in trick)
            if state[bs.DEAL].number == 1:
                assert ENGINE.view(state, None)["last_trick"] == {"cards": trick, "winner": winner}
                assert ENGINE.to_act(state) == {winner}
    (line,) = ENGINE.view(state, None)["history"]
    assert line["points"] == expected
    assert sum(expected) == 60


def all_black_hands() -> list[list[str]]:
    return [
        [*BLACK, "red-11", "red-1", "red-10", "red-9"],
        colour("red", range(2, 6)) + colour("blue", range(1, 12)) + colour("yellow", range(1, 6)),
        colour("red", range(6, 9)) + colour("yellow", range(6, 12)) + colour("green", range(1, 12)),
    ]


def take_all_black(state: bs.State) -> bs.State:
    """Seat 0 leads the Red 11, then every black card, then its reds; the others follow."""
    plan = ["red-11", *BLACK, "red-1", "red-10", "red-9"]

    def choose(s: bs.State, seat: int, legal: list[dict[str, object]]) -> dict[str, object]:
        if seat == 0:
            return {"type": "play", "card": plan.pop(0)}
        return legal[0]

    return drive(state, choose, until=lambda s: s[bs.DEAL].number > 1 or s[bs.PHASE] != bs.PLAY)


def test_ruling_7_a_player_who_collects_all_16_black_cards_scores_0_and_every_other_player_60() -> None:
    state = take_all_black(rigged_play(all_black_hands()))
    line = ENGINE.view(state, 0)["history"][0]
    assert line["points"] == [0, 60, 60]
    assert line["all_black"] == 0 and line["choice"] is None
    assert ENGINE.view(state, 0)["scores"] == [0, 60, 60]


# -- winning the game ---------------------------------------------------------------------------


def finish_deal(
    players: int, scores: list[int], taken: dict[int, list[str]], options: dict[str, object] | None = None
) -> bs.State:
    """Score a deal in which each seat took ``taken`` (the last trick is three low reds)."""
    hands = [[f"red-{1 + s}"] for s in range(players)]
    state = rigged_play(hands, options, scores=scores, taken=taken)
    return play_cards(state, [f"red-{1 + s}" for s in range(players)])


FORTY = ["black-7"] * 4  # 40 points
TWENTY = ["black-7"] * 2


@pytest.mark.parametrize(("players", "end"), [(3, 200), (4, 150), (5, 120), (6, 100)])
def test_the_end_value_is_200_150_120_100(players: int, end: int) -> None:
    state = ENGINE.start(players, 1, {})
    assert ENGINE.view(state, None)["end_value"] == end
    assert state[bs.CFG].end_value == end


def test_the_game_ends_when_a_score_reaches_the_end_value_and_the_lowest_score_wins() -> None:
    # 3 players: 160 + 40 = 200 exactly ends the game.
    state = finish_deal(3, [160, 10, 30], {0: FORTY, 1: TWENTY, 2: ["blue-7", "black-8"]})
    assert ENGINE.to_act(state) == frozenset()
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == (200, 30, 27)
    assert outcome.places == (3, 2, 1)
    assert outcome.winners == {2}
    assert ENGINE.view(state, 0)["phase"] == "over"
    rejects(state, 0, {"type": "play", "card": "red-1"}, "over")


def test_the_game_goes_on_below_the_end_value() -> None:
    state = finish_deal(3, [150, 10, 30], {0: FORTY, 1: TWENTY, 2: ["blue-7", "black-8"]})
    assert ENGINE.outcome(state) is None
    assert ENGINE.view(state, 0)["deal"] == 2
    assert ENGINE.view(state, 0)["scores"] == [190, 30, 27]
    assert ENGINE.to_act(state) == {0, 1, 2}


def test_ruling_8_several_players_reaching_the_end_value_in_one_deal_end_the_game() -> None:
    state = finish_deal(4, [140, 130, 20, 0], {0: TWENTY, 1: FORTY, 2: ["black-11"], 3: ["blue-7"]})
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == (160, 170, 25, -5)
    assert outcome.places == (3, 4, 2, 1)


def test_ruling_8_players_tied_for_the_lowest_score_share_first_place() -> None:
    state = finish_deal(4, [140, 20, 25, 40], {0: TWENTY, 1: ["black-11"], 2: [], 3: FORTY})
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == (160, 25, 25, 80)
    assert outcome.places == (4, 1, 1, 3)
    assert outcome.winners == {1, 2}


def test_outcome_is_none_until_the_game_is_over() -> None:
    state = ENGINE.start(4, 1, {})
    assert ENGINE.outcome(state) is None
    done, _ = random_game(4, 1)
    outcome = ENGINE.outcome(done)
    assert outcome is not None
    assert max(outcome.scores) >= 150
    assert min(outcome.places) == 1
    assert outcome.detail["deals"] == len(outcome.detail["deal_points"])


# -- illegal actions ----------------------------------------------------------------------------


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing() -> None:
    state = after_pass(4, 3)
    (seat,) = ENGINE.to_act(state)
    other = (seat + 1) % 4
    snapshot = state
    held = hand(state, seat)[0]
    for who, action, words in [
        (other, {"type": "play", "card": hand(state, other)[0]}, "not your turn"),
        (seat, {"type": "play", "card": "purple-3"}, "not a Black Spy card"),
        (seat, {"type": "play"}, "not a Black Spy card"),
        (seat, {"type": "play", "card": held, "extra": 1}, "exactly the keys"),
        (seat, {"type": "pass", "card": held}, "Expected a 'play' action"),
        (seat, "red-1", "JSON object"),
        (seat, {"type": "play", "card": ["red-1"]}, "not a Black Spy card"),
        (9, {"type": "play", "card": held}, "no seat 9"),
    ]:
        rejects(state, who, action, words)
    missing = next(c for c in ALL_CODES if c not in hand(state, seat))
    rejects(state, seat, {"type": "play", "card": missing}, "do not hold")
    assert state == snapshot


def test_illegal_action_is_a_value_error_with_a_reason() -> None:
    state = ENGINE.start(3, 1, {})
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, 0, {"type": "call", "color": "red"})
    assert info.value.reason


def test_a_pass_of_three_together_may_hold_two_black_spies_and_equals_three_single_passes() -> None:
    """Several cards share the code black-7 (the Black Spies): a pass of three listed together
    takes each from the hand in turn, as three single passes do; a code listed more often than
    the hand holds it is refused and nothing is passed."""
    for seed in range(200):
        state = ENGINE.start(3, seed, {})
        hand = ENGINE.view(state, 0)["hand"]
        if hand.count("black-7") >= 2:
            break
    else:
        raise AssertionError("no deal gave a seat two Black Spies")
    other = next(code for code in hand if code != "black-7")
    cards = ["black-7", "black-7", other]
    together = ENGINE.apply(state, 0, {"type": "pass", "cards": cards})
    one_by_one = state
    for code in cards:
        one_by_one = ENGINE.apply(one_by_one, 0, {"type": "pass", "card": code})
    assert ENGINE.view(together, 0) == ENGINE.view(one_by_one, 0)
    assert Counter(hand) - Counter(ENGINE.view(together, 0)["hand"]) == Counter(cards)
    too_many = ["black-7"] * (hand.count("black-7") + 1)
    if len(too_many) <= 3:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, {"type": "pass", "cards": [*too_many, other][:3]})
