"""The dead ends found on a club evening, walked in the browser: each now leads somewhere.

(Resigning, abandoning and the rematch are walked in test_play_flow.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spyleague.clubs import services as clubs
from spyleague.clubs.models import Membership, Player, Role
from spyleague.core.demo import DEMO_ADMIN, DEMO_PASSWORD, demo_admin_ensure
from spyleague.play.models import Match
from spyleague.tournaments import services

from .conftest import shot
from .helpers import leave, log_in_as


def test_the_admin_the_readme_promises_reaches_the_django_admin(page: Any) -> None:
    """The README's demo logins name `admin` (made by `manage.py demo_data`, which scripts/start
    runs) for the Django admin; it used to promise the organiser, who is not site staff."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert f"| `{DEMO_ADMIN}` | the site's administrator" in readme
    demo_admin_ensure()
    page.goto("/admin/login/")
    page.fill("#id_username", DEMO_ADMIN)
    page.fill("#id_password", DEMO_PASSWORD)
    page.click("#login-form [type=submit]")
    page.wait_for_selector("#site-name")
    assert page.locator("#content-main").is_visible()
    shot(page, "dead-end-admin")


def test_pairing_says_what_is_missing_before_the_button_is_pressed(
    page: Any, phone: Any, club: Any, organiser: Any
) -> None:
    event = services.event_create(club=club, user=organiser, name="Thursday", game="black-spy", rounds=3)
    log_in_as(page, "olga")
    page.goto(event.get_absolute_url())
    pair = page.get_by_role("button", name="Pair the next round")
    assert pair.is_disabled() and page.get_by_text("Register at least two players first.").is_visible()

    def register(count: int, start: int) -> None:
        for i in range(start, start + count):
            player = Player.objects.create(name=f"Player {i}", guest_of=club)
            Membership.objects.create(club=club, player=player, role=Role.PLAYER)
            services.entrant_register(user=organiser, event=event, player=player)

    # Three cannot fill a Black Spy table of four: said before the button, which stays off (it
    # used to queue a job that failed, "Failed 0%").
    register(3, 0)
    too_few = "3 players would be paired, and a Black Spy table here seats at least 4"
    for view in (page, phone):
        if view is phone:
            log_in_as(phone, "olga")
        view.goto(event.get_absolute_url())
        assert view.get_by_role("button", name="Pair the next round").is_disabled()
        assert view.get_by_text(too_few).is_visible()
    shot(page, "dead-end-pairing-too-few")
    shot(phone, "dead-end-pairing-too-few-phone")
    register(5, 3)
    page.reload()
    assert pair.is_enabled()
    assert page.get_by_text("Nobody has checked in: all 8 registered players will be paired.").is_visible()
    page.get_by_role("button", name="Check in everyone").click()
    page.wait_for_selector("text=8 of 8 checked in: only they will be paired.")
    pair.click()
    page.wait_for_selector("text=Round 1 is a draft")
    assert page.get_by_role("button", name="Pair the next round").is_disabled()
    assert page.get_by_text("Round 1 is a draft: publish it or discard it first.").is_visible()
    shot(page, "dead-end-pairing-draft")
    phone.goto(event.get_absolute_url())
    assert phone.get_by_text("Round 1 is a draft: publish it or discard it first.").is_visible()
    shot(phone, "dead-end-pairing-draft-phone")


def test_a_table_with_guests_plays_online_with_bots_for_them_or_at_the_table(
    page: Any, phone: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    """A table whose other players have no account used to start a match nobody could move
    (version 0 for ever, no warning, no way out): bots now play the guests, and the table can
    go back to being played at the table."""
    ann = make_user(username="ann", player_name="Ann")
    clubs.club_join(user=ann, club=club)
    guests = [clubs.guest_add(user=organiser, club=club, name=name).player for name in ("Gwen", "Gus")]
    event = services.event_create(
        club=club, user=organiser, name="Club Evening", game="black-spy", rounds=1, table_size=3
    )
    for player in (ann.player, *guests):
        services.entrant_register(user=organiser, event=event, player=player)
    table = services.round_publish(user=organiser, rnd=services.round_pair(event=event)).tables.get()

    log_in_as(phone, "ann")
    phone.goto(event.get_absolute_url())
    phone.locator("#my-table").get_by_role("link", name="Enter result").click()
    phone.wait_for_url(f"**/tables/{table.pk}/")
    assert phone.get_by_text("a bot plays for Gwen and Gus online").is_visible()
    shot(phone, "dead-end-guests-sheet-phone")
    phone.get_by_role("button", name="Start the online match with bots for guests").click()
    phone.wait_for_selector(".bs-pass")
    assert phone.get_by_text("Bots play for the players without an account: Gwen and Gus").is_visible()
    # Ann passes her three; the pass is complete (she sees what she received) only because the
    # guests' bots passed theirs.
    picks = phone.locator(".bs-pass label.pick")
    for i in range(3):
        picks.nth(i).click()
    phone.locator(".bs-pass [data-pick-confirm]").click()
    phone.wait_for_selector("text=in the pass.")
    assert phone.get_by_text("You received").is_visible()
    shot(phone, "dead-end-guests-match-phone")
    leave(phone)  # its live updates closed before the match ends

    # The table decides to play it at the table after all: the match lets go of it.
    log_in_as(page, "ann")
    page.goto(f"/events/{event.pk}/tables/{table.pk}/")
    page.get_by_role("button", name="We play this one at the table instead").click()
    page.wait_for_selector("text=This table plays at the table")
    assert Match.objects.get(game="black-spy").status == Match.Status.ABANDONED
    assert page.get_by_role("button", name="Start the online match with bots for guests").is_visible()
    assert page.get_by_role("button", name="Enter the result").is_enabled()
    shot(page, "dead-end-guests-at-the-table")
