"""No CSV the site writes can carry a live spreadsheet formula: every export, for names starting
with each character that starts a formula (OWASP's list), writes them as text with a quote in
front; the numbers the site writes (a score of -5) stay numbers. And every CSV of the site is
written by the one writer, ``spyleague.core.csv_export``.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from spyleague.clubs.models import Membership, Player, Role
from spyleague.core.csv_export import FORMULA_STARTS, safe_cell
from spyleague.tournaments import services
from spyleague.tournaments.models import Seat
from tests.web.tournaments.helpers import play_round

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
FORMULA = '{start}HYPERLINK("http://evil.example/","click")'
NAMES = [FORMULA.format(start=start) for start in FORMULA_STARTS] + ["-5", "@admin", "Plain Name"]
EXPORTS = ("entrants", "pairings", "results", "standings")


@pytest.fixture
def event(club: Any, organiser: Any) -> Any:
    """A Black Spy event at tables of three whose players are named as above, a round played,
    and one seat's score set to -5 (as a game with negative scores writes it)."""
    event = services.event_create(
        club=club, user=organiser, name="Formula Night", game="black-spy", table_size=3, rounds=3
    )
    for name in NAMES[:9]:
        player = Player.objects.create(name=name, guest_of=club)
        Membership.objects.create(club=club, player=player, role=Role.PLAYER)
        services.entrant_register(user=organiser, event=event, player=player)
    play_round(event, organiser)
    Seat.objects.filter(pk=Seat.objects.filter(table__round__event=event).first().pk).update(score=-5.0)  # type: ignore[union-attr]
    return event


def _cells(client: Any, event: Any, what: str) -> list[list[str]]:
    response = client.get(reverse("tournaments:export", args=[event.pk, what]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("what", EXPORTS)
def test_no_export_cell_starts_a_formula(client: Any, event: Any, what: str) -> None:
    rows = _cells(client, event, what)
    assert len(rows) > 1
    cells = [cell for row in rows for cell in row]
    live = [cell for cell in cells if cell.startswith(FORMULA_STARTS) and not _number(cell)]
    assert not live, f"cells a spreadsheet would run: {live}"
    named = {cell for cell in cells if "HYPERLINK" in cell or cell in ("'-5", "'@admin")}
    expected = {"'" + name for name in NAMES[:9] if name.startswith(FORMULA_STARTS)}
    if what == "standings":
        expected = {"'" + row.name for row in _standings(event)} & expected
    assert expected <= named, f"missing: {expected - named}"
    assert all(cell.startswith("'") for cell in named)


def _standings(event: Any) -> list[Any]:
    from spyleague.tournaments.selectors import standings_get

    return list(standings_get(event=event))


def test_the_numbers_the_site_writes_stay_numbers(client: Any, event: Any) -> None:
    results = _cells(client, event, "results")
    header = results[0]
    scores = [row[header.index("score")] for row in results[1:]]
    assert "-5.0" in scores  # a number, not '-5.0
    assert all(_number(score) for score in scores if score)
    ranks = [row[0] for row in _cells(client, event, "standings")[1:]]
    assert ranks and all(rank.isdigit() for rank in ranks)


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_every_start_of_a_formula_is_written_as_text(start: str) -> None:
    assert safe_cell(f"{start}1+1") == f"'{start}1+1"
    assert safe_cell(f"a{start}1") == f"a{start}1"
    assert safe_cell(-5) == -5 and safe_cell(-0.5) == -0.5 and safe_cell(None) == ""
    assert safe_cell(True) is True


def test_every_csv_of_the_site_is_written_by_the_one_writer() -> None:
    """A csv writer anywhere else in the site's code would write cells unchecked."""
    writer = re.compile(r"\bcsv\.(writer|DictWriter)\(|\bfrom csv import\b.*\b(writer|DictWriter)\b")
    others = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "spyleague").rglob("*.py")
        if path.name != "csv_export.py" and writer.search(path.read_text())
    ]
    assert not others, f"write CSV through spyleague.core.csv_export instead: {others}"
