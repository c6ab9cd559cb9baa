"""The API: for each operation of the schema, how to ask it and what each role should get.

Columns and answers as in ``pages``; the API never redirects to a login page: anonymous
callers get 401 or 403 (``ANON``) with ``{"detail": ...}``. Bodies are JSON, sent with the
session's CSRF token as a browser script would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cells import CLIENT_ERROR, Case, Data, everyone, row, same, without
from .world import CELL_SCORES, World

ANON = (401, 403)
HIDDEN = (403, 404)
PUBLIC = everyone(200)

OPERATIONS: dict[tuple[str, str], list[Case]] = {}


def op(
    method: str,
    path: str,
    label: str,
    kwargs: Callable[[World], dict[str, Any]] | None = None,
    expect: dict[str, Any] | None = None,
    *,
    body: Data = None,
    query: Callable[[World], dict[str, Any]] | None = None,
) -> None:
    assert expect is not None
    case = Case(label, kwargs or (lambda w: {}), {method: expect}, query, {method: body})
    OPERATIONS.setdefault((method, path), []).append(case)


def lines(table_attr: str) -> Callable[[World, str], dict[str, Any]]:
    """A Black Spy result for the table's players in seat order."""

    def body(world: World, role: str) -> dict[str, Any]:
        players = world.table_players(getattr(world, table_attr))
        return {"lines": [{"player": p.pk, "score": s} for p, s in zip(players, CELL_SCORES, strict=True)]}

    return body


A = lambda w: {"slug": w.club_a.slug}
OPEN = lambda w: {"id": w.open.pk}
ALPHA_EVENT = {
    "club": "alpha-club",
    "name": "API Cup",
    "game": "black-spy",
    "format": "swiss",
    "rounds": 3,
    "table_size": 4,
}

# --- clubs -----------------------------------------------------------------------------------------
# Columns of row(): anonymous, stranger, player, seated, scorer, other_organiser, organiser.
op("GET", "/api/clubs/", "club list", expect=PUBLIC)
op(
    "POST",
    "/api/clubs/",
    "start a club",
    expect=row(ANON, 201, 201, 201, 201, 201, 201),
    body={"name": "Gamma Club"},
)
op("GET", "/api/clubs/{slug}/", "club A", A, PUBLIC)
op(
    "PUT",
    "/api/clubs/{slug}/",
    "club A's details",
    A,
    row(ANON, 403, 403, 403, 403, 403, 200),
    body={"name": "Alpha Club", "city": "Bristol", "description": "Tuesdays"},
)
op(
    "PATCH",
    "/api/clubs/{slug}/",
    "club A's city",
    A,
    row(ANON, 403, 403, 403, 403, 403, 200),
    body={"city": "Bristol"},
)
op(
    "DELETE",
    "/api/clubs/{slug}/",
    "club A, which has events and results on record: it stays",
    A,
    row(ANON, 403, 403, 403, 403, 403, 400),
)
op(
    "DELETE",
    "/api/clubs/{slug}/",
    "club B, nothing on record: its organiser may delete it",
    lambda w: {"slug": w.club_b.slug},
    row(ANON, 403, 403, 403, 403, 204, 403),
)
op(
    "POST",
    "/api/clubs/{slug}/guests/",
    "add a guest to club A",
    A,
    row(ANON, 403, 403, 403, 201, 403, 201),
    body={"name": "Nell Newcomer"},
)
op(
    "POST",
    "/api/clubs/{slug}/join/",
    "join club A (members: no change)",
    A,
    row(
        ANON,
        201,
        (same(200), same(201)),
        (same(200), same(201)),
        (same(200), same(201)),
        201,
        (same(200), same(201)),
    ),
)
op("GET", "/api/clubs/{slug}/members/", "club A's members", A, PUBLIC)
op(
    "POST",
    "/api/clubs/{slug}/members/{membership_id}/role/",
    "make pat a scorer",
    lambda w: {"slug": w.club_a.slug, "membership_id": w.membership("player").pk},
    row(ANON, 403, 403, 403, 403, 403, 200),
    body={"role": "scorer"},
)

# --- events ----------------------------------------------------------------------------------------
# Columns of row(): anonymous, stranger, player, seated, scorer, other_organiser, organiser.
op("GET", "/api/events/", "event list", expect=PUBLIC)
op(
    "POST",
    "/api/events/",
    "an event in club A",
    expect=row(ANON, 403, 403, 403, 403, 403, 201),
    body=ALPHA_EVENT,
)
op(
    "POST",
    "/api/events/",
    "an event in club B",
    expect=row(ANON, 403, 403, 403, 403, 201, 403),
    body=ALPHA_EVENT | {"club": "beta-club"},
)
op("GET", "/api/events/{id}/", "the running event", OPEN, PUBLIC)
op(
    "PUT",
    "/api/events/{id}/",
    "the running event, renamed, the rest as it is",
    OPEN,
    row(ANON, 403, 403, 403, 403, 403, 200),
    body=lambda w, role: {
        "club": "alpha-club",
        "name": "Alpha Open (renamed)",
        "game": w.open.game,
        "kind": w.open.kind,
        "format": w.open.format,
        "rounds": w.open.rounds,
        "table_size": w.open.table_size,
        "points_by_place": w.open.points_by_place,
        "tiebreaks": w.open.tiebreaks,
        "bye_rule": w.open.bye_rule,
        "options": w.open.options,
        "starts": None,
    },
)
op(
    "PATCH",
    "/api/events/{id}/",
    "rename the running event",
    OPEN,
    row(ANON, 403, 403, 403, 403, 403, 200),
    body={"name": "Alpha Open 2"},
)
op(
    "PATCH",
    "/api/events/{id}/",
    "move the running event to club B (an event stays in its club)",
    OPEN,
    row(ANON, 403, 403, 403, 403, 403, 400),
    body={"club": "beta-club"},
)
op(
    "PATCH",
    "/api/events/{id}/",
    "the finished event's table size",
    lambda w: {"id": w.finished.pk},
    row(ANON, 403, 403, 403, 403, 403, 400),
    body={"table_size": 5},
)
op(
    "PATCH",
    "/api/events/{id}/",
    "the finished event's format",
    lambda w: {"id": w.finished.pk},
    row(ANON, 403, 403, 403, 403, 403, 400),
    body={"format": "round_robin"},
)
op(
    "PATCH",
    "/api/events/{id}/",
    "the table size of an event not yet paired",
    lambda w: {"id": w.spring.pk},
    row(ANON, 403, 403, 403, 403, 403, 200),
    body={"table_size": 5},
)
op(
    "DELETE",
    "/api/events/{id}/",
    "the running event (its results stay)",
    OPEN,
    row(ANON, 403, 403, 403, 403, 403, 400),
)
op(
    "DELETE",
    "/api/events/{id}/",
    "an event not yet paired",
    lambda w: {"id": w.spring.pk},
    row(ANON, 403, 403, 403, 403, 403, 204),
)
op("GET", "/api/events/{id}/entrants/", "the running event's entrants", OPEN, PUBLIC)
op(
    "POST",
    "/api/events/{id}/entrants/{entrant_id}/check-in/",
    "check in sid's entry",
    lambda w: {"id": w.open.pk, "entrant_id": w.entrant(w.open, w.me("seated")).pk},
    row(ANON, 403, 403, 200, 403, 403, 200),
)
op(
    "POST",
    "/api/events/{id}/entrants/{entrant_id}/drop/",
    "drop a guest's entry",
    lambda w: {"id": w.open.pk, "entrant_id": w.entrant(w.open, w.guests[0]).pk},
    row(ANON, 403, 403, 403, 403, 403, 200),
)
op(
    "POST",
    "/api/events/{id}/pair/",
    "pair the running event's next round (round 1 still has results to come)",
    OPEN,
    row(ANON, 403, 403, 403, 403, 403, (202, 400)),
)
op(
    "POST",
    "/api/events/{id}/register/",
    "register oneself (a late entry; sid is in already)",
    OPEN,
    row(ANON, 201, 201, (same(200), same(201)), 201, 201, 201),
    body={},
)
op(
    "POST",
    "/api/events/{id}/register/",
    "register a guest of club A",
    OPEN,
    row(ANON, 403, 403, 403, 403, 403, 201),
    body=lambda w, role: {"player": w.unentered_guest.pk},
)
op(
    "POST",
    "/api/events/{id}/register/",
    "register oneself in the finished event",
    lambda w: {"id": w.finished.pk},
    row(ANON, 400, 400, 400, 400, 400, 400),
    body={},
)
op("GET", "/api/events/{id}/rounds/", "the running event's rounds", OPEN, PUBLIC)
NO_DRAFT = without(200, '"draft"')
op(
    "GET",
    "/api/events/{id}/rounds/",
    "the cup's rounds: the draft is for the organisers",
    lambda w: {"id": w.cup.pk},
    row(NO_DRAFT, NO_DRAFT, NO_DRAFT, NO_DRAFT, NO_DRAFT, NO_DRAFT, 200),
)
CUP_DRAFT = lambda w: {"id": w.cup.pk, "number": 1}
op(
    "POST",
    "/api/events/{id}/rounds/{number}/publish/",
    "publish the cup's draft",
    CUP_DRAFT,
    row(ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 200),
)
op(
    "POST",
    "/api/events/{id}/rounds/{number}/swap/",
    "swap sid with a player of the cup's other table",
    CUP_DRAFT,
    row(ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 200),
    body=lambda w, role: {"a": w.cup_swap[0], "b": w.cup_swap[1]},
)
op("GET", "/api/events/{id}/standings/", "the running event's standings", OPEN, PUBLIC)
op("GET", "/api/games/", "the games", expect=PUBLIC)
op(
    "GET",
    "/api/jobs/{id}/",
    "the organiser's pairing job",
    lambda w: {"id": w.job.pk},
    row(ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 200),
)
op("GET", "/api/leaderboards/{game}/", "Black Spy's leaderboard", lambda w: {"game": "black-spy"}, PUBLIC)

# --- matches ---------------------------------------------------------------------------------------
# Columns of row(): anonymous, stranger, player, seated, scorer, other_organiser, organiser.
MATCH = lambda w: {"id": w.open_match.pk}
op(
    "POST",
    "/api/matches/",
    "a Black Spy match",
    expect=row(ANON, 201, 201, 201, 201, 201, 201),
    body={"game": "black-spy", "seats": 3},
)
op("GET", "/api/matches/{id}/", "sid's open match", MATCH, PUBLIC)
op(
    "POST",
    "/api/matches/{id}/act/",
    "a move in the race (sid's seat)",
    lambda w: {"id": w.race_match.pk},
    row(ANON, 403, 403, 200, 403, 403, 403),
    body={"action": {"type": "place", "pile": 1}},
)
op(
    "POST",
    "/api/matches/{id}/join/",
    "take a free seat of sid's open match",
    MATCH,
    row(ANON, 200, 200, 400, 200, 200, 200),
    body={},
)
op(
    "GET",
    "/api/matches/{id}/replay/",
    "replay the finished match",
    lambda w: {"id": w.finished_match.pk},
    PUBLIC,
)
op("GET", "/api/matches/{id}/replay/", "replay a match not over", MATCH, everyone(400))
op(
    "POST",
    "/api/matches/{id}/start/",
    "start sid's open match (its creator)",
    MATCH,
    row(ANON, 403, 403, 200, 403, 403, 403),
    body={},
)
op("GET", "/api/me/", "oneself", expect=row(ANON, 200, 200, 200, 200, 200, 200))
op("GET", "/api/players/", "the players", expect=PUBLIC)
op("GET", "/api/players/{id}/", "sid", lambda w: {"id": w.me("seated").pk}, PUBLIC)
op(
    "GET",
    "/api/players/{id}/ratings/{game}/",
    "sid's Black Spy rating history",
    lambda w: {"id": w.me("seated").pk, "game": "black-spy"},
    PUBLIC,
)

# --- results at the table ----------------------------------------------------------------------------
# Columns of row(): anonymous, stranger, player, seated, scorer, other_organiser, organiser.
CONFIRM = "/api/tables/{table_id}/confirm/"
RESULT = "/api/tables/{table_id}/result/"
op(
    "POST",
    CONFIRM,
    "confirm sue's result at sid's table",
    lambda w: {"table_id": w.reported_table.pk},
    row(ANON, 403, 403, 200, 200, 403, 200),
)
op(
    "POST",
    CONFIRM,
    "confirm on the cup's draft table",
    lambda w: {"table_id": w.draft_table.pk},
    row(ANON, HIDDEN, HIDDEN, CLIENT_ERROR, CLIENT_ERROR, HIDDEN, CLIENT_ERROR),
)
op(
    "POST",
    CONFIRM,
    "confirm the finished event's confirmed result again",
    lambda w: {"table_id": w.finished_table.pk},
    row(ANON, 403, 403, same(200), same(200), 403, same(200)),
)
op(
    "POST",
    RESULT,
    "enter the result of the night's table (sid seated)",
    lambda w: {"table_id": w.waiting_table.pk},
    row(ANON, 403, 403, 201, 201, 403, 201),
    body=lines("waiting_table"),
)
op(
    "POST",
    RESULT,
    "correct sue's unconfirmed result at sid's table (sid: refused, or told it is there)",
    lambda w: {"table_id": w.reported_table.pk},
    row(ANON, 403, 403, (403, 409), 200, 403, 200),
    body=lines("reported_table"),
)
op(
    "POST",
    RESULT,
    "enter a result on the cup's draft table",
    lambda w: {"table_id": w.draft_table.pk},
    row(ANON, HIDDEN, HIDDEN, CLIENT_ERROR, CLIENT_ERROR, HIDDEN, CLIENT_ERROR),
    body=lines("draft_table"),
)
op(
    "POST",
    RESULT,
    "correct the finished event's confirmed result (sid: refused, or told it is there)",
    lambda w: {"table_id": w.finished_table.pk},
    row(ANON, 403, 403, (403, 409), 200, 403, 200),
    body=lines("finished_table"),
)
