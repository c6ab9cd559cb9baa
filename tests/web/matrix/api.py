"""The API: for each operation of the schema, how to ask it and what each role should get.

Columns and answers as in ``pages``; the API never redirects to a login page: anonymous
callers get 401 or 403 (``ANON``) with ``{"detail": ...}``. Bodies are JSON, sent with the
session's CSRF token as a browser script would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.factories import PASSWORD

from .cells import CLIENT_ERROR, Case, Data, everyone, row, same, without
from .pages import import_token
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


def lines(table_attr: str, note: str = "") -> Callable[[World, str], dict[str, Any]]:
    """A Black Spy result for the table's players in seat order (a correction says why: ``note``)."""

    def body(world: World, role: str) -> dict[str, Any]:
        players = world.table_players(getattr(world, table_attr))
        out = {"lines": [{"player": p.pk, "score": s} for p, s in zip(players, CELL_SCORES, strict=True)]}
        return out | ({"note": note} if note else {})

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
    "/api/events/{id}/check-in/",
    "check oneself in (only sid is entered)",
    OPEN,
    row(ANON, 403, 403, 200, 403, 403, 403),
)
op(
    "POST",
    "/api/events/{id}/check-in/",
    "check oneself in while the round is a draft (closed)",
    lambda w: {"id": w.cup.pk},
    row(ANON, 403, 403, 409, 403, 403, 403),
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
    row(ANON, 409, 409, 409, 409, 409, 409),  # its state says no: a conflict, not a malformed request
    body={},
)
SPRING = lambda w: {"id": w.spring.pk}
op(
    "POST",
    "/api/events/{id}/entrants/register/",
    "register club A's guests in the spring event, many at once",
    SPRING,
    row(ANON, 403, 403, 403, 403, 403, 200),
    body=lambda w, role: {"players": [w.unentered_guest.pk, w.guests[5].pk], "check_in": True},
)
op(
    "POST",
    "/api/events/{id}/entrants/register/",
    "register many in the finished event (over: a conflict, as one at a time)",
    lambda w: {"id": w.finished.pk},
    row(ANON, 403, 403, 403, 403, 403, 409),
    body=lambda w, role: {"players": [w.unentered_guest.pk]},
)
op(
    "POST",
    "/api/events/{id}/entrants/check-in/",
    "check in everyone in the running event",
    OPEN,
    row(ANON, 403, 403, 403, 403, 403, 200),
)
op(
    "POST",
    "/api/events/{id}/entrants/check-in/",
    "check in a list with an entrant of another event (none is checked in)",
    OPEN,
    row(ANON, 403, 403, 403, 403, 403, 400),
    body=lambda w, role: {
        "entrants": [w.entrant(w.open, w.me("seated")).pk, w.entrant(w.cup, w.me("seated")).pk]
    },
)
op(
    "POST",
    "/api/events/{id}/import/",
    "preview an import into the spring event (nothing is written)",
    SPRING,
    row(ANON, 403, 403, 403, 403, 403, same(200)),
    body={"csv": "name\nNell Newcomer\nGus Unentered\n"},
)
op(
    "POST",
    "/api/events/{id}/import/",
    "preview an import into the finished event (over: a conflict)",
    lambda w: {"id": w.finished.pk},
    row(ANON, 403, 403, 403, 403, 403, 409),
    body={"csv": "name\nNell Newcomer\n"},
)
op(
    "POST",
    "/api/events/{id}/import/confirm/",
    "confirm the organiser's preview of an import into the spring event",
    SPRING,
    row(ANON, 403, 403, 403, 403, 403, 200),
    body=lambda w, role: {"token": import_token(w, "spring")},
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
op("GET", "/api/leaderboards/{game}/bots/", "Black Spy's bot levels", lambda w: {"game": "black-spy"}, PUBLIC)

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
op(
    "POST",
    "/api/matches/{id}/resign/",
    "resign the race (sid's seat)",
    lambda w: {"id": w.race_match.pk},
    row(ANON, 403, 403, 200, 403, 403, 403),
    body={},
)
op(
    "POST",
    "/api/matches/{id}/abandon/",
    "abandon sid's open match (its creator, or club A's organiser)",
    MATCH,
    row(ANON, 403, 403, 200, 403, 403, 200),
    body={"reason": "closing time"},
)
op(
    "POST",
    "/api/matches/{id}/rematch/",
    "a rematch of the finished match (its players)",
    lambda w: {"id": w.finished_match.pk},
    row(ANON, 403, 403, 201, 403, 403, 403),
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
    body=lines("reported_table", note="Recounted at the table"),
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
    body=lines("finished_table", note="Recounted at the table"),
)

# --- what the pages do, through the API (issue 14) ---------------------------------------------------
# Columns of row(): anonymous, stranger, player, seated, scorer, other_organiser, organiser.

# Leagues: anyone reads them; a club's organisers start them.
LEAGUE = lambda w: {"id": w.league.pk}
op("GET", "/api/leagues/", "the leagues", expect=PUBLIC)
op("GET", "/api/leagues/", "club A's leagues", expect=PUBLIC, query=lambda w: {"club": w.club_a.slug})
op(
    "POST",
    "/api/leagues/",
    "a league in club A",
    expect=row(ANON, 403, 403, 403, 403, 403, 201),
    body={"club": "alpha-club", "name": "Summer League", "game": "black-spy"},
)
op(
    "POST",
    "/api/leagues/",
    "a league of several games in club B",
    expect=row(ANON, 403, 403, 403, 403, 201, 403),
    body={"club": "beta-club", "name": "Beta Season", "game": ""},
)
op("GET", "/api/leagues/{id}/", "club A's league", LEAGUE, PUBLIC)
op("GET", "/api/leagues/{id}/table/", "club A's league table", LEAGUE, PUBLIC)
op("GET", "/api/events/", "the league's events", expect=PUBLIC, query=lambda w: {"league": w.league.pk})
op(
    "PATCH",
    "/api/events/{id}/",
    "put the night in club A's league",
    lambda w: {"id": w.night.pk},
    row(ANON, 403, 403, 403, 403, 403, 200),
    body=lambda w, role: {"league": w.league.pk},
)
op(
    "PATCH",
    "/api/events/{id}/",
    "a new tiebreak order for the running event (its standings ranked anew)",
    OPEN,
    row(ANON, 403, 403, 403, 403, 403, 200),
    body={"tiebreaks": ["tournament_points", "wins", "game_points"]},
)
op(
    "PATCH",
    "/api/events/{id}/",
    "heats and groups of an event not yet paired",
    lambda w: {"id": w.spring.pk},
    row(ANON, 403, 403, 403, 403, 403, 200),
    body={"advance": 3, "groups": 2, "uneven": "shorter"},
)
op(
    "POST",
    "/api/events/{id}/finish/",
    "finish the running event (refused: its tables still wait for results)",
    OPEN,
    row(ANON, 403, 403, 403, 403, 403, 400),
)
op(
    "POST",
    "/api/events/{id}/finish/",
    "finish the cup (its draft round is discarded)",
    lambda w: {"id": w.cup.pk},
    row(ANON, 403, 403, 403, 403, 403, 200),
)
op(
    "POST",
    "/api/events/{id}/finish/",
    "finish the finished event again",
    lambda w: {"id": w.finished.pk},
    row(ANON, 403, 403, 403, 403, 403, same(200)),
)
op(
    "DELETE",
    "/api/events/{id}/entrants/{entrant_id}/check-in/",
    "undo sid's check-in",
    lambda w: {"id": w.open.pk, "entrant_id": w.entrant(w.open, w.me("seated")).pk},
    row(ANON, 403, 403, 200, 403, 403, 200),
)
ROUND = "/api/events/{id}/rounds/{number}/"
op("GET", ROUND, "the running event's published round", lambda w: {"id": w.open.pk, "number": 1}, PUBLIC)
op("GET", ROUND, "the cup's draft", CUP_DRAFT, row(HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 200))
ROUND_TABLES = "/api/events/{id}/rounds/{number}/tables/"
op(
    "GET",
    ROUND_TABLES,
    "the tables of the running event's published round",
    lambda w: {"id": w.open.pk, "number": 1},
    PUBLIC,
)
op(
    "GET",
    ROUND_TABLES,
    "the tables of the cup's draft",
    CUP_DRAFT,
    row(HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 200),
)
op(
    "DELETE",
    ROUND,
    "discard the cup's draft",
    CUP_DRAFT,
    row(ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 204),
)
op(
    "DELETE",
    ROUND,
    "discard the running event's published round",
    lambda w: {"id": w.open.pk, "number": 1},
    row(ANON, 403, 403, 403, 403, 403, 409),
)

# A table's result as it stands, with its history: anyone reads it, but a draft's.
op(
    "GET",
    RESULT,
    "sue's unconfirmed result at sid's table",
    lambda w: {"table_id": w.reported_table.pk},
    PUBLIC,
)
op(
    "GET",
    RESULT,
    "the cup's draft table",
    lambda w: {"table_id": w.draft_table.pk},
    row(HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 200),
)

# Jobs: one's own, and the organisers' events' and games' (a standings or ratings job queued by a
# confirmed result has no owner). Nobody else sees them: their labels name the event.
NOT_ALPHA_OPEN = without(200, "Alpha Open")
op(
    "GET",
    "/api/jobs/",
    "the jobs one may follow",
    expect=row(ANON, NOT_ALPHA_OPEN, NOT_ALPHA_OPEN, NOT_ALPHA_OPEN, NOT_ALPHA_OPEN, NOT_ALPHA_OPEN, 200),
)
op(
    "GET",
    "/api/jobs/{id}/",
    "the running event's standings job (no owner: a result queued it)",
    lambda w: {"id": w.standings_job.pk},
    row(ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 200),
)
op(
    "GET",
    "/api/jobs/{id}/",
    "Black Spy's ratings job (no owner: a result queued it)",
    lambda w: {"id": w.ratings_job.pk},
    row(ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 200),
)

# Scorepads: as the pad's pages. Anyone looks at a pad; its players, whoever opened it and the
# club's scorers keep it; another player at the table or a scorer confirms its result.
PADS = "/api/scorepads/"
PAD = lambda w: {"id": w.pad.pk}
DONE_PAD = lambda w: {"id": w.done_pad.pk}


def pad_players(others: list[dict[str, Any]]) -> Callable[[World, str], dict[str, Any]]:
    """The role in seat 1 (when it has a player), then ``others``."""

    def body(world: World, role: str) -> dict[str, Any]:
        me = world.player(role)
        return {"players": [*([{"player": me.pk}] if me else []), *others]}

    return body


NEWCOMERS = [{"name": "Vera Visitor"}, {"name": "Walt Visitor"}]
op("GET", PADS, "one's scorepads", expect=row(ANON, 200, 200, 200, 200, 200, 200))
op(
    "POST",
    PADS,
    "a pad of one's own, two new guests, no club",
    expect=row(ANON, 201, 201, 201, 201, 201, 201),
    body=pad_players(NEWCOMERS),
)
op(
    "POST",
    PADS,
    "a pad in club A with two new guests (they join club A: its scorers and organisers add guests)",
    expect=row(ANON, 403, 403, 403, 201, 403, 201),
    body=lambda w, role: {**pad_players(NEWCOMERS)(w, role), "club": "alpha-club"},
)
op(
    "POST",
    PADS,
    "a pad on the night's table (sid seated)",
    expect=row(ANON, 403, 403, 201, 201, 403, 201),
    body=lambda w, role: {"table": w.waiting_table.pk},
)
op(
    "POST",
    PADS,
    "a pad on the cup's draft table: not before the round is published",
    expect=row(ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 400),
    body=lambda w, role: {"table": w.draft_table.pk},
)
op("GET", "/api/scorepads/{id}/", "the pad on the open's second table", PAD, PUBLIC)
op(
    "POST",
    "/api/scorepads/{id}/rounds/",
    "a deal on the pad the scorer keeps for four guests",
    PAD,
    row(ANON, 403, 403, 403, 201, 403, 201),
    body={"points": [20, 10, 25, 5]},
)
op(
    "PUT",
    "/api/scorepads/{id}/rounds/{number}/",
    "correct the first deal of the pad sue finished (its result is sue's to correct, or a scorer's)",
    lambda w: {"id": w.done_pad.pk, "number": 1},
    row(ANON, 403, 403, 403, 200, 403, 200),
    body={"points": [25, 10, 20, 5], "note": "Two players' points swapped"},
)
op(
    "POST",
    "/api/scorepads/{id}/confirm/",
    "confirm the friendly pad sue finished (sid sat at it)",
    DONE_PAD,
    row(ANON, 403, 403, 200, 200, 403, 200),
)

# Accounts: sign up when logged out; a token for a username and password, whoever asks.
op(
    "POST",
    "/api/signup/",
    "sign up",
    expect=row(201, 403, 403, 403, 403, 403, 403),
    body={"username": "newbie", "name": "New Bie", "password": "a-long-passphrase-77"},
)
op(
    "POST",
    "/api/token/",
    "sid's token, for sid's password",
    expect=everyone(200),
    body={"username": "sid", "password": PASSWORD},
)
op(
    "POST",
    "/api/token/",
    "a wrong password (it counts towards the lockout)",
    expect=everyone(400),
    body={"username": "sid", "password": "not-sids"},
)
