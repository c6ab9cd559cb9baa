"""The club evening online, in the browser: the tab says whose turn it is, a player resigns, the
other asks for a rematch and both land in it; the lobby, the rules and the confirm steps, on a
laptop and on a phone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import registry
from spyleague.clubs import services as clubs
from spyleague.play import services
from spyleague.play.models import Match
from spyleague.tournaments import services as events

from .conftest import no_sideways_scroll, shot
from .helpers import leave, log_in_as

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def race_to_ten() -> Iterator[None]:
    """The tiny test game of the web tests (seats take turns adding 1 or 2): a short match."""
    registry.GAMES["race-to-ten"] = registry.GameInfo(
        "race-to-ten", "Race to Ten", range(2, 5), False, "tests.web.play.race_to_ten", "A test game."
    )
    registry.get_engine.cache_clear()
    yield
    del registry.GAMES["race-to-ten"]
    registry.get_engine.cache_clear()


def add_one(page: Any) -> None:
    key = page.evaluate("document.getElementById('board').dataset.key")
    page.locator("#board form").filter(has_text="n 1").locator("button").click()
    page.wait_for_function("k => document.getElementById('board').dataset.key !== k", arg=key)


def test_turn_in_the_tab_resign_and_rematch(page: Any, phone: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann", player_name="Ann"), make_user(username="bob", player_name="Bob")
    match = services.match_create(user=ann, game="race-to-ten", seats=2, seed=0, options={"target": 6})
    services.match_join(user=bob, match_id=match.pk)
    services.match_start(user=ann, match_id=match.pk)
    log_in_as(page, "ann")
    log_in_as(phone, "bob")
    page.goto(match.get_absolute_url())
    phone.goto(match.get_absolute_url())
    assert page.title().startswith("● Your turn · Race to Ten #")
    assert "favicon-turn.svg" in page.get_attribute("link[rel=icon]", "href")
    assert not phone.title().startswith("●")
    shot(page, "play-flow-your-turn")

    add_one(page)  # ann moves: bob's tab says it is his turn, without a reload
    phone.wait_for_function("() => document.title.startsWith('● Your turn · Race to Ten')")
    assert "favicon-turn.svg" in phone.get_attribute("link[rel=icon]", "href")
    assert not page.title().startswith("●")
    assert "favicon.svg" in page.get_attribute("link[rel=icon]", "href")
    shot(phone, "play-flow-your-turn-phone")

    phone.get_by_role("link", name="Resign…").click()
    phone.wait_for_url(f"**/play/matches/{match.pk}/resign/")
    assert phone.get_by_text("The match ends now: your opponent wins").is_visible()
    assert no_sideways_scroll(phone)
    shot(phone, "play-flow-resign-confirm-phone")
    page.goto(f"/play/matches/{match.pk}/resign/")
    shot(page, "play-flow-resign-confirm")
    page.goto(match.get_absolute_url())
    phone.get_by_role("button", name="Resign the game").click()
    phone.wait_for_selector(".outcome")
    assert phone.get_by_text("Bob resigned.").first.is_visible()
    assert phone.locator(".rating-change.down").is_visible()
    shot(phone, "play-flow-over-phone")

    page.wait_for_selector(".outcome .rating-change.up")  # ann's page follows by itself
    assert no_sideways_scroll(phone)
    shot(page, "play-flow-over")
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url("**/play/matches/*/")
    rematch = Match.objects.get(pk=match.pk).rematch
    assert rematch is not None and page.url.endswith(rematch.get_absolute_url())
    phone.wait_for_url(f"**{rematch.get_absolute_url()}", timeout=15_000)  # bob lands there too
    assert phone.locator("#board .player-chip").count() == 2
    leave(page)
    leave(phone)


def test_lobby_rules_abandon_and_a_table_with_guests(
    page: Any, phone: Any, make_user: Any, organiser: Any, club: Any
) -> None:
    ann, bob = make_user(username="ann", player_name="Ann"), make_user(username="bob", player_name="Bob")
    mine = services.match_create(
        user=ann, game="black-spy", seats=3, seed=1, bots={1: "heuristic", 2: "heuristic"}
    )
    services.match_start(user=ann, match_id=mine.pk)
    services.match_create(user=bob, game="mister-spy", seats=2, seed=1)
    watched = services.match_create(user=bob, game="spycatcher", seats=2, seed=1, bots={1: "heuristic"})
    services.match_start(user=bob, match_id=watched.pk)
    for who in (ann, bob):
        clubs.club_join(user=who, club=club)
    guest = clubs.guest_add(user=organiser, club=club, name="Gwen Guest").player
    event = events.event_create(
        club=club,
        user=organiser,
        name="Club Evening",
        game="black-spy",
        format="swiss",
        rounds=1,
        table_size=3,
    )
    for player in (ann.player, bob.player, guest):
        events.entrant_register(user=organiser, event=event, player=player)
    table = events.round_publish(user=organiser, rnd=events.round_pair(event=event)).tables.get()

    log_in_as(page, "ann")
    log_in_as(phone, "ann")
    for view, suffix in ((page, ""), (phone, "-phone")):
        view.goto("/play/")
        assert view.get_by_role("heading", name="Your matches").is_visible()
        assert view.get_by_role("heading", name="Open tables to join").is_visible()
        assert view.get_by_role("heading", name="Under way: watch").is_visible()
        assert no_sideways_scroll(view)
        shot(view, f"play-flow-lobby{suffix}")
    page.select_option("#id_game", "mister-spy")
    page.fill("#id_seats", "9")
    page.get_by_role("button", name="Create the match").click()
    assert page.locator("#id_game").input_value() == "mister-spy"  # kept after the error
    assert page.locator("fieldset[data-game=mister-spy]").is_visible()
    shot(page, "play-flow-lobby-error")

    page.get_by_role("link", name="How to play Black Spy").click()
    assert page.get_by_role("heading", name="How we rule it online").is_visible()
    shot(page, "play-flow-rules")
    phone.goto("/play/rules/spies/")
    assert no_sideways_scroll(phone)
    shot(phone, "play-flow-rules-phone")

    page.goto(mine.get_absolute_url())
    page.get_by_role("link", name="Abandon the match…").click()
    shot(page, "play-flow-abandon-confirm")
    page.fill("#reason", "closing time")
    page.get_by_role("button", name="Abandon the match").click()
    page.wait_for_selector(".ended")
    assert page.get_by_text("Abandoned by Ann: closing time.").is_visible()
    shot(page, "play-flow-abandoned")

    sheet = f"/events/{event.pk}/tables/{table.pk}/"
    for view, suffix in ((page, ""), (phone, "-phone")):
        view.goto(sheet)
        assert view.get_by_text("a bot plays for Gwen Guest").is_visible()
        shot(view, f"play-flow-sheet-guests{suffix}")
    page.get_by_role("button", name="Start the online match with bots for guests").click()
    page.wait_for_selector("#board")
    assert page.get_by_text("Bots play for the players without an account: Gwen Guest").is_visible()
    shot(page, "play-flow-table-match")
    phone.goto(page.url.replace(page.url.split("/play/")[0], ""))
    shot(phone, "play-flow-table-match-phone")
    leave(page)
    leave(phone)
