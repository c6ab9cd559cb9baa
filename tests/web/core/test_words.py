"""The small helpers that put sentences together for people to read."""

from __future__ import annotations

import pytest

from spyleague.core.words import and_list, ordinal


@pytest.mark.parametrize(
    ("parts", "said"),
    [([], ""), (["Ann"], "Ann"), (["Ann", "Ben"], "Ann and Ben"), (["Ann", "Ben", "Cy"], "Ann, Ben and Cy")],
)
def test_and_list_joins_names_as_a_sentence_does(parts: list[str], said: str) -> None:
    assert and_list(parts) == said


@pytest.mark.parametrize(
    ("place", "said"),
    [
        *[(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th")],
        *[(21, "21st"), (22, "22nd"), (101, "101st"), (111, "111th"), (112, "112th")],
    ],
)
def test_ordinal_says_a_place_as_it_is_read(place: int, said: str) -> None:
    assert ordinal(place) == said


def test_the_template_filters_join_names_as_a_sentence() -> None:
    from types import SimpleNamespace

    from django.template import Context, Template

    guests = [SimpleNamespace(name="Gwen"), SimpleNamespace(name="Gus")]
    said = Template('{% load words %}{{ guests|and_list:"name" }}').render(Context({"guests": guests}))
    assert said == "Gwen and Gus"
    # "Waiting for ..." named the seats to act with a comma after the last when a later seat was
    # not to act ("Waiting for Ann, …").
    match = SimpleNamespace(game="black-spy")
    seats = [
        SimpleNamespace(number=0, player=SimpleNamespace(name="Ann"), bot="", match=match),
        SimpleNamespace(number=1, player=None, bot="heuristic", match=match),
        SimpleNamespace(number=2, player=SimpleNamespace(name="Cy"), bot="", match=match),
    ]
    waiting = Template("{% load cards %}Waiting for {{ seats|seat_names:to_act }}…")
    assert waiting.render(Context({"seats": seats, "to_act": [0]})) == "Waiting for Ann…"
    assert waiting.render(Context({"seats": seats, "to_act": [2, 1]})) == "Waiting for Beginner bot 2 and Cy…"
