"""The tabletop score check: problems explained in words, running totals, the end and the places."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.spy_vs_spy import ENGINE
from games.spy_vs_spy.bots import BOTS
from games.spy_vs_spy.engine import SpyVsSpyState
from games.spy_vs_spy.scoresheet import RaceEntry, ScoreSheet, SheetResult, check_sheet

from .helpers import play

ABC = ("Ann", "Bob", "Cy")


def sheet(*races: tuple[int | None, ...], players: tuple[str, ...] = ABC, half: bool = False) -> SheetResult:
    return check_sheet(ScoreSheet(players, tuple(RaceEntry(points) for points in races), half_decks=half))


def messages(result: SheetResult) -> str:
    return "\n".join(problem.message for problem in result.problems)


def from_engine(state: SpyVsSpyState, upto: int | None = None, *, note_first: bool = True) -> ScoreSheet:
    """The score sheet a table would have written for an engine game."""
    races = []
    for record in state.history[:upto]:
        points: list[int | None] = [None] * state.seats
        for row in record.rows:
            points[row.seat] = row.change
        races.append(RaceEntry(tuple(points), record.finish_order[0] if note_first else None))
    names = tuple(f"P{seat}" for seat in range(state.seats))
    return ScoreSheet(names, tuple(races), half_decks=state.half_decks)


@settings(max_examples=25, deadline=None)
@given(
    table=st.one_of(st.tuples(st.integers(1, 6), st.just(False)), st.tuples(st.just(2), st.just(True))),
    seed=st.integers(0, 2**32),
    note_first=st.booleans(),
)
def test_every_engine_game_passes_the_check_with_the_same_totals_and_places(
    table: tuple[int, bool], seed: int, note_first: bool
) -> None:
    seats, half = table
    bots = [BOTS["heuristic"] if (seat + seed) % 3 else BOTS["random"] for seat in range(seats)]
    state, _ = play(seats, seed, {"half_decks": half}, bots=bots)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    result = check_sheet(from_engine(state, note_first=note_first))
    assert result.problems == ()
    scores = [result.start] * seats
    for record, totals in zip(state.history, result.totals, strict=True):
        for row in record.rows:
            scores[row.seat] = row.score
        assert totals == tuple(scores)
    assert result.winner == outcome.places.index(1)
    assert result.places == outcome.places
    assert result.ended_after == len(state.history)
    # Part way through, the sheet names the same racers as the engine's next race.
    for upto in sorted(
        {*range(1, min(len(state.history), 12)), *range(max(1, len(state.history) - 4), len(state.history))}
    ):
        partial = check_sheet(from_engine(state, upto))
        assert not partial.over
        assert partial.next_racers == tuple(row.seat for row in state.history[upto].rows)
        assert partial.replay_between == (partial.next_racers if state.history[upto].tie_break else ())


def test_running_totals_and_the_winner() -> None:
    result = sheet((6, -3, 4), (5, -3, 7))
    assert result.ok
    assert result.start == 5
    assert result.totals == ((11, 2, 9), (16, -1, 16))
    assert (result.over, result.ended_after, result.winner) == (True, 2, 1)
    assert result.places == (2, 1, 2)  # equal scores share second place


def test_a_tie_needs_a_new_race_between_the_tied_players_only() -> None:
    result = sheet((-20, -20, 5))
    assert result.ok and not result.over
    assert result.totals == ((-15, -15, 10),)
    assert result.replay_between == (0, 1) == result.next_racers
    result = sheet((-20, -20, 5), (3, -2, None))
    assert result.ok
    assert result.totals[-1] == (-12, -17, 10)
    assert (result.winner, result.places) == (1, (2, 1, 3))
    result = sheet((-20, -20, 5), (3, -2, 4))
    assert "Cy sat out race 2, a tie-break between Ann, Bob only, but has +4 written." in messages(result)
    result = sheet((-20, -20, 5), (3, None, None))
    assert "Bob raced in race 2 but has no points written." in messages(result)


def test_the_lower_score_wins_a_tie_without_a_new_race() -> None:
    # Race 2: Ann 15 - 20 = -5 with the bonus, Bob 1 - 2 = -1 as first finisher: both win, Ann better.
    result = sheet((10, -4, 3), (-20, -2, 1))
    assert result.ok
    assert result.totals == ((15, 1, 8), (-5, -1, 9))
    assert result.winner == 0 and result.places == (1, 2, 3)


def test_the_bonus_never_takes_the_5_on_top() -> None:
    result = sheet((-25, 3, 4))
    assert messages(result) == (
        "Ann's -25 in race 1 adds the 5 for finishing first to the bonus: the bonus is -20 and the 5 "
        "never come on top of it."
    )


def test_the_bonus_is_20_with_full_decks_and_10_with_half_decks() -> None:
    assert "the bonus is -20 with full decks, not -10" in messages(sheet((-10, 3, 4)))
    half = sheet((-20, 3), players=("Ann", "Bob"), half=True)
    assert "the bonus is -10 with half decks, not -20" in messages(half)
    assert sheet((-10, 3), players=("Ann", "Bob"), half=True).ok
    assert "-15 in race 1 adds the 5" in messages(sheet((-15, 3), players=("Ann", "Bob"), half=True))


def test_values_that_no_race_can_give() -> None:
    text = messages(sheet((-7, 3, 4)))
    assert (
        "Ann's -7 in race 1 cannot happen: without the bonus (-20) a race lowers a score by at most 4" in text
    )
    assert sheet((-4, 3, 4)).ok


def test_only_one_player_finishes_first_and_removes_5() -> None:
    text = messages(sheet((-1, -2, 4)))
    assert "In race 1 Ann and Bob all lost points without the bonus" in text
    noted = check_sheet(ScoreSheet(ABC, (RaceEntry((-1, 3, 4), first=1),)))
    assert "only the first finisher removes 5 cards, and Bob is noted as first" in messages(noted)
    zero = check_sheet(ScoreSheet(ABC, (RaceEntry((0, -2, 4), first=1),)))
    assert "Ann's +0 in race 1" in messages(zero)
    # A first finisher with the bonus leaves nobody to remove 5.
    bonus_first = check_sheet(ScoreSheet(ABC, (RaceEntry((-20, -2, 4), first=0),)))
    assert "Bob's -2 in race 1" in messages(bonus_first)
    outsider = check_sheet(ScoreSheet(ABC, (RaceEntry((-20, -20, 5), first=4),)))
    assert "player 4 is noted as finishing race 1 first but did not race." in messages(outsider)


def test_a_race_cannot_add_more_than_the_racing_hand_less_five_piles() -> None:
    # 47 racing cards: at most 42 can be added (5 piles of at least one card stay on the table).
    assert sheet((42, -4, 3)).ok
    text = messages(sheet((43, -4, 3)))
    assert "Ann's +43 in race 1 is more than the race could add: Ann raced with 47 cards" in text
    assert "at most 42 could be added (leftover cards and one pile): +42." in text
    first = check_sheet(ScoreSheet(ABC, (RaceEntry((38, 3, 3), first=0),)))
    assert "less the 5 removed for finishing first: +37." in messages(first)


def test_points_piles_never_hold_more_cards_than_the_deck() -> None:
    text = messages(sheet((42, -4, 3), (20, 3, 3)))
    assert (
        "Ann's +20 in race 2 would put 67 cards in Ann's points pile, more than the 52 cards of Ann's deck."
        in text
    )


def test_with_5_cards_or_fewer_to_race_with_only_the_bonus_is_possible() -> None:
    # Ann holds 47 after race 1, so she races with 5 cards: she cannot fill 6 piles.
    text = messages(sheet((42, -4, 3), (1, 3, 3)))
    assert "Ann raced race 2 with only 5 cards, too few to fill 6 piles" in text
    assert sheet((42, -4, 3), (-20, 3, -2)).ok


def test_single_player_always_removes_5() -> None:
    solo = ("Sam",)
    result = sheet((3,), (-4,), (-4,), (-4,), players=solo)
    assert result.ok
    assert result.start == 10
    assert result.totals == ((13,), (9,), (5,), (1,))
    assert not result.over
    done = sheet((3,), (-4,), (-4,), (-4,), (-1,), players=solo)
    assert done.ok and done.winner == 0 and done.places == (1,)
    assert "more than the race could add" in messages(sheet((33,), players=solo))  # 42 cards: at most +32


def test_races_after_the_end_and_malformed_sheets() -> None:
    result = sheet((6, -3, 4), (5, -3, 7), (1, 1, 1))
    assert "The game was over after race 2 (Bob won); race 3 should not be there." in messages(result)
    assert "Race 1 has 2 entries for 3 players." in messages(sheet((1, 2)))
    assert "only for a 2 player game" in messages(sheet((1, 2, -1), half=True))
    assert "at least 1 player; this sheet has 0" in messages(sheet(players=()))


def test_a_debt_below_zero_is_tracked_like_the_engine() -> None:
    result = sheet((-4, 1, 1), (2, 1, 1))
    assert result.ok and result.totals == ((1, 6, 6), (3, 7, 7))
    # Both at -15 with empty points piles and a debt of 15: each races with all 52 cards again.
    tie = sheet((-20, -20, 2), (9, 4, None))
    assert tie.ok and tie.totals[-1] == (-6, -11, 7) and tie.winner == 1
    assert sheet((-20, -20, 2), (47, -4, None)).ok  # 52 cards raced: at most 47 added
    assert "at most 47 could be added" in messages(sheet((-20, -20, 2), (48, -4, None)))


@pytest.mark.parametrize("players", [("Ann", "Bob"), ABC])
def test_an_empty_sheet_is_a_game_not_yet_started(players: tuple[str, ...]) -> None:
    result = sheet(players=players)
    assert result.ok and result.totals == () and not result.over
    assert result.next_racers == tuple(range(len(players)))
