"""Every page a club member can reach fits a phone (390 by 844): nothing makes the page wider
than the screen. Wide tables scroll inside their own box, the standings keep the place and the
name in view while the numbers scroll, and an invitation link wraps in a field with Copy and
Share beside it.

The site is walked as a visitor, a player, the scorer and the organiser, from the home page,
link by link, over the demo club (its finished and running events) with a league, a scorepad and
a match waiting for players added. A screenshot of each kind of page goes to /tmp/shots/ to be
looked at.
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User

from spyleague.core.demo import DEMO_PASSWORD, demo_data_load
from spyleague.play import services as play
from spyleague.scores import scorepad as pads
from spyleague.tournaments import services as events
from spyleague.tournaments.models import Event

SHOTS = Path("/tmp/shots")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# Not pages to walk: the admin and the API (their own look), leaving, files, live streams.
SKIP = re.compile(
    r"^/(admin|api)/|^/accounts/logout|/export/|\.csv$|/events/?$|/race/(events|progress|ws)/|/screen/|"
    r"^/static/|^/favicon|^/health|/print/|/invite/"
)
MOST_PAGES = 45  # for each of the four people
# (On a phone the browser widens its layout to a page that is too wide and shows it smaller, so
# innerWidth grows with the page: the page is measured against the phone's own width.)
SIDEWAYS = """(room) => {
  const wide = document.scrollingElement.scrollWidth;
  if (wide <= room) return null;
  const culprits = [...document.querySelectorAll("body *")]
    .filter((el) => el.getBoundingClientRect().right > room + 1 && !el.closest(".table-wrap"))
    .slice(0, 5).map((el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
      + (typeof el.className === "string" && el.className.trim()
        ? "." + el.className.trim().split(/\\s+/).join(".") : ""));
  return {wide, room, culprits};
}"""


def kind_of(path: str) -> str:
    """A page's kind, for one screenshot of each: its address with the numbers taken out."""
    return re.sub(r"\d+", "N", path.strip("/").replace("/", "-")) or "home"


# The site under a club's long address (Chromium takes any name under .localhost for this machine),
# so that what shows the address (an invitation link) is as long as on a club's own site.
LONG_HOST = "spy-league-at-the-sherlock-arms-baker-street.localhost"


def site(live_server: Any) -> str:
    return live_server.url.replace("localhost", LONG_HOST, 1)


@pytest.fixture
def club_night(transactional_db: Any, settings: Any) -> dict[str, Any]:
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, LONG_HOST]
    demo_data_load()
    olivia = User.objects.get(username="olivia")
    running = Event.objects.get(name="Winter Spy vs Spy Swiss")
    league = events.league_create(user=olivia, club=running.club, name="Winter League", game="spy-vs-spy")
    running.league = league
    running.save(update_fields=["league"])
    pat = User.objects.get(username="pat")
    me = pat.player
    pad = pads.scorepad_open(
        user=pat, players=[me, type(me)(name="Walk-in Wendy"), type(me)(name="Walk-in Will")]
    )
    pads.scorepad_deal_add(user=pat, pad=pad, points=[30, 20, 10])
    waiting = play.match_create(user=olivia, game="black-spy", seats=4, seed=3)
    return {"league": league, "pad": pad, "waiting": waiting}


def log_in(page: Any, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/")


def walk(page: Any, starts: list[str], shots: dict[str, Path], who: str) -> tuple[list[str], int]:
    """Visit the pages reachable from ``starts``; every one that is wider than the phone."""
    seen: set[str] = set()
    queue = deque(starts)
    problems: list[str] = []
    visited = 0
    while queue and visited < MOST_PAGES:
        path = queue.popleft()
        if path in seen or SKIP.search(path):
            continue
        seen.add(path)
        response = page.goto(path, wait_until="domcontentloaded")
        if (
            response is None
            or response.status >= 400
            or "text/html" not in (response.headers.get("content-type") or "")
        ):
            continue
        here = urlsplit(page.url).path
        visited += 1
        wider = page.evaluate(SIDEWAYS, PHONE["viewport"]["width"])
        if wider:
            problems.append(
                f"{here} as {who}: {wider['wide']}px wide on a {wider['room']}px phone, {wider['culprits']}"
            )
        kind = kind_of(here)
        if kind not in shots:
            SHOTS.mkdir(parents=True, exist_ok=True)
            shots[kind] = SHOTS / f"phone-{kind}.png"
            page.screenshot(path=str(shots[kind]), full_page=True, timeout=30_000)
        for href in page.eval_on_selector_all("a[href]", "links => links.map((a) => a.getAttribute('href'))"):
            target = urlsplit(href)
            if target.scheme or target.netloc or not target.path.startswith("/"):
                continue
            if target.path not in seen:
                queue.append(target.path)
    return problems, visited


def test_every_page_fits_a_phone(browser: Any, live_server: Any, club_night: dict[str, Any]) -> None:
    shots: dict[str, Path] = {}
    problems: list[str] = []
    starts = [
        "/",
        "/events/",
        f"/events/leagues/{club_night['league'].pk}/",
        "/leaderboards/",
        "/play/",
        club_night["waiting"].get_absolute_url(),
        *(
            f"/play/rules/{slug}/"
            for slug in ("black-spy", "mister-spy", "spy-vs-spy", "spycatcher", "spies")
        ),
        *(e.get_absolute_url() for e in Event.objects.all()),
    ]
    pages = 0
    for who in (None, "pat", "sam", "olivia"):
        context = browser.new_context(base_url=site(live_server), **PHONE)
        context.set_default_timeout(15_000)
        page = context.new_page()
        try:
            if who is not None:
                log_in(page, who)
            mine = [f"/scorepads/{club_night['pad'].pk}/", "/scorepads/", "/scorepads/new/"] if who else []
            found, visited = walk(page, [*starts, *mine], shots, who or "a visitor")
            problems += found
            pages += visited
        finally:
            context.close()
    assert pages > 60 and len(shots) > 15, (pages, sorted(shots))
    assert not problems, "pages wider than a phone:\n" + "\n".join(problems)


def test_standings_scroll_inside_their_box_with_the_place_and_name_in_view(
    browser: Any, live_server: Any, club_night: dict[str, Any]
) -> None:
    finished = Event.objects.get(name="Autumn Black Spy Open")
    context = browser.new_context(base_url=live_server.url, **PHONE)
    page = context.new_page()
    try:
        for url in (
            finished.get_absolute_url(),
            f"/events/leagues/{club_night['league'].pk}/",
            "/leaderboards/",
        ):
            page.goto(url)
            table = page.locator("table.standings").first
            assert table.count() == 1, f"{url}: the standings are a table.standings"
            box = table.locator("xpath=ancestor::div[contains(@class, 'table-wrap')][1]")
            assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["viewport"]["width"]
            wide = box.evaluate("(el) => el.scrollWidth > el.clientWidth")
            if not wide:
                continue  # this table fits the phone: nothing to scroll
            name = table.locator("tbody tr").first.locator("td").nth(1)
            before = name.bounding_box()
            box.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
            page.wait_for_function("(el) => el.scrollLeft > 0", arg=box.element_handle())
            after = name.bounding_box()
            assert before is not None and after is not None
            assert abs(after["x"] - before["x"]) < 1, f"{url}: the name scrolled away"
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"phone-standings-scrolled-{kind_of(urlsplit(url).path)}.png"))
    finally:
        context.close()


def test_the_invite_link_wraps_on_a_phone_with_copy_and_share(
    browser: Any, live_server: Any, club_night: dict[str, Any]
) -> None:
    match = club_night["waiting"]
    context = browser.new_context(
        base_url=site(live_server), permissions=["clipboard-read", "clipboard-write"], **PHONE
    )
    page = context.new_page()
    try:
        log_in(page, "olivia")
        page.goto(match.get_absolute_url())
        field = page.locator("#invite-link")
        link = field.input_value()
        assert link.endswith(f"/play/invite/{match.invite}/")
        assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["viewport"]["width"]
        box = field.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
        # The whole link shows, wrapped: nothing of it hidden sideways or below.
        assert field.evaluate(
            "(el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1"
        )
        copy = page.get_by_role("button", name="Copy")
        assert copy.is_visible()  # (an address under .localhost is a secure context)
        copy.click()
        page.get_by_text("Copied: paste it into a message.").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == link
        share = page.get_by_role("button", name="Share")
        assert share.is_visible() == page.evaluate("Boolean(navigator.share)")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "phone-invite.png"))
    finally:
        context.close()
    # Without JavaScript the link is a field to select; no button that would do nothing.
    bare = browser.new_context(base_url=site(live_server), java_script_enabled=False, **PHONE)
    page = bare.new_page()
    try:
        log_in(page, "olivia")
        page.goto(match.get_absolute_url())
        assert page.locator("#invite-link").is_visible()
        assert not page.get_by_role("button", name="Copy").is_visible()
        assert not page.get_by_role("button", name="Share").is_visible()
    finally:
        bare.close()
