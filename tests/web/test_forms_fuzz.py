"""Every form of the site that posts, fuzzed with Hypothesis: never a 5xx, and a refusal says why
and changes nothing.

The views that take a POST (``spyleague/*/views.py`` and ``spyleague/core/views.py``, and
Django's login and logout pages), each under its URL name:

- accounts: ``signup``, ``login``, ``logout``, ``profile``, ``token-create``, ``demo-load``;
- clubs: ``clubs:create``, ``clubs:join``, ``clubs:leave``, ``clubs:guest-add``,
  ``clubs:member-role``;
- events: ``tournaments:create``, ``tournaments:settings`` (an event's settings, the tiebreaks
  ticked and moved up or down), ``tournaments:league-create``, ``tournaments:entrant-add``,
  ``tournaments:entrant-update``, ``tournaments:check-in-all``, ``tournaments:import`` and
  ``tournaments:import-confirm`` (a file of players previewed, then confirmed),
  ``tournaments:self-check-in``
  (a player checks in by the screen's QR code), ``tournaments:pair``,
  ``tournaments:finish`` (the organiser
  ends an event by hand), ``tournaments:round-action`` (publish,
  discard, swap), ``tournaments:sheet`` (the table score sheet: a game scored by a number per
  seat, Black Spy's with its "stopped on time" box, Spycatcher's and Spies!' own sheets),
  ``tournaments:confirm``, ``tournaments:online``;
- scorepads: ``scores:pad-new``, ``scores:pad-deal`` (a deal in points, in what was taken, a
  correction, a Spy vs Spy race), ``scores:pad-confirm``;
- online play: ``play:new`` (with the engines' options), ``play:act``, ``play:join``,
  ``play:start``, ``play:bot``, ``play:race-act``, ``play:race-tick``, ``play:resign``,
  ``play:abandon``, ``play:rematch``.

The API's operations are fuzzed from its schema in ``tests/web/api/test_schema_fuzz.py``; the
admin is Django's own. ``test_every_post_view_is_fuzzed`` reads the URL resolver and fails when
a view that takes a POST (its source mentions POST, or its class has a ``post`` method) has no
form here, naming it.

Each form is posted by the people who matter to it (the player seated at the table, an
organiser, a stranger with an account, someone not logged in; the scorer for the scorepads),
with bodies that start from a post the form accepts and then change it: fields left out,
fields given values of the right kind (the world's real ids, numbers in range, the choices) or
edge values (empty, spaces, 10**30, negatives, "abc", "nan", "inf", "1e309", other digits,
long text, NUL, JSON where a number goes), several values for one field, and fields the form
does not have; sent urlencoded (as a browser's form) or multipart, and as htmx where a page
posts that way. Every answer must be below 500; a 4xx must say why in words (an error list or
an alert on the page, or the reason) and leave the database as it was (``fingerprint``: every
project model's rows hashed); a page showing errors must have changed nothing whatever its
status; a refusal is a 4xx, not a redirect carrying an error message; and what a success stores
must fit PostgreSQL's columns (text within its length, whole numbers within their range), which
SQLite does not check.

Each target's valid posts are also asked once on their own and must succeed, and its ``tricky``
posts (the requests that once showed a defect) must be refused with a reason: the fuzzing starts
from both.

The world (``tests/web/matrix/world.py``, plus tables of other games, two more scorepads and a
match being played) is built once for the module in a transaction rolled back at its end; each
example runs in a savepoint rolled back after it, so every example meets the same world.
Generation is derandomized with no example database: every run sends the same requests.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
import json
import logging
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.db import transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import CharField, Q
from django.db.models.functions import Length
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from games import engines
from games.spies.board import POWER_CODES
from games.spycatcher.cards import SUITS
from pairing.standings import TIEBREAKS
from spyleague.clubs.models import Membership, Player
from spyleague.core.inputs import Refused, whole_number
from spyleague.play import services as play
from spyleague.play.models import Match
from spyleague.play.selectors import match_picture
from spyleague.play.views import option_fields
from spyleague.scores import scorepad as pads
from spyleague.scores.models import Result, Scorepad
from spyleague.tournaments import services as events
from spyleague.tournaments.models import Entrant, Event, Table
from tests.factories import PASSWORD
from tests.web.matrix.cells import (
    Observed,
    changed_models,
    client_for,
    error_flash,
    fingerprint,
    rows_written,
    says_why,
)
from tests.web.matrix.world import (
    ANONYMOUS,
    ORGANISER,
    SCORER,
    SEATED,
    STRANGER,
    World,
    race_to_ten_unregister,
    world_build,
)
from tests.web.tournaments.helpers import settings_post

pytestmark = pytest.mark.django_db

ROLES = (SEATED, ORGANISER, STRANGER, ANONYMOUS)
PAD_ROLES = (SCORER, SEATED, ORGANISER, STRANGER, ANONYMOUS)
EXAMPLES = 50  # per form, unless the form says otherwise


# --- the world -----------------------------------------------------------------------------------


@dataclass
class FormsWorld:
    """The permission matrix's world, and what the forms need beyond it."""

    w: World
    tables: dict[str, tuple[Event, Table]]  # by game: a published table with sid at it, no result
    deal_pad: Scorepad  # sam's Black Spy pad (four guests) with one deal entered
    race_pad: Scorepad  # sid's Spy vs Spy pad (sid and two guests), one race entered
    playing: Match  # Mister Spy, sid against sue, sid to act
    baseline: dict[str, str] = field(default_factory=dict)
    clients: dict[str, Client] = field(default_factory=dict)


def _published_table(w: World, game: str, size: int, players: list[Player]) -> tuple[Event, Table]:
    olga = w.users[ORGANISER]
    event = events.event_create(
        club=w.club_a, user=olga, name=f"Alpha {game}", game=game, table_size=size, rounds=3
    )
    for player in players:
        events.entrant_register(user=olga, event=event, player=player)
    rnd = events.round_publish(user=olga, rnd=events.round_pair(event=event))
    return event, rnd.tables.get()


def forms_world_build() -> FormsWorld:
    w = world_build()
    sid, sam = w.users[SEATED], w.users[SCORER]
    sid_p = w.player(SEATED)
    assert sid_p is not None
    tables = {
        "mister-spy": _published_table(w, "mister-spy", 3, [sid_p, *w.guests[10:12]]),
        "spycatcher": _published_table(w, "spycatcher", 3, [sid_p, *w.guests[12:14]]),
        "spies": _published_table(w, "spies", 3, [sid_p, *w.guests[14:16]]),
    }
    deal_pad = pads.scorepad_open(user=sam, players=w.guests[2:6], club=w.club_a)
    pads.scorepad_deal_add(user=sam, pad=deal_pad, points=(20, 10, 25, 5))
    race_pad = pads.scorepad_open(user=sid, players=[sid_p, *w.guests[6:8]], club=w.club_a, game="spy-vs-spy")
    pads.scorepad_deal_add(user=sid, pad=race_pad, points=(-4, 3, 6), first=0)
    # A Mister Spy match of two people, being played: sid deals, so plays first.
    playing = play.match_create(user=sid, game="mister-spy", seats=2, seed=2, options={"dealer": 0})
    play.match_join(user=w.sue, match_id=playing.pk)
    play.match_start(user=sid, match_id=playing.pk)
    playing.refresh_from_db()
    to_act = match_picture(match=playing, seat=0).to_act
    assert to_act == [0], f"sid should act first in the Mister Spy match, not seats {to_act}"
    # The race's board key holds the match's last change: fixed, so that the ticks that send it
    # are the same every run. (Whether a tick finds a bot move due still depends on the clock.)
    Match.objects.filter(pk=w.race_match.pk).update(updated=datetime(2026, 1, 1, tzinfo=UTC))
    w.race_match.refresh_from_db()
    return FormsWorld(w, tables, deal_pad, race_pad, playing)


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[FormsWorld]:
    """Built once for the module, inside a transaction rolled back at its end."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            fw = forms_world_build()
            fw.clients = {role: client_for(fw.w.user(role)) for role in dict.fromkeys((*ROLES, *PAD_ROLES))}
            fw.baseline = fingerprint()  # after logging in (which sets each user's last login)
            yield fw
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            race_to_ten_unregister()


@pytest.fixture
def quiet_logs() -> Iterator[None]:
    """Refusals are expected by the hundred: their warnings (403, 404...) would bury a failure.
    Errors (a 500's traceback) are still logged."""
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


# --- values ----------------------------------------------------------------------------------------

# What people type, paste or forge where a form expects something else.
EDGE = st.sampled_from(
    [
        "",
        " ",
        " \t\n",
        "0",
        "-0",
        "-1",
        "+3",
        "--5",
        "+-1",
        " 7 ",
        "1.5",
        "1,5",
        "1_000",
        "0x1f",
        str(10**30),
        str(-(10**30)),
        str(2**63),
        str(2**31),
        "9" * 400,
        "1e309",
        "-1e309",
        "1e-400",
        "nan",
        "NaN",
        "inf",
        "-inf",
        "Infinity",
        "abc",
        "None",
        "null",
        "true",
        "on",
        "[]",
        "{}",
        '{"type": "pass"}',
        "²",
        "¹",
        "١٢",
        "\U0001d7d8",  # a mathematical zero: int() reads it
        "½",
        "Ünïcødé 🕵️",
        "\u202eevil",
        "<script>alert(1)</script>",
        "' OR 1=1 --",
        "x" * 5000,
        "\x00",
    ]
)
# Text a browser can send (UTF-8: no lone surrogates); NUL is among the edge values.
TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=20)
# Names of fields the forms do not have, or have only for other games and seats.
EXTRA_NAMES = st.sampled_from(
    [
        "id",
        "pk",
        "user",
        "created_by",
        "status",
        "is_staff",
        "club",
        "table",
        "game",
        "player",
        "score_9",
        "place_9",
        "points_9",
        "perm_9_court",
        "vp_X",
        "run_7",
        "opt-black-spy-end_value",
        "ranks_0",
        "__proto__",
    ]
)


def value_of(valid: SearchStrategy[str]) -> SearchStrategy[Any]:
    """A field's value: one of the right kind, an edge value, any text, or several values."""
    one = st.one_of(valid, EDGE, TEXT)
    return st.one_of(valid, EDGE, TEXT, st.lists(one, min_size=2, max_size=3))


def ids(*rows: Any) -> SearchStrategy[str]:
    """The ids of real rows, as a form sends them."""
    return st.sampled_from([str(r.pk if hasattr(r, "pk") else r) for r in rows])


def ints(low: int, high: int) -> SearchStrategy[str]:
    return st.integers(low, high).map(str)


def choices(*values: str) -> SearchStrategy[str]:
    return st.sampled_from(values)


CHECKBOX = choices("on", "1", "true", "")


# --- the forms -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """One address a form posts to, with posts it accepts from ``by`` (a role); ``refused``: an
    address kept to be refused (a finished event, a membership of another club), whose posts
    are the ones the fuzzing starts from there. ``tricky``: posts ``by`` sends that must be
    refused (with a reason, changing nothing); each once showed a defect. The fuzzing starts
    from the valid and the tricky posts."""

    url: str
    valid: tuple[dict[str, Any], ...] = ({},)
    by: str = SEATED
    refused: bool = False
    tricky: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class Form:
    """A form: its URL name, where it posts, its fields (the values of the right kind for each),
    and who posts it."""

    name: str
    label: str
    targets: Callable[[FormsWorld], list[Target]]
    fields: Callable[[FormsWorld], dict[str, SearchStrategy[str]]] = lambda fw: {}
    roles: tuple[str, ...] = ROLES
    examples: int = EXAMPLES
    htmx: bool = False  # also posted as htmx does (the answer is a fragment)


def sheet_url(event: Event, table: Table) -> str:
    return reverse("tournaments:sheet", args=[event.pk, table.pk])


def version_of(table: Table) -> str:
    result = Result.objects.filter(table=table).exclude(status=Result.Status.VOID).first()
    if result is None:
        return "new"
    last = result.changes.order_by("-pk").values_list("pk", flat=True).first()
    return f"{result.pk}.{last or 0}"


def scores_post(scores: tuple[float, ...], **extra: str) -> dict[str, str]:
    return {f"score_{i}": f"{s:g}" for i, s in enumerate(scores)} | extra


def number_fields(seats: int, *, low: int, high: int) -> dict[str, SearchStrategy[str]]:
    return {
        **{f"score_{i}": ints(low, high) for i in range(seats)},
        **{f"place_{i}": ints(1, seats) for i in range(seats)},
    }


def black_spy_sheet_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    night, waiting = w.night, w.waiting_table
    return [
        Target(sheet_url(night, waiting), (scores_post((160, 30, 35, 15), version="new"),)),
        Target(sheet_url(night, waiting), (scores_post((20, 10, 25, 5), stopped="on"),)),  # after one deal
        Target(
            sheet_url(w.open, w.reported_table),
            (scores_post((20, 40, 30, 150), version=version_of(w.reported_table), note="Fixed"),),
            by=ORGANISER,
        ),
        Target(
            sheet_url(night, waiting),
            ({**scores_post((160, 30, 35, 15)), "confirm_now": "on", "version": "new"},),
            by=ORGANISER,
        ),
    ]


def black_spy_sheet_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    return {
        **number_fields(4, low=-60, high=300),
        "stopped": CHECKBOX,
        "confirm_now": CHECKBOX,
        "note": TEXT,
        "version": choices("new", version_of(fw.w.reported_table), "1.1", "0.0"),
    }


def generic_sheet_targets(fw: FormsWorld) -> list[Target]:
    event, table = fw.tables["mister-spy"]
    return [
        Target(
            sheet_url(event, table),
            (scores_post((33, 10, 4)), {"place_0": "1", "place_1": "2", "place_2": "3"}),
        )
    ]


def spycatcher_targets(fw: FormsWorld) -> list[Target]:
    event, table = fw.tables["spycatcher"]
    won = {f"perm_2_{kind}": "on" for kind in SUITS} | {"perm_0_court": "on", "winner": "2"}
    return [Target(sheet_url(event, table), (won, {"perm_1_press": "on", "winner": "none"}))]


def spycatcher_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    return {
        **{f"perm_{i}_{kind}": CHECKBOX for i in range(3) for kind in SUITS},
        "winner": choices("0", "1", "2", "none", "3"),
        **{f"place_{i}": ints(1, 3) for i in range(3)},
    }


VP = {"G": 12, "I": 20, "R": 8, "F": 20, "B": 3}
MONEY = {"G": 1, "I": 2, "R": 3, "F": 5, "B": 0}


def spies_targets(fw: FormsWorld) -> list[Target]:
    event, table = fw.tables["spies"]
    sheet = {f"vp_{c}": str(v) for c, v in VP.items()} | {f"money_{c}": str(m) for c, m in MONEY.items()}
    return [Target(sheet_url(event, table), (sheet, sheet | {"run_0": "2", "run_1": "1", "run_2": "0"}))]


def spies_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    return {
        **{f"vp_{c}": ints(-5, 60) for c in POWER_CODES},
        **{f"money_{c}": ints(-5, 40) for c in POWER_CODES},
        **{f"run_{g}": ints(0, 3) for g in range(3)},
    }


def table_targets(name: str, *, accepted: set[str]) -> Callable[[FormsWorld], list[Target]]:
    """The world's tables; sid sits at all but the scorepad's, and posts to those in ``accepted``."""

    def targets(fw: FormsWorld) -> list[Target]:
        w = fw.w
        tables = {
            "reported": (w.open, w.reported_table),  # sue entered its result
            "waiting": (w.night, w.waiting_table),  # no result yet
            "finished": (w.finished, w.finished_table),  # confirmed, the event over
            "draft": (w.cup, w.draft_table),  # a draft round's
            "pad": (w.open, w.pad_table),  # kept on a scorepad; sid is not at it
        }
        return [
            Target(reverse(name, args=[e.pk, t.pk]), refused=key not in accepted)
            for key, (e, t) in tables.items()
        ]

    return targets


def pad_new_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    sid = w.player(SEATED)
    assert sid is not None
    friendly = {"player_0": str(sid.pk), "name_1": "Ann", "name_2": "Ben", "player_3": str(w.guests[0].pk)}
    # Digits int() cannot read, in a player's id (once a 500).
    unreadable = (friendly | {"player_0": "²"}, friendly | {"player_0": "--5"})
    in_club = friendly | {"club": str(w.club_a.pk), "going_back": "on"}
    return [
        # New names in a club become its guests, whom only its scorers and organisers add: the
        # seated player is refused there (once the side door to a club's guests).
        Target(reverse("scores:pad-new"), (friendly,), tricky=(*unreadable, in_club)),
        Target(reverse("scores:pad-new"), (in_club,), by=SCORER),
        Target(reverse("scores:pad-new"), ({"game": "spy-vs-spy", "name_0": "Ann", "name_1": "Ben"},)),
        Target(reverse("scores:pad-new"), ({"table": str(w.waiting_table.pk)},)),
        Target(f"{reverse('scores:pad-new')}?table={w.waiting_table.pk}", ({},)),
    ]


def pad_new_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    w = fw.w
    players = ids(*pads.players_for(w.users[SEATED]), w.users[STRANGER].player)
    out: dict[str, SearchStrategy[str]] = {}
    for i in range(6):
        out[f"player_{i}"] = players
        out[f"name_{i}"] = choices("Ann", "Ben", "Cy", "Di", "ann ")
    variants = ("no_good_spies", "capture_or_release", "going_back", "the_mole", "calling_color")
    out |= dict.fromkeys((*variants, "following_rank", "half_decks"), CHECKBOX)
    out["end_value"] = ints(1, 400)
    out["game"] = choices("black-spy", "spy-vs-spy", "mister-spy", "chess")
    out["club"] = ids(w.club_a, w.club_b)
    out["table"] = ids(w.waiting_table, w.pad_table, w.draft_table, w.finished_table)
    return out


def pad_url(pad: Scorepad, name: str = "scores:pad-deal") -> str:
    return reverse(name, args=[pad.pk])


def points_post(*points: int, **extra: str) -> dict[str, str]:
    return {f"points_{i}": str(p) for i, p in enumerate(points)} | {"mode": "points"} | extra


def deal_points_targets(fw: FormsWorld) -> list[Target]:
    return [
        Target(
            pad_url(fw.deal_pad),
            (points_post(40, 10, 5, 5), points_post(60, 0, 0, 0)),
            by=SCORER,
            # A choice the pad does not offer, stored with the deal (too long for its column).
            tricky=(points_post(40, 10, 5, 5, choice="x" * 50),),
        ),
        Target(pad_url(fw.w.pad), (points_post(20, 10, 25, 5),), by=SCORER),
        Target(pad_url(fw.w.done_pad), (points_post(20, 10, 25, 5),), refused=True),  # the game is over
    ]


def deal_taken_targets(fw: FormsWorld) -> list[Target]:
    # Four players: six Black Spies (60) and two coloured Spies (-10) to one, the other black
    # cards (1-6 and 8-11: 20 points) and two coloured Spies to another, nothing to the others.
    taken = {"mode": "taken", "spies_0": "6", "coloured_0": "2", "spies_1": "0", "coloured_1": "2"}
    taken |= {"spies_2": "0", "coloured_2": "0", "spies_3": "0", "coloured_3": "0"}
    ranks = {"ranks_1": ["1", "2", "3", "4", "5", "6", "8", "9", "10", "11"]}
    return [
        Target(pad_url(fw.deal_pad), (taken | ranks,), by=SCORER),
        Target(
            pad_url(fw.w.pad), (taken | ranks,), by=SCORER, tricky=(taken | ranks | {"choice": "x" * 50},)
        ),
    ]


def deal_correction_targets(fw: FormsWorld) -> list[Target]:
    return [
        Target(pad_url(fw.deal_pad), (points_post(25, 10, 20, 5, number="1"),), by=SCORER),
        Target(pad_url(fw.w.done_pad), (points_post(20, 10, 25, 5, number="1"),), by=SCORER),
        Target(pad_url(fw.race_pad), (points_post(-4, 2, 6, number="1", first="0"),)),
    ]


def race_targets(fw: FormsWorld) -> list[Target]:
    return [
        Target(pad_url(fw.race_pad), (points_post(-4, 2, 9, first="0"), points_post(3, -4, 6, first="1")))
    ]


def deal_fields(players: int = 4) -> Callable[[FormsWorld], dict[str, SearchStrategy[str]]]:
    def fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
        out: dict[str, SearchStrategy[str]] = {"mode": choices("points", "taken", "other")}
        for i in range(players):
            out[f"points_{i}"] = ints(-80, 80)
            out[f"spies_{i}"] = ints(0, 16)
            out[f"coloured_{i}"] = ints(0, 4)
            out[f"ranks_{i}"] = ints(0, 12)
        out |= {"choice": choices("", "give", "subtract", "take"), "number": ints(0, 4), "first": ints(0, 4)}
        return out

    return fields


def pad_confirm_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    return [
        Target(pad_url(pad, "scores:pad-confirm"), refused=pad != w.done_pad)  # the others are not over
        for pad in (w.done_pad, w.pad, fw.deal_pad, fw.race_pad)
    ]


def event_create_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    full = {
        "name": "Autumn Open",
        "game": "black-spy",
        "kind": "tournament",
        "format": "swiss",
        "rounds": "5",
        "table_size": "4",
        "bye_rule": "win",
        "uneven": "shorter",
        "advance": "2",
        "groups": "0",
        "points_by_place": "4,2,1,0",
        "tiebreaks": "game_points,wins",
        "starts": "2026-10-01T19:00",
        "league": str(w.league.pk),
    }
    minimal = {k: full[k] for k in ("name", "game", "kind", "format", "rounds", "table_size", "bye_rule")}
    knockout = minimal | {"format": "knockout", "game": "spy-vs-spy", "table_size": "2", "advance": "1"}
    heats = minimal | {"format": "knockout", "advance": "2", "uneven": "longer"}
    groups = knockout | {"format": "groups_knockout", "groups": "3", "advance": "2"}
    return [
        Target(
            reverse("tournaments:create", args=[w.club_a.slug]),
            (full, minimal, knockout, heats, groups),
            by=ORGANISER,
        ),
        Target(reverse("tournaments:create", args=[w.club_b.slug]), (minimal,), by=ORGANISER, refused=True),
    ]


def event_create_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    return {
        "name": choices("Open", "Night", "x" * 120, "x" * 121),
        "game": choices(*[e.slug for e in engines()], "chess"),
        "kind": choices(*Event.Kind.values),
        "format": choices(*Event.Format.values),
        "rounds": ints(1, 30),
        "table_size": ints(2, 6),
        "bye_rule": choices(*Event.ByeRule.values),
        "advance": ints(1, 5),
        "groups": ints(-1, 65),
        "uneven": choices(*Event.Uneven.values, "sideways"),
        "points_by_place": choices("4,2,1,0", "3,1", "1e309,2,1,0", "nan,1,0,0", "4;2;1;0", "-1,-2,-3,-4"),
        "tiebreaks": choices("wins", "wins,wins", "game_points,wins", "nonsense", "head_to_head"),
        "starts": choices("2026-10-01T19:00", "2026-02-30T19:00", "9999-12-31T23:59", "0001-01-01T00:00"),
        "league": ids(fw.w.league, 999999),
    }


def event_settings_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w

    def url(event: Event) -> str:
        return reverse("tournaments:settings", args=[event.pk])

    return [
        Target(
            url(w.open),
            (
                settings_post(w.open, tiebreaks=["tournament_points", "wins"], bye_rule="draw"),
                settings_post(w.open, move="up:wins"),
                settings_post(w.open, name="Alpha Open 2026", points_by_place="5, 3, 1, 0", rounds="4"),
            ),
            by=ORGANISER,
        ),
        Target(
            url(w.spring),
            (settings_post(w.spring, table_size="5", points_by_place="", format="knockout", advance="2"),),
            by=ORGANISER,
        ),
        # Over: its ranking no longer changes.
        Target(url(w.finished), (settings_post(w.finished, tiebreaks=["wins"]),), by=ORGANISER, refused=True),
    ]


def event_settings_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    tiebreaks = choices(*TIEBREAKS, "coin_toss")
    return {
        "name": choices("Open", "x" * 120, "x" * 121),
        "kind": choices(*Event.Kind.values, "party"),
        "starts": choices("2026-10-01T19:00", "2026-02-30T19:00", "9999-12-31T23:59", "0001-01-01T00:00"),
        "league": ids(fw.w.league, 999999),
        "rounds": ints(0, 31),
        "points_by_place": choices("4, 2, 1, 0", "3,1", "1e309,2,1,0", "nan,1,0,0", "4;2;1;0", "-1,-2,-3,-4"),
        "bye_rule": choices(*Event.ByeRule.values),
        "format": choices(*Event.Format.values),
        "table_size": ints(1, 7),
        "uneven": choices(*Event.Uneven.values, "sideways"),
        "advance": ints(0, 6),
        "groups": ints(-1, 65),
        "order": tiebreaks,
        "tiebreaks": tiebreaks,
        "move": choices(
            "up:wins", "down:tournament_points", "up:head_to_head", "up:coin_toss", "sideways:wins"
        ),
    }


def league_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    full = {"name": "Winter League", "game": "black-spy", "starts": "2026-01-01", "ends": "2026-03-01"}
    return [
        Target(
            reverse("tournaments:league-create", args=[w.club_a.slug]),
            (full, {"name": "Any game"}),
            by=ORGANISER,
        ),
        Target(
            reverse("tournaments:league-create", args=[w.club_b.slug]),
            ({"name": "Theirs"},),
            by=ORGANISER,
            refused=True,
        ),
    ]


def league_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    dates = choices("2026-01-01", "2025-12-31", "2026-02-30", "9999-12-31", "0001-01-01")
    return {
        "name": choices("League", "x" * 121),
        "game": choices("", "black-spy", "spies", "chess"),
        "starts": dates,
        "ends": dates,
        "description": TEXT,
    }


def entrant_add_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    gus = w.unentered_guest
    assert gus is not None

    def url(event: Event) -> str:
        return reverse("tournaments:entrant-add", args=[event.pk])

    return [
        Target(
            url(w.spring),
            ({"player": str(gus.pk)}, {"player": [str(gus.pk), str(w.guests[5].pk)]}),
            by=ORGANISER,
        ),
        Target(url(w.spring), ({},)),
        Target(url(w.open), ({"player": str(gus.pk)},), by=ORGANISER),
        Target(url(w.finished), ({},), refused=True),
    ]


def players_field(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    w = fw.w
    return {"player": ids(*w.guests[:6], w.unentered_guest, w.users[STRANGER].player, 999999)}


def entrant_update_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    sid = w.player(SEATED)
    assert sid is not None
    mine = w.entrant(w.open, sid)
    guest = w.entrant(w.spring, w.guests[0])
    other_event = w.entrant(w.cup, sid)

    def url(event: Event, entrant: Entrant) -> str:
        return reverse("tournaments:entrant-update", args=[event.pk, entrant.pk])

    return [
        Target(url(w.open, mine), ({"do": "check_in"}, {"do": "check_out"}, {"do": "drop"})),
        Target(url(w.spring, guest), ({"do": "drop"}, {"do": "check_in"}), by=ORGANISER),
        Target(url(w.open, other_event), ({"do": "check_in"},), refused=True),  # another event's entrant
    ]


def entrant_update_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    return {"do": choices("check_in", "check_out", "drop", "delete")}


def pair_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w

    def url(event: Event) -> str:
        return reverse("tournaments:pair", args=[event.pk])

    return [
        Target(url(w.spring), by=ORGANISER),
        Target(url(w.cup), by=ORGANISER),  # gives its draft back
        Target(url(w.open), by=ORGANISER, refused=True),  # round 1 still waits for results
        Target(url(w.finished), by=ORGANISER, refused=True),  # over
    ]


def check_in_all_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    return [
        Target(reverse("tournaments:check-in-all", args=[w.open.pk]), by=ORGANISER),
        Target(reverse("tournaments:check-in-all", args=[w.finished.pk]), by=ORGANISER, refused=True),
    ]


PLAYERS_FILE = "name;rating\nNell Newcomer;1500\nGus Unentered;\n"


def import_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w

    def url(event: Event) -> str:
        return reverse("tournaments:import", args=[event.pk])

    return [
        Target(url(w.spring), ({"text": PLAYERS_FILE},), by=ORGANISER),  # the preview: nothing written
        Target(url(w.open), ({"text": "name\nLate Lou\n"},), by=ORGANISER),  # a late entry in a Swiss
        Target(url(w.finished), ({"text": PLAYERS_FILE},), by=ORGANISER, refused=True),  # over
        Target(url(w.spring), ({},), by=ORGANISER, refused=True),  # neither a file nor lines
    ]


def import_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    lines = ["name\nAda", "Name;Username\n;sid", "name,rating\nAda,abc", "first name;last name\nA;B"]
    return {"text": choices(PLAYERS_FILE, *lines, "phone\n1", "name\n" + "x" * 90, "\ufeffname\r\nAda\r\n")}


def import_confirm_targets(fw: FormsWorld) -> list[Target]:
    from spyleague.tournaments import imports

    w = fw.w
    olga = w.users[ORGANISER]
    token = imports.preview(user=olga, event=w.spring, data=PLAYERS_FILE.encode()).token
    return [
        Target(
            reverse("tournaments:import-confirm", args=[w.spring.pk]),
            ({"token": token}, {"token": token, "check_in": "on"}),
            by=ORGANISER,
            tricky=({"token": token[:-2]}, {"token": ""}),
        ),
    ]


def import_confirm_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    return {"token": choices("x", "", "a:b:c"), "check_in": CHECKBOX}


def self_check_in_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w

    def url(event: Event) -> str:
        return reverse("tournaments:self-check-in", args=[event.pk])

    return [
        Target(url(w.open)),  # sid is entered: checked in (twice: nothing new)
        Target(url(w.open), by=STRANGER, refused=True),  # not entered, and not asking to enter
        Target(url(w.open), valid=({"enter": "1"},), by=STRANGER),  # a walk-in: entered, checked in
        Target(url(w.cup), refused=True),  # its round is a draft: closed
        Target(url(w.cup), valid=({"enter": "1"},), by=STRANGER, refused=True),  # closed: not entered
        Target(url(w.finished), refused=True),  # over
    ]


def self_check_in_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    return {"enter": choices("1", "0", "", "yes", "1\x00")}


def finish_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w

    def url(event: Event) -> str:
        return reverse("tournaments:finish", args=[event.pk])

    return [
        Target(url(w.spring), by=ORGANISER),
        Target(url(w.cup), by=ORGANISER),  # its draft is discarded
        Target(url(w.finished), by=ORGANISER),  # finishing twice changes nothing
        Target(url(w.open), by=ORGANISER, refused=True),  # round 1 still waits for results
    ]


def round_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    a, b = w.cup_swap
    cup = reverse("tournaments:round-action", args=[w.cup.pk, w.draft_round.number])
    running = reverse("tournaments:round-action", args=[w.open.pk, w.open_round.number])
    return [
        Target(
            cup,
            ({"do": "publish"}, {"do": "discard"}, {"do": "swap", "a": str(a), "b": str(b)}),
            by=ORGANISER,
            # A player swapped with themself (once a ValueError of the pairing code: 500); ids
            # written with digits int() cannot read (once a 500).
            tricky=(
                {"do": "swap", "a": str(a), "b": str(a)},
                {"do": "swap", "a": "¹", "b": str(b)},
                {"do": "swap", "a": "--5", "b": str(b)},
            ),
        ),
        Target(running, ({"do": "publish"},), by=ORGANISER),  # published already: nothing to do
        # The cup's entrants are not this round's.
        Target(running, ({"do": "swap", "a": str(a), "b": str(b)},), by=ORGANISER, refused=True),
    ]


def round_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    w = fw.w
    entrants = ids(*Entrant.objects.filter(event__in=[w.cup, w.open]), 999999)
    return {"do": choices("publish", "discard", "swap", "pair"), "a": entrants, "b": entrants}


def club_create_targets(fw: FormsWorld) -> list[Target]:
    full = {"name": "Gamma Club", "city": "Frome", "description": "Thursdays."}
    return [Target(reverse("clubs:create"), (full, {"name": "Alpha Club"}, {"name": "Delta"}))]


def club_create_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    return {
        "name": choices("Gamma", "Alpha Club", "alpha-club", "!!!", "x" * 100, "x" * 101),
        "city": choices("Bath", "y" * 81),
        "description": TEXT,
    }


def club_targets(name: str) -> Callable[[FormsWorld], list[Target]]:
    def targets(fw: FormsWorld) -> list[Target]:
        w = fw.w
        return [Target(reverse(name, args=[c.slug])) for c in (w.club_a, w.club_b)]

    return targets


def guest_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    return [
        Target(reverse("clubs:guest-add", args=[w.club_a.slug]), ({"name": "Gwen Guest"},), by=ORGANISER),
        Target(
            reverse("clubs:guest-add", args=[w.club_b.slug]),
            ({"name": "Gwen Guest"},),
            by=ORGANISER,
            refused=True,
        ),
    ]


def role_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    sid = w.membership(SEATED)
    olga = w.membership(ORGANISER)
    bea = Membership.objects.get(club=w.club_b)

    def url(club: Any, membership: Membership) -> str:
        return reverse("clubs:member-role", args=[club.slug, membership.pk])

    return [
        Target(url(w.club_a, sid), ({"role": "scorer"}, {"role": "organiser"}), by=ORGANISER),
        Target(url(w.club_a, olga), ({"role": "organiser"},), by=ORGANISER),
        Target(url(w.club_a, bea), ({"role": "player"},), by=ORGANISER, refused=True),  # another club's
    ]


def match_new_targets(fw: FormsWorld) -> list[Target]:
    valid = (
        {"game": "black-spy", "seats": "4", "fill_with_bots": "on", "bot": "heuristic"},
        {"game": "mister-spy", "seats": "2", "bot": "random", "opt-mister-spy-dealer": "1"},
        {"game": "spycatcher", "seats": "3", "bot": "heuristic", "opt-spycatcher-hand_size": "5"},
        {"game": "spies", "seats": "2", "bot": "heuristic", "opt-spies-turn_minutes": "5"},
        {"game": "spy-vs-spy", "seats": "2", "bot": "heuristic", "opt-spy-vs-spy-half_decks": "on"},
    )
    return [Target(reverse("play:new"), valid)]


def match_new_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    out: dict[str, SearchStrategy[str]] = {
        "game": choices(*[e.slug for e in engines()], "race-to-ten", "chess"),
        "seats": ints(1, 6),
        "fill_with_bots": CHECKBOX,
        "bot": choices("heuristic", "random", "oracle"),
    }
    for engine in engines():
        for option in option_fields(engine.slug):
            out[option["name"]] = CHECKBOX if option["kind"] == "bool" else ints(-2, 200)
    return out


def legal_actions(match: Match, seat: int) -> list[str]:
    return [json.dumps(a) for a in match_picture(match=match, seat=seat).legal]


def act_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    playing = fw.playing
    valid = tuple({"action": a, "version": str(playing.version)} for a in legal_actions(playing, 0)[:4])
    # No "type" beside the cards ticked: once a KeyError (500).
    chosen = ({"action": '{"cards": "__chosen__"}', "cards": ["a", "b"]},)
    return [
        Target(reverse("play:act", args=[playing.pk]), valid, tricky=chosen),
        Target(reverse("play:act", args=[w.open_match.pk]), ({"action": '{"type": "pass"}'},), refused=True),
        Target(
            reverse("play:act", args=[w.finished_match.pk]),
            ({"action": '{"type": "add", "n": 1}'},),
            refused=True,
        ),
    ]


def act_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    actions = [*legal_actions(fw.playing, 0), *legal_actions(fw.playing, 1)]
    forged = [
        '{"type": "play", "cards": "__chosen__"}',
        '{"cards": "__chosen__"}',
        '{"type": "play", "card": 100000000000000000000000000000}',
        '{"type": null}',
        '{"type": ["play"]}',
        "[1, 2, 3]",
        '"play"',
        "1e999",
        "[" * 50 + "]" * 50,
        '{"type": "play", "card": NaN}',
    ]
    return {
        "action": st.sampled_from(actions + forged),
        "version": choices(str(fw.playing.version), "0", "-1", str(2**63)),
        "cards": TEXT,
    }


def match_targets(
    name: str, valid: tuple[dict[str, Any], ...] = ({},), by: str = SEATED
) -> Callable[[FormsWorld], list[Target]]:
    """sid's open match (two free seats), taken by ``by``; the race and the finished match refuse."""

    def targets(fw: FormsWorld) -> list[Target]:
        w = fw.w
        return [
            Target(reverse(name, args=[m.pk]), valid, by=by, refused=m != w.open_match)
            for m in (w.open_match, w.race_match, w.finished_match)
        ]

    return targets


def bot_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    return {"seat": ints(0, 3), "bot": choices("heuristic", "random", "", "oracle")}


def race_act_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    race = w.race_match
    valid = tuple({"action": a, "card": w.race_card} for a in legal_actions(race, 0)[:4])
    return [
        Target(reverse("play:race-act", args=[race.pk]), valid or ({},)),
        Target(
            reverse("play:race-act", args=[fw.playing.pk]),
            ({"action": legal_actions(fw.playing, 0)[0]},),
            refused=True,
        ),
    ]


def race_act_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    race = fw.w.race_match
    return {
        "action": st.sampled_from(
            [*legal_actions(race, 0), '{"type": "place"}', '{"type": "place", "pile": 99}', "[]"]
        ),
        "card": choices(fw.w.race_card, "Q", "", "joker"),
    }


def race_tick_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    return [
        Target(reverse("play:race-tick", args=[w.race_match.pk]), ({}, {"v": board_key(w.race_match)})),
        Target(reverse("play:race-tick", args=[fw.playing.pk]), refused=True),  # not a race
    ]


def resign_targets(fw: FormsWorld) -> list[Target]:
    """sid resigns the Mister Spy match under way; an open match and a finished one refuse."""
    w = fw.w
    return [
        Target(reverse("play:resign", args=[fw.playing.pk]), ({"version": str(fw.playing.version)}, {})),
        Target(reverse("play:resign", args=[w.open_match.pk]), refused=True),
        Target(reverse("play:resign", args=[w.finished_match.pk]), refused=True),
    ]


def abandon_targets(fw: FormsWorld) -> list[Target]:
    """sid abandons the matches sid created; a finished one refuses."""
    w = fw.w
    return [
        Target(reverse("play:abandon", args=[w.open_match.pk]), ({"reason": "closing time"}, {})),
        Target(reverse("play:abandon", args=[fw.playing.pk]), ({"reason": ""},)),
        Target(reverse("play:abandon", args=[w.finished_match.pk]), refused=True),
    ]


def rematch_targets(fw: FormsWorld) -> list[Target]:
    w = fw.w
    return [
        Target(reverse("play:rematch", args=[w.finished_match.pk])),
        Target(reverse("play:rematch", args=[fw.playing.pk]), refused=True),  # not over
    ]


def board_key(match: Match) -> str:
    """The board's key a race page sends with its ticks (the board is then 204 when current)."""
    return f"{match.version}-{match.status}-{match.updated.timestamp():.3f}"


def signup_targets(fw: FormsWorld) -> list[Target]:
    new = {"username": "newbie", "name": "New Bie", "email": "new@example.com"}
    new |= {"password1": "a-long-passphrase-77", "password2": "a-long-passphrase-77"}
    return [Target(reverse("signup"), (new, new | {"email": ""}), by=ANONYMOUS)]


def signup_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    passwords = choices("a-long-passphrase-77", "short", "password", "")
    return {
        "username": choices("newbie", "sid", "SID", "new bie", "n" * 151, "newbie@+.-_"),
        "name": choices("New Bie", "n" * 81),
        "email": choices("new@example.com", "not-an-email", "a@b", ""),
        "password1": passwords,
        "password2": passwords,
    }


def login_targets(fw: FormsWorld) -> list[Target]:
    return [Target(reverse("login"), ({"username": "sid", "password": PASSWORD},), by=ANONYMOUS)]


def login_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    return {
        "username": choices("sid", "olga", "nobody", "SID"),
        "password": choices(PASSWORD, "wrong"),
        "next": choices("/", "/clubs/", "https://evil.example/", "//evil.example"),
    }


def profile_targets(fw: FormsWorld) -> list[Target]:
    full = {"name": "Sid Seated", "email": "sid@example.com", "birth_year": "1990"}
    return [Target(reverse("profile"), (full, {"name": "Sid"}))]


def profile_fields(fw: FormsWorld) -> dict[str, SearchStrategy[str]]:
    return {
        "name": choices("Sid", "s" * 80, "s" * 81),
        "email": choices("sid@example.com", "not-an-email", ""),
        "birth_year": ints(1890, 2110),
    }


def page(name: str, by: str = SEATED, refused: bool = False) -> Callable[[FormsWorld], list[Target]]:
    return lambda fw: [Target(reverse(name), by=by, refused=refused)]


FORMS: list[Form] = [
    # The table score sheet, for each kind of sheet, then its confirmation and online play.
    Form(
        "tournaments:sheet", "Black Spy sheet", black_spy_sheet_targets, black_spy_sheet_fields, examples=80
    ),
    Form(
        "tournaments:sheet",
        "a sheet of a score per seat (Mister Spy)",
        generic_sheet_targets,
        lambda fw: number_fields(3, low=-5, high=60),
    ),
    Form("tournaments:sheet", "Spycatcher sheet", spycatcher_targets, spycatcher_fields),
    Form("tournaments:sheet", "Spies! sheet", spies_targets, spies_fields),
    Form(
        "tournaments:confirm",
        "confirm a table's result",
        table_targets("tournaments:confirm", accepted={"reported", "finished"}),
    ),
    Form(
        "tournaments:online",
        "play a table online",
        table_targets("tournaments:online", accepted={"reported", "waiting"}),
        examples=20,
    ),
    # The scorepad.
    Form("scores:pad-new", "new scorepad", pad_new_targets, pad_new_fields, roles=PAD_ROLES, examples=70),
    Form("scores:pad-deal", "a deal in points", deal_points_targets, deal_fields(), roles=PAD_ROLES),
    Form("scores:pad-deal", "a deal as taken", deal_taken_targets, deal_fields(), roles=PAD_ROLES),
    Form("scores:pad-deal", "a correction", deal_correction_targets, deal_fields(), roles=PAD_ROLES),
    Form("scores:pad-deal", "a Spy vs Spy race", race_targets, deal_fields(3), roles=PAD_ROLES),
    Form("scores:pad-confirm", "confirm a scorepad", pad_confirm_targets, roles=PAD_ROLES, examples=20),
    # Events, leagues, entrants and rounds.
    Form("tournaments:create", "new event", event_create_targets, event_create_fields, examples=70),
    Form(
        "tournaments:settings",
        "an event's settings (tiebreaks in order)",
        event_settings_targets,
        event_settings_fields,
        examples=70,
    ),
    Form("tournaments:league-create", "new league", league_targets, league_fields),
    Form("tournaments:entrant-add", "add entrants", entrant_add_targets, players_field),
    Form("tournaments:entrant-update", "check in, out, drop", entrant_update_targets, entrant_update_fields),
    Form("tournaments:pair", "pair the next round", pair_targets, examples=20, htmx=True),
    Form("tournaments:finish", "finish the event", finish_targets, examples=20),
    Form("tournaments:check-in-all", "check in everyone", check_in_all_targets, examples=10),
    Form("tournaments:import", "import players: the preview", import_targets, import_fields, examples=25),
    Form(
        "tournaments:import-confirm",
        "import players: confirm the preview",
        import_confirm_targets,
        import_confirm_fields,
        examples=20,
    ),
    Form(
        "tournaments:self-check-in",
        "check oneself in (the screen's QR code), or enter and check in",
        self_check_in_targets,
        self_check_in_fields,
        examples=20,
    ),
    Form("tournaments:round-action", "publish, discard, swap", round_targets, round_fields, examples=60),
    # Clubs.
    Form("clubs:create", "new club", club_create_targets, club_create_fields),
    Form("clubs:join", "join a club", club_targets("clubs:join"), examples=15),
    Form("clubs:leave", "leave a club", club_targets("clubs:leave"), examples=15),
    Form(
        "clubs:guest-add",
        "add a guest",
        guest_targets,
        lambda fw: {"name": choices("Gwen", "g" * 80, "g" * 81)},
    ),
    Form(
        "clubs:member-role",
        "a member's role",
        role_targets,
        lambda fw: {"role": choices("organiser", "scorer", "player", "admin")},
    ),
    # The lobby and matches.
    Form("play:new", "new match", match_new_targets, match_new_fields, examples=70),
    Form("play:act", "a move", act_targets, act_fields, examples=60, htmx=True),
    Form("play:join", "take a seat", match_targets("play:join", by=STRANGER), examples=15, htmx=True),
    Form(
        "play:start",
        "start a match",
        match_targets("play:start", ({"bot": "heuristic"},)),
        bot_fields,
        htmx=True,
    ),
    Form(
        "play:bot",
        "a bot in a seat",
        match_targets("play:bot", ({"seat": "1", "bot": "random"},)),
        bot_fields,
        htmx=True,
    ),
    Form(
        "play:resign",
        "resign a match",
        resign_targets,
        lambda fw: {"version": choices(str(fw.playing.version), "0", "-1", "x", str(2**63))},
        examples=30,
    ),
    Form("play:abandon", "abandon a match", abandon_targets, lambda fw: {"reason": TEXT}, examples=30),
    Form("play:rematch", "a rematch", rematch_targets, examples=15, htmx=True),
    Form("play:race-act", "a racer's move", race_act_targets, race_act_fields, htmx=True),
    Form(
        "play:race-tick",
        "the race's tick",
        race_tick_targets,
        lambda fw: {"v": st.one_of(TEXT, st.just(board_key(fw.w.race_match)))},
        examples=15,
    ),
    # Accounts.
    Form("signup", "sign up", signup_targets, signup_fields),
    Form("login", "log in", login_targets, login_fields),
    Form("logout", "log out", page("logout"), examples=10),
    Form("profile", "profile", profile_targets, profile_fields),
    Form("token-create", "a new API token", page("token-create"), examples=10),
    Form("demo-load", "load the demo data", page("demo-load", refused=True), examples=10, htmx=True),
]


# --- asking ----------------------------------------------------------------------------------------


# The whole numbers each kind of column holds on PostgreSQL (SQLite keeps any 64-bit number).
INTEGER_RANGES = BaseDatabaseOperations.integer_field_ranges


def beyond_columns(labels: list[str]) -> list[str]:
    """Values in the rows of these models that PostgreSQL would refuse though SQLite keeps them:
    text longer than its column, whole numbers beyond their column's range. (The suite also runs
    on PostgreSQL, where such a write is a server error.)"""
    out = []
    for label in labels:
        model = apps.get_model(label)
        rows = model._base_manager.all()
        for f in model._meta.concrete_fields:
            if isinstance(f, CharField) and f.max_length:
                beyond = rows.annotate(_length=Length(f.attname)).filter(_length__gt=f.max_length)
            elif (limits := INTEGER_RANGES.get(f.get_internal_type())) is not None:
                low, high = limits
                beyond = rows.filter(Q(**{f"{f.attname}__lt": low}) | Q(**{f"{f.attname}__gt": high}))
            else:
                continue
            if beyond.exists():
                out.append(f"{label}.{f.name}")
    return out


@dataclass
class Asked:
    role: str
    url: str
    body: dict[str, Any]
    htmx: bool
    urlencoded: bool
    observed: Observed
    changed: list[str]
    server_error: str
    too_big: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        o = self.observed
        out = []
        if o.status >= 500 or self.server_error:
            out.append(f"a server error ({o.status})")
        if 400 <= o.status < 500 and o.status != 405 and not _says_why(o):
            out.append(f"a {o.status} without a reason in words")
        refused = 400 <= o.status < 500 or bool(o.error_flash) or 'class="errorlist' in o.body
        if refused and self.changed:
            out.append(f"refused ({o.got()}) but the database changed: {', '.join(self.changed)}")
        if 300 <= o.status < 400 and o.error_flash:
            out.append(f"a refusal answered with a redirect ({o.got()}), not a 4xx with the page")
        if self.too_big:
            out.append(f"stored what PostgreSQL's columns cannot hold: {', '.join(self.too_big)}")
        return out

    def report(self) -> str:
        o = self.observed
        how = ["urlencoded" if self.urlencoded else "multipart", *(["htmx"] if self.htmx else [])]
        lines = [
            f"POST {self.url} as {self.role} ({', '.join(how)})",
            f"  body: {_shown(self.body)}",
            f"  answer: {o.got()}: {o.excerpt()[:300]}",
        ]
        if self.server_error:
            lines.append("  server traceback:\n" + self.server_error)
        return "\n".join(lines)


def _says_why(o: Observed) -> bool:
    """The page, the fragment or the reason says why; Django's own page for a form sent without
    its CSRF token says it in words too ("CSRF verification failed")."""
    return says_why(o, api=False) or (o.status == 403 and "CSRF verification failed" in o.body)


def _shown(body: dict[str, Any]) -> str:
    def short(v: Any) -> Any:
        if isinstance(v, list):
            return [short(x) for x in v]
        return v if len(v) <= 60 else f"{v[:40]}...({len(v)} characters)"

    return repr({k: short(v) for k, v in body.items()})


def ask(
    fw: FormsWorld, role: str, url: str, body: dict[str, Any], htmx: bool = False, urlencoded: bool = False
) -> Asked:
    """Post ``body`` to ``url`` as ``role`` (as a browser's form does, urlencoded, or multipart) in a
    savepoint that is rolled back; what came back and which models it changed."""
    client = fw.clients[role]
    cookies = copy.deepcopy(client.cookies)
    headers: dict[str, Any] = {"HTTP_X_CSRFTOKEN": client.cookies["csrftoken"].value}
    if htmx:
        headers["HTTP_HX_REQUEST"] = "true"
    try:
        with transaction.atomic():
            written = rows_written()
            if urlencoded:
                encoded = urlencode(body, doseq=True)
                response = client.post(
                    url, encoded, content_type="application/x-www-form-urlencoded", **headers
                )
            else:
                response = client.post(url, body, **headers)
            changed, too_big = [], []
            if written is None or rows_written() != written:
                changed = changed_models(fw.baseline, fingerprint())
                too_big = beyond_columns(changed)
            transaction.set_rollback(True)
    finally:
        client.cookies = cookies
    exc_info = getattr(response, "exc_info", None)
    server_error = "".join(traceback.format_exception(*exc_info)) if exc_info else ""
    observed = Observed(
        status=response.status_code,
        location=response.get("Location", ""),
        body=response.content.decode(errors="replace"),
        content_type=response.get("Content-Type", ""),
        error_flash=error_flash(response),
        exception=server_error.strip().splitlines()[-1] if server_error else "",
    )
    return Asked(role, url, body, htmx, urlencoded, observed, changed, server_error, too_big)


def post_body(
    data: st.DataObject, valid: dict[str, Any], fields: dict[str, SearchStrategy[str]]
) -> dict[str, Any]:
    """A post the form accepts, then changed: fields left out, given other values, added."""
    body = dict(valid)
    if body:
        for name in data.draw(st.sets(st.sampled_from(sorted(body))), label="left out"):
            del body[name]
    if fields:
        body |= data.draw(
            st.fixed_dictionaries({}, optional={name: value_of(s) for name, s in fields.items()}),
            label="changed",
        )
    body |= data.draw(
        st.dictionaries(st.one_of(EXTRA_NAMES, TEXT.filter(bool)), value_of(EDGE), max_size=2), label="extra"
    )
    return body


# --- the tests -------------------------------------------------------------------------------------


def _routes(patterns: Any, prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str, URLPattern]]:
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _routes(entry.url_patterns, route, inner)
        elif isinstance(entry, URLPattern):
            yield route, f"{namespace}{entry.name}" if entry.name else "", entry


def takes_post(view: Any) -> bool:
    """A class-based view with a ``post`` method, or a view whose source (decorators included)
    mentions POST: ``@require_POST``, ``request.method == "POST"``, ``request.POST``."""
    view_class = getattr(view, "view_class", None)
    if view_class is not None:
        return callable(getattr(view_class, "post", None))
    return "POST" in inspect.getsource(inspect.unwrap(view))


def post_views() -> dict[str, str]:
    """URL name -> route, for every page whose view takes a POST (the API and the admin aside)."""
    out = {}
    for route, name, pattern in _routes(get_resolver().url_patterns):
        if route.startswith(("admin/", "api/")):
            continue
        if takes_post(pattern.callback):
            out[name or route] = route
    return out


def test_every_post_view_is_fuzzed() -> None:
    found = post_views()
    fuzzed = {form.name for form in FORMS}
    missing = sorted(set(found) - fuzzed)
    stale = sorted(fuzzed - set(found))
    assert not missing, f"views that take a POST without a form in FORMS: {[(n, found[n]) for n in missing]}"
    assert not stale, f"forms in FORMS whose view takes no POST (or is gone): {stale}"
    assert len(found) >= 30


def _form_id(form: Form) -> str:
    return f"{form.name} {form.label}"


@pytest.mark.parametrize("form", FORMS, ids=_form_id)
def test_the_posts_the_fuzzing_starts_from_are_answered_as_expected(
    form: Form, world: FormsWorld, db: Any
) -> None:
    """Each target's valid posts succeed for the role it names (a target kept to be refused is
    refused), and its tricky posts are refused with a reason: the fuzzing starts from the forms'
    real paths, not from refusals alone."""
    failures = []
    for target in form.targets(world):
        for body, refused in [
            *[(b, target.refused) for b in target.valid],
            *[(b, True) for b in target.tricky],
        ]:
            asked = ask(world, target.by, target.url, body)
            problems = asked.problems()
            if refused != (asked.observed.status >= 400):
                problems.append("refused" if asked.observed.status >= 400 else "accepted")
            if problems:
                failures.append(asked.report() + "\n  " + "; ".join(problems))
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("form", FORMS, ids=_form_id)
def test_any_post_gets_an_answer_that_says_why_and_a_refusal_changes_nothing(
    form: Form, world: FormsWorld, db: Any, quiet_logs: None
) -> None:
    targets = form.targets(world)
    fields = form.fields(world)
    seen: list[Asked] = []
    started = time.perf_counter()

    @settings(
        max_examples=form.examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
    @given(data=st.data())
    def post(data: st.DataObject) -> None:
        target = data.draw(st.sampled_from(targets), label="target")
        # Half the time the one the target's posts are for, so the fuzzing reaches past the door.
        role = data.draw(st.one_of(st.just(target.by), st.sampled_from(form.roles)), label="role")
        valid = data.draw(st.sampled_from(target.valid + target.tricky), label="starting from")
        body = post_body(data, valid, fields)
        htmx = form.htmx and data.draw(st.booleans(), label="htmx")
        asked = ask(
            world, role, target.url, body, htmx, urlencoded=data.draw(st.booleans(), label="urlencoded")
        )
        seen.append(asked)
        problems = asked.problems()
        assert not problems, asked.report() + "\n  " + "; ".join(problems)

    post()
    statuses = sorted({a.observed.status for a in seen})
    # The same requests every run: their digest is printed to compare runs.
    sent = hashlib.blake2b(repr([(a.url, a.role, a.body, a.htmx, a.urlencoded) for a in seen]).encode())
    print(
        f"{_form_id(form)}: {len(seen)} posts (digest {sent.hexdigest()[:12]}), answers {statuses}, "
        f"{time.perf_counter() - started:.1f}s"
    )
    if not all(t.refused for t in targets):
        assert any(a.observed.status < 400 for a in seen), f"{_form_id(form)}: nothing was ever accepted"


@pytest.mark.parametrize("text", ["²", "¹", "--5", "+-1", "5-", ""])
def test_whole_numbers_int_cannot_read_are_refused_not_a_server_error(text: str) -> None:
    """``whole_number`` took any ``isdigit`` text, and "²" is a digit int() cannot read (a 500)."""
    with pytest.raises(Refused, match="must be a whole number"):
        whole_number(text, what="The seat")
    assert whole_number("١٢", what="The seat") == 12  # decimal digits of any script, as int() reads them


def test_a_league_id_int_cannot_read_is_no_league(client: Client) -> None:
    assert client.get(reverse("ratings:leaderboards"), {"league": "²"}).status_code == 200
