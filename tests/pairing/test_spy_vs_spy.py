"""Spy vs Spy tournament places from points piles (rule text: shared/rules/spy-vs-spy.md)."""

import pytest

from pairing import Race, spy_vs_spy_places


def race(piles: dict[int, int], order: tuple[int, ...]) -> Race:
    return Race(piles, order)


def test_first_pile_at_zero_wins_and_the_rest_by_pile_then_finish() -> None:
    races = [
        race({1: 12, 2: 9, 3: 15}, (2, 1, 3)),
        race({1: 4, 2: 0, 3: 4}, (3, 2, 1)),
    ]
    out = spy_vs_spy_places([1, 2, 3], races)
    assert out.status == "decided"
    assert out.places == {2: 1, 3: 2, 1: 3}  # 1 and 3 level on 4: 3 finished the last race first


def test_ruling_12_lower_negative_score_beats_zero_at_the_same_time() -> None:
    # Rule text: "if you reach 0 and the person beside you reaches -1 ... the person with -1 wins".
    out = spy_vs_spy_places([1, 2], [race({1: 0, 2: -1}, (1, 2))])
    assert out.places == {2: 1, 1: 2}


def test_ruling_12_equal_lowest_piles_need_a_replay_not_finishing_order() -> None:
    races = [race({1: -1, 2: -1, 3: 6}, (1, 2, 3))]
    out = spy_vs_spy_places([1, 2, 3], races)
    assert out.status == "replay"
    assert out.replay_between == (1, 2)
    assert out.message.startswith("replay needed between 1, 2")
    assert out.places == {3: 3}


def test_replay_races_decide_between_the_tied_players() -> None:
    races = [
        race({1: -1, 2: -1, 3: 6}, (1, 2, 3)),
        race({1: 3, 2: 4}, (2, 1)),  # both piles went back up: race on
        race({1: -2, 2: 1}, (1, 2)),
    ]
    out = spy_vs_spy_places([1, 2, 3], races)
    assert out.status == "decided"
    assert out.places == {1: 1, 2: 2, 3: 3}
    unfinished = spy_vs_spy_places([1, 2, 3], races[:2])
    assert unfinished.status == "race_again"
    assert unfinished.replay_between == (1, 2)
    assert "replay" in unfinished.message


def test_no_pile_at_zero_means_race_again() -> None:
    out = spy_vs_spy_places([1, 2], [race({1: 3, 2: 5}, (1, 2))])
    assert out.status == "race_again"
    assert out.places == {}
    assert spy_vs_spy_places([1, 2], []).status == "race_again"


def test_inconsistent_records_are_refused() -> None:
    with pytest.raises(ValueError, match="piles must be given"):
        spy_vs_spy_places([1, 2], [race({1: 0}, (1, 2))])
    with pytest.raises(ValueError, match="finishing order"):
        spy_vs_spy_places([1, 2], [race({1: 0, 2: 3}, (1, 1))])
    with pytest.raises(ValueError, match="after the table was decided"):
        spy_vs_spy_places([1, 2], [race({1: 0, 2: 3}, (1, 2)), race({1: -5, 2: 3}, (1, 2))])
    with pytest.raises(ValueError, match="at least 2"):
        spy_vs_spy_places([1], [])
