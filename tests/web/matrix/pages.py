"""The pages: for each route, how to ask it and what each role should be answered.

Columns, in order: anonymous, stranger (an account, no club), player (a member of club A who
sits at no table), seated (sid, a member of club A seated at the table asked about), scorer
and organiser of club A, and other_organiser (the organiser of club B).

Answers: a status code (302: a redirect that is not to the login page and carries no error
message); LOGIN (302 to the login page); REFUSED (302 back with an error message, or 400/409
with the reason; either way nothing changed); CLIENT_ERROR (any 4xx); ``same(302)`` (a success
that changes nothing); ``without(200, text)`` (a page that must not show ``text``); a tuple:
any of them. Every 4xx must say why, and every refused write must leave the database as it was.

Rules followed (the services' docstrings): a result is entered by a player seated at the table
or a club scorer (organisers are scorers too), confirmed by another seated player than the one
who entered it or a scorer, corrected by whoever entered it while unconfirmed or by a scorer at
any time; the organisers alone run events (rounds, pairing, entrants of others, the draft);
a scorepad on a tournament table is for its seated players and the club's scorers; a scorepad
in a club is for its members; a stranger's write in a club is 403.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pairing.standings import TIEBREAKS
from tests.factories import PASSWORD

from .cells import CLIENT_ERROR, LOGIN, REFUSED, Case, Data, everyone, row, same, without
from .world import CELL_SCORES, World

ANON = (LOGIN, 403)  # anonymous writing on a page: sent to log in, or refused
HIDDEN = (403, 404)  # what the role may not see at all (a draft round)
HIDDEN_ANON = (LOGIN, 403, 404)
POST_ONLY = row((LOGIN, 405), 405, 405, 405, 405, 405, 405)  # GET of a form's target
PUBLIC = everyone(200)
NOOP = same(302)

PAGES: dict[str, list[Case]] = {}


def page(
    route: str,
    label: str,
    kwargs: Callable[[World], dict[str, Any]] | None = None,
    *,
    query: Callable[[World], dict[str, Any]] | None = None,
    GET: dict[str, Any] | None = None,
    POST: dict[str, Any] | None = None,
    post: Data = None,
    writes_on_get: bool = False,
) -> None:
    expect = {method: table for method, table in (("GET", GET), ("POST", POST)) if table is not None}
    PAGES.setdefault(route, []).append(
        Case(label, kwargs or (lambda w: {}), expect, query, {"POST": post or {}}, writes_on_get)
    )


def sheet() -> dict[str, str]:
    """A Black Spy score sheet for a table of four, as the sheet's form sends it."""
    return {f"score_{i}": f"{score:g}" for i, score in enumerate(CELL_SCORES)}


def own_pad(
    others: list[str] | None = None, *, in_club_a: bool = False
) -> Callable[[World, str], dict[str, Any]]:
    """A Black Spy pad's form: the role in seat 1, then ``others`` (players of club A by
    username, the role itself skipped) or two new names; in club A or in no club."""

    def data(world: World, role: str) -> dict[str, Any]:
        me = world.player(role)
        out: dict[str, Any] = {"game": "black-spy", "player_0": str(me.pk) if me else ""}
        if in_club_a:
            out["club"] = str(world.club_a.pk)
        if others is None:
            out |= {"name_1": "Vera Visitor", "name_2": "Walt Visitor"}
            return out
        chosen = [p for p in (world.named(u) for u in others) if me is None or p.pk != me.pk][:2]
        out |= {f"player_{i}": str(p.pk) for i, p in enumerate(chosen, start=1)}
        return out

    return data


def import_token(world: World, event: str) -> str:
    """The token of club A's organiser's preview of a small file of players for ``event``."""
    from spyleague.tournaments import imports

    text = b"name\nNell Newcomer\nGus Unentered\n"
    return imports.preview(user=world.users["organiser"], event=getattr(world, event), data=text).token


PLACE = json.dumps({"type": "place", "pile": 1})
EVENT_FORM = {
    "name": "Alpha Autumn",
    "game": "black-spy",
    "kind": "tournament",
    "format": "swiss",
    "rounds": "3",
    "table_size": "4",
    "bye_rule": "win",
}


def event_settings(event: str, **changes: Any) -> Callable[[World, str], dict[str, Any]]:
    """An event's settings form as its page posts it (the world's event by name), but for
    ``changes``."""

    def data(world: World, role: str) -> dict[str, Any]:
        e = getattr(world, event)
        return {
            "name": e.name,
            "kind": e.kind,
            "starts": "",
            "league": str(e.league_id or ""),
            "rounds": str(e.rounds),
            "points_by_place": ", ".join(f"{p:g}" for p in e.points_by_place),
            "bye_rule": e.bye_rule,
            "format": e.format,
            "table_size": str(e.table_size),
            "uneven": e.uneven,
            "advance": str(e.advance),
            "groups": str(e.groups),
            "order": list(TIEBREAKS),
            "tiebreaks": list(e.tiebreaks),
        } | changes

    return data


# --- the site's own pages ---------------------------------------------------------------------
# Columns of row(): anonymous, stranger, player, seated, scorer, other_organiser, organiser.
page("", "home", GET=PUBLIC)
page("favicon.ico", "the site's icon", GET=PUBLIC)
page(
    "accounts/signup/",
    "sign up (logged in: sent home, nothing made)",
    GET=row(200, 302, 302, 302, 302, 302, 302),
    POST=row(302, NOOP, NOOP, NOOP, NOOP, NOOP, NOOP),
    post={
        "username": "newbie",
        "name": "New Bie",
        "email": "",
        "password1": "a-Long-pass-2031",
        "password2": "a-Long-pass-2031",
    },
)
page(
    "accounts/login/",
    "log in as stan",
    GET=PUBLIC,
    POST=everyone(302),
    post={"username": "stan", "password": PASSWORD},
)
page("accounts/logout/", "log out", GET=everyone(405), POST=everyone(302))
page(
    "accounts/profile/",
    "own profile",
    GET=row(LOGIN, 200, 200, 200, 200, 200, 200),
    POST=row(LOGIN, 302, 302, 302, 302, 302, 302),
    post={"name": "Renamed", "email": "renamed@example.org", "birth_year": "1990"},
)
page("accounts/token/", "a new API token", GET=POST_ONLY, POST=row(LOGIN, 302, 302, 302, 302, 302, 302))
page("health/", "health", GET=PUBLIC)
page(
    "jobs/<id:pk>/",
    "the organiser's pairing job",
    lambda w: {"pk": w.job.pk},
    GET=row(HIDDEN_ANON, 403, 403, 403, 403, 403, 200),
)
page(
    "demo/",
    "load the demo (staff only once clubs exist)",
    GET=everyone(405),
    POST=row(ANON, 403, 403, 403, 403, 403, 403),
)

# --- clubs ---------------------------------------------------------------------------------------
A = {"slug": "alpha-club"}
page("clubs/", "club list", GET=PUBLIC)
page(
    "clubs/new/",
    "start a club",
    GET=row(LOGIN, 200, 200, 200, 200, 200, 200),
    POST=row(LOGIN, 302, 302, 302, 302, 302, 302),
    post={"name": "Gamma Club", "city": "Frome"},
)
page("clubs/players/<id:pk>/", "sid's profile", lambda w: {"pk": w.me("seated").pk}, GET=PUBLIC)
page("clubs/<slug:slug>/", "club A", lambda w: A, GET=PUBLIC)
page(
    "clubs/<slug:slug>/join/",
    "join club A (open to anyone; members: no change)",
    lambda w: A,
    GET=POST_ONLY,
    POST=row(LOGIN, 302, NOOP, NOOP, NOOP, 302, NOOP),
)
page(
    "clubs/<slug:slug>/leave/",
    "leave club A (its only organiser may not)",
    lambda w: A,
    GET=POST_ONLY,
    POST=row(LOGIN, NOOP, 302, 302, 302, NOOP, REFUSED),
)
page(
    "clubs/<slug:slug>/guests/",
    "add a guest to club A",
    lambda w: A,
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 403, 302, 403, 302),
    post={"name": "Nell Newcomer"},
)
page(
    "clubs/<slug:slug>/members/<id:pk>/role/",
    "make pat a scorer",
    lambda w: A | {"pk": w.membership("player").pk},
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 403, 403, 403, 302),
    post={"role": "scorer"},
)

# --- events ----------------------------------------------------------------------------------------
# Columns of row(): anonymous, stranger, player, seated, scorer, other_organiser, organiser.
page("events/", "event list", GET=PUBLIC)
page(
    "events/new/<slug:slug>/",
    "create an event in club A",
    lambda w: A,
    GET=row(LOGIN, 403, 403, 403, 403, 403, 200),
    POST=row(ANON, 403, 403, 403, 403, 403, 302),
    post=EVENT_FORM,
)
page(
    "events/leagues/new/<slug:slug>/",
    "start a league in club A",
    lambda w: A,
    GET=row(LOGIN, 403, 403, 403, 403, 403, 200),
    POST=row(ANON, 403, 403, 403, 403, 403, 302),
    post={"name": "Summer League", "game": ""},
)
page("events/leagues/<id:pk>/", "the league", lambda w: {"pk": w.league.pk}, GET=PUBLIC)
page("events/<id:pk>/", "the running Swiss event", lambda w: {"pk": w.open.pk}, GET=PUBLIC)
NO_DRAFT = without(200, "<strong>Table ")  # the event page without the draft round's tables
page(
    "events/<id:pk>/",
    "the cup, whose only round is a draft: its tables are for the organisers",
    lambda w: {"pk": w.cup.pk},
    GET=row(NO_DRAFT, NO_DRAFT, NO_DRAFT, NO_DRAFT, NO_DRAFT, NO_DRAFT, 200),
)
page(
    "events/<id:pk>/",
    "the cup with a player of its draft tapped (?swap=) and a search of the members to register",
    lambda w: {"pk": w.cup.pk},
    query=lambda w: {"swap": str(w.cup_swap[0]), "find": "gus"},
    GET=row(NO_DRAFT, NO_DRAFT, NO_DRAFT, NO_DRAFT, NO_DRAFT, NO_DRAFT, 200),
)
page("events/<id:pk>/screen/", "the projector screen", lambda w: {"pk": w.open.pk}, GET=PUBLIC)
page(
    "events/<id:pk>/standings/",
    "a page of the running event's standings (what the event page's pager fetches)",
    lambda w: {"pk": w.open.pk},
    query=lambda w: {"page": "2"},
    GET=PUBLIC,
)
SETTINGS = "events/<id:pk>/settings/"
page(
    SETTINGS,
    "the running event's settings: a new tiebreak order (the standings ranked anew)",
    lambda w: {"pk": w.open.pk},
    GET=row(LOGIN, 403, 403, 403, 403, 403, 200),
    POST=row(ANON, 403, 403, 403, 403, 403, 302),
    post=event_settings("open", tiebreaks=["tournament_points", "wins"]),
)
page(
    SETTINGS,
    "move a tiebreak up (the form comes back in the new order; nothing saved)",
    lambda w: {"pk": w.open.pk},
    POST=row(ANON, 403, 403, 403, 403, 403, same(200)),
    post=event_settings("open", move="up:wins"),
)
page(
    SETTINGS,
    "the running event's table size (fixed once a round is paired)",
    lambda w: {"pk": w.open.pk},
    POST=row(ANON, 403, 403, 403, 403, 403, REFUSED),
    post=event_settings("open", table_size="5"),
)
page(
    SETTINGS,
    "the finished event's tiebreaks (it is over)",
    lambda w: {"pk": w.finished.pk},
    POST=row(ANON, 403, 403, 403, 403, 403, REFUSED),
    post=event_settings("finished", tiebreaks=["wins"]),
)
page(
    "events/<id:pk>/entrants/",
    "register oneself in the running event (a late entry; open to anyone logged in)",
    lambda w: {"pk": w.open.pk},
    GET=POST_ONLY,
    POST=row(LOGIN, 302, 302, NOOP, 302, 302, 302),
)
page(
    "events/<id:pk>/entrants/",
    "register a guest of club A",
    lambda w: {"pk": w.open.pk},
    POST=row(ANON, 403, 403, 403, 403, 403, 302),
    post=lambda w, role: {"player": str(w.unentered_guest.pk)},
)
page(
    "events/<id:pk>/entrants/",
    "register oneself in the finished event",
    lambda w: {"pk": w.finished.pk},
    POST=row(LOGIN, REFUSED, REFUSED, REFUSED, REFUSED, REFUSED, REFUSED),
)
CHECK_IN = "events/<id:pk>/check-in/"
page(
    CHECK_IN,
    "check oneself in by the screen's link (only sid is entered; the others are offered to enter)",
    lambda w: {"pk": w.open.pk},
    GET=row(LOGIN, 200, 200, 200, 200, 200, 200),
    POST=row(LOGIN, 403, 403, 302, 403, 403, 403),
)
page(
    CHECK_IN,
    "enter and check in by the screen's link (a walk-in; sid, entered, is checked in)",
    lambda w: {"pk": w.open.pk},
    GET=None,
    POST=row(LOGIN, 302, 302, 302, 302, 302, 302),
    post={"enter": "1"},
)
page(
    CHECK_IN,
    "check oneself in while the round is a draft (closed until it is published)",
    lambda w: {"pk": w.cup.pk},
    GET=row(LOGIN, 403, 403, 409, 403, 403, 403),
    POST=row(LOGIN, 403, 403, REFUSED, 403, 403, 403),
)
page(
    CHECK_IN,
    "enter and check in while the round is a draft (closed: nobody is entered)",
    lambda w: {"pk": w.cup.pk},
    GET=None,
    POST=row(LOGIN, REFUSED, REFUSED, REFUSED, REFUSED, REFUSED, REFUSED),
    post={"enter": "1"},
)
page(
    CHECK_IN,
    "check oneself in to the finished event",
    lambda w: {"pk": w.finished.pk},
    GET=row(LOGIN, 403, 403, 409, 403, 403, 403),
    POST=row(LOGIN, 403, 403, REFUSED, 403, 403, 403),
)
page(
    "events/<id:pk>/entrants/check-in/",
    "check in everyone registered",
    lambda w: {"pk": w.open.pk},
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 403, 403, 403, 302),
)
page(
    "events/<id:pk>/entrants/check-in/",
    "check in everyone in the finished event",
    lambda w: {"pk": w.finished.pk},
    POST=row(LOGIN, 403, 403, 403, 403, 403, REFUSED),
)
IMPORT = "events/<id:pk>/import/"
page(
    IMPORT,
    "import players into the spring event: the form, then the preview (which writes nothing)",
    lambda w: {"pk": w.spring.pk},
    GET=row(LOGIN, 403, 403, 403, 403, 403, 200),
    POST=row(ANON, 403, 403, 403, 403, 403, same(200)),
    post={"text": "name\nNell Newcomer\nGus Unentered\n"},
)
page(
    IMPORT,
    "import players into the finished event (it takes no entries)",
    lambda w: {"pk": w.finished.pk},
    GET=row(LOGIN, 403, 403, 403, 403, 403, 200),
    POST=row(ANON, 403, 403, 403, 403, 403, REFUSED),
    post={"text": "name\nNell Newcomer\n"},
)
page(
    "events/<id:pk>/import/confirm/",
    "confirm the organiser's preview of an import into the spring event",
    lambda w: {"pk": w.spring.pk},
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 403, 403, 403, 302),
    post=lambda w, role: {"token": import_token(w, "spring"), "check_in": "on"},
)
page(
    "events/<id:pk>/import/confirm/",
    "confirm a preview that cannot be read",
    lambda w: {"pk": w.spring.pk},
    POST=row(ANON, 403, 403, 403, 403, 403, REFUSED),
    post={"token": "not-a-preview"},
)
page(
    "events/<id:pk>/entrants/<id:entrant_id>/",
    "check in sid's entry",
    lambda w: {"pk": w.open.pk, "entrant_id": w.entrant(w.open, w.me("seated")).pk},
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 302, 403, 403, 302),
    post={"do": "check_in"},
)
page(
    "events/<id:pk>/entrants/<id:entrant_id>/",
    "drop a guest's entry",
    lambda w: {"pk": w.open.pk, "entrant_id": w.entrant(w.open, w.guests[0]).pk},
    POST=row(ANON, 403, 403, 403, 403, 403, 302),
    post={"do": "drop"},
)
page(
    "events/<id:pk>/pair/",
    "pair the next round of the running event",
    lambda w: {"pk": w.open.pk},
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 403, 403, 403, (302, REFUSED)),
)
page(
    "events/<id:pk>/finish/",
    "finish the running Swiss event: its round 1 still waits for results",
    lambda w: {"pk": w.open.pk},
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 403, 403, 403, REFUSED),
)
page(
    "events/<id:pk>/finish/",
    "finish the cup (its draft is discarded)",
    lambda w: {"pk": w.cup.pk},
    POST=row(ANON, 403, 403, 403, 403, 403, 302),
)
page(
    "events/<id:pk>/finish/",
    "finish the finished event again (nothing changes)",
    lambda w: {"pk": w.finished.pk},
    POST=row(ANON, 403, 403, 403, 403, 403, NOOP),
)
page(
    "events/<id:pk>/rounds/<id:number>/",
    "publish the cup's draft",
    lambda w: {"pk": w.cup.pk, "number": 1},
    GET=POST_ONLY,
    POST=row(ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 302),
    post={"do": "publish"},
)
page(
    "events/<id:pk>/rounds/<id:number>/",
    "swap sid with a player of the cup's other table",
    lambda w: {"pk": w.cup.pk, "number": 1},
    POST=row(ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 302),
    post=lambda w, role: {"do": "swap", "a": str(w.cup_swap[0]), "b": str(w.cup_swap[1])},
)
page(
    "events/<id:pk>/rounds/<id:number>/",
    "discard the cup's draft",
    lambda w: {"pk": w.cup.pk, "number": 1},
    POST=row(ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 302),
    post={"do": "discard"},
)
page(
    "events/<id:pk>/rounds/<id:number>/",
    "discard the running event's published round",
    lambda w: {"pk": w.open.pk, "number": 1},
    POST=row(ANON, 403, 403, 403, 403, 403, REFUSED),
    post={"do": "discard"},
)
page(
    "events/<id:pk>/rounds/<id:number>/print/",
    "print a published round",
    lambda w: {"pk": w.open.pk, "number": 1},
    GET=PUBLIC,
)
page(
    "events/<id:pk>/rounds/<id:number>/print/",
    "print the cup's draft (organisers only)",
    lambda w: {"pk": w.cup.pk, "number": 1},
    GET=row(HIDDEN_ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 200),
)

# The score sheet of a table: GET shows it; POST enters the result, or corrects the one there.
SHEET = "events/<id:pk>/tables/<id:table_id>/"
# Columns of row(): anonymous, stranger, player, seated, scorer, other_organiser, organiser.
page(
    SHEET,
    "the night's table, sid seated, no result yet: enter it",
    lambda w: {"pk": w.night.pk, "table_id": w.waiting_table.pk},
    GET=PUBLIC,
    POST=row(ANON, 403, 403, 302, 302, 403, 302),
    post=sheet(),
)
page(
    SHEET,
    "the open's table, sid seated, sue's result to confirm: correct it",
    lambda w: {"pk": w.open.pk, "table_id": w.reported_table.pk},
    GET=PUBLIC,
    POST=row(ANON, 403, 403, 403, 302, 403, 302),
    post=sheet() | {"note": "Recounted at the table"},
)
page(
    SHEET,
    "the cup's draft table, sid seated: hidden, and no result before it is published",
    lambda w: {"pk": w.cup.pk, "table_id": w.draft_table.pk},
    GET=row(HIDDEN_ANON, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, 200),
    POST=row(HIDDEN_ANON, HIDDEN, HIDDEN, CLIENT_ERROR, CLIENT_ERROR, HIDDEN, CLIENT_ERROR),
    post=sheet(),
)
page(
    SHEET,
    "the finished event's table, sid seated, confirmed: correct it",
    lambda w: {"pk": w.finished.pk, "table_id": w.finished_table.pk},
    GET=PUBLIC,
    POST=row(ANON, 403, 403, 403, 302, 403, 302),
    post=sheet() | {"note": "Recounted at the table"},
)
CONFIRM = "events/<id:pk>/tables/<id:table_id>/confirm/"
page(
    CONFIRM,
    "confirm sue's result at sid's table",
    lambda w: {"pk": w.open.pk, "table_id": w.reported_table.pk},
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 302, 302, 403, 302),
)
page(
    CONFIRM,
    "confirm on the cup's draft table",
    lambda w: {"pk": w.cup.pk, "table_id": w.draft_table.pk},
    POST=row(HIDDEN_ANON, HIDDEN, HIDDEN, CLIENT_ERROR, CLIENT_ERROR, HIDDEN, CLIENT_ERROR),
)
page(
    CONFIRM,
    "confirm the finished event's confirmed result again",
    lambda w: {"pk": w.finished.pk, "table_id": w.finished_table.pk},
    POST=row(ANON, 403, 403, NOOP, NOOP, 403, NOOP),
)
ONLINE = "events/<id:pk>/tables/<id:table_id>/online/"
page(
    ONLINE,
    "play the night's table online (its players or an organiser)",
    lambda w: {"pk": w.night.pk, "table_id": w.waiting_table.pk},
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 302, 403, 403, 302),
)
page(
    ONLINE,
    "play the cup's draft table online",
    lambda w: {"pk": w.cup.pk, "table_id": w.draft_table.pk},
    POST=row(HIDDEN_ANON, HIDDEN, HIDDEN, (REFUSED, 403, 404), HIDDEN, HIDDEN, REFUSED),
)
EXPORT = "events/<id:pk>/export/<str:what>.csv"
page(EXPORT, "the running event's results", lambda w: {"pk": w.open.pk, "what": "results"}, GET=PUBLIC)
page(
    EXPORT,
    "the cup's pairings: the draft is not out yet",
    lambda w: {"pk": w.cup.pk, "what": "pairings"},
    GET=everyone(without(200, "Sid")),
)
page(EXPORT, "an unknown export", lambda w: {"pk": w.open.pk, "what": "secrets"}, GET=everyone(404))

# --- online play ---------------------------------------------------------------------------------
# Columns of row(): anonymous, stranger, player, seated, scorer, other_organiser, organiser.
OPEN = lambda w: {"pk": w.open_match.pk}
RACE = lambda w: {"pk": w.race_match.pk}
page("play/", "lobby", GET=PUBLIC)
page(
    "play/new/",
    "start a Black Spy match with bots",
    GET=POST_ONLY,
    POST=row(LOGIN, 302, 302, 302, 302, 302, 302),
    post={"game": "black-spy", "seats": "3", "fill_with_bots": "on", "bot": "heuristic"},
)
page(
    "play/invite/<str:code>/",
    "sid's invitation link (it seats whoever follows it)",
    lambda w: {"code": w.open_match.invite},
    GET=row(LOGIN, 302, 302, NOOP, 302, 302, 302),
    writes_on_get=True,
)
page(
    "play/invite/<str:code>/",
    "an invitation that does not exist",
    lambda w: {"code": "nope"},
    GET=everyone(404),
)
page("play/matches/<id:pk>/", "the open match", OPEN, GET=PUBLIC)
page("play/matches/<id:pk>/", "the race", RACE, GET=PUBLIC)
page("play/matches/<id:pk>/board/", "the open match's board", OPEN, GET=PUBLIC)
page("play/matches/<id:pk>/events/", "the open match's live updates", OPEN, GET=PUBLIC)
page(
    "play/matches/<id:pk>/act/",
    "a move in the race (sid's seat)",
    RACE,
    GET=everyone(405),
    POST=row(ANON, 403, 403, 302, 403, 403, 403),
    post={"action": PLACE, "version": "0"},
)
page(
    "play/matches/<id:pk>/join/",
    "take a free seat of sid's open match",
    OPEN,
    GET=POST_ONLY,
    POST=row(LOGIN, 302, 302, REFUSED, 302, 302, 302),
)
page(
    "play/matches/<id:pk>/start/",
    "start sid's open match (its creator)",
    OPEN,
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 302, 403, 403, 403),
)
page(
    "play/matches/<id:pk>/bot/",
    "put a bot in a seat of sid's open match (its creator)",
    OPEN,
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 302, 403, 403, 403),
    post={"seat": "1", "bot": "heuristic"},
)
page(
    "play/matches/<id:pk>/resign/",
    "resign the race (sid's seat): the confirm step, then resigning",
    RACE,
    GET=row(LOGIN, 403, 403, 200, 403, 403, 403),
    POST=row(LOGIN, 403, 403, 302, 403, 403, 403),
)
page(
    "play/matches/<id:pk>/abandon/",
    "abandon sid's open match (its creator, or club A's organiser)",
    OPEN,
    GET=row(LOGIN, 403, 403, 200, 403, 403, 200),
    POST=row(LOGIN, 403, 403, 302, 403, 403, 302),
    post={"reason": "closing time"},
)
page(
    "play/matches/<id:pk>/rematch/",
    "a rematch of the finished match (its players)",
    lambda w: {"pk": w.finished_match.pk},
    GET=POST_ONLY,
    POST=row(LOGIN, 403, 403, 302, 403, 403, 403),
)
page("play/rules/<str:game>/", "Black Spy's rules", lambda w: {"game": "black-spy"}, GET=PUBLIC)
page("play/rules/<str:game>/", "rules of no game", lambda w: {"game": "chess"}, GET=everyone(404))
page(
    "play/matches/<id:pk>/replay/",
    "replay the finished match",
    lambda w: {"pk": w.finished_match.pk},
    GET=PUBLIC,
)
page("play/matches/<id:pk>/replay/", "replay a match not over", OPEN, GET=everyone(302))
page(
    "play/matches/<id:pk>/race/act/",
    "place sid's card in the race",
    RACE,
    GET=everyone(405),
    POST=row(ANON, 403, 403, 200, 403, 403, 403),
    post=lambda w, role: {"action": PLACE, "card": w.race_card},
)
page(
    "play/matches/<id:pk>/race/tick/",
    "a race page's tick (bots make the moves already due)",
    RACE,
    GET=everyone(405),
    POST=everyone((200, 204)),
)
page("play/matches/<id:pk>/race/events/", "the race's live updates", RACE, GET=PUBLIC)
page("play/matches/<id:pk>/race/progress/", "the racers' progress", RACE, GET=PUBLIC)
# The race's WebSocket asked as a page (its socket's own roles: tests/web/play/test_race_socket.py).
page("play/matches/<id:pk>/race/ws/", "the race's socket address, as a page", RACE, GET=everyone(426))
page("leaderboards/", "leaderboards", GET=PUBLIC)
page("events/scoring/", "how events are scored", GET=PUBLIC)

# --- scorepads -------------------------------------------------------------------------------------
# Columns of row(): anonymous, stranger, player, seated, scorer, other_organiser, organiser.
page("scorepads/", "one's scorepads", GET=row(LOGIN, 200, 200, 200, 200, 200, 200))
PAD_NEW = "scorepads/new/"
page(
    PAD_NEW,
    "a pad of one's own, two new guests, no club",
    GET=row(LOGIN, 200, 200, 200, 200, 200, 200),
    POST=row(LOGIN, 302, 302, 302, 302, 302, 302),
    post=own_pad(),
)
page(
    PAD_NEW,
    "a pad on the night's table (sid seated)",
    query=lambda w: {"table": w.waiting_table.pk},
    GET=row(LOGIN, 403, 403, 200, 200, 403, 200),
    POST=row(ANON, 403, 403, 302, 302, 403, 302),
    post=lambda w, role: {"table": str(w.waiting_table.pk), "game": "black-spy"},
)
page(
    PAD_NEW,
    "a pad on the cup's draft table (sid seated): not before the round is published",
    POST=row(HIDDEN_ANON, HIDDEN, HIDDEN, CLIENT_ERROR, CLIENT_ERROR, HIDDEN, CLIENT_ERROR),
    post=lambda w, role: {"table": str(w.draft_table.pk), "game": "black-spy"},
)
page(
    PAD_NEW,
    "a pad in club A seating club A's members",
    POST=row(ANON, 403, 302, 302, 302, 403, 302),
    post=own_pad(["sue", "pat", "sid"], in_club_a=True),
)
page(
    PAD_NEW,
    "a pad in club A with two new guests (they join club A: its scorers and organisers add guests)",
    POST=row(ANON, 403, 403, 403, 302, 403, 302),
    post=own_pad(in_club_a=True),
)
page(
    PAD_NEW,
    "a pad of one's own, no club, seating club A's members",
    POST=row(LOGIN, (400, 403), 302, 302, 302, (400, 403), 302),
    post=own_pad(["sue", "pat", "sid"]),
)
page("scorepads/<id:pk>/", "the pad on the open's second table", lambda w: {"pk": w.pad.pk}, GET=PUBLIC)
page(
    "scorepads/<id:pk>/deal/",
    "a deal on the pad the scorer keeps for four guests",
    lambda w: {"pk": w.pad.pk},
    GET=everyone(405),
    POST=row(ANON, 403, 403, 403, 302, 403, 302),
    post={"mode": "points", "points_0": "20", "points_1": "10", "points_2": "25", "points_3": "5"},
)
page(
    "scorepads/<id:pk>/confirm/",
    "confirm the friendly pad sue finished (sid sat at it)",
    lambda w: {"pk": w.done_pad.pk},
    GET=POST_ONLY,
    POST=row(ANON, 403, 403, 302, 302, 403, 302),
)

# --- the API's own pages, and the admin -------------------------------------------------------------
page("api/", "the API's root", GET=PUBLIC)
page("api/schema/", "the OpenAPI schema", GET=PUBLIC)
page("api/docs/", "the API documentation", GET=PUBLIC)
page("api/redoc/", "the API documentation (ReDoc)", GET=PUBLIC)
page("admin/", "the admin (staff only: none of these roles)", GET=everyone(LOGIN))
page(
    "admin/login/",
    "the admin's login, as stan (not staff: refused on the page)",
    GET=PUBLIC,
    POST=everyone(same(200)),
    post={"username": "stan", "password": PASSWORD},
)
