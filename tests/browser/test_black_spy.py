"""A person plays a whole game of Black Spy against three bots in the browser."""

from __future__ import annotations

from typing import Any

import pytest

from spyleague.play.models import Match

from .conftest import no_sideways_scroll, shot
from .helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_full_game_against_three_bots(page: Any, make_user: Any) -> None:
    log_in(page, make_user, "vera")
    page.goto("/play/")
    page.select_option("#id_game", "black-spy")
    page.fill("#id_seats", "4")
    page.fill("#opt-black-spy-end_value", "60")  # a club's short game: a few deals
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_selector(".bs-board")
    shot(page, "black-spy-pass")
    assert "Pass three cards to the left" in page.text_content(".bs-board")

    clicks = 0
    seen_play = False
    while not page.locator(".outcome").count():
        assert clicks < 800, "the game did not end"
        version = page.get_attribute("#board", "data-key")
        mole = page.locator("input[name=cards]")
        choice = page.locator(".bs-board .row form button")
        card = page.locator(".hand button.card-face")
        if mole.count():
            for i in range(3):
                mole.nth(i).check(force=True)
            page.get_by_role("button", name="Take these three").click()
        elif choice.count():
            choice.first.click()
        elif card.count():
            if "your turn" in (page.text_content(".bs-board") or ""):
                seen_play = True
                if clicks > 20 and page.locator(".trick .played").count() != 0:
                    shot(page, "black-spy-trick")
            card.first.click()
        else:
            # Waiting for bots or the other passes: the page updates itself.
            page.wait_for_function(
                "v => document.getElementById('board').dataset.key !== v", arg=version, timeout=15_000
            )
            continue
        page.wait_for_function(
            "v => document.getElementById('board').dataset.key !== v", arg=version, timeout=15_000
        )
        clicks += 1
    assert seen_play
    shot(page, "black-spy-game-over")
    text = page.text_content(".outcome") or ""
    assert "Game over" in text
    board = " ".join((page.text_content(".bs-board") or "").split())
    assert "· the last" in board and "The game is over: no more tricks." in board
    assert "No trick yet" not in board
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED
    assert max(match.outcome["scores"]) >= 60

    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_selector("#frame")
    page.get_by_role("link", name="⏮ Start").click()
    page.wait_for_selector("text=Move 0 of")
    page.locator("#replay-next").click()
    page.wait_for_selector("text=Move 1 of")
    shot(page, "black-spy-replay")


def test_the_board_fits_a_phone_and_illegal_moves_are_refused(phone: Any, make_user: Any) -> None:
    log_in(phone, make_user, "wes")
    phone.goto("/play/")
    phone.select_option("#id_game", "black-spy")
    phone.get_by_role("button", name="Create the match").click()
    phone.wait_for_selector(".bs-board")
    assert no_sideways_scroll(phone)
    shot(phone, "black-spy-phone")
    # A stale click (an old version) is refused with a reason and the board stays.
    phone.evaluate("() => { document.querySelector('.hand form [name=version]').value = '999'; }")
    phone.locator(".hand button.card-face").first.click()
    phone.wait_for_selector(".move-error")
    assert "moved on" in (phone.text_content(".move-error") or "")
