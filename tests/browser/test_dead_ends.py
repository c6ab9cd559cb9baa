"""The dead ends found on a club evening, walked in the browser: each now leads somewhere.

(The online match of a table with guests is walked in test_play_flow.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spyleague.clubs.models import Membership, Player, Role
from spyleague.core.demo import DEMO_ADMIN, DEMO_PASSWORD, demo_admin_ensure
from spyleague.tournaments import services

from .conftest import shot
from .helpers import log_in_as


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
    for i in range(8):
        player = Player.objects.create(name=f"Player {i}", guest_of=club)
        Membership.objects.create(club=club, player=player, role=Role.PLAYER)
        services.entrant_register(user=organiser, event=event, player=player)
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
    log_in_as(phone, "olga")
    phone.goto(event.get_absolute_url())
    assert phone.get_by_text("Round 1 is a draft: publish it or discard it first.").is_visible()
    shot(phone, "dead-end-pairing-draft-phone")
