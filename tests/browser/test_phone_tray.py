"""On a phone every board keeps the hand and the controls you act with in view (the tray at the
bottom of the screen) while the rest scrolls; on a desktop the boards keep their layout."""

from __future__ import annotations

from typing import Any

import pytest

from spyleague.play import services
from spyleague.play.models import Match

from .conftest import SHOTS, no_sideways_scroll, shot, watched_page
from .helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)

# game: (seats, seed, options, the board, the hand's cards, the controls to act with)
GAMES: dict[str, tuple[int, int, dict[str, Any], str, str, str]] = {
    "black-spy": (4, 12, {}, ".bs-board", ".bs-tray .hand .card-face", ".bs-tray [data-pick-confirm]"),
    "spy-vs-spy": (
        4,
        159,
        {"bot_cards_per_minute": 10},
        "#race[data-mode=place]",
        ".svs-card-slot .pc",
        ".svs-piles > .pile",
    ),
    "mister-spy": (4, 236, {}, ".ms-board", ".ms-hand .ms-card", ".ms-actions button >> nth=0"),
    "spycatcher": (
        4,
        27,
        {"first_player": 0},
        ".sc-board",
        ".sc-hand .sc-card",
        ".sc-actions button >> nth=0",
    ),
    "spies": (5, 11, {}, ".sp-board", ".sp-actions h2", ".sp-actions button >> nth=0"),
}

OUTSIDE = """([selector, width, height]) => [...document.querySelectorAll(selector.split(' >> ')[0])]
  .slice(0, selector.includes(' >> nth=0') ? 1 : undefined)
  .map(el => el.getBoundingClientRect())
  .filter(r => r.top < -0.5 || r.left < -0.5 || r.bottom > height + 0.5 || r.right > width + 0.5)
  .map(r => [r.left, r.top, r.right, r.bottom].map(Math.round))"""


def screen(page: Any, name: str) -> None:
    """What the screen shows, without scrolling (a full-page shot draws a fixed tray mid-page)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), timeout=30_000)


def started(user: Any, game: str) -> Match:
    seats, seed, options, *_ = GAMES[game]
    match = services.match_create(user=user, game=game, seats=seats, seed=seed, options=options)
    return services.match_start(user=user, match_id=match.pk, fill_with="heuristic")


def tray_position(page: Any) -> str:
    return str(page.evaluate("getComputedStyle(document.querySelector('.play-tray')).position"))


@pytest.mark.parametrize("game", list(GAMES))
def test_the_hand_and_the_controls_stay_in_view_on_a_phone(
    game: str, browser: Any, live_server: Any, make_user: Any
) -> None:
    *_, board, hand, controls = GAMES[game]
    phone_options = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    with watched_page(browser, base_url=live_server.url, **phone_options) as phone:
        user = log_in(phone, make_user, "noor")
        match = started(user, game)
        phone.goto(f"/play/matches/{match.pk}/")
        phone.wait_for_selector(board)
        phone.wait_for_selector(controls)
        # The page leaves room for the tray once boards.js has measured it: wait for that.
        phone.wait_for_function(
            "() => { const t = document.querySelector('.play-tray');"
            " return t && Math.abs(parseFloat(getComputedStyle(document.body).paddingBottom)"
            " - t.getBoundingClientRect().height) <= 2; }"
        )
        assert phone.evaluate("window.scrollY") == 0
        assert tray_position(phone) == "fixed"
        assert phone.locator(hand).count() >= 1 and phone.locator(controls).count() >= 1
        assert phone.evaluate(OUTSIDE, [hand, 390, 844]) == [], f"{game}: part of the hand is off the screen"
        assert phone.evaluate(OUTSIDE, [controls, 390, 844]) == [], f"{game}: a control is off the screen"
        assert no_sideways_scroll(phone)
        # The rest of the board scrolls above the tray, and the page leaves room for it at the end.
        assert phone.evaluate("document.documentElement.scrollHeight > window.innerHeight")
        room = phone.evaluate("parseFloat(getComputedStyle(document.body).paddingBottom)")
        tray = phone.evaluate("document.querySelector('.play-tray').getBoundingClientRect().height")
        assert abs(room - tray) <= 2, (room, tray)
        screen(phone, f"tray-{game}-phone")

    with watched_page(browser, base_url=live_server.url, viewport={"width": 1280, "height": 800}) as page:
        from .helpers import log_in_as

        log_in_as(page, "noor")
        page.goto(f"/play/matches/{match.pk}/")
        page.wait_for_selector(board)
        page.wait_for_selector(controls)
        # On a desktop the tray is where it always was: in the page, not over it.
        assert tray_position(page) in ("static", "relative")
        assert page.evaluate("parseFloat(getComputedStyle(document.body).paddingBottom)") < 40
        assert page.locator(hand).first.is_visible()
        assert no_sideways_scroll(page)
        shot(page, f"tray-{game}-desktop")


NAMES_WHOLE = """() => {
  const broken = [];
  for (const small of document.querySelectorAll('.card-face small')) {
    const text = small.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    const s = text.textContent;
    const range = document.createRange();
    let top = null;
    for (let i = 0; i < s.length; i++) {
      range.setStart(text, i); range.setEnd(text, i + 1);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);  // (not an empty caret box)
      if (!rects.length) continue;
      const t = Math.round(rects[rects.length - 1].top);
      const between = /[\\s\\u00ad]/.test(s[i - 1]) || /[\\s\\u00ad]/.test(s[i]);
      if (top !== null && t > top + 1 && !between) broken.push(s);
      top = t;
    }
    if (small.scrollWidth > small.clientWidth + 1) broken.push(s + ' (overflows)');
  }
  return broken;
}"""


def test_black_spy_card_names_stay_whole_on_a_phone(phone: Any, make_user: Any) -> None:
    user = log_in(phone, make_user, "noor")
    match = started(user, "black-spy")
    phone.goto(f"/play/matches/{match.pk}/")
    phone.wait_for_selector(".bs-tray .hand .card-face")
    assert phone.evaluate(NAMES_WHOLE) == []


def spies_at_the_event_step(user: Any) -> Match:
    """A Spies! match of five where the person (Germany) has placed their pieces, as the
    heuristic bot would, and now holds their Event Tiles: the first step of their first turn."""
    import random

    from games import get_bots, get_engine
    from spyleague.play.state import match_state

    match = started(user, "spies")
    engine, bot = get_engine("spies"), get_bots("spies")["heuristic"]
    for n in range(200):
        services.match_run_bots(match_id=match.pk)
        match.refresh_from_db()
        state = match_state(match)
        if 0 not in engine.to_act(state):
            continue
        view = engine.view(state, 0)
        if view["phase"] == "event":
            return match
        action = bot.choose(view, engine.legal(state, 0), random.Random(n))
        services.match_move_submit(match_id=match.pk, user=user, action=action)
    raise AssertionError("the set-up did not reach Germany's first turn")


def test_spies_event_tiles_of_the_year_are_in_the_tray_on_a_phone(phone: Any, make_user: Any) -> None:
    """Spies!' hand is its Event Tiles: at the start of a turn this year's tiles, and the buttons
    to play or discard them, are in view without scrolling."""
    user = log_in(phone, make_user, "noor")
    match = spies_at_the_event_step(user)
    phone.goto(f"/play/matches/{match.pk}/")
    phone.wait_for_selector(".sp-actions .sp-tile-now button")
    assert tray_position(phone) == "fixed"
    now = ".sp-actions .sp-tile-now"
    assert phone.locator(now).count() >= 1
    assert phone.evaluate(OUTSIDE, [now, 390, 844]) == [], "a tile of this year is off the screen"
    assert phone.evaluate(OUTSIDE, [f"{now} button", 390, 844]) == []
    assert phone.locator(".sp-actions .sp-tile").count() > phone.locator(now).count()  # the rest scroll
    assert no_sideways_scroll(phone)
    screen(phone, "tray-spies-event-phone")


def test_a_racer_who_must_say_finished_sees_the_button_on_a_phone(
    browser: Any, live_server: Any, make_user: Any
) -> None:
    """At the end of a Spy vs Spy race (the hand used up, or stuck with a card called) the tray
    holds the notes on why, the called card and the piles: the one button left to press, Finished!,
    is in view without scrolling the tray."""
    from games import get_engine
    from spyleague.play.state import match_state

    engine = get_engine("spy-vs-spy")
    phone_options = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    with watched_page(browser, base_url=live_server.url, **phone_options) as phone:
        user = log_in(phone, make_user, "noor")
        match = services.match_create(user=user, game="spy-vs-spy", seats=1, seed=67)
        services.match_start(user=user, match_id=match.pk)
        while (legal := engine.legal(match_state(Match.objects.get(pk=match.pk)), 0)) != [{"type": "finish"}]:
            services.match_move_submit(match_id=match.pk, user=user, action=legal[0])
        phone.goto(f"/play/matches/{match.pk}/")
        phone.wait_for_selector("#race[data-mode=finish]")
        phone.wait_for_function(
            "() => { const t = document.querySelector('.play-tray');"
            " return t && Math.abs(parseFloat(getComputedStyle(document.body).paddingBottom)"
            " - t.getBoundingClientRect().height) <= 2; }"
        )
        assert phone.evaluate(OUTSIDE, ["[data-finish]", 390, 844]) == [], "Finished! is off the screen"
        tray = phone.locator(".play-tray").bounding_box()
        button = phone.locator("[data-finish]").bounding_box()
        assert tray is not None and button is not None
        assert tray["y"] <= button["y"] and button["y"] + button["height"] <= tray["y"] + tray["height"] + 0.5
        screen(phone, "tray-spy-vs-spy-finish-phone")
