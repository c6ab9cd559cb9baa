"""The event page's heavy parts, rendered once per version of the event (``core.cache``).

The page of a big event is read by everyone in the room, over and over, and changes when a
result is confirmed, a round published, a player entered: its standings (a page of them), its
round's tables (a page of them) and its entrants (a page of them) are rendered here from the
event's state and the viewer's *kind* alone, and kept under keys that carry the event's version
(and the site's, for names). What is the viewer's own (their table and line, "you are 2nd", the
forms with their CSRF token) is put in by the page around them (``tournaments.views``).

The kinds: ``organiser`` (the club's organisers see the draft round, its swaps and the buttons
that run the event) and ``public`` (everyone else: visitors, players, the event's own entrants).
A part never depends on the request: the parameters it shows are read from the address once,
as whole numbers (``Asked``), and its links are built from those alone.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.db.models import OuterRef, QuerySet
from django.http import Http404, HttpRequest, QueryDict
from django.template.defaultfilters import floatformat, pluralize
from django.template.loader import get_template
from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from ..core import cache
from . import selectors
from .event_settings import scoring_lines
from .models import Entrant, Event, Round, Seat, Table
from .selectors import (
    StandingLine,
    StandingsOrder,
    current_round,
    draft_notes,
    my_standing,
    round_tables,
    rounds_counted,
    rounds_get,
    standings_order,
    standings_page,
)

STANDINGS_PER_PAGE = selectors.STANDINGS_PER_PAGE
TABLES_PER_PAGE = 40
ENTRANTS_PER_PAGE = 50
ORGANISER, PUBLIC = "organiser", "public"
KEPT_NUMBERS = 500  # the pages, rounds and pages of tables whose parts are kept (see ``Asked.kept``)
TEMPLATE = "tournaments/event.html"


def _whole(raw: str | None) -> int | None:
    """A page or round number as the address gives it: a whole number of up to 5 digits, else
    nothing (the first page, the current round), so that no address makes a key of its own."""
    return int(raw) if raw and raw.isdecimal() and len(raw) <= 5 else None


@dataclass(frozen=True)
class Asked:
    """What the address asks the parts to show: ``page`` of the standings, ``round`` and its page
    of ``tables``, ``entrants``' page; ``swap``: the player an organiser tapped first on a draft."""

    page: int | None = None
    round: int | None = None
    tables: int | None = None
    entrants: int | None = None
    swap: int | None = None

    @classmethod
    def of(cls, request: HttpRequest, *, organiser: bool) -> Asked:
        get = request.GET
        swap = _whole(get.get("swap")) if organiser else None
        return cls(
            _whole(get.get("page")),
            _whole(get.get("round")),
            _whole(get.get("tables")),
            _whole(get.get("entrants")),
            swap,
        )

    def kept(self) -> bool:
        """Whether the parts of this address are kept: the page as it opens, or one page, round
        or page of tables asked for (of the first ``KEPT_NUMBERS``). So that no address makes keys
        of its own without end, any other address is rendered for its reader and not kept."""
        asked = [value for value in (self.page, self.round, self.tables, self.entrants, self.swap) if value]
        return len(asked) <= 1 and all(value <= KEPT_NUMBERS for value in asked)

    def query(self) -> QueryDict:
        """The address's parameters the parts' links keep (``{% querystring query ... %}``)."""
        query = QueryDict(mutable=True)
        for name in ("page", "round", "tables", "entrants", "swap"):
            value = getattr(self, name)
            if value is not None:
                query[name] = str(value)
        return query


# The parameters of the address each part shows; its links keep the others as they are.
OWN = {"standings": ("page",), "rounds": ("round", "tables", "swap"), "entrants": ("entrants",)}
# In a kept part's links, stands for the address's parameters that are not the part's own.
QUERY_MARK = "others-of-the-address"


def part_query(asked: Asked, part: str, *, kept: bool) -> QueryDict:
    """The parameters ``part``'s links are built from: the address's own (``Asked.query``) for a
    part rendered for one reader; for a kept one, its own parameters after ``QUERY_MARK``, which
    ``with_others`` turns into the reader's other parameters (so that the links come out as
    ``Asked.query`` would have made them: at most one parameter is kept, ``Asked.kept``)."""
    if not kept:
        return asked.query()
    query = QueryDict(mutable=True)
    query[QUERY_MARK] = "1"
    for name in OWN[part]:
        value = getattr(asked, name)
        if value is not None:
            query[name] = str(value)
    return query


def with_others(html: str, asked: Asked, part: str) -> str:
    """A kept part with ``QUERY_MARK`` in its links replaced by the reader's other parameters."""
    if QUERY_MARK not in html:
        return html
    others = asked.query()
    for name in OWN[part]:
        others.pop(name, None)
    encoded = str(conditional_escape(others.urlencode()))
    html = html.replace(f"{QUERY_MARK}=1&amp;", f"{encoded}&amp;" if encoded else "")
    return html.replace(f"{QUERY_MARK}=1", encoded)


def event_versions(pk: int) -> tuple[str, str, str, str]:
    """The versions an event's page depends on: the site's names, the event's state, its
    results (its tables) and its standings."""
    return ("site", f"event:{pk}", f"results:{pk}", f"standings:{pk}")


def event_kept(pk: int) -> Event:
    """The event with its club, kept at the versions of its state and the site's names (every
    save of an event moves its version on); Http404 when there is none."""

    def read() -> Event | None:
        return Event.objects.select_related("club").filter(pk=pk).first()

    event: Event | None = cache.kept(("site", f"event:{pk}"), f"event-row:{pk}", read)
    if event is None:
        raise Http404("No such event.")
    return event


def _event_base(event: Event) -> str:
    """The start of every kept key of the event: its id and its creation time (an id used again,
    as SQLite may reuse a deleted row's, is another key)."""
    return f"event:{event.pk}.{event.created.timestamp():.6f}"


def _event_key(event: Event, site: str, state: str) -> str:
    """The start of every kept part's key of the event: ``_event_base``, the site's and its own
    version."""
    return f"{_event_base(event)}:{site}.{state}"


def _keys(event: Event, kind: str, asked: Asked) -> tuple[dict[str, str], dict[str, str]] | None:
    """Each part's key: the versions it depends on, the viewer's kind, what the address asks;
    and where each shared part's last rendering is kept, whatever its versions (what a reader
    is shown while another renders the part at a version just moved on: ``cache.parts``).

    A result confirmed or corrected moves the event's results on (its tables) when it is
    recorded, and its standings when they are written after it: the round's tables are rendered
    again for the one, the standings for the other, and the entrants' list, which neither
    changes, only when the event changes (an entry, a drop, a check-in, a round, its settings)."""
    names = event_versions(event.pk)
    found = cache.versions(*names) if asked.kept() else None
    if found is None:
        return None
    site, state, results, standings = (found[name] for name in names)
    base = _event_key(event, site, state)
    # Each part's key holds the parameters it shows (its own); the others its links keep are a
    # mark in it (``QUERY_MARK``), put in for each reader: the tables of the round shown are the
    # same part whichever page of the standings the address asks for.
    own = {part: ":".join(str(getattr(asked, name)) for name in names) for part, names in OWN.items()}
    shown = {
        "standings": f"standings:{own['standings']}",  # the same for every kind
        "rounds": f"rounds:{kind}:{own['rounds']}",
        "entrants": f"entrants:{kind}:{own['entrants']}",
    }
    keys = {
        "standings": f"{base}.s{standings}:{shown['standings']}",
        "rounds": f"{base}.r{results}:{shown['rounds']}",
        "entrants": f"{base}:{shown['entrants']}",
        "own": f"{base}.s{standings}:line",  # and the viewer's entry
        "order": _order_key(base, standings),  # the standings' order (names break ties)
    }
    return keys, {part: f"{_event_base(event)}:{name}" for part, name in shown.items()}


def _order_key(base: str, standings: str) -> str:
    """The key of the standings' order kept at a version: one for the page and the API alike."""
    return f"{base}.s{standings}:order"


def _render(part: str, context: dict[str, Any]) -> SafeString:
    context = {**context, "csrf_token": cache.CSRF_MARK}
    return mark_safe(get_template(f"{TEMPLATE}#{part}").render(context))


# Stands for a line's place in its rendered row: a result moves the places of every line between
# the old place and the new one, but the figures of a few lines only (its players', and their
# opponents' tiebreaks), so a row is kept without its place and the place is put in after.
PLACE_MARK = "place-of-the-row"


def _standing(line: StandingLine, show_bh1: bool, show_sb: bool) -> tuple[Any, ...]:
    """What a line of the standings shows (``standing_row``), in its order; its place as
    ``PLACE_MARK`` (``_standing_row``)."""
    return (
        line.entrant_id,
        PLACE_MARK,
        line.player_id,
        line.name,
        line.dropped,
        line.byes,
        line.points,
        line.game_points,
        line.opponents_average,
        line.buchholz_cut1,
        line.sonneborn_berger,
        line.wins,
        line.games,
        show_bh1,
        show_sb,
    )


Order = Callable[[], StandingsOrder | None]


def render_standings(event: Event, asked: Asked, order: Order, query: QueryDict) -> SafeString:
    kept = order()
    if kept is not None:  # the page's rows read by id, their places from the kept order
        standings = kept.page(event=event, page=asked.page, per_page=STANDINGS_PER_PAGE)
    else:
        standings = standings_page(event=event, page=asked.page, per_page=STANDINGS_PER_PAGE)
    show_bh1, show_sb = "buchholz_cut1" in event.tiebreaks, "sonneborn_berger" in event.tiebreaks
    rows = [_standing_row(line, show_bh1, show_sb) for line in standings.lines]
    context = {
        "event": event,
        "standings": standings,
        "rows": rows,
        "scoring": scoring_lines(event),
        "query": query,
    }
    return _render("standings_table", context)


def _standing_row(line: StandingLine, show_bh1: bool, show_sb: bool) -> SafeString:
    html = cache.row(f"{TEMPLATE}#standing_row", _standing(line, show_bh1, show_sb), render=standing_row_html)
    return mark_safe(html.replace(PLACE_MARK, str(line.rank), 1))


NONE = "\N{EN DASH}"  # a tiebreak not worked out


@functools.lru_cache(maxsize=4096)  # a few hundred bytes each: about 1 MB when full
def _figure(value: Any, places: str, language: str | None) -> str:
    return str(floatformat(value, places))


@functools.lru_cache(maxsize=4096)
def _player_url(player: int, prefix: str) -> str:
    return reverse("clubs:player", args=[player])


def standing_row_html(values: tuple[Any, ...]) -> SafeString:
    """``standing_row`` of ``event.html``, drawn here: the template is the row's definition (a
    test renders both over random lines and finds them the same), this its fast way. The
    standings' rows are rendered again whenever a result moves their figures, fifty to a page
    and a page per version, and Django's template costs a third of a millisecond a row; this a
    few hundredths."""
    entrant, rank, player, name, dropped, byes, points, game_points, average, bh1, sb, wins, games = values[
        :13
    ]
    show_bh1, show_sb = values[13], values[14]
    language = translation.get_language()
    e = conditional_escape
    href = _player_url(player, get_script_prefix())
    out = [
        f'\n        <tr data-entrant="{e(entrant)}"><td class="num">{e(rank)}</td>'
        f'<td><a href="{e(href)}">{e(name)}</a>'
    ]
    if dropped:
        out.append(' <small class="muted">(dropped)</small>')
    if byes:
        out.append(f' <small class="muted">{e(byes)} bye{pluralize(byes)}</small>')
    out.append(
        f'</td>\n        <td class="num">{_figure(points, "-1", language)}</td>'
        f'<td class="num">{_figure(game_points, "-1", language)}</td>\n        '
        f'<td class="num">{_figure(average, "2", language)}</td>'
    )
    if show_bh1:
        out.append(f'<td class="num">{_figure(bh1, "2", language) or NONE}</td>')
    if show_sb:
        out.append(f'<td class="num">{_figure(sb, "2", language) or NONE}</td>')
    out.append(f'<td class="num">{e(wins)}</td><td class="num">{e(games)}</td></tr>\n')
    return mark_safe("".join(out))


def render_rounds(event: Event, kind: str, asked: Asked, query: QueryDict) -> SafeString:
    organiser = kind == ORGANISER
    rounds = _rounds_counted(event)
    current = current_round(rounds)
    # The round whose tables are shown: the one asked for, else the one being played (a draft is
    # the organisers' alone: the others see the latest published round).
    visible = rounds if organiser else [r for r in rounds if r.status != Round.Status.DRAFT]
    shown = next((r for r in visible if r.number == asked.round), None)
    if shown is None:
        shown = current if current in visible else (visible[-1] if visible else None)
    tables: Any = None  # a page of the published round's tables (as rows), or of the draft's
    context: dict[str, Any] = {}
    if shown is not None and shown.status != Round.Status.DRAFT:
        tables = Paginator(_tables(shown), TABLES_PER_PAGE).get_page(asked.tables)
        context["table_rows"] = _table_rows(event, list(tables.object_list))
    elif shown is not None and organiser:
        tables = Paginator(round_tables(rnd=shown), TABLES_PER_PAGE).get_page(asked.tables)
        if shown.status == Round.Status.DRAFT:  # the swap form lists every player of the draft
            full = rounds_get(event=event).get(pk=shown.pk)
            full.table_count = shown.table_count  # type: ignore[attr-defined]
            rounds[rounds.index(shown)] = full
            shown = full
            context.update(_swap_from(full, asked.swap))
    if organiser:
        draft = next((r for r in rounds if r.status == Round.Status.DRAFT), None)
        if draft is not None:
            context["draft_notes"] = draft_notes(notes=draft.notes)
    context.update(
        event=event,
        rounds=rounds,
        shown=shown,
        tables=tables,
        is_organiser=organiser,
        query=query,
    )
    return _render("rounds", context)


def _rounds_counted(event: Event) -> list[Round]:
    """The event's rounds with their tables counted, kept at the event's version: a result moves
    the round's tables on, not its rounds (a round published, completed or paired moves the
    event's own version, as its lock does)."""
    key = f"rounds-counted:{event.pk}.{event.created.timestamp():.6f}"
    rounds: list[Round] = cache.kept(f"event:{event.pk}", key, lambda: rounds_counted(event=event))
    return rounds


def _tables(rnd: Round) -> QuerySet[Table, tuple[Any, ...]]:
    """A published round's tables in order, as (id, number, is a bye, status), to be paged."""
    return Table.objects.filter(round=rnd).order_by("number").values_list("pk", "number", "is_bye", "status")


def _table_rows(event: Event, tables: list[tuple[Any, ...]]) -> list[SafeString]:
    """A page of a published round's tables, each a row rendered once (``cache.row``)."""
    seats: dict[int, list[tuple[str, int | None, float | None]]] = {pk: [] for pk, *_ in tables}
    for table, name, place, score in (
        Seat.objects.filter(table_id__in=list(seats))
        .order_by("table_id", "position")
        .values_list("table_id", "entrant__player__name", "place", "score")
    ):
        seats[table].append((name, place, score))
    return [
        cache.row(f"{TEMPLATE}#table_row", (event.pk, pk, number, is_bye, status, tuple(seats[pk])))
        for pk, number, is_bye, status in tables
    ]


def _swap_from(draft: Round, picked: int | None) -> dict[str, Any]:
    """The player tapped first on the draft (``?swap=<entrant id>``): the next tap swaps them
    with another (without JavaScript, each tap is a page). Anything but a player of the draft is
    no player: nobody is tapped."""
    seats = {s.entrant_id: s.entrant.player.name for t in draft.tables.all() for s in t.seats.all()}
    if picked not in seats:
        return {}
    return {"swap_from": picked, "swap_from_name": seats[picked]}


def render_entrants(event: Event, kind: str, asked: Asked, query: QueryDict) -> SafeString:
    from . import services

    organiser = kind == ORGANISER
    listed = (
        Entrant.objects.filter(event=event)
        .order_by("player__name", "pk")
        .values_list("pk", "player__name", "joined_round", "dropped_after", "checked_in")
    )
    entrants = Paginator(listed, ENTRANTS_PER_PAGE).get_page(asked.entrants)
    running = event.status != Event.Status.FINISHED
    rows = [
        cache.row(
            f"{TEMPLATE}#entrant_row",
            (event.pk, pk, name, joined, dropped, checked_in, organiser and dropped is None and running),
        )
        for pk, name, joined, dropped, checked_in in entrants.object_list
    ]
    context: dict[str, Any] = {
        "event": event,
        "entrants": entrants,
        "entrant_rows": rows,
        "is_organiser": organiser,
        "query": query,
    }
    if organiser:
        context["check_in_open"] = services.self_check_in_closed(event=event) is None
        context["not_checked_in"] = Entrant.objects.filter(
            event=event, dropped_after=None, checked_in=False
        ).count()
    return _render("entrants", context)


def event_parts(
    *, event: Event, kind: str, asked: Asked, player: int | None, only: tuple[str, ...] | None = None
) -> dict[str, Any]:
    """The parts of the event's page for a viewer of ``kind`` (``only``: just those), rendered
    or as kept at the event's current version; and ``own``, what is the viewer's own (their
    entry, line and table: an ``Own``, or None for a player not entered or a visitor).

    The viewer's own is read for them alone and kept in pieces at the versions each depends on:
    their entry and table at the event's, their table's seats at that table's, their line at
    the standings' (a key of theirs). A result confirmed every few seconds moves the standings on
    long before a thousand entrants have each looked once, so working out everyone's at once
    would cost more than it saves, and another table's result changes nothing of theirs."""
    both = _keys(event, kind, asked)
    keys, latest = both if both is not None else (None, None)
    order = _order_of(event, keys)
    kept = keys is not None

    def query(part: str) -> QueryDict:
        return part_query(asked, part, kept=kept)

    render: dict[str, Any] = {
        "standings": lambda: render_standings(event, asked, order, query("standings")),
        "rounds": lambda: render_rounds(event, kind, asked, query("rounds")),
        "entrants": lambda: render_entrants(event, kind, asked, query("entrants")),
    }
    if only is not None:
        render = {name: make for name, make in render.items() if name in only}
    entry = entry_of(event=event, player=player) if player is not None else None
    if entry is None:
        found = {**cache.parts(keys, render, latest), "own": None}
    else:
        entrant = entry[0][0]
        if keys is not None:  # theirs alone, kept for when they look again at the same version
            keys = {**keys, "own": f"{keys['own']}:{entrant}"}
        line = {**render, "own": lambda: my_line(event=event, entrant=entrant, order=order)}
        found = cache.parts(keys, line, latest)
        found["own"] = Own(OwnEntry(*entry[0]), found["own"], table_of(event=event, table=entry[1]))
    for part in OWN:
        if part in found:
            found[part] = mark_safe(with_others(found[part], asked, part))
    return found


def _order_of(event: Event, keys: dict[str, str] | None) -> Order:
    """The standings' order, read at most once a page: kept under ``keys["order"]`` (worked out
    once per version of the standings, for every reader), or worked out here without keys."""
    found: list[StandingsOrder | None] = []

    def make() -> StandingsOrder | None:
        return standings_order(event=event)

    def order() -> StandingsOrder | None:
        if not found:
            found.append(
                make() if keys is None else cache.parts({"order": keys["order"]}, {"order": make})["order"]
            )
        return found[0]

    return order


@dataclass
class MyLine:
    """The viewer's own line of the standings, the page it is on, and how many are ranked."""

    line: StandingLine | None
    page: int | None
    count: int


def my_line(*, event: Event, entrant: int, order: Order | None = None) -> MyLine:
    """The entrant's line and its page: their row alone when the standings' order is kept
    (``order``), else a few queries, whatever the number of players."""
    per_page = STANDINGS_PER_PAGE
    kept = order() if order is not None else None
    at = kept.position(entrant) if kept is not None else None
    if kept is not None and at is not None:
        lines = kept.lines(event=event, entrants=[entrant])
        if lines:
            return MyLine(lines[0], at // per_page + 1, len(kept))
    mine = my_standing(event=event, entrant=entrant)
    if mine is None:  # standings not stored yet (nothing scored, or a moment after the first result)
        computed = standings_page(event=event, entrant=entrant, per_page=per_page)
        return MyLine(computed.mine, computed.my_page, computed.page.paginator.count)
    line, ahead, count = mine
    return MyLine(line, ahead // per_page + 1, count)


@dataclass(frozen=True)
class OwnEntry:
    """The viewer's entry, as the page's forms need it."""

    pk: int
    checked_in: bool
    dropped_after: int | None


@dataclass(frozen=True)
class OwnSeat:
    entrant_id: int
    name: str
    place: int | None
    score: float | None


@dataclass(frozen=True)
class OwnTable:
    """The viewer's table in the latest published round they play in."""

    pk: int
    number: int
    is_bye: bool
    status: str
    round_number: int
    seats: tuple[OwnSeat, ...]


@dataclass(frozen=True)
class Own:
    """What the event's page shows a player of their own: their entry, their line of the
    standings (with the page it is on and how many are ranked) and their table."""

    entry: OwnEntry
    mine: MyLine | None
    table: OwnTable | None


def _own_table(seats: list[tuple[Any, ...]]) -> OwnTable | None:
    """The table of ``selectors.table_seats``'s rows."""
    if not seats:
        return None
    table, number, is_bye, status, round_number = seats[0][:5]
    listed = tuple(OwnSeat(*seat[5:]) for seat in seats)
    return OwnTable(table, number, is_bye, status, round_number, listed)


def entry_of(*, event: Event, player: int) -> tuple[tuple[int, bool, int | None], int | None] | None:
    """The player's entry (id, checked in, dropped after) and their table in the latest published
    round (or None), kept at the event's version (an entry, a check-in, a drop, a round moves
    it; a result does not); None when they are not entered."""
    from .selectors import my_table_id

    def read() -> tuple[tuple[int, bool, int | None], int | None] | None:
        found = (
            Entrant.objects.filter(event=event, player_id=player)
            .annotate(table=my_table_id(event=event, entrant=OuterRef("pk")))
            .values_list("pk", "checked_in", "dropped_after", "table")
            .first()
        )
        return None if found is None else (found[:3], found[3])

    key = f"entry:{event.pk}.{event.created.timestamp():.6f}:{player}"
    kept: tuple[tuple[int, bool, int | None], int | None] | None = cache.kept(f"event:{event.pk}", key, read)
    return kept


def table_of(*, event: Event, table: int | None) -> OwnTable | None:
    """A table as the page shows it to one who sits there, kept at the table's version (its result
    moves it on; another table's does not) and the event's (its round's status)."""
    from .selectors import table_seats

    if table is None:
        return None
    names = ("site", f"event:{event.pk}", table_version(table))
    key = f"table-seats:{event.pk}.{event.created.timestamp():.6f}:{table}"
    return _own_table(cache.kept(names, key, lambda: table_seats(table=table)))


def page_shown(asked: int | None, count: int) -> int:
    """The page of the standings' ``count`` rows that ``Paginator.get_page(asked)`` shows: the
    first when none is asked, the last when the one asked is out of range."""
    pages = max(1, -(-count // STANDINGS_PER_PAGE))
    if asked is None:
        return 1
    return asked if 1 <= asked <= pages else pages


def marked_mine(standings: str, entrant: int | None) -> SafeString:
    """The rendered standings with the viewer's own row marked (``#me``: "Your line" leads there)."""
    if entrant is None:
        return mark_safe(standings)
    row = f'<tr data-entrant="{entrant}">'
    mine = f'<tr data-entrant="{entrant}" id="me" class="me" aria-current="true">'
    return mark_safe(standings.replace(row, mine, 1))


# --- the standings API's pages ------------------------------------------------------------------

# The API's pages of the standings that are kept: the usual sizes, their first hundred pages (so
# that no address makes a key of its own; any other page is read as it is asked).
API_LIMITS = frozenset({10, 20, 25, 50, 100, 200, 500})
API_PAGES = 100


class KeptPage:
    """One page of the standings as kept, answering what the API's paginator asks of the rows
    it pages: how many there are, and the slice of its page."""

    def __init__(self, count: int, offset: int, lines: list[StandingLine]) -> None:
        self._count, self._offset, self._lines = count, offset, lines

    def count(self) -> int:
        return self._count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, wanted: slice) -> list[StandingLine]:
        if not isinstance(wanted, slice) or (wanted.start or 0) != self._offset:
            raise IndexError("A kept page of the standings holds its own rows only.")
        return self._lines


def standings_rows_kept(*, event: Event, limit: int, offset: int) -> Any:
    """The standings to page (``selectors.standings_rows``); the page at ``offset`` of ``limit``
    rows as kept at the event's current version, for the usual sizes of page."""
    kept = limit in API_LIMITS and offset % limit == 0 and offset // limit < API_PAGES
    found = cache.versions("site", f"event:{event.pk}", f"standings:{event.pk}") if kept else None
    if found is None:
        return selectors.standings_rows(event=event)
    base = _event_key(event, found["site"], found[f"event:{event.pk}"])
    key = f"{base}.s{found[f'standings:{event.pk}']}:api-standings:{limit}:{offset}"

    order = _order_of(event, {"order": _order_key(base, found[f"standings:{event.pk}"])})

    def page() -> tuple[int, list[StandingLine]]:
        kept = order()  # the page's rows read by id, their places from the kept order
        if kept is not None:
            return len(kept), kept.lines(event=event, entrants=kept.entrants[offset : offset + limit])
        rows = selectors.standings_rows(event=event)
        count = len(rows) if isinstance(rows, list) else rows.count()
        return count, [selectors.standing_line(row) for row in rows[offset : offset + limit]]

    count, lines = cache.parts({"page": key}, {"page": page})["page"]
    return KeptPage(count, offset, lines)


# --- what moves the versions on, besides the event's lock ------------------------------------


def _event_saved(sender: type, instance: Any, **kwargs: Any) -> None:
    """An event: itself, and the list of events (its name, its status) on the home page."""
    cache.event_changed(instance.pk)
    cache.changed("events")


def _of_event_saved(sender: type, instance: Any, **kwargs: Any) -> None:
    """A round or an entrant: its event changed."""
    cache.event_changed(instance.event_id)


def _table_saved(sender: type, instance: Any, **kwargs: Any) -> None:
    """A table (a result confirmed or corrected): its event's results changed."""
    from .models import Round, Table

    if Table.round.is_cached(instance):
        event_id = instance.round.event_id
    else:
        event_id = Round.objects.filter(pk=instance.round_id).values_list("event_id", flat=True).first()
    if event_id is not None:
        cache.results_changed(event_id)
    cache.changed(table_version(instance.pk))


def table_version(table_id: int) -> str:
    """The version of what a table's result shows (``GET /api/tables/<id>/result/``): its
    status, its result and the result's changes."""
    return f"table:{table_id}"


def _result_saved(sender: type, instance: Any, **kwargs: Any) -> None:
    """A result, or a change to it (every write of a result records one): its table's."""
    table_id = instance.table_id if hasattr(instance, "table_id") else instance.result.table_id
    if table_id is not None:
        cache.changed(table_version(table_id))


def _name_saved(sender: type, instance: Any, **kwargs: Any) -> None:
    """A player or a club (their names are on every page that lists them; the clubs are counted)."""
    cache.site_changed()


def connect_versions() -> None:
    """Every change of an event's state takes its lock (``core.locks.lock_event``), which moves
    its version on; these catch a row saved or deleted by any other way (a result's table, the
    admin), and the names every page shows. (Rows written in bulk send no signal: their writers
    hold the event's lock, or say so themselves, as the standings job does.)"""
    from django.db.models.signals import post_delete, post_save

    from ..clubs.models import Club, Player
    from .models import Entrant, Event, Round, Table

    for signal in (post_save, post_delete):
        signal.connect(_event_saved, sender=Event, dispatch_uid=f"page-version-event-{signal}")
        signal.connect(_of_event_saved, sender=Round, dispatch_uid=f"page-version-round-{signal}")
        signal.connect(_of_event_saved, sender=Entrant, dispatch_uid=f"page-version-entrant-{signal}")
        signal.connect(_table_saved, sender=Table, dispatch_uid=f"page-version-table-{signal}")
        signal.connect(_name_saved, sender=Player, dispatch_uid=f"page-version-player-{signal}")
        signal.connect(_name_saved, sender=Club, dispatch_uid=f"page-version-club-{signal}")
        for model in ("Result", "ResultLine", "ResultChange"):
            signal.connect(
                _result_saved, sender=f"scores.{model}", dispatch_uid=f"page-version-{model}-{signal}"
            )
