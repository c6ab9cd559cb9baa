"""In the browser, with the database failing under a score sheet and a move: what was typed stays.

The failure is the driver's, raised where the service would write (every thread of the live
server meets it), so the page first draws as usual and the database then goes away under the
action, as it does in an outage.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import OperationalError

from games import registry
from spyleague.clubs.services import club_create
from spyleague.play import services as play
from spyleague.scores import services as results
from spyleague.scores.models import Result
from spyleague.tournaments import services as events
from tests.web.tournaments.helpers import make_event

from .conftest import shot
from .helpers import BOARD_KEY, log_in_as

pytestmark = pytest.mark.django_db(transaction=True)

AWAY = "The site cannot reach its database at the moment"


def refused(*args: Any, **kwargs: Any) -> Any:
    cause = psycopg.OperationalError("server closed the connection unexpectedly")
    raise OperationalError(*cause.args) from cause


@pytest.fixture
def race_to_ten() -> Iterator[None]:
    registry.GAMES["race-to-ten"] = registry.GameInfo(
        "race-to-ten", "Race to Ten", range(2, 5), False, "tests.web.play.race_to_ten", "A test game."
    )
    registry.get_engine.cache_clear()
    yield
    del registry.GAMES["race-to-ten"]
    registry.get_engine.cache_clear()


def test_a_score_sheet_sent_while_the_database_is_away_comes_back_and_is_sent_again(
    page: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    organiser = make_user(username="orla", player_name="Orla")
    club = club_create(user=organiser, name="Tabletop Club", city="York")
    event = make_event(club, organiser, players=4, game="spy-vs-spy", size=4, name="Race night")
    table = events.round_publish(user=organiser, rnd=events.round_pair(event=event)).tables.get()
    log_in_as(page, "orla")
    page.goto(f"/events/{event.pk}/tables/{table.pk}/")
    for seat in range(4):
        page.fill(f"input[name=score_{seat}]", str(seat + 1))
    monkeypatch.setattr(results, "result_enter", refused)
    page.get_by_role("button", name="Enter the result").click()
    page.get_by_role("button", name="Send it again").wait_for()
    assert AWAY in page.locator("[role=alert]").inner_text()
    assert "score, seat 4\t4" in page.locator("details").inner_text().lower()  # what was typed, shown
    shot(page, "database-away-sheet")
    monkeypatch.undo()  # the database is back
    page.get_by_role("button", name="Send it again").click()
    page.wait_for_selector("text=Result entered")
    result = Result.objects.get(table=table)
    assert sorted(line.score for line in result.lines.all()) == [1, 2, 3, 4]


def test_a_move_sent_while_the_database_is_away_leaves_the_board_and_says_so(
    page: Any, make_user: Any, race_to_ten: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = make_user(username="ann", player_name="Ann"), make_user(username="bob", player_name="Bob")
    match = play.match_create(user=ann, game="race-to-ten", seats=2, seed=0, options={"target": 6})
    play.match_join(user=bob, match_id=match.pk)
    play.match_start(user=ann, match_id=match.pk)
    log_in_as(page, "ann")
    page.goto(match.get_absolute_url())
    key = page.evaluate(BOARD_KEY)
    monkeypatch.setattr(play, "match_move_submit", refused)
    for _ in range(2):  # twice: one notice, not two
        page.locator("#board form").filter(has_text="n 1").locator("button").click()
        page.locator("#main > #site-unavailable").wait_for()
    assert page.locator("#site-unavailable").count() == 1
    assert AWAY in page.locator("#site-unavailable").inner_text()
    assert page.evaluate(BOARD_KEY) == key  # the board is as it was, ready to send the move again
    shot(page, "database-away-move")
    monkeypatch.undo()
    page.locator("#board form").filter(has_text="n 1").locator("button").click()
    page.wait_for_function("k => document.getElementById('board').dataset.key !== k", arg=key)
