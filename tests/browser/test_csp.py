"""Every kind of page runs under the Content-Security-Policy with nothing blocked.

The ``page`` fixture collects what the browser reports (see ``CSP_WATCH`` in conftest.py); here
each page is checked on its own, so a violation names the page it happened on. The behaviours
that moved out of inline handlers into static/js/site.js are used once each, and the match
board's poll is seen to send the version it has (formerly worked out by code htmx evaluated).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User

from games.registry import get_engine
from spyleague.clubs.services import club_create
from spyleague.play import services as play
from spyleague.play.models import Match
from spyleague.play.state import match_state
from spyleague.scores.scorepad import scorepad_deal_add, scorepad_open
from spyleague.tournaments import services as tournaments
from tests.web.tournaments.helpers import make_event

from .conftest import shot
from .helpers import PASSWORD, leave, log_in_as

pytestmark = pytest.mark.django_db(transaction=True)

BOARDS = {
    "black-spy": ".bs-board",
    "mister-spy": ".ms-board",
    "spy-vs-spy": "#race",
    "spycatcher": ".sc-board",
    "spies": ".sp-board",
}
SEATS = {"black-spy": 4, "mister-spy": 4, "spy-vs-spy": 2, "spycatcher": 4, "spies": 5}


def started(user: Any, game: str) -> Match:
    match = play.match_create(user=user, game=game, seats=SEATS[game], seed=7)
    return play.match_start(user=user, match_id=match.pk, fill_with="heuristic")


def finished_mister_spy(user: Any) -> Match:
    """A two-seat Mister Spy game played to its end: the person takes the first action offered."""
    match = play.match_create(user=user, game="mister-spy", seats=2, seed=3)
    play.match_start(user=user, match_id=match.pk, fill_with="heuristic")
    engine = get_engine("mister-spy")
    for _ in range(400):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        state = match_state(match)
        assert 0 in engine.to_act(state), "the bot did not answer"
        play.match_move_submit(match_id=match.pk, user=user, action=engine.legal(state, 0)[0])
    raise AssertionError("the game did not end")


def check(page: Any, path: str, ready: str, name: str, status: int = 200) -> None:
    """Open the page, wait until it shows ``ready``, and see that nothing was blocked."""
    before = len(page.csp_violations)
    response = page.goto(path)
    assert response is not None and response.status == status, (path, response and response.status)
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "unsafe-eval" not in policy, (path, policy)
    page.wait_for_selector(ready)
    shot(page, f"csp-{name}")
    assert page.csp_violations[before:] == [], path


def test_every_kind_of_page_runs_under_the_policy(page: Any, make_user: Any) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))

    organiser = make_user(username="orla", player_name="Orla")
    club = club_create(user=organiser, name="Policy Club", city="Leeds")
    event = make_event(club, organiser, players=8, game="black-spy", size=4, name="Policy Open")
    rnd = tournaments.round_publish(user=organiser, rnd=tournaments.round_pair(event=event))
    table = rnd.tables.order_by("number").first()
    assert table is not None
    players = [seat.entrant.player for seat in table.seats.order_by("position")]
    pad = scorepad_open(user=organiser, players=players, club=club)
    scorepad_deal_add(user=organiser, pad=pad, points=[30, 20, 10, 0])
    matches = {game: started(organiser, game) for game in BOARDS}
    replay = finished_mister_spy(organiser)
    admin = User.objects.create_superuser("ada", password=PASSWORD)

    # A visitor: the login page, the API documentation and the admin's login.
    check(page, "/accounts/login/", "#id_username", "login")
    check(page, "/api/docs/", ".swagger-ui .info .title", "api-docs")
    check(page, "/api/redoc/", "#redoc-container h1", "api-redoc")
    check(page, "/admin/login/", "#login-form", "admin-login")

    log_in_as(page, "orla")
    check(page, "/", "h1", "home")
    check(page, "/clubs/", "h1", "clubs")
    check(page, club.get_absolute_url(), "h1", "club")
    check(page, f"/events/{event.pk}/", "h1", "event")
    check(page, f"/events/{event.pk}/screen/", "#screen", "screen")
    check(page, f"/events/{event.pk}/rounds/{rnd.number}/print/", ".slip", "print")
    check(page, f"/events/{event.pk}/tables/{table.pk}/", "text=Score sheet", "sheet")
    check(page, f"/scorepads/{pad.pk}/", "#entry form", "scorepad")
    check(page, "/play/", "#new-match", "lobby")
    for game, board in BOARDS.items():
        check(page, f"/play/matches/{matches[game].pk}/", board, f"board-{game}")
    check(page, f"/play/matches/{replay.pk}/replay/", "#frame .ms-board", "replay")
    page.get_by_role("link", name="Start", exact=True).click()  # frames swapped in by htmx
    page.wait_for_selector("text=Move 0 of")
    page.locator("#replay-next").click()
    page.wait_for_selector("text=Move 1 of")
    check(page, "/leaderboards/", "h1", "leaderboards")
    check(page, "/no/such/page/", "h1", "not-found", status=404)

    # The handlers that moved to static/js/site.js still work.
    page.goto(f"/scorepads/{pad.pk}/")
    page.get_by_role("link", name="Correct").click()
    assert page.input_value("#points_0") == "30" and page.input_value("#points_3") == "0"
    assert page.get_by_role("button", name="Save the correction of deal 1").is_visible()
    page.goto("/play/")
    page.select_option("#id_game", "spies")
    assert page.locator("#new-match fieldset[data-game=spies]").is_visible()
    assert not page.locator("#new-match fieldset[data-game=black-spy]").is_visible()

    # The match board's poll sends the version the page shows, and the server answers "no change".
    page.goto(f"/play/matches/{matches['black-spy'].pk}/")
    key = page.get_attribute("#board", "data-key")
    with page.expect_response(lambda r: "/board/" in r.url, timeout=15_000) as polled:
        pass  # the board asks every 4 seconds
    assert parse_qs(urlsplit(polled.value.url).query)["v"] == [key]
    assert polled.value.status == 204
    leave(page)

    # The admin, logged in.
    page.goto("/admin/login/")
    page.fill("#id_username", "ada")
    page.fill("#id_password", PASSWORD)
    page.click("#login-form [type=submit]")
    page.wait_for_selector("#site-name")
    check(page, "/admin/", "#content-main", "admin-index")
    check(page, f"/admin/clubs/club/{club.pk}/change/", "#club_form", "admin-club")
    assert admin.is_superuser
    assert errors == []
