"""Explaining repeated pairs and checking manual swaps."""

import pytest

from pairing import PlayerStanding, RepeatedPair, Round, check_swap, explain_repeats
from pairing.explain import Alternative, _alternative_text

NAMES = {1: "Ann", 2: "Bob", 3: "Cat", 4: "Dan", 5: "Eve", 6: "Fay"}


def test_forced_repeat_is_explained_as_the_proven_minimum() -> None:
    history = [Round(((1, 2), (3, 4))), Round(((1, 3), (2, 4))), Round(((1, 4), (2, 3)))]
    rnd = Round(((1, 2), (3, 4)))
    out = explain_repeats(rnd, history, names=NAMES)
    assert [e.players for e in out] == [(1, 2), (3, 4)]
    assert out[0].forced
    assert out[0].rounds == (1,)
    assert out[0].text.startswith("Ann and Bob meet again (they met in round 1).")
    assert "proven minimum" in out[0].text


def test_avoidable_repeat_names_the_swap_that_avoids_it() -> None:
    history = [Round(((1, 2, 3), (4, 5, 6), (7, 8, 9)))]
    standings = [PlayerStanding(p, 0.0) for p in range(1, 10)]
    rnd = Round(((1, 2, 4), (3, 5, 7), (6, 8, 9)))  # 1-2 and 8-9 met in round 1
    out = explain_repeats(rnd, history, standings, NAMES)
    assert [e.players for e in out] == [(1, 2), (8, 9)]
    assert not out[0].forced
    alt = out[0].alternative
    assert alt is not None and alt.repeats_change == -2 and alt.spread_change == 0  # 1 with 8 fixes both
    assert out[0].text.startswith("Ann and Bob meet again (they met in round 1). This round can be improved:")


def test_explanation_texts_for_each_trade_off() -> None:
    pair = RepeatedPair((3, 4), 1, (2,))
    names = {3: "Cat", 4: "Dan", 5: "Eve"}
    worse = Alternative(3, 5, 0, 2, 0.0, (pair, pair))
    assert "Every swap that separates them repeats more pairs" in _alternative_text(worse, names)
    assert "(Cat and Dan met in round 2; Cat and Dan met in round 2)" in _alternative_text(worse, names)
    same = Alternative(3, 5, 0, 0, 1.0, (pair,))
    assert _alternative_text(same, names).startswith("Separating them only moves the repeat elsewhere")
    wider = Alternative(3, 5, 0, -1, 9.0, ())
    assert "squared points spread of the two tables +9" in _alternative_text(wider, names)


def test_repeat_kept_because_separating_costs_another() -> None:
    # Three players who all met: any seating of them at one table repeats everything.
    history = [Round(((1, 2, 3),)), Round(((4, 5, 6),))]
    rnd = Round(((1, 2, 3), (4, 5, 6)))
    out = explain_repeats(rnd, history, names=NAMES)
    assert len(out) == 6
    assert all(not e.forced for e in out)  # the bound cannot prove it, the swaps can
    assert all(e.alternative is not None and e.alternative.repeats_change < 0 for e in out)


def test_swap_warns_about_new_meetings_with_the_round() -> None:
    history = [Round(((1, 3), (2, 4))), Round(((1, 4), (2, 3)))]
    rnd = Round(((1, 2), (3, 5), (4, 6)))
    check = check_swap(rnd, 2, 3, history, names=NAMES)
    assert check.round == Round(((1, 3), (2, 5), (4, 6)))
    messages = [w.message for w in check.warnings if w.kind == "repeat"]
    assert messages == ["swapping Bob and Cat makes Cat meet Ann again (round 1)"]


def test_swap_into_a_bye_warns_about_a_second_bye() -> None:
    history = [Round(((1, 2),), byes=(3,))]
    rnd = Round(((1, 3),), byes=(2,))
    check = check_swap(rnd, 3, 2, history, names=NAMES)
    assert check.round == Round(((1, 2),), byes=(3,))
    kinds = {w.kind: w.message for w in check.warnings}
    assert kinds["bye"] == "swapping Cat and Bob gives Cat a second bye (already had one in round 1)"
    assert kinds["repeat"] == "swapping Cat and Bob makes Bob meet Ann again (round 1)"


def test_swap_warns_about_standing_and_handles_same_table() -> None:
    standings = [PlayerStanding(p, float(p)) for p in range(1, 7)]
    rnd = Round(((6, 5), (2, 1)))
    check = check_swap(rnd, 6, 1, [], standings, NAMES)
    texts = [w.message for w in check.warnings if w.kind == "standing"]
    assert "Fay (6 pts) would sit with players on 2 pts" in texts
    same = check_swap(rnd, 6, 5, [], standings, NAMES)
    assert same.round == Round(((5, 6), (2, 1)))
    assert [w.kind for w in same.warnings] == ["info"]
    with pytest.raises(ValueError, match="not in this round"):
        check_swap(rnd, 6, 9, [])
