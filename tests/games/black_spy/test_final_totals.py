"""Final totals of a table scored by hand: what whole deals can give is accepted, the rest explained.

Soundness first: totals from real play (random valid deals totalled by the scorepad's ``tally``,
and random games of the engine) are accepted under every combination of the scoring variants and
3 to 6 players, stopped on time after any deal or played to the end value. Then the impossible
totals a scorer can type, each refused with the reason in words.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.black_spy import ENGINE, scoring
from games.black_spy.final_totals import check_totals, deal_counts, lowest_total
from games.black_spy.scorepad import Choice, ScoreRules, Taken, check_deal, deal_from_taken, tally

from .helpers import random_game

OTHER_BLACK = (1, 2, 3, 4, 5, 6, 8, 9, 10, 11)
END_VALUES = (None, None, None, 1, 2, 3, 4, 20, 30, 59, 60, 61, 80, 100, 101, 150, 240)
STYLES = ("even", "skewed", "victim", "steered")
NAMES = ["Ann", "Ben", "Cy", "Di", "Eve", "Fay"]
MAX_DEALS = 400


# -- real play -------------------------------------------------------------------------------


def all_black_choice(rng: random.Random, rules: ScoreRules) -> Choice:
    return "subtract" if rules.capture_or_release and rng.random() < 0.5 else "give"


def card_deal(rng: random.Random, rules: ScoreRules, style: str) -> tuple[int, ...]:
    """One valid deal from cards shared out at random (``victim``: seat 0 takes the coloured
    Spies and no black card, the deepest a player can sink)."""
    n = rules.players
    if style != "victim" and rng.random() < 0.05:
        return scoring.all_black_points(n, rng.randrange(n), all_black_choice(rng, rules))
    weights = [1.0] * n if style == "even" else [rng.random() ** 3 + 0.01 for _ in range(n)]
    black = [0.0, *[1.0] * (n - 1)] if style == "victim" else weights
    coloured = [1.0, *[0.0] * (n - 1)] if style == "victim" else weights
    spies, ranks, spy_cards = [0] * n, [set[int]() for _ in range(n)], [0] * n
    for _ in range(6):
        spies[rng.choices(range(n), black)[0]] += 1
    for rank in OTHER_BLACK:
        ranks[rng.choices(range(n), black)[0]].add(rank)
    for _ in range(4):
        spy_cards[rng.choices(range(n), coloured)[0]] += 1
    takens = [Taken(spies[p], frozenset(ranks[p]), spy_cards[p]) for p in range(n)]
    choice = all_black_choice(rng, rules) if any(t.all_black for t in takens) else None
    deal = deal_from_taken(takens, rules, choice)
    assert deal.ok, deal.problems
    return deal.points


def interest(rules: ScoreRules, totals: Sequence[int], points: Sequence[int]) -> tuple[int, int]:
    """How close a deal takes the game to the edges: Going Back halvings, and how far past the
    end value it takes players."""
    after, went_back = scoring.add_deal(totals, points, rules.end_value, rules.going_back)
    past = sum(max(0, total - rules.end_value + 1) for total in after)
    return len(went_back), past


def play(rng: random.Random, rules: ScoreRules, style: str) -> list[tuple[int, ...]]:
    """Deals until the game is over (or ``MAX_DEALS``)."""
    totals = (0,) * rules.players
    deals: list[tuple[int, ...]] = []
    while len(deals) < MAX_DEALS and not scoring.game_over(totals, rules.end_value, rules.going_back):
        if style == "steered" and rng.random() < 0.7:
            candidates = [card_deal(rng, rules, "skewed") for _ in range(12)]
            points = max(candidates, key=lambda c: interest(rules, totals, c))
        else:
            points = card_deal(rng, rules, style)
        deals.append(points)
        totals, _ = scoring.add_deal(totals, points, rules.end_value, rules.going_back)
    return deals


def assert_every_stage_accepted(rules: ScoreRules, deals: Sequence[Sequence[int]]) -> None:
    """The scorepad's tally of the deals: stopped after any deal, or at the end, it is accepted."""
    pad = tally(deals, rules)
    assert pad.ok, pad.problems
    names = NAMES[: rules.players]
    for line in pad.lines:
        check = check_totals(line.totals, rules, stopped=True, names=names)
        assert check.ok, (rules, line, check.problems)
    if pad.over:
        check = check_totals(pad.totals, rules, names=names)
        assert check.ok, (rules, pad.totals, check.problems)


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(3, 6),
    no_good_spies=st.booleans(),
    capture_or_release=st.booleans(),
    going_back=st.booleans(),
    end_value=st.sampled_from(END_VALUES),
    style=st.sampled_from(STYLES),
    seed=st.integers(0, 2**32 - 1),
)
def test_totals_of_random_valid_deals_are_always_accepted(
    players: int,
    no_good_spies: bool,
    capture_or_release: bool,
    going_back: bool,
    end_value: int | None,
    style: str,
    seed: int,
) -> None:
    rules = ScoreRules(players, no_good_spies, capture_or_release, going_back, end_value)
    assert_every_stage_accepted(rules, play(random.Random(seed), rules, style))


@pytest.mark.parametrize("players", range(3, 7))
@pytest.mark.parametrize("variants", list(itertools.product((False, True), repeat=3)))
def test_every_combination_of_scoring_variants_accepts_its_games(
    players: int, variants: tuple[bool, bool, bool]
) -> None:
    rules = ScoreRules(players, *variants)
    for seed, style in itertools.product(range(3), STYLES):
        rng = random.Random(f"{players}-{variants}-{seed}-{style}")
        assert_every_stage_accepted(rules, play(rng, rules, style))


@pytest.mark.parametrize("players", range(3, 7))
@pytest.mark.parametrize("variants", list(itertools.product((False, True), repeat=3)))
def test_games_of_the_engine_are_accepted(players: int, variants: tuple[bool, bool, bool]) -> None:
    keys = ("no_good_spies", "capture_or_release", "going_back")
    options: dict[str, Any] = {key: on for key, on in zip(keys, variants, strict=True) if on}
    rules = ScoreRules.from_options(players, options)
    for seed in range(2):
        state, _ = random_game(players, seed * 10 + players, options, move_seed=seed)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        scores = tuple(int(score) for score in outcome.scores)
        assert check_totals(scores, rules).ok, (options, scores, check_totals(scores, rules).problems)
        totals: tuple[int, ...] = (0,) * players
        for points in outcome.detail["deal_points"]:
            totals, _ = scoring.add_deal(totals, points, rules.end_value, rules.going_back)
            assert check_totals(totals, rules, stopped=True).ok, (options, totals)
        assert totals == scores


def test_the_deepest_a_player_can_sink_is_within_the_lowest_total() -> None:
    """A player who takes every coloured Spy and no black card, deal after deal, ends near the
    limit the check allows, never below it."""
    for players in range(3, 7):
        rules = ScoreRules(players)
        lowest = lowest_total(rules)
        assert lowest is not None
        deepest = min(
            tally(play(random.Random(seed), rules, "victim"), rules).totals[0] for seed in range(40)
        )
        assert lowest <= deepest <= lowest + 40


# -- what the sums allow ---------------------------------------------------------------------


def test_deal_counts_say_how_many_deals_give_a_sum() -> None:
    assert deal_counts(60, 60, 180) == (1, 1)
    assert deal_counts(360, 60, 180) == (2, 6)  # 180 + 180, or six deals of 60
    assert deal_counts(295, 60, 180) is None
    assert deal_counts(0, 60, 180) is None
    assert deal_counts(120, 80, 120) == (1, 1)  # No Good Spies, 3 players: only the all-black deal
    assert deal_counts(200, 80, 180) is None
    assert deal_counts(260, 80, 180) == (2, 2)


def test_the_lowest_total_of_each_default_game() -> None:
    assert [lowest_total(ScoreRules(n)) for n in range(3, 7)] == [-118, -120, -136, -140]
    assert lowest_total(ScoreRules(4, no_good_spies=True)) == 0
    assert lowest_total(ScoreRules(4, capture_or_release=True)) is None
    assert lowest_total(ScoreRules(4, going_back=True)) is None


# -- impossible totals, refused in words -------------------------------------------------------


def problems(totals: Sequence[int], rules: ScoreRules | None = None, *, stopped: bool = False) -> str:
    rules = rules or ScoreRules(len(totals))
    check = check_totals(totals, rules, stopped=stopped, names=NAMES[: len(totals)])
    assert not check.ok, f"{totals} accepted"
    return " ".join(check.problems)


def test_a_sum_that_no_deals_give_is_refused() -> None:
    said = problems([40, 60, 95, 100], stopped=True)
    assert "The totals add up to 295; with 4 players every deal adds 60" in said
    assert "or 180 (when one player takes all 16 black cards" in said
    assert "no number of whole deals gives 295" in said
    said = problems([150, 60, 95, 100], ScoreRules(4, no_good_spies=True))  # 405
    assert "every deal adds 80" in said and "No Good Spies" in said


def test_nobody_at_the_end_value_is_refused_unless_stopped_on_time() -> None:
    said = problems([40, 60, 100, 100])  # 300: five deals' worth
    assert said == (
        "Nobody reached the end value of 150: mark the table as stopped on time if the game was cut short."
    )
    assert check_totals([40, 60, 100, 100], ScoreRules(4), stopped=True).ok
    said = problems([40, 60, 95, 100])
    assert "add up to 295" in said and "Nobody reached the end value of 150" in said
    said = problems([201, 60, 20, 79], ScoreRules(4, going_back=True, end_value_override=201))
    assert "Nobody went past the end value of 201" in said


def test_all_zeros_are_refused() -> None:
    said = problems([0, 0, 0, 0])
    assert "The totals add up to 0" in said and "no number of whole deals gives 0" in said
    assert "Nobody reached the end value of 150" in said
    assert "add up to 0" in problems([0, 0, 0, 0], stopped=True)
    assert "add up to 0" in problems([0, 0, 0], ScoreRules(3, no_good_spies=True), stopped=True)


def test_a_total_lower_than_any_game_allows_is_refused() -> None:
    said = problems([-400, 160, 140, 100], stopped=True)  # 0
    assert "Ann's -400 is lower than a game to 150 allows" in said and "no total is below -120" in said
    said = problems([-400, 160, 140, 460])
    assert "Ann's -400" in said
    said = problems([-5, 150, 100, 75], ScoreRules(4, no_good_spies=True))  # 320: four deals' worth
    assert said == (
        "Ann's -5: with No Good Spies no deal takes points away (the coloured Spies count 0), so no "
        "total is below 0."
    )


def test_a_total_more_than_the_deals_give_is_refused() -> None:
    said = problems([70, -50, 40, 0], stopped=True)  # 60 is one deal's worth
    assert "one deal's worth" in said and "Ben's -50 points cannot be made from cards" in said
    said = problems([240, -20, -20, -20], stopped=True)  # 180: at most three deals
    assert "Ann's 240: the totals add up to 180, at most 3 deals' worth" in said


def test_more_than_the_last_deal_can_give_is_refused() -> None:
    said = problems([250, 50, 20, 40])
    assert "Ann's 250 is more than a game to 150 can give" in said and "at most 149" in said
    said = problems([220, 210, 30, 20])
    assert "The last deal cannot have left these totals" in said
    assert "71 to Ann (220) and 61 to Ben (210)" in said
    # Three players past 150 at once: the fourth took all 16 black cards.
    assert check_totals([200, 200, 200, 0], ScoreRules(4)).ok


def test_one_deal_worth_is_checked_as_a_deal() -> None:
    said = problems([80, -20, 0, 0], stopped=True)
    assert "Ann's 80 points would mean all 16 black cards" in said
    said = problems([10, 50, 60], ScoreRules(3, no_good_spies=True), stopped=True)
    assert "only one deal gives: the one where a player takes all 16 black cards" in said
    assert check_totals([0, 60, 60], ScoreRules(3, no_good_spies=True), stopped=True).ok
    assert check_totals([20, 10, 25, 5], ScoreRules(4), stopped=True).ok


def test_going_back_refuses_exactly_the_end_value_and_checks_what_the_sum_keeps() -> None:
    rules = ScoreRules(4, going_back=True)
    said = problems([150, 160, 20, 30], rules)
    assert "Ann has exactly 150: with Going Back a score of exactly 150 is halved to 75" in said
    # Three players, end value 200: deals add multiples of 60, halvings take off 100 or 50.
    said = problems([215, 60, 20], ScoreRules(3, going_back=True))
    assert "the totals always add up to a multiple of 10" in said
    assert "each Going Back halving takes off 100 (a score of exactly 200 halved) or 50" in said
    # Four players to 150: halvings take off 75 or 38, so any sum may be real.
    assert check_totals([151, 75, 37, 1], rules).ok


def test_capture_or_release_sums_and_deep_totals() -> None:
    rules = ScoreRules(4, capture_or_release=True)
    said = problems([160, 20, 30, 40], rules)  # 250
    assert "or -60 (Capture or Release" in said and "a multiple of 60" in said
    # Seven subtractions by Ann, then the others play on to 150: deep totals are real.
    deals = [(-60, 0, 0, 0)] * 7 + [(0, 20, 20, 20)] * 7 + [(0, 20, 20, 20)]
    pad = tally(deals, rules)
    assert pad.ok and pad.over and pad.totals == (-420, 160, 160, 160)
    assert check_totals(pad.totals, rules).ok


def test_all_zeros_after_real_deals_are_accepted_with_capture_or_release() -> None:
    rules = ScoreRules(4, capture_or_release=True)
    assert check_deal((60, 0, 0, 0), rules).ok
    pad = tally([(-60, 0, 0, 0), (60, 0, 0, 0)], rules)
    assert pad.ok and pad.totals == (0, 0, 0, 0)
    assert check_totals(pad.totals, rules, stopped=True).ok
    assert not check_totals(pad.totals, rules).ok  # nobody reached 150


def test_stopped_with_someone_past_the_end_value_is_accepted() -> None:
    assert check_totals([160, 100, 80, 20], ScoreRules(4), stopped=True).ok
    assert check_totals([160, 100, 80, 20], ScoreRules(4)).ok


def test_the_number_and_kind_of_totals() -> None:
    assert check_totals([60, 0, 0], ScoreRules(4)).problems == (
        "Give a total for each of the 4 players, not 3.",
    )
    bad: Any = [60, 0, 0.5, 0]
    assert check_totals(bad, ScoreRules(4)).problems == ("Black Spy totals are whole numbers.",)
    assert "Player 1's 250" in " ".join(check_totals([250, 50, 20, 40], ScoreRules(4)).problems)
