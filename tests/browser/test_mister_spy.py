"""A person plays Mister Spy against three heuristic bots in the browser, foils included."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from spyleague.play.models import Match, Move

from .conftest import no_sideways_scroll, shot
from .helpers import act, leave, log_in, open_match

pytestmark = pytest.mark.django_db(transaction=True)

# With this seed and the bold strategy below, the person foils a bot's taunt and a bot foils
# the person's taunt (found by replaying the engine and bots offline; the page must show both).
FOIL_SEED = 236
# With this seed and the calm strategy, a bot's taunt asks the person, who may foil, at once.
WINDOW_SEED = 78
WINDOW = "#board .ms-window"
TURN = "#board .ms-actions form:has(input[name=action])"  # the person's own turn, not a window


def bold(action: dict[str, Any]) -> tuple[int, int]:
    """Foil whenever offered, taunt whenever possible, capture the biggest Spy, build, steal."""
    order = ["foil", "taunt", "capture", "play_lair", "steal_spy", "keep", "let_pass", "kill", "pass"]
    kind = action["type"]
    rank = order.index(kind) if kind in order else len(order)
    return (rank, -int(action["card"].split("-")[1]) if kind == "capture" else 0)


def calm(action: dict[str, Any]) -> tuple[int, int]:
    """Never taunt nor foil: capture, build, keep, kill, let it pass."""
    order = ["capture", "play_lair", "keep", "kill", "let_pass", "pass"]
    kind = action["type"]
    return (order.index(kind) if kind in order else len(order), 0)


def test_a_four_seat_game_against_three_heuristic_bots_to_the_end_with_a_foil(
    page: Any, make_user: Any
) -> None:
    user = log_in(page, make_user, "mira")
    match = open_match(page, user, "mister-spy", ".ms-board", seed=FOIL_SEED)
    assert "Your turn: choose one action" in page.text_content(".ms-status")
    shot(page, "mister-spy-turn")

    clicks = 0
    foils_seen: set[str] = set()
    windows = banners = decisions = 0
    while not page.locator(".outcome").count():
        assert clicks < 120, "the game did not end"
        for text in page.locator(".ms-events .ev-foil").all_text_contents():
            foils_seen.add(text)
        if page.locator(".ms-decide").count():
            decisions += 1
            if decisions == 1:
                shot(page, "mister-spy-captive")
        if page.locator(".ms-foiled").count():
            banners += 1
            if banners == 1:
                shot(page, "mister-spy-foiled")
        if page.locator(".ms-window button[data-action=foil]").count():
            windows += 1
            panel = page.text_content(".ms-window") or ""
            assert "you may foil this taunt" in panel and "left to answer" in panel
            assert "Still to answer:" in panel and "Mira" in page.text_content(".ms-window-waiting strong")
            if windows == 1:
                shot(page, "mister-spy-window")
        act(page, bold, idle=True)  # (no action: the bots are moving and the page updates itself)
        clicks += 1
    for text in page.locator(".ms-events .ev-foil").all_text_contents():
        foils_seen.add(text)
    shot(page, "mister-spy-game-over")

    assert windows >= 1, "no taunt ever offered a foil"
    assert banners >= 1, "no foil was announced on the board"
    assert any(text.startswith("Mira FOILED") for text in foils_seen), foils_seen
    assert any("FOILED Mira's taunt" in text for text in foils_seen), foils_seen
    assert "Game over" in (page.text_content(".outcome") or "")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert max(match.outcome["scores"]) >= 33 or match.outcome["detail"]["end"] == "deck empty"
    assert Move.objects.filter(match=match, seat=0, action__type="foil").exists()

    # The replay shows the board as Noor saw it from her seat, move by move: her own hand, and
    # nothing to act with (a stranger sees the spectator's board: tests/web/play/test_replay_views.py).
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_selector("#frame .ms-board")
    page.get_by_role("link", name="Start", exact=True).click()
    page.wait_for_selector("text=Move 0 of")
    assert "as you saw it from your seat" in (page.text_content("main") or "")
    assert page.locator("#frame .ms-hand-card").count() > 0
    assert not page.locator("#frame form").count()
    page.locator("#replay-next").click()
    page.wait_for_selector("text=Move 1 of")
    leave(page)


def test_the_window_on_a_phone_counts_down_and_closes_itself(phone: Any, make_user: Any) -> None:
    user = log_in(phone, make_user, "noor")
    match = open_match(phone, user, "mister-spy", ".ms-board", seed=WINDOW_SEED)
    assert no_sideways_scroll(phone)
    shot(phone, "mister-spy-phone-turn")
    for _ in range(10):
        # Wait until the board asks Noor something: her turn, or the taunt's window. A live update
        # can land while her move's own answer is still on its way and show the bots half-way
        # through their moves, with nothing for her to do yet.
        phone.wait_for_selector(f"{WINDOW}, {TURN}")
        if phone.locator(WINDOW).count():
            break
        act(phone, calm, forms=TURN)
    panel = " ".join((phone.text_content(".ms-window") or "").split())
    assert "Taunt!" in panel and "you may foil this taunt" in panel and "points if nobody foils" in panel
    assert no_sideways_scroll(phone)
    # (With a live Celery worker the other bots may still be answering: wait until only Noor is asked.)
    phone.wait_for_function(
        "() => document.querySelector('.ms-window-waiting strong').textContent === 'Noor'"
    )
    shot(phone, "mister-spy-phone-window")

    # The clock: thirty seconds left (however long the page takes to load on a busy machine), then
    # time runs out on both clocks (the server's deadline passes; the page's clock is moved on),
    # the page refreshes itself and the server lets the taunt pass.
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(seconds=30))
    phone.clock.install()
    phone.reload()
    phone.wait_for_selector(".ms-window [data-ms-left]")
    left = int(phone.text_content(".ms-window [data-ms-left]") or "0")
    assert 0 < left <= 30
    version = Match.objects.get(pk=match.pk).version
    deadline = phone.get_attribute("[data-ms-deadline]", "data-ms-deadline")
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    phone.clock.fast_forward(31_000)
    # Nobody clicks: at 0 the board refreshes and shows the closed window (the bot may taunt again).
    phone.wait_for_function(
        "d => { const c = document.querySelector('[data-ms-deadline]');"
        " return !c || c.dataset.msDeadline !== d; }",
        arg=deadline,
        timeout=10_000,
    )
    assert Move.objects.get(match=match, number=version + 1).action == {"type": "let_pass"}
    assert "Nobody foiled" in (phone.text_content(".ms-events") or "")
    assert no_sideways_scroll(phone)
    shot(phone, "mister-spy-phone-after")
    leave(phone)
