"""The event settings page in a browser: the tiebreaks' Up and Down move a row in place with the
script (under the Content-Security-Policy), post the form without it, and Save keeps the order."""

from __future__ import annotations

from typing import Any

import pytest

from spyleague.clubs.services import club_create
from spyleague.tournaments.models import Event
from tests.web.tournaments.helpers import make_event

from .conftest import no_sideways_scroll, watched_page
from .helpers import log_in_as

pytestmark = pytest.mark.django_db(transaction=True)

ROWS = "[data-tiebreaks] > li"


def order(page: Any) -> list[str]:
    return page.locator(ROWS).evaluate_all("rows => rows.map(r => r.dataset.tiebreak)")


def event_of(make_user: Any) -> Event:
    olga = make_user(username="olga")
    return make_event(club_create(user=olga, name="Settings Club"), olga, players=4)


def test_up_and_down_move_in_place_and_save_keeps_the_order(page: Any, make_user: Any) -> None:
    event = event_of(make_user)
    log_in_as(page, "olga")
    page.goto(f"/events/{event.pk}/settings/")
    page.evaluate("window.stayed = true")  # gone if the page were loaded again
    page.get_by_role("button", name="Move Wins up").click()
    page.get_by_role("button", name="Move Wins up").click()
    assert order(page)[:3] == ["tournament_points", "wins", "game_points"]
    assert page.evaluate("window.stayed === true")
    assert page.get_by_role("button", name="Move Tournament points up").is_disabled()
    page.get_by_role("button", name="Move Tournament points down").click()
    assert page.get_by_role("button", name="Move Wins up").is_disabled()  # first now
    page.get_by_label("Head to head", exact=True).uncheck()
    page.get_by_role("button", name="Save the settings").last.click()
    page.wait_for_url(f"**/events/{event.pk}/")
    event.refresh_from_db()
    assert event.tiebreaks == ["wins", "tournament_points", "game_points", "opponents_average"]


def test_without_javascript_each_button_posts_the_form(
    browser: Any, live_server: Any, make_user: Any
) -> None:
    event = event_of(make_user)
    with watched_page(browser, base_url=live_server.url, java_script_enabled=False) as page:
        log_in_as(page, "olga")
        page.goto(f"/events/{event.pk}/settings/")
        page.fill("#id_name", "Typed before moving")
        page.get_by_role("button", name="Move Head to head up").click()
        page.wait_for_load_state()
        # The five in force, then the two not ticked (Buchholz cut 1, Sonneborn-Berger).
        assert order(page)[3:5] == ["head_to_head", "wins"]
        assert page.input_value("#id_name") == "Typed before moving"
        event.refresh_from_db()
        assert event.name == "Test Open"  # nothing saved yet
        page.get_by_role("button", name="Save the settings").last.click()
        page.wait_for_url(f"**/events/{event.pk}/")
        event.refresh_from_db()
        assert event.name == "Typed before moving"
        assert event.tiebreaks[-2:] == ["head_to_head", "wins"]


def test_the_page_fits_a_phone(phone: Any, make_user: Any) -> None:
    event = event_of(make_user)
    log_in_as(phone, "olga")
    phone.goto(f"/events/{event.pk}/settings/")
    assert no_sideways_scroll(phone)
