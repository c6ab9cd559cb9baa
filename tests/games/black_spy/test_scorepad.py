"""The tabletop score pad: points from cards taken, checks of entered deals, running totals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.black_spy import ENGINE
from games.black_spy import engine as bs
from games.black_spy.scorepad import (
    DealCheck,
    ScoreRules,
    Taken,
    check_deal,
    deal_from_taken,
    points_for,
    possible_points,
    tally,
)
from games.core import InvalidOptions

from .helpers import random_game

ALL_OTHER_BLACK = frozenset((1, 2, 3, 4, 5, 6, 8, 9, 10, 11))


# -- rules -----------------------------------------------------------------------------------


def test_score_rules_know_the_end_value_and_the_deal_total() -> None:
    assert [ScoreRules(n).end_value for n in (3, 4, 5, 6)] == [200, 150, 120, 100]
    assert ScoreRules(4, end_value_override=90).end_value == 90
    assert ScoreRules(4).deal_total == 60
    assert ScoreRules(4, no_good_spies=True).deal_total == 80
    for bad in (2, 7, True):
        with pytest.raises(InvalidOptions):
            ScoreRules(bad)
    with pytest.raises(InvalidOptions):
        ScoreRules(4, end_value_override=0)


def test_score_rules_from_the_engine_options() -> None:
    rules = ScoreRules.from_options(5, {"no_good_spies": True, "the_mole": True, "going_back": True})
    assert rules == ScoreRules(5, no_good_spies=True, going_back=True)
    assert ScoreRules.from_options(3, {"end_value": 50}).end_value == 50
    with pytest.raises(InvalidOptions, match="Unknown option"):
        ScoreRules.from_options(4, {"spies": True})


# -- points from cards ------------------------------------------------------------------------


def test_points_for_cards_taken_follow_the_card_values() -> None:
    rules = ScoreRules(4)
    assert points_for(Taken(), rules) == 0
    assert points_for(Taken(black_spies=2, black_ranks=frozenset({1, 11}), coloured_spies=1), rules) == 21
    assert points_for(Taken(black_ranks=frozenset({1, 2, 3, 4, 5, 6})), rules) == 6
    assert points_for(Taken(black_ranks=frozenset({8, 9, 10, 11})), rules) == 14
    assert points_for(Taken(coloured_spies=4), rules) == -20
    assert points_for(Taken(black_spies=6), rules) == 60
    ngs = ScoreRules(4, no_good_spies=True)
    assert points_for(Taken(black_spies=2, black_ranks=frozenset({1, 11}), coloured_spies=1), ngs) == 26


def test_points_for_all_16_black_cards() -> None:
    everything = Taken(black_spies=6, black_ranks=ALL_OTHER_BLACK, coloured_spies=2)
    assert everything.all_black and everything.black_cards == 16
    assert points_for(everything, ScoreRules(3)) == 0
    capture = ScoreRules(3, capture_or_release=True)
    assert points_for(everything, capture, "subtract") == -60
    assert points_for(everything, capture, "give") == 0
    with pytest.raises(ValueError, match="choose"):
        points_for(everything, capture)
    with pytest.raises(ValueError, match="Capture or Release"):
        points_for(everything, ScoreRules(3), "subtract")
    with pytest.raises(ValueError, match="only by a player who took all 16"):
        points_for(Taken(black_spies=1), capture, "give")


@pytest.mark.parametrize(
    ("taken", "words"),
    [
        (Taken(black_spies=7), "6 Black Spies"),
        (Taken(black_spies=-1), "6 Black Spies"),
        (Taken(black_ranks=frozenset({7})), "not 7"),
        (Taken(black_ranks=frozenset({0, 12})), "not 0, 12"),
        (Taken(coloured_spies=5), "4 coloured Spies"),
    ],
)
def test_points_for_cards_that_do_not_exist_explain_why(taken: Taken, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        points_for(taken, ScoreRules(4))


def full_deal() -> list[Taken]:
    return [
        Taken(black_spies=3, black_ranks=frozenset({1, 2}), coloured_spies=1),
        Taken(black_spies=1, black_ranks=frozenset({3, 4, 8, 9}), coloured_spies=2),
        Taken(black_spies=2, black_ranks=frozenset({5, 6, 10})),
        Taken(black_ranks=frozenset({11}), coloured_spies=1),
    ]


def test_a_whole_deal_from_what_each_player_took() -> None:
    check = deal_from_taken(full_deal(), ScoreRules(4))
    assert check.ok and check.kind == "normal"
    assert check.points == (27, 7, 26, 0)
    assert sum(check.points) == 60


def test_a_whole_deal_whose_cards_do_not_add_up_is_explained() -> None:
    takens = full_deal()
    takens[3] = Taken(black_spies=1, black_ranks=frozenset({11, 1}), coloured_spies=3)
    check = deal_from_taken(takens, ScoreRules(4), names=["Ann", "Bob", "Cy", "Di"])
    assert not check.ok and check.kind == "invalid"
    assert "7 Black Spies" in " ".join(check.problems)
    assert "The black 1 is entered for Ann and Di; there is only one." in check.problems
    assert "6 coloured Spies" in " ".join(check.problems)
    missing = [*full_deal()[:3], Taken(coloured_spies=1)]
    assert (
        "Nobody took the black 11; every card is taken by someone."
        in deal_from_taken(missing, ScoreRules(4)).problems
    )
    assert not deal_from_taken(full_deal()[:3], ScoreRules(4)).ok
    assert (
        "Player 2: There are 6 Black Spies"
        in deal_from_taken([Taken(), Taken(black_spies=9), Taken()], ScoreRules(3)).problems[0]
    )


def test_a_whole_deal_with_all_16_black_cards() -> None:
    takens = [
        Taken(black_spies=6, black_ranks=ALL_OTHER_BLACK, coloured_spies=1),
        Taken(coloured_spies=3),
        Taken(),
    ]
    assert deal_from_taken(takens, ScoreRules(3)) == DealCheck((0, 60, 60), (), "all_black_give", 0)
    capture = ScoreRules(3, capture_or_release=True)
    assert deal_from_taken(takens, capture, "subtract").points == (-60, 0, 0)
    assert not deal_from_taken(takens, capture).ok
    assert not deal_from_taken(takens, ScoreRules(3), "subtract").ok
    assert not deal_from_taken(full_deal(), ScoreRules(4), "give").ok


# -- checking entered points ------------------------------------------------------------------


def test_check_deal_accepts_a_possible_deal() -> None:
    assert check_deal([27, 17, 26, -10], ScoreRules(4)) == DealCheck((27, 17, 26, -10))
    assert check_deal([60, 0, 0, 0], ScoreRules(4)).ok
    assert check_deal([79, 1, 0, 0], ScoreRules(4, no_good_spies=True)).ok


def test_check_deal_must_total_60_or_80_with_no_good_spies() -> None:
    check = check_deal([27, 17, 26, 0], ScoreRules(4))
    assert check.kind == "invalid"
    assert check.problems == (
        "A deal's points add up to 60 (80 for black cards, -20 for Spies); these add up to 70.",
    )
    assert check_deal([30, 30, 20, 0], ScoreRules(4, no_good_spies=True)).ok
    assert "add up to 80" in check_deal([30, 30, 0, 0], ScoreRules(4, no_good_spies=True)).problems[0]


def test_check_deal_all_black_deals() -> None:
    assert check_deal([60, 0, 60], ScoreRules(3)) == DealCheck((60, 0, 60), (), "all_black_give", 1)
    capture = ScoreRules(3, capture_or_release=True)
    assert check_deal([0, -60, 0], capture) == DealCheck((0, -60, 0), (), "all_black_subtract", 1)
    check = check_deal([0, -60, 0], ScoreRules(3))
    assert not check.ok and "Capture or Release" in check.problems[0]
    near = check_deal([0, 60, 60, 50], ScoreRules(4))
    assert "they score 0 and every other player 60" in " ".join(near.problems)


def test_check_deal_points_the_cards_cannot_make() -> None:
    rules = ScoreRules(4)
    assert possible_points(rules) == frozenset(range(-20, 80))
    assert possible_points(ScoreRules(4, no_good_spies=True)) == frozenset(range(80))
    check = check_deal([-25, 85, 0, 0], rules, names=["Ann", "Bob", "Cy", "Di"])
    assert check.problems == (
        "Ann's -25 points cannot be made from cards (black 1 to 6 score 1 each, Black Spies 10 each, "
        "black 8 to 11 score 2 to 5, coloured Spies -5 each).",
        "Bob's 85 points cannot be made from cards (black 1 to 6 score 1 each, Black Spies 10 each, "
        "black 8 to 11 score 2 to 5, coloured Spies -5 each).",
    )
    eighty = check_deal([80, 0, 0, 0], ScoreRules(4, no_good_spies=True))
    assert eighty.problems == (
        "Player 1's 80 points would mean all 16 black cards: "
        "then that player scores 0 and every other player 60.",
    )
    assert "coloured Spies 0" in check_deal([-5, 85, 0, 0], ScoreRules(4, no_good_spies=True)).problems[0]


def test_check_deal_points_possible_alone_but_not_together() -> None:
    # Two players at -20 would need eight coloured Spies.
    check = check_deal([-20, -20, 50, 50], ScoreRules(4))
    assert check.problems == (
        "Each player's points are possible on their own, "
        "but no way of sharing out the cards gives all of them together.",
    )
    # -19 takes all four coloured Spies, so no one else can go below 0.
    assert not check_deal([-19, -1, 40, 40], ScoreRules(4)).ok
    assert check_deal([-19, 1, 39, 39], ScoreRules(4)).ok


def test_check_deal_wrong_shapes() -> None:
    assert "each of the 4 players" in check_deal([60, 0, 0], ScoreRules(4)).problems[0]
    assert check_deal([60, 0, 0.5, -0.5], ScoreRules(4)).problems == ("Points are whole numbers.",)  # type: ignore[list-item]


def random_takens(rng: random.Random, players: int) -> list[Taken]:
    spies = [0] * players
    ranks: list[set[int]] = [set() for _ in range(players)]
    coloured = [0] * players
    for _ in range(6):
        spies[rng.randrange(players)] += 1
    for rank in ALL_OTHER_BLACK:
        ranks[rng.randrange(players)].add(rank)
    for _ in range(4):
        coloured[rng.randrange(players)] += 1
    return [Taken(spies[p], frozenset(ranks[p]), coloured[p]) for p in range(players)]


@settings(max_examples=300, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32), no_good_spies=st.booleans())
def test_every_real_sharing_of_the_cards_passes_the_check(
    players: int, seed: int, no_good_spies: bool
) -> None:
    rules = ScoreRules(players, no_good_spies=no_good_spies)
    takens = random_takens(random.Random(seed), players)
    from_cards = deal_from_taken(takens, rules)
    assert from_cards.ok
    assert check_deal(from_cards.points, rules).ok
    assert from_cards.points == tuple(points_for(t, rules) for t in takens) or any(
        t.all_black for t in takens
    )


def test_the_score_pad_agrees_with_the_engine() -> None:
    for seed in range(6):
        options = {"no_good_spies": seed % 2 == 1, "going_back": seed % 3 == 0}
        players = 3 + seed % 4
        state, _ = random_game(players, seed, options)
        rules = ScoreRules.from_options(players, options)
        history = state[bs.DEAL].history
        pad = tally([line.points for line in history], rules)
        assert pad.ok and pad.over
        assert [line.totals for line in pad.lines] == [line.scores for line in history]
        assert [line.went_back for line in pad.lines] == [line.went_back for line in history]
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        assert pad.places == outcome.places and pad.totals == outcome.scores


@pytest.mark.parametrize("seed", range(4))
def test_the_score_pad_scores_the_engines_tricks_the_same(seed: int) -> None:
    # With an end value of 1 the game ends after the first deal and keeps its tricks.
    players = 3 + seed
    options = {"end_value": 1, "no_good_spies": seed % 2 == 1}
    state, _ = random_game(players, seed, options)
    rules = ScoreRules.from_options(players, options)
    takens = []
    for seat in range(players):
        won = [bs.CODES[c] for _, cards, winner in state[bs.TRICKS] if winner == seat for c in cards]
        takens.append(
            Taken(
                black_spies=won.count("black-7"),
                black_ranks=frozenset(int(c[6:]) for c in won if c.startswith("black-") and c != "black-7"),
                coloured_spies=sum(1 for c in won if c.endswith("-7") and not c.startswith("black")),
            )
        )
    (line,) = state[bs.DEAL].history
    assert deal_from_taken(takens, rules).points == line.points


# -- running totals ---------------------------------------------------------------------------


def test_tally_adds_up_and_ends_at_the_end_value() -> None:
    rules = ScoreRules(4)
    pad = tally([[20, 20, 10, 10], [40, 0, 10, 10], [79, -20, 1, 0], [30, 10, 10, 10]], rules)
    assert pad.ok and pad.over
    totals = [(20, 20, 10, 10), (60, 20, 20, 20), (139, 0, 21, 20), (169, 10, 31, 30)]
    assert [line.totals for line in pad.lines] == totals
    assert pad.end_value == 150
    assert pad.winners == (1,)
    assert pad.places == (4, 1, 3, 2)
    assert tally([[20, 20, 10, 10]], rules).over is False
    assert tally([[20, 20, 10, 10]], rules).winners == ()


def test_tally_ties_for_the_lowest_score_share_the_win() -> None:
    pad = tally([[60, 0, 0, 0], [60, 0, 0, 0], [40, 0, 0, 20]], ScoreRules(4))
    assert pad.over and pad.winners == (1, 2) and pad.places == (4, 1, 1, 3)


def test_tally_going_back() -> None:
    rules = ScoreRules(4, going_back=True)
    pad = tally([[60, 0, 0, 0], [60, 0, 0, 0], [30, 10, 10, 10]], rules)
    assert [line.totals for line in pad.lines][-1] == (75, 10, 10, 10)
    assert pad.lines[-1].went_back == (0,)
    assert not pad.over
    pad = tally([[60, 0, 0, 0], [15, 15, 15, 15]], rules)
    assert pad.totals == (37, 15, 15, 15) and pad.lines[-1].went_back == (0,)


def test_tally_reports_bad_deals_and_deals_after_the_end() -> None:
    pad = tally([[60, 0, 0, 0], [60, 0, 0, 0], [60, 0, 0, 0], [60, 0, 0, 0], [0, 0, 0, 60]], ScoreRules(4))
    assert pad.over and len(pad.lines) == 3 and pad.totals == (180, 0, 0, 0)
    assert pad.problems == (
        "Deal 4: the game ended after deal 3; this deal does not count.",
        "Deal 5: the game ended after deal 3; this deal does not count.",
    )
    bad = tally([[30, 30, 10, 0]], ScoreRules(4), names=["A", "B", "C", "D"])
    assert bad.problems == (
        "Deal 1: A deal's points add up to 60 (80 for black cards, -20 for Spies); these add up to 70.",
    )
    assert bad.totals == (30, 30, 10, 0) and not bad.ok
    short = tally([[30, 30, 0]], ScoreRules(4))
    assert short.lines == () and "each of the 4 players" in short.problems[0]
