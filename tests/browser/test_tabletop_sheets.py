"""Spycatcher and Spies! table sheets entered in the browser, on a desktop and on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from spyleague.clubs.services import club_create
from spyleague.scores.models import Result
from spyleague.tournaments import services
from spyleague.tournaments.models import Table
from tests.web.tournaments.helpers import make_event

from .conftest import no_sideways_scroll, shot
from .helpers import log_in_as

pytestmark = pytest.mark.django_db(transaction=True)


def published_table(make_user: Any, game: str, players: int) -> tuple[Any, Table]:
    organiser = make_user(username="orla", player_name="Orla")
    club = club_create(user=organiser, name="Tabletop Club", city="York")
    event = make_event(club, organiser, players=players, game=game, size=players, name=f"{game} night")
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    return event, rnd.tables.get()


def test_a_spycatcher_table_sheet(page: Any, phone: Any, make_user: Any) -> None:
    event, table = published_table(make_user, "spycatcher", 4)
    names = [s.entrant.player.name for s in table.seats.order_by("position")]
    url = f"/events/{event.pk}/tables/{table.pk}/"
    log_in_as(page, "orla")
    page.goto(url)
    page.wait_for_selector("text=Score sheet")

    def tick(seat: int, *kinds: str) -> None:
        box = page.locator(f'fieldset[data-seat="{seat}"]')
        for kind in kinds:
            box.get_by_label(kind.capitalize()).check()

    tick(0, "court", "press")
    tick(1, "court", "government", "press")
    tick(3, "government")
    page.locator('fieldset[data-seat="1"]').get_by_label("Returned to the centre: winner").check()
    page.get_by_role("button", name="Enter the result").click()
    # Refused in words, next to the player, with every box still ticked.
    problem = page.locator('fieldset[data-seat="1"] .errorlist')
    problem.wait_for()
    assert f"{names[1]} is named the winner but holds court, government and press" in problem.inner_text()
    assert page.locator('fieldset[data-seat="0"]').get_by_label("Press").is_checked()
    shot(page, "tabletop-spycatcher-refused")

    tick(1, "publisher")
    page.get_by_role("button", name="Enter the result").click()
    page.wait_for_selector("#result")
    result = Result.objects.get(table=table)
    assert [line.place for line in result.lines.order_by("position")] == [2, 1, 4, 3]
    summary = page.locator(".sheet-summary").inner_text()
    assert f"{names[1]} held court, government, press and publisher: returned to the centre" in summary
    shot(page, "tabletop-spycatcher-entered")
    page.get_by_role("button", name="Confirm the result").click()
    page.wait_for_selector("text=Result confirmed")
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED

    log_in_as(phone, "orla")
    phone.goto(url)
    phone.wait_for_selector(".sheet-summary")
    assert no_sideways_scroll(phone)
    assert phone.locator('fieldset[data-seat="1"]').get_by_label("Publisher").is_checked()
    shot(phone, "tabletop-spycatcher-phone")


def test_a_spies_table_sheet(page: Any, phone: Any, make_user: Any) -> None:
    event, table = published_table(make_user, "spies", 3)
    names = [s.entrant.player.name for s in table.seats.order_by("position")]
    url = f"/events/{event.pk}/tables/{table.pk}/"
    log_in_as(phone, "orla")
    phone.goto(url)
    phone.wait_for_selector(".lineup")
    lineup = phone.locator(".lineup").inner_text()
    assert (
        f"{names[0]} runs Germany and Italy; {names[1]} runs Russia; {names[2]} runs France and Britain"
        in (lineup)
    )
    assert no_sideways_scroll(phone)
    points = {"G": "12", "I": "20", "R": "8", "F": "20", "B": "3"}
    money = {"G": "1", "I": "2", "R": "3", "F": "5", "B": "-1"}
    for code in points:
        phone.fill(f'[name="vp_{code}"]', points[code])
        phone.fill(f'[name="money_{code}"]', money[code])
    phone.get_by_role("button", name="Enter the result").click()
    problem = phone.locator('[data-power="B"] .errorlist')
    problem.wait_for()
    assert "Britain has -1£, but the Bank Track never goes below 0." in problem.inner_text()
    assert phone.input_value('[name="vp_I"]') == "20"
    assert no_sideways_scroll(phone)
    shot(phone, "tabletop-spies-refused-phone")

    phone.fill('[name="money_B"]', "0")
    phone.get_by_role("button", name="Enter the result").click()
    phone.wait_for_selector("#result")
    assert no_sideways_scroll(phone)
    shot(phone, "tabletop-spies-entered-phone")
    result = Result.objects.get(table=table)
    assert [line.place for line in result.lines.order_by("position")] == [2, 3, 1]

    log_in_as(page, "orla")
    page.goto(url)
    page.wait_for_selector(".sheet-summary")
    assert (
        "France (" + names[2] + "): 20 victory points, £5; 1st of the five powers."
        in page.locator(".sheet-summary").inner_text()
    )
    shot(page, "tabletop-spies-desktop")
    page.get_by_role("button", name="Confirm the result").click()
    page.wait_for_selector("text=Result confirmed")
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
