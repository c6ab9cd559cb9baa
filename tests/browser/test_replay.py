"""The replay: the game's own board at each step, the move in words, stepping with the keys."""

from __future__ import annotations

from typing import Any

import pytest

from games import get_engine
from spyleague.play import services
from spyleague.play.models import Match
from spyleague.play.state import match_state

from .conftest import no_sideways_scroll, shot
from .helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)

STEP = "document.querySelector('#frame').dataset.step"


def finished(user: Any, game: str, seats: int, seed: int, options: dict[str, Any]) -> Match:
    """A game played to its end by the person (the first legal action, every time) and bots."""
    match = services.match_create(user=user, game=game, seats=seats, seed=seed, options=options)
    services.match_start(user=user, match_id=match.pk, fill_with="heuristic")
    engine = get_engine(game)
    for _ in range(2000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        state = match_state(match)
        assert 0 in engine.to_act(state), "the bots did not answer"
        services.match_move_submit(match_id=match.pk, user=user, action=dict(engine.legal(state, 0)[0]))
    raise AssertionError("the game did not end")


def step_with(page: Any, key: str, expected: int) -> None:
    page.keyboard.press(key)
    page.wait_for_function(f"n => {STEP} === String(n)", arg=expected)


def test_a_black_spy_replay_steps_with_the_keys_and_says_each_move(page: Any, make_user: Any) -> None:
    noor = log_in(page, make_user, "noor")
    match = finished(noor, "black-spy", 3, 5, {"end_value": 40})
    last = match.version
    page.goto(f"/play/matches/{match.pk}/replay/?step=0")
    page.wait_for_selector("#frame .bs-board")
    assert "The start, before the first move." in (page.text_content("[data-replay-move]") or "")
    # Buttons in words with drawn arrows, no missing glyphs.
    labels = [" ".join(t.split()) for t in page.locator(".replay-controls [data-replay]").all_text_contents()]
    assert labels == ["Start", "Back", "Next", "End"]
    assert page.locator(".replay-controls [data-replay] svg").count() == 4

    step_with(page, "End", last)
    assert f"Move {last} of {last}" in (page.text_content(".replay-step") or "")
    step_with(page, "Home", 0)
    plays = 0
    for n in range(1, 16):
        step_with(page, "ArrowRight", n)
        words = page.text_content("[data-replay-move]") or ""
        assert "{" not in words and "'type'" not in words, words
        if " plays " in words:
            plays += 1
            assert words.lower().startswith("noor plays ") or " bot " in words, words
            assert "(" in words and "-" not in words.split(" plays ")[1], (
                words
            )  # "Blue 7 (Spy)", not "blue-7"
    assert plays >= 1
    shot(page, "replay-black-spy")
    step_with(page, "ArrowLeft", 14)
    assert page.url.endswith("?step=14")  # the address follows: a step can be shared
    page.get_by_role("link", name="Back", exact=True).click()
    page.wait_for_function(f"() => {STEP} === '13'")
    # The passes stay hidden in words; Noor, a player, sees her own hand as she held it, and no
    # control to act with (a stranger sees no hand: tests/web/play/test_replay_views.py).
    step_with(page, "Home", 0)
    step_with(page, "ArrowRight", 1)
    assert page.text_content("[data-replay-move]").strip().endswith("passes a card.")
    assert page.locator("#frame .hand").count() == 1
    assert page.locator("#frame form, #frame button").count() == 0
    shot(page, "replay-black-spy-own-seat")


def test_the_replay_fits_a_phone(phone: Any, make_user: Any) -> None:
    noor = log_in(phone, make_user, "noor")
    match = finished(noor, "spy-vs-spy", 1, 67, {})
    phone.goto(f"/play/matches/{match.pk}/replay/?step=3")
    phone.wait_for_selector("#frame .svs")
    words = phone.text_content("[data-replay-move]") or ""
    assert words.lower().startswith("noor puts the ") and " of " in words and "on pile" in words, words
    assert no_sideways_scroll(phone)
    shot(phone, "replay-spy-vs-spy-phone")
    phone.locator("#replay-next").tap()
    phone.wait_for_function(f"() => {STEP} === '4'")
