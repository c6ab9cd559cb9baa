"""Importing players from a CSV file: what the preview says of each line, that nothing is written
before the confirmation, that the confirmation writes exactly the preview (once: importing the
same file again creates nobody twice), the refusals, the limits, who may, and the page's flow."""

from __future__ import annotations

import codecs
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from spyleague.clubs.models import Membership, Player, Role
from spyleague.clubs.services import club_join, guest_add, member_set_role
from spyleague.tournaments import imports, services
from spyleague.tournaments.imports import Outcome
from spyleague.tournaments.models import Entrant, Event, Round

from .helpers import make_event, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(club: Any, organiser: Any, make_user: Any) -> dict[str, Any]:
    """Test Club: the organiser olga; pat (Pat Jones, an account, pat@example.org); two members
    both called Sam Same; stan (an account, in no club); the guests Gus Guest, Reg Ular (entered
    in the event) and Dee Dropped (entered, then dropped out). The event takes registrations."""
    pat = make_user(username="pat", player_name="Pat Jones", email="pat@example.org")
    club_join(user=pat, club=club)
    for username in ("sam1", "sam2"):
        club_join(user=make_user(username=username, player_name="Sam Same"), club=club)
    stan = make_user(username="stan", player_name="Stan Stranger")
    for name in ("Gus Guest", "Reg Ular", "Dee Dropped"):
        guest_add(user=organiser, club=club, name=name)
    event = services.event_create(club=club, user=organiser, name="Spring Open", game="black-spy", rounds=3)
    reg = Player.objects.get(name="Reg Ular")
    services.entrant_register(user=organiser, event=event, player=reg)
    dee = services.entrant_register(
        user=organiser, event=event, player=Player.objects.get(name="Dee Dropped")
    )
    services.entrant_drop(user=organiser, entrant=dee)
    return {"event": event, "pat": pat, "stan": stan}


def preview(organiser: Any, event: Event, text: str | bytes) -> imports.Plan:
    data = text.encode() if isinstance(text, str) else text
    return imports.preview(user=organiser, event=event, data=data)


def said(plan: imports.Plan) -> list[tuple[int, str, str]]:
    return [(line.line, line.outcome.value, line.says) for line in plan.lines]


def rows() -> dict[str, int]:
    return {
        "players": Player.objects.count(),
        "memberships": Membership.objects.count(),
        "entrants": Entrant.objects.count(),
        "checked in": Entrant.objects.filter(checked_in=True).count(),
        "rounds": Round.objects.count(),
    }


# --- what the preview says, line by line -----------------------------------------------------------

CASES = [
    (
        "a name nobody has",
        "name\nAda Lovelace\n",
        [(2, "guest", "Create guest Ada Lovelace and register them.")],
    ),
    (
        "a member's name, in other capitals and spaces",
        "name\n  pat   JONES \n",
        [(2, "matched", "Matched to member Pat Jones (pat): register them.")],
    ),
    (
        "a guest the club added before",
        "Name\ngus guest\n",
        [(2, "matched", "Matched to Gus Guest, a guest of the club: register them.")],
    ),
    (
        "a member's username, whatever the name says",
        "name,username\nP. Jones,pat\n",
        [(2, "matched", "Matched to member Pat Jones (pat): register them.")],
    ),
    (
        "a username with an @, in capitals",
        "name;username\n;@PAT\n",
        [(2, "matched", "Matched to member Pat Jones (pat): register them.")],
    ),
    (
        "an account that is not a member",
        "name,username\nStan,stan\n",
        [
            (
                2,
                "refused",
                "Refused: stan is not a member of Test Club: they join the club first, or register "
                "themselves.",
            )
        ],
    ),
    (
        "a username nobody has",
        "name,username\nZed,zed\n",
        [(2, "refused", "Refused: nobody has the username “zed”.")],
    ),
    (
        "a member's address, in capitals",
        "name,email\nP. J.,PAT@Example.org\n",
        [(2, "matched", "Matched to member Pat Jones (pat): register them.")],
    ),
    (
        "an address no member has: the name decides",
        "name,email\nAda Lovelace,ada@example.org\n",
        [(2, "guest", "Create guest Ada Lovelace and register them.")],
    ),
    (
        "entered already",
        "name\nReg Ular\n",
        [(2, "registered", "Already registered (not checked in yet): stays as they are.")],
    ),
    (
        "dropped out",
        "name\nDee Dropped\n",
        [(2, "refused", "Refused: Dee Dropped dropped out of this event.")],
    ),
    (
        "a name without a letter",
        "name\n--\n",
        [(2, "refused", "Refused: the name “--” has no letter or digit.")],
    ),
    ("an empty name", "name,rating\n,1500\n", [(2, "refused", "Refused: the name is empty.")]),
    (
        "a name too long",
        "name\n" + "x" * 81 + "\n",
        [(2, "refused", "Refused: the name is 81 characters long; a name has at most 80.")],
    ),
    (
        "a control character in the name",
        "name\nAda\x07\n",
        [(2, "refused", "Refused: the name holds a character that is not text (a control character).")],
    ),
    (
        "the same name twice",
        "name\nAda Lovelace\n ada  lovelace\n",
        [
            (2, "guest", "Create guest Ada Lovelace and register them."),
            (3, "refused", "Refused: duplicate of line 2."),
        ],
    ),
    (
        "the same member by name, then by username",
        "name,username\nPat Jones,\n,pat\n",
        [
            (2, "matched", "Matched to member Pat Jones (pat): register them."),
            (3, "refused", "Refused: duplicate of line 2."),
        ],
    ),
    (
        "two members of that name",
        "name\nSam Same\n",
        [
            (
                2,
                "refused",
                "Refused: 2 players of Test Club are called Sam Same: add a username column to say "
                "which one.",
            )
        ],
    ),
    (
        "a rating with a decimal comma",
        "name;rating\nAda Lovelace;1500,5\n",
        [(2, "guest", "Create guest Ada Lovelace and register them with the rating 1500.5.")],
    ),
    (
        "a rating that is no number",
        "name;rating\nAda;abc\n",
        [(2, "refused", "Refused: the rating “abc” is not a number.")],
    ),
    (
        "an endless rating",
        "name;rating\nAda;inf\n",
        [(2, "refused", "Refused: the rating “inf” is not a rating (a number up to 1,000,000).")],
    ),
    (
        "first and last names",
        "First name,Last name\nAda,Lovelace\n",
        [(2, "guest", "Create guest Ada Lovelace and register them.")],
    ),
    (
        "a quoted name with the separator and a line break in it",
        'name,club\n"Lovelace, Ada",x\n"Byron\nLord",y\n',
        [
            (2, "guest", "Create guest Lovelace, Ada and register them."),
            (3, "guest", "Create guest Byron Lord and register them."),
        ],
    ),
    (
        "empty lines are skipped, numbers stay the file's",
        "name;club\r\n\r\n;\r\nAda Lovelace;\r\n",
        [(4, "guest", "Create guest Ada Lovelace and register them.")],
    ),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_preview_says_what_each_line_will_do(
    world: dict[str, Any], organiser: Any, text: str, expected: list[tuple[int, str, str]]
) -> None:
    before = rows()
    plan = preview(organiser, world["event"], text)
    assert said(plan) == expected
    assert rows() == before  # a preview writes nothing


def test_an_entrant_checked_in_is_said_to_be(world: dict[str, Any], organiser: Any) -> None:
    event = world["event"]
    entrant = Entrant.objects.get(event=event, player__name="Reg Ular")
    services.entrant_check_in(user=organiser, entrant=entrant)
    assert said(preview(organiser, event, "name\nreg ular\n")) == [
        (2, "registered", "Already registered (checked in): stays as they are.")
    ]


# --- reading files as spreadsheets save them -------------------------------------------------------

ADA = "Create guest Adà Lovelace and register them."


@pytest.mark.parametrize(
    "data",
    [
        codecs.BOM_UTF8 + "Name;Rating\r\nAdà Lovelace;\r\n".encode(),  # Excel's "CSV UTF-8"
        "Name;Rating\r\nAdà Lovelace;\r\n".encode("cp1252"),  # Excel's plain "CSV" (Windows)
        "name\tphone\nAdà Lovelace\t0123\n".encode("utf-16"),  # "Unicode text": UTF-16, tabs
        b'"Name","Rating"\n"Ad\xc3\xa0 Lovelace",""\n',  # everything quoted
        "NAME , E-Mail\nAdà Lovelace, \n".encode(),  # a header in capitals, with spaces
        "Player_Name\nAdà Lovelace\n".encode(),  # one column
    ],
    ids=["utf-8 with a BOM", "windows-1252", "utf-16 with tabs", "quoted", "odd header", "one column"],
)
def test_files_are_read_as_spreadsheets_save_them(world: dict[str, Any], organiser: Any, data: bytes) -> None:
    plan = preview(organiser, world["event"], data)
    assert said(plan) == [(2, "guest", ADA)], plan.lines


def test_the_preview_notes_what_to_check(world: dict[str, Any], organiser: Any) -> None:
    plan = preview(organiser, world["event"], "Name;Phone;Notes\nAdà;1;\n;;\n\n;;\n".encode("cp1252"))
    assert plan.notes == [
        "The file is not UTF-8: it was read as Windows-1252 (a spreadsheet's CSV). "
        "Check that the accents in the names below are right.",
        "Columns not used: Phone, Notes.",
        "3 empty lines were skipped.",
    ]


@pytest.mark.parametrize(
    ("data", "refusal"),
    [
        (b"", "The file is empty."),
        (b"   \n\n", "The file is empty."),
        (
            b"phone,club\n1,2\n",
            "The first line of the file must name its columns, one of them “name”; it has “phone”, “club”.",
        ),
        (b"name\n", "The file has no players: only its first line, which names the columns."),
        (b"name\nAda\x00\n", "The file holds NUL characters"),
        (b"\x81\x8d\x8f\x90", "The file could not be read as text (UTF-8 or Windows-1252)"),
        (
            b"name\n" + b"x" * imports.MAX_FILE_BYTES,
            "The file is 1.0 MB: a file of players may be at most 1 MB",
        ),
        (
            ("name\n" + "".join(f"P{i}\n" for i in range(imports.MAX_LINES + 1))).encode(),
            "The file has more than 2,000 lines of players: import at most 2,000 at a time",
        ),
    ],
    ids=["empty", "blank", "no name column", "no players", "NUL", "not text", "too big", "too many lines"],
)
def test_a_file_that_cannot_be_imported_is_refused_in_words(
    world: dict[str, Any], organiser: Any, data: bytes, refusal: str
) -> None:
    before = rows()
    with pytest.raises(ValidationError) as refused:
        preview(organiser, world["event"], data)
    assert " ".join(refused.value.messages).startswith(refusal)
    assert rows() == before


def test_two_thousand_lines_are_within_the_limit(
    world: dict[str, Any], organiser: Any, settings: Any
) -> None:
    settings.SPYLEAGUE_QUOTAS = {**settings.SPYLEAGUE_QUOTAS, "guests_per_club_per_day": 10_000}
    text = "name\n" + "".join(f"Player {i}\n" for i in range(imports.MAX_LINES))
    assert preview(organiser, world["event"], text).counts["guest"] == imports.MAX_LINES


def test_the_preview_refuses_the_new_guests_beyond_the_days_quota(
    world: dict[str, Any], organiser: Any, settings: Any
) -> None:
    settings.SPYLEAGUE_QUOTAS = {**settings.SPYLEAGUE_QUOTAS, "guests_per_club_per_day": 5}  # 3 added today
    event = world["event"]
    plan = preview(organiser, event, "name\nAnn\nPat Jones\nBen\nCy\n")
    too_many = (
        "Refused: Test Club may add 5 players without an account a day, and this one would be one too "
        "many today; import the file again tomorrow (nobody is entered twice)."
    )
    assert said(plan) == [
        (2, "guest", "Create guest Ann and register them."),
        (3, "matched", "Matched to member Pat Jones (pat): register them."),
        (4, "guest", "Create guest Ben and register them."),
        (5, "refused", too_many),
    ]
    done = imports.plan_confirm(user=organiser, event=event, token=plan.token)
    assert [p.name for p in done.guests] == ["Ann", "Ben"]
    assert said(preview(organiser, event, "name\nCy\n")) == [(2, "refused", too_many)]


# --- confirming ------------------------------------------------------------------------------------

FILE = (
    "name,username,rating\nAda Lovelace,,1500\n,pat,\nReg Ular,,\nDee Dropped,,\nada lovelace,,\n"
    "Ben Byron,,\n"
)


def test_nothing_is_written_until_the_confirmation_and_it_writes_exactly_the_preview(
    world: dict[str, Any], organiser: Any
) -> None:
    event = world["event"]
    before = rows()
    plan = preview(organiser, event, FILE)
    assert plan.counts == {"guest": 2, "matched": 1, "registered": 1, "refused": 2}
    assert rows() == before
    entered_before = set(Entrant.objects.filter(event=event).values_list("player_id", flat=True))

    done = imports.plan_confirm(user=organiser, event=event, token=plan.token)

    assert [p.name for p in done.guests] == ["Ada Lovelace", "Ben Byron"]
    assert all(p.guest_of_id == event.club_id for p in done.guests)
    assert Membership.objects.filter(club=event.club, player__in=done.guests, role=Role.PLAYER).count() == 2
    planned = {line.player for line in plan.lines if line.outcome == Outcome.MATCHED} | {
        p.pk for p in done.guests
    }
    entered = set(Entrant.objects.filter(event=event).values_list("player_id", flat=True))
    assert entered == entered_before | planned
    assert [e.player.name for e in done.entrants] == ["Ada Lovelace", "Pat Jones", "Ben Byron"]
    ada = Entrant.objects.get(event=event, player__name="Ada Lovelace")
    assert ada.rating == 1500 and not ada.checked_in and ada.joined_round == 1
    assert rows() == before | {
        "players": before["players"] + 2,
        "memberships": before["memberships"] + 2,
        "entrants": before["entrants"] + 3,
    }
    assert done.says() == (
        "Registered 3 players, 2 of them new guests of the club. 1 was registered already. "
        "2 lines were refused."
    )


def test_importing_the_same_file_again_creates_nobody_twice(world: dict[str, Any], organiser: Any) -> None:
    event = world["event"]
    imports.plan_confirm(
        user=organiser, event=event, token=preview(organiser, event, FILE).token, check_in=True
    )
    after = rows()
    again = preview(organiser, event, FILE.replace("Ada Lovelace", "  ADA  lovelace"))
    assert again.counts == {"guest": 0, "matched": 0, "registered": 4, "refused": 2}
    done = imports.plan_confirm(user=organiser, event=event, token=again.token, check_in=True)
    assert done.entrants == [] and done.guests == []
    assert rows() == after


def test_checking_in_on_confirming_checks_in_those_entered_now(world: dict[str, Any], organiser: Any) -> None:
    event = world["event"]
    done = imports.plan_confirm(
        user=organiser, event=event, token=preview(organiser, event, FILE).token, check_in=True
    )
    assert done.checked_in == 3 and all(e.checked_in for e in done.entrants)
    assert not Entrant.objects.get(event=event, player__name="Reg Ular").checked_in  # stays as they were
    assert "all checked in" in done.says()


def test_a_club_changed_since_the_preview_writes_nothing_and_shows_the_new_plan(
    world: dict[str, Any], organiser: Any
) -> None:
    event = world["event"]
    plan = preview(organiser, event, FILE)
    guest_add(user=organiser, club=event.club, name="Ben Byron")  # someone adds him meanwhile
    before = rows()
    with pytest.raises(imports.PlanChanged) as changed:
        imports.plan_confirm(user=organiser, event=event, token=plan.token)
    assert rows() == before
    assert "changed since the preview" in changed.value.messages[0]
    ben = [line for line in changed.value.plan.lines if line.line == 7]
    assert [(b.outcome, b.says) for b in ben] == [
        (Outcome.MATCHED, "Matched to Ben Byron, a guest of the club: register them.")
    ]
    done = imports.plan_confirm(user=organiser, event=event, token=changed.value.plan.token)
    assert [p.name for p in done.guests] == ["Ada Lovelace"]


def test_an_entry_made_since_the_preview_writes_nothing(world: dict[str, Any], organiser: Any) -> None:
    event = world["event"]
    plan = preview(organiser, event, FILE)
    services.entrant_register(user=world["pat"], event=event)  # pat registers himself meanwhile
    before = rows()
    with pytest.raises(imports.PlanChanged):
        imports.plan_confirm(user=organiser, event=event, token=plan.token)
    assert rows() == before


def test_a_token_that_is_not_good_is_refused_and_nothing_is_written(
    world: dict[str, Any], organiser: Any, club: Any, make_user: Any, monkeypatch: Any
) -> None:
    event = world["event"]
    token = preview(organiser, event, FILE).token
    other = services.event_create(club=club, user=organiser, name="Other", game="black-spy")
    second = make_user(username="otto")
    club_join(user=second, club=club)
    member_set_role(
        user=organiser,
        club=club,
        membership=Membership.objects.get(player=second.player),
        role=Role.ORGANISER,
    )
    before = rows()
    tampered = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    for bad, words in [
        (tampered, "This preview cannot be read"),
        ("", "This preview cannot be read"),
        ("x" * 5000, "This preview cannot be read"),
    ]:
        with pytest.raises(ValidationError, match=words):
            imports.plan_confirm(user=organiser, event=event, token=bad)
    with pytest.raises(ValidationError, match="This preview is of another event"):
        imports.plan_confirm(user=organiser, event=other, token=token)
    with pytest.raises(PermissionDenied, match="made by someone else"):
        imports.plan_confirm(user=second, event=event, token=token)
    monkeypatch.setattr(imports, "TOKEN_MAX_AGE", -1)
    with pytest.raises(ValidationError, match="more than an hour old"):
        imports.plan_confirm(user=organiser, event=event, token=token)
    assert rows() == before


# --- who may, and when -----------------------------------------------------------------------------


def test_only_the_clubs_organisers_import(
    world: dict[str, Any], organiser: Any, club: Any, make_user: Any
) -> None:
    event = world["event"]
    token = preview(organiser, event, FILE).token
    scorer = make_user(username="sue")
    club_join(user=scorer, club=club)
    member_set_role(
        user=organiser, club=club, membership=Membership.objects.get(player=scorer.player), role="scorer"
    )
    for user in (world["pat"], world["stan"], scorer):
        with pytest.raises(PermissionDenied):
            preview(user, event, FILE)
        with pytest.raises(PermissionDenied):
            imports.plan_confirm(user=user, event=event, token=token)


def test_a_finished_event_or_a_begun_round_robin_takes_no_import(club: Any, organiser: Any) -> None:
    finished = make_event(club, organiser, players=4, rounds=1)
    play_round(finished, organiser)
    finished.refresh_from_db()
    assert finished.status == Event.Status.FINISHED
    with pytest.raises(ValidationError, match=r"This event is over\."):
        preview(organiser, finished, "name\nAda\n")
    robin = make_event(club, organiser, players=4, format=Event.Format.ROUND_ROBIN, name="Robin")
    services.round_publish(user=organiser, rnd=services.round_pair(event=robin))
    with pytest.raises(ValidationError, match="This round robin has begun: its schedule was made"):
        preview(organiser, robin, "name\nAda\n")


def test_a_late_import_into_a_swiss_joins_the_draft_which_is_paired_again(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=4)
    play_round(event, organiser)
    draft = services.round_pair(event=event)
    assert draft.status == Round.Status.DRAFT
    plan = preview(organiser, event, "name\nLate Lou\nLate Lea\nLate Lee\nLate Lia\n")
    imports.plan_confirm(user=organiser, event=event, token=plan.token)
    rnd = Round.objects.get(event=event, number=2)
    seated = set(rnd.tables.values_list("seats__entrant__player__name", flat=True))
    assert {"Late Lou", "Late Lea", "Late Lee", "Late Lia"} <= seated
    assert rnd.notes[0] == "Paired again: Late Lou, Late Lea, Late Lee and Late Lia entered."
    assert set(
        Entrant.objects.filter(event=event, player__name__startswith="Late").values_list(
            "joined_round", flat=True
        )
    ) == {2}


# --- a thousand lines in a handful of queries ------------------------------------------------------


def test_a_thousand_lines_take_a_handful_of_queries(
    world: dict[str, Any], organiser: Any, settings: Any
) -> None:
    """As many queries for a thousand lines as for ten (a file is not a thousand service calls)."""
    settings.SPYLEAGUE_QUOTAS = {**settings.SPYLEAGUE_QUOTAS, "guests_per_club_per_day": 10_000}
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    event = world["event"]

    def imported(first: int, count: int) -> tuple[int, int]:
        text = "name;rating\n" + "".join(f"Player {i};{1000 + i}\n" for i in range(first, first + count))
        with CaptureQueriesContext(connection) as previewing:
            plan = preview(organiser, event, text + "Pat Jones;\n")
        assert plan.counts["guest"] == count
        with CaptureQueriesContext(connection) as confirming:
            done = imports.plan_confirm(user=organiser, event=event, token=plan.token, check_in=True)
        assert len(done.entrants) == count + (1 if first == 0 else 0)
        return queries(previewing), queries(confirming)

    def queries(captured: Any) -> int:  # the statements that read or write (savepoints aside)
        return sum(1 for q in captured.captured_queries if "SAVEPOINT" not in q["sql"])

    ten = imported(0, 10)
    thousand = imported(10, 1000)
    assert thousand[0] <= ten[0] <= 10 and thousand[1] <= ten[1] <= 25, (ten, thousand)
    assert Entrant.objects.filter(event=event, checked_in=True).count() == 1011


# --- the page ---------------------------------------------------------------------------------------


def test_the_page_uploads_previews_and_confirms(client: Any, world: dict[str, Any], organiser: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    event = world["event"]
    client.force_login(organiser)
    event_page = client.get(event.get_absolute_url()).content.decode()
    assert reverse("tournaments:import", args=[event.pk]) in event_page
    upload = client.get(reverse("tournaments:import", args=[event.pk]))
    assert upload.status_code == 200 and "Upload a file of players" in upload.content.decode()

    before = rows()
    shown = client.post(
        reverse("tournaments:import", args=[event.pk]),
        {"file": SimpleUploadedFile("players.csv", FILE.encode(), content_type="text/csv")},
    )
    body = shown.content.decode()
    assert shown.status_code == 200
    assert rows() == before
    for line in preview(organiser, event, FILE).lines:
        assert line.says.replace("“", "&ldquo;") in body or line.says in body
    assert "Import 3 players" in body and "Refused lines are left out (lines 5, 6)" in body
    token = shown.context["plan"].token

    done = client.post(
        reverse("tournaments:import-confirm", args=[event.pk]),
        {"token": token, "check_in": "on"},
        follow=True,
    )
    assert done.redirect_chain == [(event.get_absolute_url(), 302)]
    assert "Registered 3 players, 2 of them new guests of the club, all checked in." in done.content.decode()
    assert Entrant.objects.filter(event=event, checked_in=True).count() == 3


def test_the_page_takes_pasted_lines_and_says_what_is_wrong(
    client: Any, world: dict[str, Any], organiser: Any
) -> None:
    event = world["event"]
    client.force_login(organiser)
    url = reverse("tournaments:import", args=[event.pk])
    pasted = client.post(url, {"text": "name\nAda Lovelace\n"})
    assert (
        pasted.status_code == 200
        and "Create guest Ada Lovelace and register them." in pasted.content.decode()
    )
    before = rows()
    for post, words in [
        ({}, "Choose a CSV file of players, or paste its lines"),
        ({"text": "phone\n1\n"}, "The first line of the file must name its columns"),
    ]:
        refused = client.post(url, post)
        assert refused.status_code == 400 and words in refused.content.decode(), refused.content.decode()
        assert 'role="alert"' in refused.content.decode()
    bad_token = client.post(reverse("tournaments:import-confirm", args=[event.pk]), {"token": "nonsense"})
    assert bad_token.status_code == 400 and "This preview cannot be read" in bad_token.content.decode()
    assert rows() == before


def test_the_page_shows_the_new_preview_when_the_club_changed(
    client: Any, world: dict[str, Any], organiser: Any
) -> None:
    event = world["event"]
    client.force_login(organiser)
    token = preview(organiser, event, FILE).token
    guest_add(user=organiser, club=event.club, name="Ben Byron")
    before = rows()
    answer = client.post(reverse("tournaments:import-confirm", args=[event.pk]), {"token": token})
    assert answer.status_code == 409
    body = answer.content.decode()
    assert "changed since the preview" in body and "Matched to Ben Byron, a guest of the club" in body
    assert rows() == before


def test_only_organisers_see_the_page(client: Any, world: dict[str, Any]) -> None:
    url = reverse("tournaments:import", args=[world["event"].pk])
    assert client.get(url).status_code == 302  # to log in
    client.force_login(world["pat"])
    assert client.get(url).status_code == 403
    assert client.post(url, {"text": "name\nAda\n"}).status_code == 403
