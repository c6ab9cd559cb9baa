"""Score sheets: entered at the table, checked in words, confirmed by another player, audited."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from spyleague.clubs.models import Membership, Role
from spyleague.scores.models import Result, ResultChange
from spyleague.tournaments import services
from spyleague.tournaments.models import Seat, Table

from .helpers import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_with_people(club: Any, organiser: Any, make_user: Any) -> tuple[Any, Table, list[Any]]:
    event = make_event(club, organiser, players=0, game="spy-vs-spy", size=2, name="Sheets")
    users = [make_user(username=f"u{i}") for i in range(2)]
    for user in users:
        services.entrant_register(user=user, event=event)
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    return event, rnd.tables.get(), users


def sheet_url(event: Any, table: Table) -> str:
    return reverse("tournaments:sheet", args=[event.pk, table.pk])


def by_seat(table: Table, users: list[Any]) -> list[Any]:
    order = [s.entrant.player.user_id for s in Seat.objects.filter(table=table).order_by("position")]
    return sorted(users, key=lambda u: order.index(u.pk))


def test_a_seated_player_enters_and_the_other_confirms(client: Any, table_with_people: Any) -> None:
    event, table, users = table_with_people
    first, second = by_seat(table, users)
    client.force_login(first)
    response = client.post(sheet_url(event, table), {"score_0": "4", "score_1": "-2"})
    assert response.status_code == 302
    result = Result.objects.get(table=table)
    assert result.status == Result.Status.REPORTED
    assert [line.place for line in result.lines.order_by("position")] == [2, 1]  # lowest wins in Spy vs Spy
    # The one who entered it cannot confirm it.
    client.post(reverse("tournaments:confirm", args=[event.pk, table.pk]))
    result.refresh_from_db()
    assert result.status == Result.Status.REPORTED
    client.force_login(second)
    client.post(reverse("tournaments:confirm", args=[event.pk, table.pk]))
    result.refresh_from_db()
    table.refresh_from_db()
    assert result.status == Result.Status.CONFIRMED and table.status == Table.Status.CONFIRMED
    assert [c.action for c in result.changes.all()] == ["entered", "confirmed"]


def test_mistakes_are_explained_and_what_was_typed_is_kept(client: Any, table_with_people: Any) -> None:
    event, table, users = table_with_people
    client.force_login(users[0])
    response = client.post(sheet_url(event, table), {"score_0": "4", "score_1": "lots"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "the score &#x27;lots&#x27; is not a number" in page
    assert 'value="lots"' in page and 'value="4"' in page
    response = client.post(
        sheet_url(event, table), {"score_0": "4", "score_1": "2", "place_0": "1", "place_1": "2"}
    )
    assert "The places do not match the scores" in response.content.decode()
    assert not Result.objects.exists()


def test_a_stranger_cannot_enter_a_result(client: Any, table_with_people: Any, make_user: Any) -> None:
    event, table, _ = table_with_people
    client.force_login(make_user(username="outsider"))
    response = client.post(sheet_url(event, table), {"score_0": "1", "score_1": "2"})
    assert response.status_code == 403
    assert "Only a player at this table" in response.content.decode()
    assert not Result.objects.exists()


def test_a_scorer_corrects_a_confirmed_result_and_the_trail_keeps_both(
    client: Any, table_with_people: Any, make_user: Any
) -> None:
    event, table, users = table_with_people
    first, second = by_seat(table, users)
    client.force_login(first)
    client.post(sheet_url(event, table), {"score_0": "4", "score_1": "-2"})
    client.force_login(second)
    client.post(reverse("tournaments:confirm", args=[event.pk, table.pk]))
    # A seated player can no longer change it.
    client.force_login(first)
    client.post(sheet_url(event, table), {"score_0": "-9", "score_1": "-2"})
    assert Result.objects.get(table=table).lines.get(position=0).score == 4
    scorer = make_user(username="scorer")
    Membership.objects.create(club=event.club, player=scorer.player, role=Role.SCORER)
    client.force_login(scorer)
    client.post(sheet_url(event, table), {"score_0": "-9", "score_1": "-2", "note": "misread the pile"})
    result = Result.objects.get(table=table)
    assert result.status == Result.Status.CONFIRMED
    assert [line.place for line in result.lines.order_by("position")] == [1, 2]
    override = ResultChange.objects.get(result=result, action="overridden")
    assert override.who == scorer and override.note == "misread the pile"
    assert [line["score"] for line in override.before["lines"]] == [4.0, -2.0]
    assert [line["score"] for line in override.after["lines"]] == [-9.0, -2.0]
    seats = Seat.objects.filter(table=table).order_by("position")
    assert [s.place for s in seats] == [1, 2]
    page = client.get(sheet_url(event, table)).content.decode()
    assert "Overridden" in page and "misread the pile" in page


def test_mister_spy_sheets_are_checked_against_the_deck(club: Any, organiser: Any) -> None:
    from django.core.exceptions import ValidationError

    from spyleague.clubs.models import Player
    from spyleague.scores.services import EntryLine, result_enter

    players = [Player.objects.create(name=n) for n in ("A", "B", "C")]
    with pytest.raises(ValidationError) as refused:
        result_enter(
            user=organiser,
            game="mister-spy",
            club=club,
            entries=[EntryLine(players[0], 1.0), EntryLine(players[1], 40.0), EntryLine(players[2], 35.0)],
        )
    text = " ".join(refused.value.messages)
    assert "A:" in text
    assert "33" in text
