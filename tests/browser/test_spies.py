"""A person plays Germany against four heuristic bots in the browser, 1933 to the end of 1939.

Everything is done with the page's own buttons and the map: secrets are placed by tapping cities,
a spy is moved by tapping it and then a place it can reach, an offer is made to Italy. The map
zooms (its viewBox changes) and the page fits a phone without sideways scrolling.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.core import chance
from games.spies import ENGINE
from games.spies.bots import HeuristicBot
from spyleague.play import services
from spyleague.play.models import Match, Move
from spyleague.play.state import match_state

from .conftest import no_sideways_scroll, shot

pytestmark = pytest.mark.django_db(transaction=True)

BOARD_KEY = "document.getElementById('board').dataset.key"
SEED = 7
ANSWERS = ("decline", "return_chit")  # in a window: let searches pass, face searches, keep no surplus


def log_in(page: Any, make_user: Any, username: str, *, create: bool = True) -> Any:
    user = make_user(username=username) if create else None
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "correct-horse-battery")
    page.click("main button[type=submit]")
    page.wait_for_url("**/")
    return user


def key(page: Any) -> str:
    return str(page.evaluate(BOARD_KEY))


def wait_for_change(page: Any, before: str, timeout: int = 20_000) -> None:
    page.wait_for_function(f"v => {BOARD_KEY} !== v", arg=before, timeout=timeout)


def offered(page: Any) -> list[dict[str, Any]]:
    """The actions the page offers, as the forms carry them."""
    values = page.locator("#board form.sp-act input[name=action]").evaluate_all("xs => xs.map(x => x.value)")
    return [json.loads(v) for v in values]


def click_action(page: Any, kind: str, *, seen: str | None = None, **fields: Any) -> None:
    """Click the button of the first offered action of this type (and these fields).

    ``seen`` is the board's key when the caller chose the action: if the page has redrawn itself
    since (a bot moved), nothing is clicked and the caller looks again."""
    before = key(page)  # before the forms: a redraw while they are read is noticed below
    if seen is not None and before != seen:
        return
    for index, action in enumerate(offered(page)):
        if action["type"] == kind and all(action.get(k) == v for k, v in fields.items()):
            version = Match.objects.order_by("-pk").values_list("version", flat=True).first()
            for _ in range(3):
                page.locator("#board form.sp-act").nth(index).locator("button").click()
                try:
                    wait_for_change(page, before, timeout=8_000)
                    return
                except PlaywrightTimeout:
                    # A request that failed (a 500 the page leaves in place) applied nothing:
                    # click again; if the move was applied, the page is only slow to follow.
                    if Match.objects.order_by("-pk").values_list("version", flat=True).first() != version:
                        wait_for_change(page, before)
                        return
            raise AssertionError(f"the {kind} button never changed the board")
    if key(page) != before:
        return  # redrawn while it was read: the caller looks again
    raise AssertionError(f"no {kind} {fields} among {offered(page)}")


# The city names shown on the map whose boxes overlap, as pairs of names.
OVERLAPPING_NAMES = """() => {
  const shown = [...document.querySelectorAll('#spies-map .sp-name')]
    .filter(t => getComputedStyle(t).display !== 'none')
    .map(t => [t.textContent, t.getBoundingClientRect()]);
  const pairs = [];
  shown.forEach(([a, r], i) => shown.slice(i + 1).forEach(([b, q]) => {
    const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
    const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
    if (w > 3 && h > 3) pairs.push(a + ' / ' + b);  // (a text box has room above and below its letters)
  }));
  return [shown.length, pairs];
}"""


# The board as one reading: the page may redraw itself (a bot moved) between two separate looks.
SNAPSHOT = """() => {
  const board = document.getElementById('board');
  const win = board.querySelector('.sp-window');
  return {
    key: board.dataset.key,
    actions: [...board.querySelectorAll('form.sp-act input[name=action]')].map(x => JSON.parse(x.value)),
    phase: (board.querySelector('.sp-board') || board).dataset.phase || null,
    window: win && win.querySelector('.sp-act') ? win.dataset.window : null,
    moving: !!board.querySelector('.sp-moving'),
    end_turn: !!board.querySelector('[data-type="end_turn"]'),
  };
}"""


def tap(page: Any, selector: str) -> None:
    """A tap on the map (the element's own hit area)."""
    page.locator(selector).first.dispatch_event("pointerdown", {"pointerId": 1, "isPrimary": True})
    page.locator(selector).first.dispatch_event("pointerup", {"pointerId": 1, "isPrimary": True})


def tap_and_wait(page: Any, selector: str) -> None:
    before = key(page)
    tap(page, selector)
    wait_for_change(page, before)


def phase(page: Any) -> str:
    return str(page.get_attribute(".sp-board", "data-phase"))


def test_a_five_power_game_against_four_bots_to_the_end_of_1939(page: Any, make_user: Any) -> None:
    user = log_in(page, make_user, "mira")
    match = services.match_create(user=user, game="spies", seats=5, seed=SEED)
    page.goto(f"/play/matches/{match.pk}/")
    page.get_by_role("button", name="Start (empty seats get bots)").click()
    page.wait_for_selector(".sp-board")
    assert "Set-up: you place secrets" in page.text_content(".sp-headline")
    page.wait_for_timeout(100)  # (the names are placed in the next animation frame)
    shown, overlapping = page.evaluate(OVERLAPPING_NAMES)
    assert shown >= 12 and overlapping == [], overlapping  # Germany's twelve cities, each legible
    shot(page, "spies-setup")

    # The map zooms: the + button and the wheel both change the viewBox; the whole-map button resets it.
    whole = page.get_attribute("#spies-map", "viewBox")
    page.click(".sp-zoom-btn[data-zoom=in]")
    zoomed = page.get_attribute("#spies-map", "viewBox")
    assert zoomed != whole and float(page.get_attribute("#spies-map", "data-zoom")) > 1.5
    box = page.locator("[data-sp-mapbox]").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -300)
    assert page.get_attribute("#spies-map", "viewBox") != zoomed
    page.click(".sp-zoom-btn[data-zoom=reset]")
    assert page.get_attribute("#spies-map", "viewBox") == whole

    # Set-up: secrets by tapping the map, police and spies with the buttons and the spy form.
    while phase(page) == "setup_secrets":
        city = next(a["city"] for a in offered(page) if a["type"] == "place_secret")
        tap_and_wait(page, f'#spies-map [data-node="{city}"]')
    assert page.locator(".sp-mine [data-secret][data-value]").count() == 7  # Germany's own, face up to us
    while phase(page) == "setup_police":
        click_action(page, "place_police")
    page.select_option(".sp-place-spy select[data-field=city]", "vienna")
    before = key(page)
    page.click(".sp-place-spy button[type=submit]")
    wait_for_change(page, before)
    before = key(page)
    tap(page, '#spies-map [data-node="prague"]')  # the spy form takes its city from the map
    wait_for_change(page, before)
    click_action(page, "spies_done")

    clicks = 0
    moved_by_map = offer_made = False
    windows: set[str] = set()
    shots = {"event", "move", "window"}
    while not page.locator(".sp-final").count():
        assert clicks < 200, "the game did not end"
        clicks += 1
        board = page.evaluate(SNAPSHOT)
        seen, actions, current = board["key"], board["actions"], board["phase"]
        kinds = {a["type"] for a in actions}
        if board["window"] is not None:
            windows.add(board["window"])
            if "window" in shots:
                shots.discard("window")
                shot(page, "spies-window")
            click_action(page, next(k for k in ANSWERS if k in kinds), seen=seen)
        elif not actions:
            wait_for_change(page, seen)  # the bots are still moving: the page follows by itself
        elif current == "event":
            if "event" in shots:
                shots.discard("event")
                shot(page, "spies-event")
            click_action(page, "play_event" if "play_event" in kinds else "discard_event", seen=seen)
        elif current == "police":
            click_action(page, "police_done", seen=seen)
        elif current == "search":
            click_action(page, "search" if "search" in kinds else "searches_done", seen=seen)
        elif current == "offer_build":
            click_action(page, "offer_add", seen=seen, item="give_money", amount=1)
            assert "you give 1£" in page.text_content(".sp-diplomacy")
            click_action(page, "offer_send")
        elif current == "move" and not offer_made and "offer" in kinds:
            offer_made = True
            click_action(page, "offer", to="I")  # (our own move phase: no bot redraws it)
        elif current == "move" and not moved_by_map and "move" in kinds:
            spy = next(a["spy"] for a in actions if a["type"] == "move")
            tap(page, f'#spies-map [data-spy="{spy}"]')
            page.wait_for_selector("#spies-map .sp-dest")
            if "move" in shots:
                shots.discard("move")
                shot(page, "spies-move")
            target = page.get_attribute("#spies-map .sp-dest", "data-node")
            tap_and_wait(page, f'#spies-map [data-node="{target}"]')
            moved_by_map = True
            assert Move.objects.filter(match=match, seat=0, action__type="move", action__spy=spy).exists()
        elif "move" in kinds and board["moving"] and not board["end_turn"]:
            click_action(page, "move", seen=seen)  # a spy at sea must land
        else:
            click_action(page, "end_turn", seen=seen)
    shot(page, "spies-game-over")

    final = page.text_content(".sp-final") or ""
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    detail = match.outcome["detail"]
    winners = list(detail["winners"])
    names = {"G": "Germany", "I": "Italy", "R": "Russia", "F": "France", "B": "Britain"}
    assert "1939 is over" in final and all(names[w] in final for w in winners)
    for code, entry in detail["powers"].items():
        row = page.locator(f'.sp-final tr[data-power="{code}"]')
        assert str(entry["victory_points"]) in (row.text_content() or "")
    assert moved_by_map and offer_made
    assert (
        "accepted Germany's offer" in (page.text_content(".sp-log") or "")
        or Move.objects.filter(match=match, action__type="offer_send").exists()
    )
    assert windows, "no reaction window ever asked the person"
    page.goto("about:blank")
    page.wait_for_timeout(500)


def test_the_board_on_a_phone_fits_and_zooms(phone: Any, make_user: Any) -> None:
    user = log_in(phone, make_user, "noor")
    match = services.match_create(user=user, game="spies", seats=5, seed=SEED, options={"turn_minutes": 5})
    phone.goto(f"/play/matches/{match.pk}/")
    phone.get_by_role("button", name="Start (empty seats get bots)").click()
    phone.wait_for_selector(".sp-board")
    assert no_sideways_scroll(phone)
    assert "left in this turn" in (phone.text_content(".sp-clock") or "")
    shot(phone, "spies-phone-setup")

    # Germany sets up (as the heuristic bot would) and begins to move its spies in 1933.
    bot = HeuristicBot()
    for _ in range(100):
        match.refresh_from_db()
        state = match_state(match)
        if state.phase == "move" and 0 in ENGINE.to_act(state) and state.window is None:
            break
        action = bot.choose(ENGINE.view(state, 0), ENGINE.legal(state, 0), chance(SEED, "phone"))
        services.match_move_submit(match_id=match.pk, user=user, action=action, version=match.version)
    phone.reload()
    phone.wait_for_selector(".sp-mover")
    assert no_sideways_scroll(phone)
    spy = phone.get_attribute(".sp-mover", "data-spy")
    tap(phone, f'#spies-map [data-spy="{spy}"]')
    phone.wait_for_selector("#spies-map .sp-dest")
    assert "tap a green place to move there" in (phone.text_content("#sp-pick") or "")
    shot(phone, "spies-phone-move")

    whole = phone.get_attribute("#spies-map", "viewBox")
    phone.click(".sp-zoom-btn[data-zoom=in]")
    phone.click(".sp-zoom-btn[data-zoom=in]")
    assert phone.get_attribute("#spies-map", "viewBox") != whole
    assert float(phone.get_attribute("#spies-map", "data-zoom") or 0) > 2
    assert no_sideways_scroll(phone)
    shot(phone, "spies-phone-zoomed")
    phone.goto("about:blank")
    phone.wait_for_timeout(500)
