"""Every operation of the API schema, fuzzed by Schemathesis against a club with real rows.

Schemathesis reads /api/schema/ from the site itself (in process, through Django's WSGI handler
and the test database) and sends each operation a bounded number of generated requests, valid
and invalid, once as a club member with a token and once anonymous; the operations whose code
the member cannot reach (a scorepad's owner's, a scorer's and an organiser's on the scorepads
and the tables' results) are asked again as the pads' owner and as the club's organiser. Every
response must not be a server error and must be what the schema says: a documented status
code, its content type and its body schema.

Each operation gets the schema's examples, Schemathesis' coverage phase (boundary and invalid
values: empty strings, huge numbers, NUL bytes, wrong types) and EXAMPLES generated requests;
about half of the generated ones point at rows of the world built below (the path's ids and
slugs, and for a few operations a body that fits them: a table's players, a match's legal
action), so the real code paths run, not only the 404s of random ids. Some 6,600 requests in
all: one to two minutes on the project's 2-core machine.

The world is built once, in a transaction rolled back at the end of the module; each request
runs in a savepoint rolled back after it, so every request meets the same world and what one
wrote (a club deleted, a round published) never changes what the next one meets. Generation
is derandomized with a fixed seed and no example database: a run makes the same requests, in
the same order, every time.
"""

from __future__ import annotations

import itertools
import re
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from django.core.signals import got_request_exception, request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from django.test import TestCase
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token

from spyleague.clubs.models import Membership, Player, Role
from spyleague.clubs.services import club_create
from spyleague.core.models import Job
from spyleague.play import services as play
from spyleague.play.models import Match
from spyleague.play.selectors import match_picture
from spyleague.ratings.services import ratings_recompute_queue
from spyleague.scores import scorepad as pads
from spyleague.scores.models import Scorepad
from spyleague.scores.services import EntryLine, result_confirm, result_enter
from spyleague.tournaments import services as events
from spyleague.tournaments.models import Event, League, Round, Table
from tests.factories import PASSWORD, UserFactory
from tests.web.tournaments.helpers import make_event

pytestmark = pytest.mark.django_db

# Requests generated for each operation, as each of the two people (valid and invalid ones
# together); the coverage phase's boundary values come on top.
EXAMPLES = 25

CONFIG = schemathesis.Config.from_dict(
    {
        "seed": 20261101,
        "suppress-health-check": ["too_slow", "filter_too_much", "data_too_large", "large_base_example"],
        "generation": {
            "max-examples": EXAMPLES,
            "deterministic": True,
            "database": "none",
            # Auth is ours to send (a real token or nothing), never a made-up header.
            "with-security-parameters": False,
        },
    }
)

CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
]


@dataclass
class World:
    """The rows the requests aim at, by what the schema's paths call them."""

    token: str
    variants: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)  # of the other people: owner, organiser

    def add(self, method: str, template: str, **variant: Any) -> None:
        """``variant``: the ``path`` parameters, ``query`` and ``body`` to send to ``template``."""
        self.variants.setdefault((method.upper(), template), []).append(variant)


def _play_round(event: Event, organiser: Any) -> None:
    """Pair, publish and confirm a round, every table's places in seat order; the jobs queued
    on commit (standings, ratings) run as they would after a real commit."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        rnd = events.round_publish(user=organiser, rnd=events.round_pair(event=event))
        for table in rnd.tables.filter(is_bye=False).prefetch_related("seats__entrant__player"):
            lines = [EntryLine(s.entrant.player, None, place) for place, s in enumerate(table.seats.all(), 1)]
            result = result_enter(
                user=organiser, game=event.game, club=event.club, table=table, entries=lines
            )
            result_confirm(user=organiser, result=result)


def _finish_match(match: Match, users: dict[int, Any]) -> None:
    """Play the first legal action of whoever is to act until the match is over."""
    for _ in range(500):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return
        seat = min(match_picture(match=match, seat=0).as_dict()["to_act"])
        legal = match_picture(match=match, seat=seat).as_dict()["legal"]
        play.match_move_submit(match_id=match.pk, user=users[seat], action=legal[0])
    raise AssertionError("the match did not finish")


def build_world() -> World:
    """A club with an organiser and members, a running event (a confirmed round, and a published
    one with a reported result at the member's table), an event open for registration in a
    league, a club the member runs with a draft round, matches open, playing and finished,
    the member's scorepads (one being kept, one finished), and jobs (the member's, and the ones
    nobody queued). The member sits at a table and plays in the matches."""
    olga = UserFactory(username="olga", player_name="Olga Organiser")
    mel = UserFactory(username="mel", player_name="Mel Member")
    sam = UserFactory(username="sam", player_name="Sam Scorer")
    club = club_create(user=olga, name="Fuzz Club", city="Bath")
    Membership.objects.create(club=club, player=mel.player, role=Role.PLAYER)
    Membership.objects.create(club=club, player=sam.player, role=Role.SCORER)
    league = events.league_create(user=olga, club=club, name="Fuzz Season", game="black-spy")

    # A Swiss event at tables of three: round 1 confirmed, round 2 published with the member's
    # table reported (waiting for a confirmation) and the other table still empty.
    open_event = make_event(club, olga, players=4, size=3, rounds=4, name="Fuzz Open", league=league)
    for user in (mel, sam):
        events.entrant_register(user=user, event=open_event)
    _play_round(open_event, olga)
    with TestCase.captureOnCommitCallbacks(execute=True):
        round_two = events.round_publish(user=olga, rnd=events.round_pair(event=open_event))
    tables = list(round_two.tables.filter(is_bye=False).prefetch_related("seats__entrant__player"))
    mel_table = next(t for t in tables if any(s.entrant.player_id == mel.player.pk for s in t.seats.all()))
    seats = list(mel_table.seats.all())
    result_enter(
        user=mel,
        game=open_event.game,
        club=club,
        table=mel_table,
        entries=[EntryLine(s.entrant.player, None, place) for place, s in enumerate(seats, start=1)],
    )

    # Registration is open in the league's second event; the member has registered.
    cup = events.event_create(
        club=club,
        user=olga,
        name="Fuzz Cup",
        game="spy-vs-spy",
        format=Event.Format.SWISS,
        rounds=3,
        table_size=2,
        league=league,
    )
    events.entrant_register(user=mel, event=cup)

    # The member's own club, where they are the organiser: a draft round waits to be published.
    home = club_create(user=mel, name="Mel's Table")
    home_event = make_event(home, mel, players=3, game="mister-spy", size=2, rounds=3, name="Home Night")
    events.entrant_register(user=mel, event=home_event)
    events.round_pair(event=home_event)

    # Matches of Mister Spy: one open with a free seat, one being played, one finished.
    open_match = play.match_create(user=mel, game="mister-spy", seats=3, seed=1)
    playing = play.match_create(user=mel, game="mister-spy", seats=2, seed=2)
    play.match_join(user=olga, match_id=playing.pk)
    play.match_start(user=mel, match_id=playing.pk)
    finished = play.match_create(user=mel, game="mister-spy", seats=2, seed=3)
    play.match_join(user=olga, match_id=finished.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        play.match_start(user=mel, match_id=finished.pk)
        _finish_match(finished, {0: mel, 1: olga})

    job = ratings_recompute_queue(game="mister-spy", user=mel)
    # Scorepads the member sits at: one being kept (a deal in), one olga finished (the member, at
    # the table, may confirm its result).
    keeping = pads.scorepad_open(user=mel, players=[mel.player, Player(name="Kim"), Player(name="Lou")])
    pads.scorepad_deal_add(user=mel, pad=keeping, points=[40, 10, 10])
    finished_pad = pads.scorepad_open(user=mel, players=[mel.player, olga.player, sam.player], club=club)
    for points in ([60, 0, 0], [60, 0, 0], [60, 0, 0], [60, 0, 0]):
        pads.scorepad_deal_add(user=olga, pad=finished_pad, points=points)
    finished_pad.refresh_from_db()
    assert finished_pad.status == Scorepad.Status.FINISHED
    # The pads of someone the member never sat with: a Black Spy deal in, a Spy vs Spy race in.
    oona = UserFactory(username="oona", player_name="Oona Owner")
    own_pad = pads.scorepad_open(
        user=oona, players=[oona.player, Player(name="Pia"), Player(name="Quin"), Player(name="Rex")]
    )
    pads.scorepad_deal_add(user=oona, pad=own_pad, points=[30, 10, 10, 10])
    own_race = pads.scorepad_open(
        user=oona, players=[oona.player, Player(name="Sol"), Player(name="Tam")], game="spy-vs-spy"
    )
    pads.scorepad_deal_add(user=oona, pad=own_race, points=[-4, 3, 6], first=0)
    world = World(token=Token.objects.create(user=mel).key)
    world.tokens = {
        who: Token.objects.create(user=user).key for who, user in (("owner", oona), ("organiser", olga))
    }

    clubs = [club, home]
    for c in clubs:
        for method in ("GET", "PUT", "PATCH", "DELETE"):
            world.add(method, "/api/clubs/{slug}/", path={"slug": c.slug})
        for action in ("guests", "join"):
            world.add("POST", f"/api/clubs/{{slug}}/{action}/", path={"slug": c.slug})
        world.add("GET", "/api/clubs/{slug}/members/", path={"slug": c.slug})
        for m in c.memberships.all():
            world.add(
                "POST",
                "/api/clubs/{slug}/members/{membership_id}/role/",
                path={"slug": c.slug, "membership_id": str(m.pk)},
            )
    # What the member may do in their own club's event, first (and twice: the generated requests
    # pick among an operation's variants, and these are the ones that get past the door).
    own_event = {"id": str(home_event.pk)}
    for _ in range(2):
        world.add("POST", "/api/events/{id}/finish/", path=own_event)
        world.add("DELETE", "/api/events/{id}/rounds/{number}/", path=own_event | {"number": "1"})
        world.add("GET", "/api/events/{id}/rounds/{number}/", path=own_event | {"number": "1"})
        world.add("GET", "/api/jobs/{id}/", path={"id": str(job.pk)})
    all_events = [open_event, cup, home_event]
    for e in all_events:
        for method in ("GET", "PUT", "PATCH", "DELETE"):
            world.add(method, "/api/events/{id}/", path={"id": str(e.pk)})
        path = {"id": str(e.pk)}
        world.add("PATCH", "/api/events/{id}/", path=path, body={"league": league.pk})
        world.add("PATCH", "/api/events/{id}/", path=path, body={"tiebreaks": ["wins", "tournament_points"]})
        world.add("PATCH", "/api/events/{id}/", path=path, body={"advance": 1, "groups": 2})
        world.add("GET", "/api/events/{id}/entrants/", path={"id": str(e.pk)})
        for action in ("pair", "register", "finish"):
            world.add("POST", f"/api/events/{{id}}/{action}/", path={"id": str(e.pk)})
        for action in ("rounds", "standings"):
            world.add("GET", f"/api/events/{{id}}/{action}/", path={"id": str(e.pk)})
        for entrant in e.entrants.all():
            for action in ("check-in", "drop"):
                world.add(
                    "POST",
                    f"/api/events/{{id}}/entrants/{{entrant_id}}/{action}/",
                    path={"id": str(e.pk), "entrant_id": str(entrant.pk)},
                )
            world.add(
                "DELETE",
                "/api/events/{id}/entrants/{entrant_id}/check-in/",
                path={"id": str(e.pk), "entrant_id": str(entrant.pk)},
            )
            world.add(
                "POST",
                "/api/events/{id}/register/",
                path={"id": str(e.pk)},
                body={"player": entrant.player_id},
            )
        for rnd in Round.objects.filter(event=e):
            path = {"id": str(e.pk), "number": str(rnd.number)}
            for method in ("GET", "DELETE"):
                world.add(method, "/api/events/{id}/rounds/{number}/", path=path)
            world.add("GET", "/api/events/{id}/rounds/{number}/tables/", path=path)
            world.add("POST", "/api/events/{id}/rounds/{number}/publish/", path=path)
            seated = [s.entrant_id for t in rnd.tables.all() for s in t.seats.all()]
            for a, b in itertools.pairwise(seated):
                world.add("POST", "/api/events/{id}/rounds/{number}/swap/", path=path, body={"a": a, "b": b})
    for table in Table.objects.filter(round__event__in=all_events).prefetch_related("seats__entrant"):
        players = [s.entrant.player_id for s in table.seats.all()]
        path = {"table_id": str(table.pk)}
        world.add("POST", "/api/tables/{table_id}/confirm/", path=path)
        world.add("POST", "/api/tables/{table_id}/result/", path=path)
        world.add("GET", "/api/tables/{table_id}/result/", path=path)
        world.add("POST", "/api/scorepads/", body={"table": table.pk})
        world.add(
            "POST",
            "/api/tables/{table_id}/result/",
            path=path,
            body={
                "lines": [{"player": p, "place": i} for i, p in enumerate(players, start=1)],
                "note": "Fix",
            },
        )
    for match in (open_match, playing, finished):
        path = {"id": str(match.pk)}
        for action in ("join", "start", "act", "resign", "abandon", "rematch"):
            world.add("POST", f"/api/matches/{{id}}/{action}/", path=path)
        world.add("GET", "/api/matches/{id}/", path=path)
        world.add("GET", "/api/matches/{id}/replay/", path=path)
    for seat in (0, 1):
        picture = match_picture(match=playing, seat=seat).as_dict()
        for action in picture["legal"][:3]:
            world.add(
                "POST",
                "/api/matches/{id}/act/",
                path={"id": str(playing.pk)},
                body={"action": action, "version": picture["version"]},
            )
    world.add("POST", "/api/matches/", body={"game": "mister-spy", "seats": 2})
    world.add("POST", "/api/matches/", body={"game": "mister-spy", "seats": 3, "start": True})
    world.add(
        "POST",
        "/api/events/",
        body={
            "club": home.slug,
            "name": "Next Night",
            "game": "black-spy",
            "format": "swiss",
            "rounds": 3,
            "table_size": 4,
        },
    )
    people = [mel.player, olga.player, Player.objects.filter(guest_of=club).first()]
    games = ["black-spy", "mister-spy", "spy-vs-spy", "spycatcher", "spies"]
    for person in people:
        assert person is not None
        world.add("GET", "/api/players/{id}/", path={"id": str(person.pk)})
        for game in games:
            world.add("GET", "/api/players/{id}/ratings/{game}/", path={"id": str(person.pk), "game": game})
    for game in games:
        world.add("GET", "/api/leaderboards/{game}/", path={"game": game})
        world.add("GET", "/api/leaderboards/{game}/bots/", path={"game": game})
    for c in clubs:
        world.add("GET", "/api/leaderboards/{game}/", path={"game": "black-spy"}, query={"club": c.slug})
    world.add(
        "GET", "/api/leaderboards/{game}/", path={"game": "black-spy"}, query={"league": str(league.pk)}
    )
    world.add("GET", "/api/jobs/{id}/", path={"id": str(job.pk)})
    for unowned in Job.objects.filter(created_by=None):
        world.add("GET", "/api/jobs/{id}/", path={"id": str(unowned.pk)})

    # Leagues, scorepads and accounts.
    for lg in League.objects.all():
        for action in ("", "table/"):
            world.add("GET", f"/api/leagues/{{id}}/{action}", path={"id": str(lg.pk)})
        world.add("GET", "/api/events/", query={"league": str(lg.pk)})
    for c in clubs:
        world.add("GET", "/api/leagues/", query={"club": c.slug})
        world.add("POST", "/api/leagues/", body={"club": c.slug, "name": "Next Season", "game": "spies"})
    for pad in (keeping, finished_pad, own_pad, own_race):
        path = {"id": str(pad.pk)}
        # The generated bodies, at a real pad (so that they reach the checks of a round).
        world.add("POST", "/api/scorepads/{id}/rounds/", path=path)
        world.add("PUT", "/api/scorepads/{id}/rounds/{number}/", path={**path, "number": "1"})
        # What once was a 500: more entries of what was taken than players, one of them wrong.
        world.add(
            "POST",
            "/api/scorepads/{id}/rounds/",
            path=path,
            body={"taken": [{"black_spies": 6}, {"coloured_spies": 4}, {}, {}, {"black_ranks": [7]}]},
        )
        world.add("POST", "/api/scorepads/{id}/rounds/", path=path, body={"points": [3, -4, 6], "first": 9})
        world.add("GET", "/api/scorepads/{id}/", path=path)
        world.add("POST", "/api/scorepads/{id}/confirm/", path=path)
        world.add("POST", "/api/scorepads/{id}/rounds/", path=path, body={"points": [10, 40, 10]})
        world.add(
            "POST",
            "/api/scorepads/{id}/rounds/",
            path=path,
            body={"taken": [{"black_spies": 6, "coloured_spies": 2}, {"coloured_spies": 2}, {}]},
        )
        for number in (1, 2):
            world.add(
                "PUT",
                "/api/scorepads/{id}/rounds/{number}/",
                path={**path, "number": str(number)},
                body={"points": [0, 60, 0]},
            )
    world.add(
        "POST",
        "/api/scorepads/",
        body={"players": [{"player": mel.player.pk}, {"name": "Nat"}, {"player": olga.player.pk}]},
    )
    world.add(
        "POST",
        "/api/scorepads/",
        body={
            "game": "spy-vs-spy",
            "club": club.slug,
            "players": [{"player": sam.player.pk}, {"name": "Nat"}],
        },
    )
    world.add(
        "POST",
        "/api/signup/",
        body={"username": "newbie", "name": "New Bie", "email": "", "password": "a-long-passphrase-77"},
    )
    for password in (PASSWORD, "not-it"):
        world.add("POST", "/api/token/", body={"username": "mel", "password": password})
    for query in ({"limit": "2"}, {"limit": "1", "offset": "1"}):
        for path in ("/api/clubs/", "/api/events/", "/api/players/", "/api/leagues/", "/api/jobs/"):
            world.add("GET", path, query=query)
        world.add("GET", "/api/scorepads/", query=query)
        world.add("GET", "/api/leaderboards/{game}/", path={"game": "mister-spy"}, query=query)
        world.add("GET", "/api/clubs/{slug}/members/", path={"slug": club.slug}, query=query)
        world.add("GET", "/api/events/{id}/entrants/", path={"id": str(open_event.pk)}, query=query)
    world.add("GET", "/api/events/", query={"club": club.slug})
    # Many players at once, in the member's own event: a list, everyone checked in, a file.
    from spyleague.tournaments import imports

    for players in ([mel.player.pk], [olga.player.pk, mel.player.pk]):
        world.add("POST", "/api/events/{id}/entrants/register/", path=own_event, body={"players": players})
    entered = list(home_event.entrants.values_list("pk", flat=True))
    for body in ({}, {"entrants": entered}):
        world.add("POST", "/api/events/{id}/entrants/check-in/", path=own_event, body=body)
    players_file = "name;rating\nNew Fuzzer;12\nMel Member;\n"
    world.add("POST", "/api/events/{id}/import/", path=own_event, body={"csv": players_file})
    token = imports.preview(user=mel, event=home_event, data=players_file.encode()).token
    world.add("POST", "/api/events/{id}/import/confirm/", path=own_event, body={"token": token})
    return world


def _aimed(case: schemathesis.Case, variant: dict[str, Any] | None) -> schemathesis.Case:
    """The generated case, or the same case pointed at the world's rows."""
    if variant is None:
        return case
    if "path" in variant:
        case.path_parameters = {**(case.path_parameters or {}), **variant["path"]}
    if "query" in variant:
        case.query = {**(case.query or {}), **variant["query"]}
    if "body" in variant:
        case.body = variant["body"]
        case.media_type = "application/json"
    return case


@contextmanager
def without_closing_connections() -> Iterator[None]:
    """As Django's test client does: the handler must not close the connection at the start and
    end of a request (that would drop the transaction that holds the world)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


# The schema as the site serves it. Loading it touches no database, so it is read when the
# module is collected and each operation becomes a test of its own. (Schemathesis' lazy
# `from_fixture` would wait for a fixture instead, but it does not run under pytest 9.2.)
with without_closing_connections():
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application(), config=CONFIG)

# The world of the running module, which the hook below aims the requests at.
WORLD: list[World] = []


@schema.hook
def flatmap_case(context: schemathesis.HookContext, case: schemathesis.Case) -> st.SearchStrategy[Any]:
    """Each generated request as it is, or aimed at one of the world's rows (about half each)."""
    variants = (
        WORLD[0].variants.get((case.operation.method.upper(), case.operation.path), []) if WORLD else []
    )
    if not variants:
        return st.just(case)
    return st.one_of(st.none(), st.sampled_from(variants)).map(lambda v: _aimed(case, v))


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """Built once for the module in a transaction rolled back at its end; each request runs in a
    savepoint of its own inside it."""
    from spyleague.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    with django_db_blocker.unblock(), without_closing_connections(), transaction.atomic():
        try:
            WORLD.append(build_world())
        finally:
            app.conf.task_always_eager = eager
        yield WORLD[0]
        WORLD.clear()
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def server_errors() -> Iterator[list[str]]:
    """The tracebacks of the server errors of the current request, to show with a failure
    (each example empties it first)."""
    errors: list[str] = []

    def keep(sender: Any, request: Any = None, **kwargs: Any) -> None:
        errors.append(traceback.format_exc())

    got_request_exception.connect(keep)
    yield errors
    got_request_exception.disconnect(keep)


@pytest.mark.xdist_group("api-schema-fuzz")
@pytest.mark.parametrize("who", ["member", "anonymous"])
@schema.parametrize()
def test_every_operation(case: schemathesis.Case, who: str, world: World, server_errors: list[str]) -> None:
    """No server error, and a documented status code, content type and body, for every request
    as the member (a token) and as someone not logged in."""
    _ask(case, world.token if who == "member" else None, server_errors)


def _ask(case: schemathesis.Case, token: str | None, server_errors: list[str]) -> None:
    headers = {"Authorization": f"Token {token}"} if token else None
    server_errors.clear()
    with transaction.atomic():
        response = case.call(headers=headers)
        transaction.set_rollback(True)
    try:
        case.validate_response(response, checks=CHECKS)
    except BaseException as exc:
        for error in server_errors:
            exc.add_note(f"Server traceback:\n{error}")
        raise


# The operations whose code the member cannot reach, asked again by the people who can (sharing the
# world, so the run stays about as long): a pad's owner (someone the member never sat with) on the
# scorepads; the club's organiser, also its scorer, on the scorepads of the club and the tables'
# results (a scorer's corrections, an organiser's override of a confirmed result).
BY_ROLE = {"owner": r"^/api/scorepads/", "organiser": r"^/api/(scorepads|tables)/"}


@pytest.mark.xdist_group("api-schema-fuzz")
@pytest.mark.parametrize("who", ["owner", "organiser"])
@schema.include(path_regex=r"^/api/(scorepads|tables)/").parametrize()
def test_the_operations_that_differ_by_role(
    case: schemathesis.Case, who: str, world: World, server_errors: list[str]
) -> None:
    """As ``test_every_operation``, as the pads' owner and as the club's organiser."""
    if not re.match(BY_ROLE[who], case.operation.path):
        pytest.skip(f"the {who} reaches nothing here that the member does not")
    _ask(case, world.tokens[who], server_errors)


@pytest.mark.xdist_group("api-schema-fuzz")
@pytest.mark.parametrize("who", ["member", "owner", "organiser"])
def test_every_aimed_request_once(who: str, world: World, server_errors: list[str]) -> None:
    """Every request the world aims at its rows, once each and in order (the generated ones pick
    among them at random): the bodies that fit the rows, and the ones that once showed a defect
    (more entries of what was taken than a pad has players), as the member, and as the owner and
    the organiser where they reach code the member does not."""
    from schemathesis.core import NOT_SET

    asked = 0
    for (method, template), variants in world.variants.items():
        if who != "member" and not re.match(BY_ROLE[who], template):
            continue
        operation = schema[template][method]
        for variant in variants:
            body = variant.get("body", NOT_SET)
            case = operation.Case(
                path_parameters=variant.get("path"),
                query=variant.get("query"),
                body=body,
                media_type="application/json" if body is not NOT_SET else None,
            )
            _ask(case, world.token if who == "member" else world.tokens[who], server_errors)
            asked += 1
    assert asked >= (200 if who == "member" else 20)
