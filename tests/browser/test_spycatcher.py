"""A person plays Spycatcher against three heuristic bots in the browser, challenges included."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.spycatcher import ENGINE
from spyleague.play.models import Match, Move

from .conftest import no_sideways_scroll, shot
from .helpers import act, leave, log_in, open_match

pytestmark = pytest.mark.django_db(transaction=True)

# With this seed, eight rounds and the strategy below, bots seek permission three times (the
# person is asked each time and challenges when the suit allows) and the person seeks once
# (found by replaying the engine and bots offline; the page must show every one of them).
SEED = 27
ROUNDS = 8
ASKED = """() => {
  const decline = document.querySelector('.sc-window button[data-action=decline]');
  if (!decline) return [null, '', false];
  const panel = decline.closest('.sc-window');
  return [panel.dataset.window, panel.textContent, !!panel.querySelector('button[data-action=challenge]')];
}"""
VISIBLE_FORMS = "#board form:has(input[name=action]):visible"  # (choices folded away are not clicked)


def total(action: dict[str, Any]) -> int:
    cards = action.get("cards") or []
    if any(card.endswith("-M") for card in cards):
        return 100
    return sum(int(card.rsplit("-", 1)[1]) for card in cards)


def person(action: dict[str, Any]) -> tuple[int, int, int]:
    """Take from the pack, drop the first card, roll, seek whenever possible, challenge with the
    strongest cards when asked."""
    order = ["draw", "discard", "roll", "stay", "move", "seek", "challenge", "decline", "pass"]
    order += ["give", "replace"]
    kind = action["type"]
    rank = order.index(kind) if kind in order else len(order)
    if kind == "draw":
        return (rank, 0 if action["from"] == "pack" else 1, 0)
    if kind == "challenge":
        return (rank, -total(action), len(action["cards"]))
    return (rank, 0, 0)


def words(page: Any, selector: str) -> str:
    return " ".join((page.text_content(selector) or "").split())


def test_a_four_seat_game_against_three_bots_to_the_end_with_challenges(page: Any, make_user: Any) -> None:
    user = log_in(page, make_user, "mira")
    match = open_match(page, user, "spycatcher", ".sc-board", seed=SEED, options={"turn_limit": ROUNDS})
    assert page.locator(".sc-svg [data-square]").count() == len(ENGINE.board_drawing("league")["squares"])
    assert page.locator(".sc-svg .sc-piece").count() == 4
    assert no_sideways_scroll(page)

    clicks = 0
    asked: set[str] = set()
    verdicts = 0
    moments: list[str] = []
    while not page.locator(".outcome").count():
        assert clicks < 90, "the game did not end"
        if page.locator(".sc-verdict").count():
            verdicts += 1
            if verdicts == 1:
                shot(page, "spycatcher-verdict")
        # The window asking the person, read in one go (the page may redraw itself at any moment).
        window, panel, may = page.evaluate(ASKED)
        if window is not None and window not in asked:
            # (a window is counted once: a bot's answer may redraw it before the person's lands)
            asked.add(window)
            panel = " ".join(panel.split())
            moments.append(panel)
            assert "Seeking permission!" in panel and "face down" in panel and "left to challenge" in panel
            assert "Still to answer: Mira" in panel and "Mira (you): deciding…" in panel
            assert ("You may challenge" in panel) == may
            if len(asked) == 1:
                shot(page, "spycatcher-challenge")
        elif clicks == 6:
            shot(page, "spycatcher-mid-game")
        act(page, person, forms=VISIBLE_FORMS, idle=True)  # (no action: the bots are moving)
        clicks += 1
    shot(page, "spycatcher-game-over")

    assert asked, "no request for permission was shown to the person"
    assert verdicts >= 1, "no outcome of a request for permission was told"
    assert all("asking The" in moment for moment in moments), moments
    outcome = words(page, ".outcome")
    assert "Game over" in outcome and "Mira" in outcome
    assert "Game over: the round limit was reached" in words(page, ".sc-status")
    assert f"limit of {ROUNDS} rounds was reached" in words(page, ".sc-events")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["detail"]["end"] == "turn limit" and match.outcome["detail"]["rounds"] == ROUNDS
    assert Move.objects.filter(match=match, seat=0, action__type__in=["challenge", "decline"]).count() == len(
        asked
    )

    # The replay draws the board as the player saw it from her seat, move by move: her own hand,
    # and nothing to act with (a stranger sees the spectator's board: tests/web/play).
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_selector("#frame .sc-board .sc-svg")
    assert "as you saw it from your seat" in (page.text_content("main") or "")
    assert not page.locator("#frame form").count()
    page.get_by_role("link", name="Start", exact=True).click()
    page.wait_for_selector("text=Move 0 of")
    assert page.locator("#frame .sc-hand-card").count() > 0
    assert page.locator("#frame .sc-piece").count() == 4
    page.locator("#replay-next").click()
    page.wait_for_selector("text=Move 1 of")
    leave(page)


def test_the_board_and_a_challenge_on_a_phone_with_the_clock_running_out(phone: Any, make_user: Any) -> None:
    phone.set_viewport_size({"width": 375, "height": 812})  # the narrowest phone the board is made for
    user = log_in(phone, make_user, "noor")
    match = open_match(phone, user, "spycatcher", ".sc-board", seed=SEED, options={"turn_limit": ROUNDS})
    assert no_sideways_scroll(phone)
    width = phone.evaluate("document.querySelector('.sc-svg').getBoundingClientRect().width")
    assert 300 <= width <= 390  # the drawing scales down to the phone's width
    shot(phone, "spycatcher-phone-turn")
    for _ in range(30):
        if phone.locator(".sc-window").count():
            break
        act(phone, person, forms=VISIBLE_FORMS, idle=True)
    panel = words(phone, ".sc-window")
    assert "Seeking permission!" in panel and "Still to answer: Noor" in panel
    assert no_sideways_scroll(phone)
    shot(phone, "spycatcher-phone-challenge")

    # The clock: three seconds left, then the page refreshes itself and the server declines for Noor.
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(seconds=3))
    phone.reload()
    left = int(phone.text_content(".sc-window [data-sc-left]") or "0")
    assert 0 < left <= 3
    version = Match.objects.get(pk=match.pk).version
    phone.wait_for_selector(".sc-window", state="detached", timeout=10_000)
    assert Move.objects.get(match=match, number=version + 1).action == {"type": "decline"}
    assert "Permission" in words(phone, ".sc-verdict")
    assert no_sideways_scroll(phone)
    shot(phone, "spycatcher-phone-after")
    leave(phone)
