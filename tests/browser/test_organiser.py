"""An organiser runs a Swiss from the pages alone: create, register, pair, publish, results, standings."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import get_engine
from games.core import play_out
from spyleague.clubs.models import Membership, Player
from spyleague.tournaments.models import Event, Standing
from tests.web.tournaments.helpers import repeats_said

from .conftest import no_sideways_scroll, shot
from .helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_ten_player_swiss_run_from_the_pages(page: Any, make_user: Any) -> None:
    log_in(page, make_user, "otto")
    page.goto("/clubs/new/")
    page.fill("#id_name", "Checkpoint Charlie")
    page.get_by_role("button", name="Create the club").click()
    page.wait_for_url("**/clubs/checkpoint-charlie/")
    for i in range(9):
        page.fill("#id_name", f"Racer {i + 1}")
        page.get_by_role("button", name="Add player").click()
        page.wait_for_load_state()
    assert Membership.objects.filter(club__slug="checkpoint-charlie").count() == 10

    page.get_by_role("link", name="New event").click()
    page.fill("#id_name", "Friday Swiss")
    page.select_option("#id_game", "spy-vs-spy")
    page.fill("#id_rounds", "3")
    page.fill("#id_table_size", "2")
    page.get_by_role("button", name="Create the event").click()
    page.wait_for_selector("text=Run the event")
    for box in page.locator("#candidates input[type=checkbox]").all():  # tap every member
        box.check()
    page.locator("[data-picker-submit]").click()  # "Register 10 players"
    page.wait_for_selector("text=Registered 10 players")  # the nine and the organiser
    event = Event.objects.get(name="Friday Swiss")
    assert event.entrants.count() == 10

    rng = random.Random(3)
    for number in (1, 2, 3):
        page.get_by_role("button", name="Pair the next round").click()
        page.wait_for_selector(f"text=Publish round {number}", timeout=20_000)
        if number == 1:
            shot(page, "organiser-draft")
        page.get_by_role("button", name=f"Publish round {number}").click()
        page.wait_for_selector(f"text=Round {number} is published")
        links = [a.get_attribute("href") for a in page.locator(f"#round-{number} a.badge").all()]
        assert len(links) == 5
        for href in links:
            page.goto(href)
            a, b = rng.sample(range(-5, 15), 2)
            page.fill("[name=score_0]", str(a))
            page.fill("[name=score_1]", str(b))
            page.get_by_role("button", name="Enter the result").click()
            page.get_by_role("button", name="Confirm the result").click()
            page.wait_for_selector("text=Result confirmed")
        page.goto(event.get_absolute_url())
    shot(page, "organiser-standings")
    rows = list(Standing.objects.filter(event=event).order_by("rank"))
    assert len(rows) == 10 and all(r.games == 3 for r in rows)
    assert rows[0].points >= 6
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    page.goto(f"/events/{event.pk}/screen/")
    shot(page, "organiser-screen")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(event.get_absolute_url())
    assert no_sideways_scroll(page)
    assert Player.objects.filter(name__startswith="Racer").count() == 9


def test_a_24_player_black_spy_event_at_tables_of_4_with_a_scorepad_table(page: Any, make_user: Any) -> None:
    """The issue's own run: 24 players, five rounds at tables of 4; one table a round on the scorepad."""
    log_in(page, make_user, "olga")
    page.goto("/clubs/new/")
    page.fill("#id_name", "The Black Chamber")
    page.get_by_role("button", name="Create the club").click()
    page.wait_for_url("**/clubs/the-black-chamber/")
    from spyleague.clubs.models import Club

    club = Club.objects.get(slug="the-black-chamber")
    for i in range(23):  # quicker than 23 form posts; the form itself is tested above
        Membership.objects.create(
            club=club, player=Player.objects.create(name=f"Agent {i + 1:02d}", guest_of=club)
        )
    page.get_by_role("link", name="New event").click()
    page.fill("#id_name", "Winter Black Spy Open")
    page.select_option("#id_game", "black-spy")
    page.fill("#id_rounds", "5")
    page.get_by_role("button", name="Create the event").click()
    page.wait_for_selector("text=Run the event")
    for box in page.locator("#candidates input[type=checkbox]").all():  # tap every member
        box.check()
    page.locator("[data-picker-submit]").click()  # "Register 10 players"
    page.wait_for_selector("text=Registered 24 players")
    event = Event.objects.get(name="Winter Black Spy Open")
    rng = random.Random(5)
    met: set[frozenset[str]] = set()
    repeats = 0
    for number in range(1, 6):
        page.get_by_role("button", name="Pair the next round").click()
        page.get_by_role("button", name=f"Publish round {number}").click()
        page.wait_for_selector(f"text=Round {number} is published")
        links = [a.get_attribute("href") for a in page.locator(f"#round-{number} a.badge").all()]
        assert len(links) == 6
        for index, href in enumerate(links):
            page.goto(href)
            names = [n.strip() for n in page.locator("table.data tbody td:nth-child(2)").all_text_contents()]
            pairs = {frozenset((a, b)) for a in names for b in names if a < b}
            repeats += len(pairs & met)
            met |= pairs
            if index == 0:  # this table keeps its game on the Black Spy scorepad
                page.get_by_role("link", name="Open the scorepad").click()
                page.fill("#end_value", "40")
                page.get_by_role("button", name="Start the scorepad").click()
                for deal in ([25, 15, 15, 5], [20, 10, 20, 10]):
                    for i, points in enumerate(deal):
                        page.fill(f"#points_{i}", str(points))
                    page.get_by_role("button", name="Add the deal").click()
                    page.wait_for_load_state()
                page.get_by_role("button", name="Confirm the result").click()
                page.wait_for_selector("text=Result confirmed")
                continue
            # A real game's totals: the sheet checks them against what whole deals can give.
            scores = [int(s) for s in play_out(get_engine("black-spy"), 4, rng.randrange(2**31)).scores]
            for i, score in enumerate(scores):
                page.fill(f"[name=score_{i}]", str(score))
            page.get_by_role("button", name="Enter the result").click()
            page.get_by_role("button", name="Confirm the result").click()
            page.wait_for_selector("text=Result confirmed")
        page.goto(event.get_absolute_url())
    shot(page, "organiser-24-standings")
    # Every round seats the fewest repeated opponents possible, and says so on the draft.
    from spyleague.tournaments.models import Round

    said = [repeats_said(r) for r in Round.objects.filter(event=event).order_by("number")]
    assert all(fewest for _, fewest in said), said
    assert repeats == sum(count for count, _ in said) <= 1
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = list(Standing.objects.filter(event=event).order_by("rank"))
    assert len(rows) == 24 and all(r.games == 5 for r in rows)
    # On a phone each name stays on one line, and stays in view while the numbers scroll.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(event.get_absolute_url())
    wrap = page.locator("#standings .table-wrap")
    wrap.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    assert wrap.evaluate("e => e.scrollLeft") > 0  # the numbers did scroll
    frame = wrap.bounding_box()
    for row in page.locator("#standings tbody tr").all()[:5]:
        name = row.locator("td:nth-child(2) a")
        assert name.evaluate("a => a.getClientRects().length") == 1, "a name broke over two lines"
        box = name.bounding_box()
        assert frame is not None and box is not None and frame["x"] - 1 <= box["x"] <= 390 - box["width"]
    shot(page, "organiser-24-standings-phone")
    board = page.goto("/leaderboards/?game=black-spy&club=the-black-chamber")
    assert board is not None and page.locator("table.data tbody tr").count() == 24
