"""Many players with one API call: registering a list, checking a list (or everyone) in, and
importing a CSV file (preview, then confirm). All or nothing, organisers only, the refusals in
words item by item, under the rules of registering one player."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from spyleague.clubs.models import Membership, Player, Role
from spyleague.clubs.services import club_join, guest_add, member_set_role
from spyleague.tournaments import services
from spyleague.tournaments.models import Entrant, Event, Round
from tests.web.tournaments.helpers import make_event, play_round

pytestmark = pytest.mark.django_db


def guests(club: Any, organiser: Any, *names: str) -> list[Player]:
    return [guest_add(user=organiser, club=club, name=name).player for name in names]


def entries() -> list[tuple[int, int, bool]]:
    return sorted(Entrant.objects.values_list("event_id", "player_id", "checked_in"))


@pytest.fixture
def event(club: Any, organiser: Any) -> Event:
    return services.event_create(club=club, user=organiser, name="API Open", game="black-spy", rounds=3)


# --- registering many ------------------------------------------------------------------------------


def test_an_organiser_registers_many_players_with_one_call(
    api_client: Any, club: Any, organiser: Any, event: Event
) -> None:
    ann, ben, cy = guests(club, organiser, "Ann", "Ben", "Cy")
    services.entrant_register(user=organiser, event=event, player=cy)
    api_client.force_authenticate(organiser)
    answer = api_client.post(
        f"/api/events/{event.pk}/entrants/register/", {"players": [ben.pk, ann.pk, cy.pk]}, format="json"
    )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["registered"] == 2 and body["checked_in"] == 0
    assert [e["player"]["name"] for e in body["entrants"]] == ["Ben", "Ann", "Cy"]  # in the order given
    assert Entrant.objects.filter(event=event).count() == 3


def test_registering_many_can_check_them_in_and_leaves_those_entered_as_they_were(
    api_client: Any, club: Any, organiser: Any, event: Event
) -> None:
    ann, ben = guests(club, organiser, "Ann", "Ben")
    services.entrant_register(user=organiser, event=event, player=ben)
    api_client.force_authenticate(organiser)
    body = api_client.post(
        f"/api/events/{event.pk}/entrants/register/",
        {"players": [ann.pk, ben.pk], "check_in": True},
        format="json",
    ).json()
    assert body["registered"] == 1 and body["checked_in"] == 1
    assert [(e["player"]["name"], e["checked_in"]) for e in body["entrants"]] == [
        ("Ann", True),
        ("Ben", False),
    ]


def test_registering_many_is_all_or_nothing_with_each_wrong_item_said(
    api_client: Any, club: Any, organiser: Any, event: Event, make_user: Any
) -> None:
    ann, dee = guests(club, organiser, "Ann", "Dee")
    services.entrant_drop(
        user=organiser, entrant=services.entrant_register(user=organiser, event=event, player=dee)
    )
    stranger = make_user(username="stan", player_name="Stan")
    api_client.force_authenticate(organiser)
    before = entries()
    answer = api_client.post(
        f"/api/events/{event.pk}/entrants/register/",
        {"players": [ann.pk, 999999, stranger.player.pk, dee.pk, ann.pk]},
        format="json",
    )
    assert answer.status_code == 400
    body = answer.json()
    assert body["players"] == {
        "1": ["There is no player 999999."],
        "2": ["Stan is not a member of Test Club: they register themselves, or join first."],
        "3": ["Dee dropped out of this event."],
        "4": ["Ann is item 0 of the list already."],
    }
    assert body["detail"][0].startswith("4 of the 5 players cannot be registered, so none was")
    assert entries() == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "players"),
        ({"players": []}, "players"),
        ({"players": ["x"]}, "players"),
        ({"players": [2**70]}, "players"),
    ],
)
def test_a_list_that_cannot_be_read_is_refused_by_its_field(
    api_client: Any, organiser: Any, event: Event, body: dict[str, Any], field: str
) -> None:
    api_client.force_authenticate(organiser)
    answer = api_client.post(f"/api/events/{event.pk}/entrants/register/", body, format="json")
    assert answer.status_code == 400 and answer.json()[field], answer.content


def test_too_many_at_once_is_refused_in_words(api_client: Any, organiser: Any, event: Event) -> None:
    api_client.force_authenticate(organiser)
    answer = api_client.post(
        f"/api/events/{event.pk}/entrants/register/", {"players": list(range(1, 2002))}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["players"] == ["Ensure this field has no more than 2000 elements."]


def test_only_organisers_register_many(
    api_client: Any, club: Any, organiser: Any, event: Event, make_user: Any
) -> None:
    (ann,) = guests(club, organiser, "Ann")
    scorer = make_user(username="sue")
    club_join(user=scorer, club=club)
    member_set_role(
        user=organiser, club=club, membership=Membership.objects.get(player=scorer.player), role=Role.SCORER
    )
    url = f"/api/events/{event.pk}/entrants/register/"
    assert api_client.post(url, {"players": [ann.pk]}, format="json").status_code in (401, 403)
    for user in (scorer, make_user(username="stan")):
        api_client.force_authenticate(user)
        answer = api_client.post(url, {"players": [user.player.pk]}, format="json")  # not even oneself
        assert answer.status_code == 403 and "organisers" in answer.json()["detail"]
    assert not Entrant.objects.exists()


def test_registering_many_obeys_the_rules_of_registering_one(
    api_client: Any, club: Any, organiser: Any
) -> None:
    api_client.force_authenticate(organiser)
    finished = make_event(club, organiser, players=4, rounds=1, name="Over")
    play_round(finished, organiser)
    robin = make_event(club, organiser, players=4, format=Event.Format.ROUND_ROBIN, name="Robin")
    services.round_publish(user=organiser, rnd=services.round_pair(event=robin))
    (ann,) = guests(club, organiser, "Ann")
    before = entries()
    for event, code, words in [
        (finished, 409, "This event is over."),  # a conflict, as registering one
        (robin, 400, "This round robin has begun: its schedule was made for the players of round 1"),
    ]:
        answer = api_client.post(
            f"/api/events/{event.pk}/entrants/register/", {"players": [ann.pk]}, format="json"
        )
        assert answer.status_code == code and words in str(answer.json()["detail"]), answer.content
    assert entries() == before
    # Those entered already stay as they are, as registering one of them again does.
    entered = list(Entrant.objects.filter(event=robin).values_list("player_id", flat=True))
    again = api_client.post(f"/api/events/{robin.pk}/entrants/register/", {"players": entered}, format="json")
    assert again.status_code == 200 and again.json()["registered"] == 0
    assert entries() == before


def test_a_draft_follows_the_entries_made_many_at_once(api_client: Any, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=4)
    play_round(event, organiser)
    services.round_pair(event=event)
    late = guests(club, organiser, "Lou", "Lea", "Lee", "Lia", "Liz")
    api_client.force_authenticate(organiser)
    answer = api_client.post(
        f"/api/events/{event.pk}/entrants/register/", {"players": [p.pk for p in late]}, format="json"
    )
    assert answer.status_code == 200
    draft = Round.objects.get(event=event, number=2)
    assert draft.status == Round.Status.DRAFT
    assert draft.notes[0] == "Paired again: Lou, Lea, Lee and 2 others entered."
    seated = set(draft.tables.values_list("seats__entrant__player_id", flat=True))
    assert {p.pk for p in late} <= seated
    assert {e["joined_round"] for e in answer.json()["entrants"]} == {2}


def test_a_thousand_players_in_one_call_take_a_handful_of_queries(
    api_client: Any, club: Any, organiser: Any, event: Event, django_assert_max_num_queries: Any
) -> None:
    players = Player.objects.bulk_create([Player(name=f"P{i}", guest_of=club) for i in range(1000)])
    api_client.force_authenticate(organiser)
    with django_assert_max_num_queries(20):
        answer = api_client.post(
            f"/api/events/{event.pk}/entrants/register/", {"players": [p.pk for p in players]}, format="json"
        )
    assert answer.status_code == 200 and answer.json()["registered"] == 1000
    entrants = [e["id"] for e in answer.json()["entrants"]]
    with django_assert_max_num_queries(10):
        checked = api_client.post(
            f"/api/events/{event.pk}/entrants/check-in/", {"entrants": entrants}, format="json"
        )
    assert checked.json() == {"checked_in": 1000}


def test_an_entry_made_at_the_same_moment_is_a_refusal_not_a_server_error(
    api_client: Any, club: Any, organiser: Any, event: Event, monkeypatch: Any
) -> None:
    from django.db import IntegrityError

    (ann,) = guests(club, organiser, "Ann")

    def taken(*args: Any, **kwargs: Any) -> Any:
        raise IntegrityError("UNIQUE constraint failed: one_entry_per_event")

    monkeypatch.setattr(Entrant.objects, "bulk_create", taken)
    api_client.force_authenticate(organiser)
    answer = api_client.post(
        f"/api/events/{event.pk}/entrants/register/", {"players": [ann.pk]}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["detail"] == [
        "One of these players was registered a moment ago by someone else, so nobody was: send the "
        "list again."
    ]


# --- checking many in ------------------------------------------------------------------------------


def test_an_organiser_checks_everyone_in_with_one_call(
    api_client: Any, club: Any, organiser: Any, event: Event
) -> None:
    ann, ben, dee = guests(club, organiser, "Ann", "Ben", "Dee")
    for p in (ann, ben, dee):
        services.entrant_register(user=organiser, event=event, player=p)
    services.entrant_drop(user=organiser, entrant=Entrant.objects.get(player=dee))
    api_client.force_authenticate(organiser)
    answer = api_client.post(f"/api/events/{event.pk}/entrants/check-in/")
    assert answer.status_code == 200 and answer.json() == {"checked_in": 2}
    assert dict(Entrant.objects.values_list("player__name", "checked_in")) == {
        "Ann": True,
        "Ben": True,
        "Dee": False,
    }
    assert api_client.post(f"/api/events/{event.pk}/entrants/check-in/").json() == {"checked_in": 0}


def test_checking_a_list_in_is_all_or_nothing_with_each_wrong_item_said(
    api_client: Any, club: Any, organiser: Any, event: Event
) -> None:
    ann, ben, dee = guests(club, organiser, "Ann", "Ben", "Dee")
    a, b, d = (services.entrant_register(user=organiser, event=event, player=p) for p in (ann, ben, dee))
    services.entrant_drop(user=organiser, entrant=d)
    other = make_event(club, organiser, players=1, name="Other")
    stray = Entrant.objects.get(event=other)
    api_client.force_authenticate(organiser)
    url = f"/api/events/{event.pk}/entrants/check-in/"
    answer = api_client.post(url, {"entrants": [a.pk, d.pk, stray.pk, a.pk]}, format="json")
    assert answer.status_code == 400
    assert answer.json()["entrants"] == {
        "1": ["Dee dropped out of this event: they cannot be checked in."],
        "2": [f"There is no entrant {stray.pk} in API Open."],
        "3": [f"Entrant {a.pk} is item 0 of the list already."],
    }
    assert not Entrant.objects.filter(checked_in=True).exists()
    answer = api_client.post(url, {"entrants": [b.pk]}, format="json")
    assert answer.json() == {"checked_in": 1}
    assert list(Entrant.objects.filter(checked_in=True).values_list("player__name", flat=True)) == ["Ben"]


def test_checking_many_in_is_for_organisers_and_not_in_a_finished_event(
    api_client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    finished = make_event(club, organiser, players=4, rounds=1)
    play_round(finished, organiser)
    url = f"/api/events/{finished.pk}/entrants/check-in/"
    api_client.force_authenticate(organiser)
    for body in (None, {"entrants": [Entrant.objects.filter(event=finished).first().pk]}):  # type: ignore[union-attr]
        answer = api_client.post(url, body, format="json")  # over: a conflict, as checking one in
        assert answer.status_code == 409, answer.content
        assert answer.json()["detail"] == "This event is over: its entrants stay as they were."
    member = make_user(username="pat")
    club_join(user=member, club=club)
    api_client.force_authenticate(member)
    assert api_client.post(url).status_code == 403
    api_client.force_authenticate(None)
    assert api_client.post(url).status_code in (401, 403)


# --- importing a file ------------------------------------------------------------------------------

FILE = "Name;Rating\nAnn;1500\nann;\nBen;\n"


def test_a_file_is_previewed_then_confirmed(api_client: Any, club: Any, organiser: Any, event: Event) -> None:
    api_client.force_authenticate(organiser)
    upload = SimpleUploadedFile("players.csv", FILE.encode("utf-8-sig"), content_type="text/csv")
    before = entries(), Player.objects.count()
    shown = api_client.post(f"/api/events/{event.pk}/import/", {"file": upload}, format="multipart")
    assert shown.status_code == 200, shown.content
    preview = shown.json()
    assert [(line["line"], line["outcome"], line["says"]) for line in preview["lines"]] == [
        (2, "guest", "Create guest Ann and register them with the rating 1500."),
        (3, "refused", "Refused: duplicate of line 2."),
        (4, "guest", "Create guest Ben and register them."),
    ]
    assert preview["counts"] == {"guest": 2, "matched": 0, "registered": 0, "refused": 1}
    assert preview["columns"] == {"name": "Name", "rating": "Rating"}
    assert (entries(), Player.objects.count()) == before  # nothing written yet

    done = api_client.post(
        f"/api/events/{event.pk}/import/confirm/",
        {"token": preview["token"], "check_in": True},
        format="json",
    )
    assert done.status_code == 200, done.content
    body = done.json()
    assert (body["guests_created"], body["registered"], body["checked_in"]) == (2, 2, 2)
    assert [e["player"]["name"] for e in body["entrants"]] == ["Ann", "Ben"]
    assert (
        body["detail"]
        == "Registered 2 players, 2 of them new guests of the club, all checked in. 1 line was refused."
    )

    again = api_client.post(f"/api/events/{event.pk}/import/", {"csv": FILE}, format="json").json()
    assert again["counts"] == {"guest": 0, "matched": 0, "registered": 2, "refused": 1}


def test_a_confirmation_after_the_club_changed_is_a_conflict_with_the_new_preview(
    api_client: Any, club: Any, organiser: Any, event: Event
) -> None:
    api_client.force_authenticate(organiser)
    preview = api_client.post(f"/api/events/{event.pk}/import/", {"csv": FILE}, format="json").json()
    guest_add(user=organiser, club=club, name="Ben")
    before = entries(), Player.objects.count()
    answer = api_client.post(
        f"/api/events/{event.pk}/import/confirm/", {"token": preview["token"]}, format="json"
    )
    assert answer.status_code == 409
    body = answer.json()
    assert "changed since the preview" in body["detail"]
    assert body["preview"]["lines"][2]["says"] == "Matched to Ben, a guest of the club: register them."
    assert (entries(), Player.objects.count()) == before
    confirmed = api_client.post(
        f"/api/events/{event.pk}/import/confirm/", {"token": body["preview"]["token"]}, format="json"
    )
    assert confirmed.status_code == 200 and confirmed.json()["guests_created"] == 1


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, "Send the CSV file as “file”"),
        ({"csv": "phone\n1\n"}, "The first line of the file must name its columns"),
        ({"csv": "name\n" + "x" * 1_000_001}, "The file is 1.0 MB"),
    ],
)
def test_a_file_that_cannot_be_imported_is_a_400_in_words(
    api_client: Any, organiser: Any, event: Event, body: dict[str, Any], words: str
) -> None:
    api_client.force_authenticate(organiser)
    answer = api_client.post(f"/api/events/{event.pk}/import/", body, format="json")
    assert answer.status_code == 400
    assert words in str(answer.json()), answer.content


def test_a_big_upload_is_refused_unread(api_client: Any, organiser: Any, event: Event) -> None:
    api_client.force_authenticate(organiser)
    upload = SimpleUploadedFile("big.csv", b"name\n" + b"x" * 1_000_000, content_type="text/csv")
    answer = api_client.post(f"/api/events/{event.pk}/import/", {"file": upload}, format="multipart")
    assert answer.status_code == 400 and "The file is 1.0 MB" in answer.json()["file"][0]


def test_only_organisers_import(
    api_client: Any, club: Any, organiser: Any, event: Event, make_user: Any
) -> None:
    api_client.force_authenticate(organiser)
    token = api_client.post(f"/api/events/{event.pk}/import/", {"csv": FILE}, format="json").json()["token"]
    member = make_user(username="pat")
    club_join(user=member, club=club)
    api_client.force_authenticate(member)
    assert api_client.post(f"/api/events/{event.pk}/import/", {"csv": FILE}, format="json").status_code == 403
    answer = api_client.post(f"/api/events/{event.pk}/import/confirm/", {"token": token}, format="json")
    assert answer.status_code == 403
    api_client.force_authenticate(None)
    assert api_client.post(f"/api/events/{event.pk}/import/", {"csv": FILE}, format="json").status_code in (
        401,
        403,
    )
    assert not Entrant.objects.exists() and not Player.objects.filter(name="Ann").exists()


def test_a_bad_token_is_a_400_in_words(api_client: Any, organiser: Any, event: Event) -> None:
    api_client.force_authenticate(organiser)
    answer = api_client.post(f"/api/events/{event.pk}/import/confirm/", {"token": "nonsense"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"] == [
        "This preview cannot be read (it was changed or cut short): upload the file again."
    ]
