"""One test per ruling in the games.spy_vs_spy docstring, named ``test_ruling_<name>``."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import games.spy_vs_spy as package
from games import game_info
from games.core import IllegalAction, InvalidOptions, shuffled
from games.spy_vs_spy import ENGINE
from games.spy_vs_spy.bots import BOTS
from games.spy_vs_spy.cards import DECK
from games.spy_vs_spy.engine import MAX_RACERS, SpyVsSpyState, start_from_decks
from games.spy_vs_spy.scoresheet import RaceEntry, ScoreSheet, check_sheet
from games.spy_vs_spy.scoring import Standing, places

from .helpers import act, play, rigged, rigged_spy

ACES = "AS AH AD AC 5H 9H"  # piles 5 and 6 are made at once; 3, 7, J and Q then fit nowhere
FOUR_PILES = "AS 5H 9D KC 2S 6S 10S QS"  # every card fits: the bonus with two empty spaces
STUCK_AT_ONCE = f"{ACES} JS QS"  # JS is called, QS goes to the bottom, JS comes round: stuck
LOTS_LEFT = f"{ACES} JS QS 3D 7C JH QH 3S 7S"  # stuck on JS with 8 cards left


def _finish_all(state: SpyVsSpyState, order: tuple[int, ...], take: int = 0) -> SpyVsSpyState:
    """Race out each seat in ``order`` (first fitting pile), say finished, then take pile ``take``."""
    for seat in order:
        while True:
            legal = ENGINE.legal(state, seat)
            state = ENGINE.apply(state, seat, legal[0])
            if legal[0]["type"] == "finish":
                break
    if state.phase == "take":
        for seat in sorted(ENGINE.to_act(state)):
            state = act(state, seat, {"type": "take", "pile": take})
    return state


def _tied_at_minus_one(first: str, second: str) -> SpyVsSpyState:
    """Race 2, a tie-break: seats 0 and 1 tied at -1 race ``first`` and ``second``; seat 2 sits out on 7."""
    return rigged(
        rigged_spy(first, points=0, debt=1),
        rigged_spy(second, points=0, debt=1),
        rigged_spy("2H 3H", points=7, racing=False),
        standing=Standing(contenders=(0, 1), left_out=(((2, 7),),)),
        race=2,
    )


def test_every_ruling_in_the_docstring_has_a_test() -> None:
    doc = package.__doc__ or ""
    rulings = doc.split("Rulings\n-------")[1].split("A fact rather than a ruling")[0]
    names = [line.strip() for line in rulings.splitlines() if line and not line.startswith(" ")]
    names = [name for name in names if name.isidentifier()]
    assert len(names) >= 15
    tests = {name for name in globals() if name.startswith("test_ruling_")}
    for name in names:
        assert any(test.startswith(f"test_ruling_{name}") for test in tests), name


def test_ruling_players_any_number_at_the_table_up_to_8_racing_online() -> None:
    assert MAX_RACERS == 8 and ENGINE.seats == range(1, 9)
    assert ENGINE.start(8, 1, {}).seats == 8
    with pytest.raises(InvalidOptions, match=r"1 to 8 racers, not 9; .* score sheet, which takes any number"):
        ENGINE.start(9, 1, {})
    for bad in (0, -1, True, "3"):
        with pytest.raises(InvalidOptions, match="at least 1 player"):
            ENGINE.start(bad, 1, {})  # type: ignore[arg-type]
    info = game_info("spy-vs-spy")
    assert info.seats.start == 1 and all(n in info.seats for n in (7, 9, 12, 40, 99))
    # A table of 12, each player with their own deck, plays the whole (tournament) game to the
    # end, and its score sheet, race by race, checks out with the same winner.
    seats, rng = 12, random.Random(12)
    state = start_from_decks(seats, 12, [shuffled(DECK, 12, "deck", seat) for seat in range(seats)])
    while ENGINE.outcome(state) is None:
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        state = ENGINE.apply(
            state, seat, BOTS["heuristic"].choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rng)
        )
    outcome = ENGINE.outcome(state)
    assert outcome is not None and len(outcome.places) == seats
    races = []
    for record in state.history:
        points: list[int | None] = [None] * seats
        for row in record.rows:
            points[row.seat] = row.change
        races.append(RaceEntry(tuple(points), record.finish_order[0]))
    result = check_sheet(ScoreSheet(tuple(f"P{seat}" for seat in range(seats)), tuple(races)))
    assert result.ok, result.problems
    assert result.winner == outcome.detail["winner"] and result.places == outcome.places


def test_ruling_card_values_one_point_per_card() -> None:
    state = rigged(rigged_spy(FOUR_PILES, points=30), rigged_spy(STUCK_AT_ONCE), rigged_spy(LOTS_LEFT))
    before = [spy.score for spy in state.spies]
    assert before == [len(spy.points_pile) for spy in state.spies] == [30, 5, 5]
    state = _finish_all(state, (1, 2, 0))
    for row in state.history[-1].rows:
        assert row.change == row.leftover + row.pile - row.removed
        assert row.score == before[row.seat] + row.change
    assert [spy.score for spy in state.spies] == [10, 3, 14]  # 30-20; 5+2+1-5; 5+8+1


def test_ruling_negative_scores_keep_a_debt() -> None:
    state = rigged(rigged_spy(STUCK_AT_ONCE, points=1), rigged_spy(LOTS_LEFT, points=20))
    state = _finish_all(state, (0, 1))  # seat 0 first: 1 + 2 + 1 - 5 = -1
    spy = state.spies[0]
    assert (len(spy.points_pile), spy.debt, spy.score) == (0, 1, -1)
    assert ENGINE.view(state, 1)["players"][0]["score"] == -1
    assert ENGINE.outcome(state) is not None and ENGINE.outcome(state).scores == (-1, 29)  # type: ignore[union-attr]
    # In a tie-break race the debt stays and cards added count against it.
    state = _finish_all(_tied_at_minus_one(LOTS_LEFT, LOTS_LEFT), (0, 1))
    first, second = state.spies[0], state.spies[1]
    assert (len(first.points_pile), first.debt, first.score) == (4, 1, 3)  # 0 + 9 - 5 cards, -1 + 9 - 5
    assert (len(second.points_pile), second.debt, second.score) == (9, 1, 8)


def test_ruling_points_pile_is_counted_not_seen() -> None:
    state = ENGINE.start(3, 21, {})
    keys = {
        "seat", "score", "points_pile", "hand", "card", "piles", "called", "called_came_round",
        "stuck", "done", "finished", "bonus", "must_take", "has_chosen",
    }  # fmt: skip
    for viewer in (0, 1, 2, None):
        view = ENGINE.view(state, viewer)
        for player in view["players"]:
            assert set(player) == keys
            assert player["points_pile"] == 5 and player["score"] == 5
    # The owner does not see the faces either: a one-seat table has no other copy of these cards.
    alone = rigged(rigged_spy(FOUR_PILES, points=10))
    text = json.dumps(ENGINE.view(alone, 0))
    assert not any(f'"{card}"' in text for card in alone.spies[0].points_pile)


def test_ruling_flipping_is_automatic_and_each_placed_card_is_one_action() -> None:
    state = ENGINE.start(2, 5, {})
    for seat in (0, 1):
        spy = state.spies[seat]
        if not spy.done:
            assert spy.card is not None
            assert ENGINE.view(state, 1 - seat)["players"][seat]["card"] == spy.card  # face up: public
    state = rigged(rigged_spy(FOUR_PILES), rigged_spy(FOUR_PILES))
    assert ENGINE.legal(state, 0) == [{"type": "place", "pile": 0}]  # only one pile fits: still asked
    state = act(state, 0, {"type": "place", "pile": 0})
    assert state.spies[0].card == "6S" and state.spies[1].card == "2S"  # the next card is already up


def test_ruling_no_choosing_a_new_pile_or_the_bottom() -> None:
    state = rigged(rigged_spy(f"{ACES} 2S 3S"))
    assert len(state.spies[0].piles) == 6 and state.spies[0].card == "2S"
    assert ENGINE.legal(state, 0) == [{"type": "place", "pile": p} for p in range(4)]
    for action in ({"type": "new_pile"}, {"type": "bottom"}, {"type": "skip"}, {"type": "place", "pile": 6}):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, action)


def test_ruling_called_card_comes_round_and_is_played_like_any_card() -> None:
    # It fits when it comes round: it goes down (the 10S was put on the 9H meanwhile).
    state = rigged(rigged_spy(f"{ACES} JS 10S"))
    state = act(state, 0, {"type": "place", "pile": 5})
    assert state.spies[0].card == "JS" and state.spies[0].came_round and not state.spies[0].stuck
    # It does not fit when it comes round: stuck at once, and it is a leftover card.
    stuck = rigged(rigged_spy(STUCK_AT_ONCE)).spies[0]
    assert stuck.stuck and stuck.came_round and stuck.card == "JS"
    assert stuck.leftover == ("JS", "QS")


def test_ruling_never_stuck_before_the_called_card_comes_round() -> None:
    spy = rigged(rigged_spy(LOTS_LEFT)).spies[0]
    # Seven cards after JS fitted nowhere: each went to the bottom, none left the seat stuck.
    assert spy.called == "JS" and spy.came_round and spy.stuck
    assert spy.card == "JS" and spy.hand == ("QS", "3D", "7C", "JH", "QH", "3S", "7S")
    # The seat with the called card at the very bottom: it comes round at once.
    alone = rigged(rigged_spy(f"{ACES} JS")).spies[0]
    assert alone.stuck and alone.leftover == ("JS",)


def test_ruling_saying_finished_only_when_the_race_is_over() -> None:
    state = rigged(rigged_spy(FOUR_PILES), rigged_spy(STUCK_AT_ONCE))
    with pytest.raises(IllegalAction, match="must go on a pile first"):
        ENGINE.apply(state, 0, {"type": "finish"})
    assert ENGINE.legal(state, 1) == [{"type": "finish"}]
    with pytest.raises(IllegalAction, match="say finished"):
        ENGINE.apply(state, 1, {"type": "place", "pile": 0})
    with pytest.raises(IllegalAction, match="say finished"):
        ENGINE.apply(state, 1, {"type": "finish", "extra": 1})
    state = act(state, 1, {"type": "finish"})
    with pytest.raises(IllegalAction, match="already finished"):
        ENGINE.apply(state, 1, {"type": "finish"})


def test_ruling_own_piles_taken_and_choices_hidden() -> None:
    state = rigged(rigged_spy(STUCK_AT_ONCE), rigged_spy(f"{ACES} 10S 2S"), rigged_spy(STUCK_AT_ONCE))
    for seat in (0, 2):
        state = act(state, seat, {"type": "finish"})
    state = act(state, 1, {"type": "place", "pile": 5})
    state = act(state, 1, {"type": "place", "pile": 0})
    state = act(state, 1, {"type": "finish"})
    assert ENGINE.legal(state, 1) == [{"type": "take", "pile": p} for p in range(6)]  # its own six
    with pytest.raises(IllegalAction, match="no pile 6"):
        ENGINE.apply(state, 1, {"type": "take", "pile": 6})
    state = act(state, 1, {"type": "take", "pile": 5})
    assert ENGINE.view(state, 1)["my_choice"] == 5
    other = ENGINE.view(state, 0)
    assert other["my_choice"] is None and other["players"][1]["has_chosen"]
    taken = state.spies[1].piles[5]
    state = act(state, 0, {"type": "take", "pile": 0})
    state = act(state, 2, {"type": "take", "pile": 0})
    assert Counter(taken) <= Counter(state.spies[1].points_pile)
    for spy in state.spies:
        assert len(spy.cards()) == len(set(spy.cards()))  # no card came from another deck


def test_ruling_bonus_at_any_rank_and_for_several_seats() -> None:
    state = rigged(
        rigged_spy(STUCK_AT_ONCE), rigged_spy(FOUR_PILES, points=30), rigged_spy(FOUR_PILES, points=25)
    )
    state = _finish_all(state, (0, 2, 1))  # the two bonuses finish second and last
    rows = state.history[-1].rows
    assert [(row.place, row.bonus, row.removed) for row in rows] == [
        (1, False, 5),
        (3, True, 20),
        (2, True, 20),
    ]
    assert [spy.score for spy in state.spies] == [3, 10, 5]


def test_ruling_bonus_first_finisher_leaves_no_5_for_the_second() -> None:
    state = rigged(rigged_spy(FOUR_PILES, points=30), rigged_spy(STUCK_AT_ONCE), rigged_spy(STUCK_AT_ONCE))
    state = _finish_all(state, (0, 1, 2))
    rows = state.history[-1].rows
    assert [(row.place, row.removed) for row in rows] == [(1, 20), (2, 0), (3, 0)]
    assert [spy.score for spy in state.spies] == [10, 8, 8]


def test_ruling_removed_cards_come_off_the_top_and_race_again() -> None:
    state = rigged(rigged_spy(FOUR_PILES, points=25))
    pile = state.spies[0].points_pile
    state = _finish_all(state, (0,))
    spy = state.spies[0]
    assert spy.points_pile == pile[:5]
    racing = Counter(spy.hand) + Counter(card for p in spy.piles for card in p)
    if spy.card:
        racing[spy.card] += 1
    assert racing == Counter(pile[5:]) + Counter(FOUR_PILES.split())


def test_ruling_tie_break_races_repeat_and_narrow() -> None:
    # Tied at -1: after the tie-break race neither is at 0 or below, so they race again.
    state = _tied_at_minus_one(LOTS_LEFT, LOTS_LEFT)
    assert ENGINE.to_act(state) == frozenset({0, 1})
    sitting_out = state.spies[2]
    state = _finish_all(state, (1, 0))
    assert [spy.score for spy in state.spies] == [8, 3, 7]
    assert ENGINE.outcome(state) is None and state.racers == (0, 1) and state.race == 3
    assert state.history[-1].tie_break and ENGINE.view(state, None)["tie_break"]
    assert state.spies[2] is sitting_out
    # Three tied at -1; two of them tie again on the lowest score: only those two race on.
    standing = Standing(contenders=(0, 1, 2), left_out=(((3, 4),),))
    state = rigged(
        rigged_spy(FOUR_PILES, points=0, debt=1),
        rigged_spy(FOUR_PILES, points=0, debt=1),
        rigged_spy(STUCK_AT_ONCE, points=0, debt=1),
        rigged_spy("2H 3H", points=4, racing=False),
        standing=standing,
        race=5,
    )
    state = _finish_all(state, (2, 0, 1))
    assert [spy.score for spy in state.spies] == [-21, -21, -3, 4]
    assert state.racers == (0, 1) and ENGINE.outcome(state) is None
    assert state.standing.left_out[-1] == ((2, -3),)


def test_ruling_places_keep_tied_seats_above_the_rest() -> None:
    state = _tied_at_minus_one(LOTS_LEFT, STUCK_AT_ONCE)
    state = _finish_all(state, (1, 0))  # seat 1: -1 + 3 - 5 = -3 wins; seat 0: -1 + 9 = 8
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == (8, -3, 7)
    assert outcome.places == (2, 1, 3)  # seat 0 tied for the win, so it stays above seat 2
    assert outcome.detail["tie_break_races"] == 1
    # Equal scores share a place, and the next place is skipped.
    done = Standing(contenders=(0,), left_out=(((1, 4), (2, 4), (3, 9)),), winner=0)
    assert places(done, 4) == (1, 2, 2, 4)
    deeper = Standing(contenders=(2,), left_out=(((0, 3), (3, 1)), ((1, 5),)), winner=2)
    assert places(deeper, 4) == (4, 2, 1, 3)


def test_ruling_single_player_removes_5_every_race_unless_bonus() -> None:
    state, _ = play(1, 8, bots=None)
    assert ENGINE.outcome(state) is not None
    for record in state.history:
        (row,) = record.rows
        assert row.removed == (20 if row.bonus else 5)
        assert row.place == 1


def test_ruling_cheating_cannot_happen() -> None:
    state = rigged(rigged_spy(FOUR_PILES))
    for pile in (1, 2, 3):
        with pytest.raises(
            IllegalAction, match=r"The 2 of Spades does not go on the .*It fits on the Ace of Spades"
        ):
            ENGINE.apply(state, 0, {"type": "place", "pile": pile})
    assert state.spies[0].card == "2S" and state.spies[0].piles == (("AS",), ("5H",), ("9D",), ("KC",))
