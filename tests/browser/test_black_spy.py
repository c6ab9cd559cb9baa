"""A person plays a whole game of Black Spy against three bots in the browser."""

from __future__ import annotations

from typing import Any

import pytest

from spyleague.play import services
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
        mole = page.locator("form[data-pick] input[name=cards]")
        choice = page.locator(".bs-board .row form button")
        card = page.locator(".hand button.card-face")
        if mole.count():
            for i in range(3):
                mole.nth(i).check(force=True)
            page.locator("form[data-pick] [data-pick-confirm]").click()
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
    page.get_by_role("link", name="Start", exact=True).click()
    page.wait_for_selector("text=Move 0 of")
    page.locator("#replay-next").click()
    page.wait_for_selector("text=Move 1 of")
    assert " passes " in (page.text_content("[data-replay-move]") or "")  # a pass, its cards unsaid
    shot(page, "black-spy-replay")


def test_the_board_fits_a_phone_and_illegal_moves_are_refused(phone: Any, make_user: Any) -> None:
    log_in(phone, make_user, "wes")
    phone.goto("/play/")
    phone.select_option("#id_game", "black-spy")
    phone.get_by_role("button", name="Create the match").click()
    phone.wait_for_selector(".bs-board")
    assert no_sideways_scroll(phone)
    shot(phone, "black-spy-phone")
    # A stale choice (an old version) is refused with a reason and the board stays.
    phone.evaluate("() => { document.querySelector('.bs-pass [name=version]').value = '999'; }")
    for i in range(3):
        phone.locator(".bs-pass label.pick").nth(i).tap()
    phone.locator(".bs-pass [data-pick-confirm]").tap()
    phone.wait_for_selector(".move-error")
    assert "moved on" in (phone.text_content(".move-error") or "")


def test_the_pass_picks_three_cards_then_sends_them_once(page: Any, make_user: Any) -> None:
    user = log_in(page, make_user, "noor")
    match = services.match_create(user=user, game="black-spy", seats=4, seed=12)
    services.match_start(user=user, match_id=match.pk, fill_with="heuristic")
    page.goto(f"/play/matches/{match.pk}/")
    page.wait_for_selector(".bs-pass")
    confirm = page.locator(".bs-pass [data-pick-confirm]")
    picks = page.locator(".bs-pass label.pick")
    assert confirm.is_disabled()
    posts: list[Any] = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" and "/act/" in r.url else None)
    # A tap picks a card, a second tap puts it back: nothing is sent yet.
    picks.nth(0).click()
    picks.nth(0).click()
    assert "0 of 3 chosen" in (page.text_content("[data-pick-status]") or "")
    for i in (1, 2, 3):
        picks.nth(i).click()
    picks.nth(4).click()  # a fourth is one too many: it is not taken
    assert page.locator(".bs-pass input[name=cards]:checked").count() == 3
    status = page.text_content("[data-pick-status]") or ""
    assert "tap a chosen card to put it back" in status
    chosen = page.locator(".bs-pass input[name=cards]:checked").evaluate_all("bs => bs.map(b => b.value)")
    assert posts == [] and confirm.is_enabled()
    shot(page, "black-spy-pass-chosen")
    key = page.get_attribute("#board", "data-key")
    confirm.click()
    page.wait_for_function("v => document.getElementById('board').dataset.key !== v", arg=key)
    assert len(posts) == 1, "the pass is sent once"
    body = posts[0].post_data or ""
    assert body.count("cards=") == 3 and all(code in body for code in chosen)
    move = match.moves.get(seat=0)
    assert move.action == {"type": "pass", "cards": chosen}
    text = " ".join((page.text_content(".bs-tray") or "").split())
    # (the bots had passed: the cards change hands at once) What came back is said in names, not codes.
    assert "You received " in text and " (" in text
    assert not any(f"{colour}-" in text for colour in ("blue", "yellow", "red", "green", "black"))
