"""A person races Spy vs Spy in the browser: against three paced bots, and alone on a phone.

The person plays with the keyboard (desktop) and with taps (phone), always on the first pile
the card fits, and takes the first pile after a race. The seeds make short games with that
play whatever the timing: with seed 159 a bot earns the bonus in the first race (so the game
ends after it) while the person gets stuck and must say finished; alone, seed 67 takes two races.

The race page talks over its WebSocket where the server takes one (the site under ASGI: here
uvicorn in a thread, ``tests.asgi_server``), and otherwise falls back to POSTs and the race's
event stream (pytest-django's WSGI ``live_server``): the races run both ways (``transport``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from spyleague.play import services
from spyleague.play.models import Match
from tests.asgi_server import asgi_server
from tests.web.play.races import race_out

from .conftest import no_sideways_scroll, shot, watched_page
from .helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)

RACE = "document.getElementById('race')"


@pytest.fixture(params=["socket", "http"])
def transport(request: Any) -> str:
    return str(request.param)


@pytest.fixture
def site(transport: str, live_server: Any) -> Iterator[str]:
    """Where the race pages are served: under ASGI (sockets) or WSGI (POSTs and a stream)."""
    if transport == "http":
        yield live_server.url
        return
    with asgi_server() as served:
        yield served.url


@pytest.fixture
def racer(browser: Any, site: str) -> Iterator[Any]:
    with watched_page(browser, viewport={"width": 1280, "height": 900}, base_url=site) as page:
        yield page


def talks_over(page: Any, transport: str) -> None:
    """The race page has settled on its way of talking to the server, and it is ``transport``."""
    page.wait_for_function("() => window.SpyRace && window.SpyRace.transport() !== 'none'")
    assert page.evaluate("window.SpyRace.transport()") == transport


def race_data(page: Any) -> dict[str, str]:
    return dict(
        page.evaluate(
            f"() => {{ const r = {RACE}; return r ? {{...r.dataset}} : {{}}; }}",
        )
    )


def a_pick_counts(page: Any) -> None:
    """Wait until the page takes a pick after the race (it ignores one in the first half second)."""
    page.wait_for_function("() => window.SpyRace.pickCounts()")


def cards_left(page: Any) -> list[int]:
    texts = page.locator(".rival [data-count=left]").all_text_contents()
    return [int(t) for t in texts]


def race_to_the_end(page: Any, *, tap: bool, try_a_wrong_pile: bool, limit: float = 80.0) -> dict[str, Any]:
    """Play the seat's races until the game is over; returns what was seen on the way."""
    seen: dict[str, Any] = {"placed": 0, "finished": 0, "taken": 0, "refused": "", "rivals": []}
    end = time.monotonic() + limit
    while not page.locator(".outcome").count():
        assert time.monotonic() < end, f"the game did not end in {limit} s: {race_data(page)}"
        data = race_data(page)
        mode, card = data.get("mode", ""), data.get("card", "")
        if mode == "place":
            fits = page.locator(".svs-piles .pile.fits")
            wrong = page.locator(".svs-piles .pile[data-pile]:not(.fits)")
            if try_a_wrong_pile and not seen["refused"] and wrong.count():
                page.keyboard.press(str(int(wrong.first.get_attribute("data-pile")) + 1))
                # The refusal itself, not the "go!" of the race's start (an info toast that may
                # still show): until it is answered, the page drops the next press.
                page.wait_for_selector("#race-toast:not([hidden]):not(.info)")
                seen["refused"] = page.text_content("#race-toast")
                shot(page, "spy-vs-spy-refused")
                continue
            index = int(fits.first.get_attribute("data-pile"))
            if tap:
                fits.first.tap()
            else:
                page.keyboard.press(str(index + 1))
            page.wait_for_function(
                f"c => {{ const r = {RACE}; return r && !r.classList.contains('sending') && "
                "(r.dataset.card !== c || r.dataset.mode !== 'place'); }",
                arg=card,
            )
            seen["placed"] += 1
            if seen["refused"] and "cleared" not in seen:
                # The good move after a refused one takes the refusal's toast away at once.
                seen["cleared"] = page.evaluate(
                    "() => { const t = document.getElementById('race-toast'); return !t || t.hidden; }"
                )
            if seen["placed"] >= 5:  # the bots' progress, as the racer sees it while racing
                seen["rivals"].append(cards_left(page))
        elif mode == "finish":
            if seen["finished"] == 0:
                shot(page, "spy-vs-spy-say-finished" + ("-phone" if tap else ""))
            if tap:
                page.locator("[data-finish]").tap()
            else:
                page.keyboard.press("Enter")
            page.wait_for_function(f"() => {RACE} && {RACE}.dataset.mode !== 'finish'")
            seen["finished"] += 1
        elif mode == "take":
            a_pick_counts(page)
            if seen["taken"] == 0:
                shot(page, "spy-vs-spy-take" + ("-phone" if tap else ""))
            first = page.locator(".svs-piles .pile[data-pile]").first
            if tap:
                first.tap()
            else:
                page.keyboard.press("1")
            page.wait_for_function(
                f"() => !{RACE} || {RACE}.dataset.mode !== 'take' || document.querySelector('.outcome')"
            )
            seen["taken"] += 1
        else:  # waiting for the others: their moves come in by themselves
            if data.get("phase") == "race":
                # The person may be done before the bots' start pause is over: wait for their
                # next cards (or the end of the race) to show, then look.
                page.wait_for_function(
                    f"n => {{ const r = {RACE}; const left = [...document.querySelectorAll("
                    "'.rival [data-count=left]')].reduce((sum, el) => sum + Number(el.textContent), 0);"
                    " return left < n || !r || r.dataset.mode !== ''; }",
                    arg=sum(cards_left(page)),
                    timeout=30_000,
                )
                seen["rivals"].append(cards_left(page))
            page.wait_for_function(
                f"() => document.querySelector('.outcome') || ({RACE} && {RACE}.dataset.mode !== '')",
                timeout=30_000,
            )
    return seen


def test_a_person_races_three_bots_to_a_finished_game(racer: Any, transport: str, make_user: Any) -> None:
    page = racer
    vera = log_in(page, make_user, "vera")
    match = services.match_create(
        user=vera,
        game="spy-vs-spy",
        seats=4,
        seed=159,
        options={"bot_cards_per_minute": 300},
        bots={1: "heuristic", 2: "heuristic", 3: "heuristic"},
    )
    services.match_start(user=vera, match_id=match.pk)
    page.goto(f"/play/matches/{match.pk}/")
    page.wait_for_selector("#race[data-mode=place]")
    talks_over(page, transport)
    assert page.locator(".rival").count() == 3
    shot(page, f"spy-vs-spy-race-start-{transport}")
    began = time.monotonic()

    seen = race_to_the_end(page, tap=False, try_a_wrong_pile=True)

    took = time.monotonic() - began
    shot(page, f"spy-vs-spy-game-over-{transport}")
    assert "does not go on the" in seen["refused"] and "It fits on the" in seen["refused"]
    assert " of " in seen["refused"], "the refusal names the cards in words (the Queen of Diamonds)"
    assert seen["cleared"], "the error toast went away with the next good move"
    assert seen["placed"] >= 20 and seen["finished"] == 1 and seen["taken"] == 1
    before, *later = seen["rivals"]
    assert later and sum(later[-1]) < sum(before), "the bots' progress shows while the person races"
    assert "Game over" in (page.text_content(".outcome") or "")
    assert "Race 1: the points" in (page.text_content(".svs-last") or "")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome is not None and match.outcome["places"][0] > 1  # a bot's bonus won it
    moves = list(match.moves.values_list("seat", "created"))
    bot_moves = [created for seat, created in moves if seat == 1]
    span = (bot_moves[-1] - bot_moves[0]).total_seconds()
    assert len(bot_moves) - 1 <= span * 5 + 1, "bot 2 raced faster than 5 cards a second"
    print(f"\nA 4-seat game against bots at 5 cards a second took {took:.1f} s")


def test_single_player_on_a_phone_to_the_end(phone: Any, make_user: Any) -> None:
    wes = log_in(phone, make_user, "wes")
    # First through the lobby: the race page fits a phone, with the speed chosen there.
    phone.goto("/play/")
    phone.select_option("#id_game", "spy-vs-spy")
    phone.fill("#id_seats", "2")
    phone.check("#opt-spy-vs-spy-half_decks")
    phone.fill("#opt-spy-vs-spy-bot_cards_per_minute", "120")
    phone.get_by_role("button", name="Create the match").click()
    phone.wait_for_selector("#race[data-mode=place]")
    lobby_match = Match.objects.get()
    assert lobby_match.options == {"half_decks": True, "bot_cards_per_minute": 120}
    assert no_sideways_scroll(phone)
    shot(phone, "spy-vs-spy-race-phone")

    match = services.match_create(user=wes, game="spy-vs-spy", seats=1, seed=67)
    services.match_start(user=wes, match_id=match.pk)
    phone.goto(f"/play/matches/{match.pk}/")
    phone.wait_for_selector("#race[data-mode=place]")
    assert "Single player" in (phone.text_content(".svs-solo") or "")
    seen = race_to_the_end(phone, tap=True, try_a_wrong_pile=False)
    assert no_sideways_scroll(phone)
    shot(phone, "spy-vs-spy-single-over-phone")
    assert seen["taken"] >= 1 and seen["finished"] >= 2
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.outcome is not None
    assert match.outcome["scores"][0] <= 0
    assert "Score sheet" in (phone.text_content(".svs-sheet") or "")


def test_two_people_see_each_others_progress_live(
    racer: Any, transport: str, browser: Any, site: str, make_user: Any
) -> None:
    page = racer
    ann = log_in(page, make_user, "ann")
    other = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=site)
    other.set_default_timeout(10_000)
    bob_page = other.new_page()
    watching = browser.new_context(viewport={"width": 390, "height": 844}, base_url=site)
    watching.set_default_timeout(10_000)
    watcher = watching.new_page()  # not logged in: watches the race
    try:
        bob = log_in(bob_page, make_user, "bob")
        match = services.match_create(user=ann, game="spy-vs-spy", seats=2, seed=3)
        services.match_join(user=bob, match_id=match.pk)
        services.match_start(user=ann, match_id=match.pk)
        for p in (page, bob_page):
            p.goto(f"/play/matches/{match.pk}/")
            p.wait_for_selector("#race[data-mode=place]")
            talks_over(p, transport)
        watcher.goto(f"/play/matches/{match.pk}/")
        talks_over(watcher, transport)
        start = cards_left(bob_page)[0]
        for _ in range(5):  # Ann places five cards with the keyboard
            place_first_fit(page)
        # Bob's page hears of it (its socket, or the race's event stream), with no reload and no bots ticking.
        bob_page.wait_for_function(
            "n => Number(document.querySelector('.rival [data-count=left]').textContent) <= n",
            arg=start - 5,
            timeout=5_000,
        )
        assert race_data(bob_page)["ticking"] == ""
        shot(bob_page, f"spy-vs-spy-two-people-{transport}")
        # Both pages draw the race from the updates: exactly what the server draws for each, all
        # the way through Ann's race (her called card, a hand used up or stuck, finished).
        placed = 5
        while True:
            if placed % 10 == 0 or race_data(page)["mode"] != "place":
                same_as_the_server(page, bob_page, watcher)
            if race_data(page)["mode"] != "place":
                break
            place_first_fit(page)
            placed += 1
        assert race_data(page)["mode"] == "finish"
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => {RACE}.dataset.mode === ''")
        same_as_the_server(page, bob_page, watcher)
        assert "finished 1st" in (bob_page.text_content(".rival") or "")
        shot(watcher, f"spy-vs-spy-watching-phone-{transport}")
        # Bob races to his end (through the service, as if from elsewhere): the pick after the
        # race, drawn by the pages too once Ann has picked.
        race_out(match, bob, 1)
        page.wait_for_selector("#race[data-mode=take]")
        a_pick_counts(page)
        page.keyboard.press("1")
        page.wait_for_function(f"() => {RACE}.dataset.mode === '' && !{RACE}.classList.contains('sending')")
        assert "You add pile 1" in (page.text_content(".svs-notes") or "")
        same_as_the_server(page, bob_page, watcher)
    finally:
        other.close()
        watching.close()


# The race as the page drew it, in a canonical form: elements with their attributes (classes
# sorted, the page's own "landed" flourish and version stamps left out) and their text.
CANONICAL = """
(root) => {
  function canon(node) {
    if (node.nodeType === 3) {
      const text = node.textContent.replace(/\\s+/g, " ").trim();
      return text ? JSON.stringify(text) : "";
    }
    if (node.nodeType !== 1 || node.getAttribute("name") === "csrfmiddlewaretoken") { return ""; }
    const attrs = Array.from(node.attributes)
      .filter(a => !["data-key", "data-v"].includes(a.name))
      .map(a => a.name + "=" + (a.name === "class"
        ? a.value.split(/\\s+/).filter(c => c && c !== "landed").sort().join(" ")
        : a.value.replace(/\\s+/g, " ").trim()))
      .sort();
    const kids = Array.from(node.childNodes).map(canon).filter(Boolean);
    return "<" + node.tagName.toLowerCase() + " " + attrs.join(" ") + ">" + kids.join("") + "</>";
  }
  const parts = {};
  for (const sel of [".svs-flip", ".svs-notes", "#race-form", "#race-rivals"]) {
    const el = root.querySelector(sel);
    parts[sel] = el ? Array.from(el.childNodes).map(canon).join("") : null;
  }
  const race = root.querySelector("#race");
  for (const key of ["mode", "card", "phase", "race", "seat"]) { parts[key] = race.dataset[key]; }
  return parts;
}
"""


def place_first_fit(page: Any) -> None:
    card = race_data(page)["card"]
    index = int(page.locator(".svs-piles .pile.fits").first.get_attribute("data-pile"))
    page.keyboard.press(str(index + 1))
    page.wait_for_function(
        f"c => {RACE}.dataset.card !== c && !{RACE}.classList.contains('sending')", arg=card
    )


def same_as_the_server(*pages: Any) -> None:
    """Each page, once it has the newest version any of them shows, is drawn as the server draws it."""
    newest = max(int(race_data(p)["v"]) for p in pages)
    for p in pages:
        p.wait_for_function(f"v => Number({RACE}.dataset.v) >= v", arg=newest)
        mine = drawn(p)
        assert "rival" in mine["#race-rivals"]
        assert mine["seat"] == "" or "pile" in mine["#race-form"]  # a racer's own piles; none to watch
        assert mine == drawn_by_the_server(p)


def drawn(page: Any) -> dict[str, str]:
    return dict(page.evaluate(CANONICAL, page.locator("body").element_handle()))


def drawn_by_the_server(page: Any) -> dict[str, str]:
    """The board as the server draws it now, for this page's user, in the same canonical form."""
    url = page.evaluate("document.getElementById('race').dataset.board")
    html = page.evaluate("u => fetch(u, {headers: {'HX-Request': 'true'}}).then(r => r.text())", url)
    parse = "html => { const t = document.createElement('template'); t.innerHTML = html; return t.content; }"
    return dict(page.evaluate(f"html => ({CANONICAL})(({parse})(html))", html))
