"""An organiser imports a spreadsheet of players: uploads the file, reads the preview, confirms."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spyleague.clubs.models import Player
from spyleague.clubs.services import club_create, club_join
from spyleague.tournaments import services
from spyleague.tournaments.models import Entrant

from .conftest import no_sideways_scroll, shot
from .helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)

SHEET = (
    "\ufeffName;Username;Rating;Phone\r\n"
    "Ada Lovelace;;1500;0123\r\n"
    "Pat Jones;;;\r\n"
    ";pat;;\r\n"
    "Charles Babbage;;1480,5;\r\n"
    ";;;\r\n"
    "Mary Somerville;;abc;\r\n"
)


def test_an_organiser_uploads_a_file_sees_the_preview_and_confirms(
    page: Any, phone: Any, make_user: Any, tmp_path: Path
) -> None:
    olga = log_in(page, make_user, "olga")
    club = club_create(user=olga, name="Difference Engine Club")
    club_join(user=make_user(username="pat", player_name="Pat Jones"), club=club)
    event = services.event_create(club=club, user=olga, name="Analytical Open", game="black-spy", rounds=3)
    sheet = tmp_path / "players.csv"
    sheet.write_bytes(SHEET.encode())

    page.goto(event.get_absolute_url())
    page.get_by_role("link", name="Import players").click()
    page.wait_for_selector("text=Upload a file of players")
    shot(page, "import-upload")
    page.set_input_files("#id_file", str(sheet))
    page.get_by_role("button", name="Preview").click()
    page.wait_for_selector("#import-lines")

    lines = page.locator("#import-lines tbody tr")
    assert lines.count() == 5  # the empty line is skipped
    assert (
        lines.nth(0)
        .inner_text()
        .split("\t")[-1]
        .endswith("Create guest Ada Lovelace and register them with the rating 1500.")
    )
    assert "Matched to member Pat Jones (pat): register them." in lines.nth(1).inner_text()
    assert "Pat Jones" in lines.nth(2).inner_text()  # the same member as line 3, by username
    assert "Refused: duplicate of line 3." in lines.nth(2).inner_text()
    assert "with the rating 1480.5." in lines.nth(3).inner_text()
    assert "Refused: the rating “abc” is not a number." in lines.nth(4).inner_text()
    assert page.locator("#import-summary").inner_text().count("Columns not used: Phone.") == 1
    assert not Entrant.objects.filter(event=event).exists()  # nothing yet
    assert not Player.objects.filter(name="Ada Lovelace").exists()
    shot(page, "import-preview")

    with phone.expect_navigation():
        phone.goto("/accounts/login/")
    phone.fill("#id_username", "olga")
    phone.fill("#id_password", "correct-horse-battery")
    phone.click("main button[type=submit]")
    phone.wait_for_url("**/")
    phone.goto(f"/events/{event.pk}/import/")
    phone.set_input_files("#id_file", str(sheet))
    phone.get_by_role("button", name="Preview").click()
    phone.wait_for_selector("#import-lines")
    assert no_sideways_scroll(phone)
    shot(phone, "import-preview-phone")

    page.check("#import-check-in")
    page.get_by_role("button", name="Import 3 players").click()
    page.wait_for_selector("text=Registered 3 players, 2 of them new guests of the club, all checked in.")
    entered = dict(Entrant.objects.filter(event=event).values_list("player__name", "checked_in"))
    assert entered == {"Ada Lovelace": True, "Pat Jones": True, "Charles Babbage": True}
    assert Entrant.objects.get(event=event, player__name="Charles Babbage").rating == 1480.5
    shot(page, "import-done")

    # The phone's preview was made before the import: confirming it now changes nothing, and
    # shows what the same file would do now.
    phone.get_by_role("button", name="Import 3 players").click()
    phone.wait_for_selector("text=changed since the preview")
    assert (
        "Already registered (checked in): stays as they are." in phone.locator("#import-lines").inner_text()
    )
    assert Entrant.objects.filter(event=event).count() == 3
    assert no_sideways_scroll(phone)
    shot(phone, "import-changed-phone")
