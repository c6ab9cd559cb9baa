"""What a person sees of a match: only their own seat's view."""

from __future__ import annotations

import importlib
import json
import re
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from django.db.models import Prefetch
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from games import game_info, get_bots, get_engine

from ..core.prepared import Prepared, prefetched
from ..core.words import and_list
from .levels import bot_seat_name, level_of
from .models import Match, MatchSeat
from .state import match_state


@dataclass
class MatchPicture:
    match: Match
    seat: int | None  # the viewer's seat, None for a spectator
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    to_act: list[int]
    seats: list[MatchSeat]
    title: str
    outcome: dict[str, Any] | None
    bots: list[str] = field(default_factory=list)
    past: bool = False  # a step of the log (a replay), not the match as it stands: nothing to do

    @property
    def board_template(self) -> str:
        return board_template(self.match.game)

    @property
    def legal_json(self) -> list[dict[str, str]]:
        return [{"json": json.dumps(a, separators=(",", ":")), "label": action_label(a)} for a in self.legal]

    @property
    def resigned_names(self) -> str:
        """Who resigned, in the order they did ("Ann and Ben"), or ""."""
        gone = sorted((s for s in self.seats if s.resigned is not None), key=lambda s: s.resigned or 0)
        return and_list([s.player.name if s.player else f"Seat {s.number + 1}" for s in gone])

    @property
    def outcome_rows(self) -> list[dict[str, Any]]:
        if not self.outcome:
            return []
        changes = self.rating_changes
        rows = [
            {
                "place": self.outcome["places"][s.number],
                "score": self.outcome["scores"][s.number],
                "name": s.player.name if s.player else bot_seat_name(self.match.game, s.bot, s.number),
                "seat": s.number,
                "rating": changes.get(s.player_id) if s.player_id else None,
                "resigned": s.resigned is not None,
            }
            for s in self.seats
        ]
        return sorted(rows, key=lambda r: (r["place"], r["seat"]))

    @cached_property
    def result(self) -> Any:
        """The result the finished match reported (None for a friendly with bots)."""
        from ..scores.models import Result

        if self.match.status != Match.Status.FINISHED:
            return None
        return Result.objects.filter(data__match=self.match.pk, source=Result.Source.ONLINE).first()

    @cached_property
    def rating_changes(self) -> dict[int, dict[str, float]]:
        """Each player's rating change from this match, by player id (empty when unrated)."""
        from ..ratings.selectors import result_rating_changes

        if self.result is None:
            return {}
        return result_rating_changes(result_id=self.result.pk, game=self.match.game)

    @property
    def rated(self) -> bool:
        return self.result is not None and not self.result.data.get("unrated")

    @property
    def bot_players(self) -> list[MatchSeat]:
        """Seats where a bot plays for a person (a guest without an account)."""
        return [s for s in self.seats if s.player_id and s.bot]

    @property
    def card_actions(self) -> dict[str, str]:
        """Card code -> the JSON of the legal action that plays or passes it."""
        return {
            a["card"]: json.dumps(a, separators=(",", ":"))
            for a in self.legal
            if isinstance(a.get("card"), str)
        }

    @property
    def choice_actions(self) -> list[dict[str, str]]:
        """Legal actions that are not about one card (a colour to call, give or subtract...)."""
        return [
            {
                "json": json.dumps(a, separators=(",", ":")),
                "label": action_label(a),
                **{k: str(v) for k, v in a.items()},
            }
            for a in self.legal
            if "card" not in a and "cards" not in a
        ]

    @property
    def my_turn(self) -> bool:
        return not self.past and self.seat is not None and self.seat in self.to_act

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.match.pk,
            "game": self.match.game,
            "status": self.match.status,
            "version": self.match.version,
            "seat": self.seat,
            "to_act": self.to_act,
            "legal": self.legal,
            "view": self.view,
            "outcome": self.outcome,
            "seats": [
                {
                    "number": s.number,
                    "player": s.player.name if s.player else None,
                    "bot": s.bot or None,
                    "bot_label": level_of(self.match.game, s.bot) if s.bot else None,
                }
                for s in self.seats
            ],
            "deadline": self.match.deadline.isoformat() if self.match.deadline else None,
            "title": self.title,
            "ended": self.match.end_reason or None,
            "rematch": self.match.rematch_id,
        }


@cache
def board_template(game: str) -> str:
    """The game's own board, or the generic one that works for any engine."""
    name = f"play/boards/{game}.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return "play/boards/generic.html"
    return name


def action_label(action: dict[str, Any]) -> str:
    rest = ", ".join(f"{k} {v}" for k, v in action.items() if k != "type")
    return f"{action['type'].replace('_', ' ').capitalize()}{': ' + rest if rest else ''}"


_SEATS_WITH_PLAYERS = Prepared(
    lambda pk: MatchSeat.objects.select_related("player").filter(match_id=pk).order_by("number")
)


def with_seats(match: Match) -> list[MatchSeat]:
    """The match's seats with their players, in order, read once for everything that asks
    ``match.seat_set.all()`` after (the viewer's seat, the picture, the page): every look at a
    match asks, so the query is compiled once (``core.prepared``)."""
    return list(prefetched(match, "seat_set", _SEATS_WITH_PLAYERS.list(match.pk)))


def match_picture(
    *, match: Match, seat: int | None, upto: int | None = None, seats: list[MatchSeat] | None = None
) -> MatchPicture:
    """What ``seat`` (None: a spectator) sees; ``seats``: the match's seats with their players, in
    order, when the caller has already read them."""
    engine = get_engine(match.game)
    if seats is None:
        seats = list(match.seat_set.select_related("player").order_by("number"))
    if match.status == Match.Status.OPEN:
        return MatchPicture(
            match, seat, {}, [], [], seats, game_info(match.game).title, None, sorted(get_bots(match.game))
        )
    state = match_state(match, upto=upto)
    live = upto is None and match.status == Match.Status.PLAYING
    return MatchPicture(
        match=match,
        seat=seat,
        view=engine.view(state, seat),
        legal=engine.legal(state, seat) if live and seat is not None else [],
        to_act=sorted(engine.to_act(state))
        if (upto is None and match.status != Match.Status.ABANDONED)
        or (upto is not None and upto < match.version)
        else [],
        seats=seats,
        title=game_info(match.game).title,
        outcome=match.outcome if upto is None else None,
        bots=sorted(get_bots(match.game)),
        past=upto is not None,
    )


# --- the lobby ---------------------------------------------------------------------------------

LOBBY_ROWS = 20


def _names(match: Match) -> str:
    """Who sits at a match, as a sentence: the people by name, then the bots and the open seats
    counted ("Pat Lindqvist, Sam Okafor and 2 heuristic bots", "Sam Okafor and 2 open seats")."""
    names: list[str] = []
    bots: dict[str, int] = {}
    empty = 0
    for s in match.seat_set.all():
        if s.player and s.bot:
            names.append(f"{s.player.name} (bot)")
        elif s.player:
            names.append(s.player.name)
        elif s.bot:
            bots[s.bot] = bots.get(s.bot, 0) + 1
        else:
            empty += 1
    for bot, count in bots.items():
        names.append(f"a {bot} bot" if count == 1 else f"{count} {bot} bots")
    if empty:
        names.append("an open seat" if empty == 1 else f"{empty} open seats")
    return and_list(names)


def _to_act(match: Match) -> frozenset[int]:
    if match.status != Match.Status.PLAYING:
        return frozenset()
    try:
        return frozenset(get_engine(match.game).to_act(match_state(match)))
    except Exception:  # a game no longer registered: listed, just not "your turn"
        return frozenset()


LOBBY_SECONDS = 2  # the kept lists' move counts and "last moved" order are at most this old
LOBBY_VERSIONS = ("site", "lobby")  # names (of players), and the matches' statuses and seats


def lobby_changed(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    """A match was made, started, finished or deleted, or a seat taken, left or given to a bot:
    the lobby's lists move on at once (``play.apps``). A move moves only its counts, which the
    lists show at most ``LOBBY_SECONDS`` late."""
    if sender is Match and update_fields is not None and "status" not in update_fields:
        return
    from ..core import cache

    cache.changed("lobby")


def _public_lists(rows: int) -> dict[str, list[tuple[int, SafeString]]]:
    """The open tables (with a free seat) and the matches under way, newest first, as (match id,
    rendered row), ``2 * rows`` of each at most: a reader leaves out their own and shows ``rows``."""
    seats = Match.objects.prefetch_related(
        Prefetch("seat_set", queryset=MatchSeat.objects.select_related("player"))
    )
    template = get_template("play/lobby.html#open_row")
    open_rows: list[tuple[int, SafeString]] = []
    for m in seats.filter(status=Match.Status.OPEN).order_by("-created")[: 2 * rows + 30]:
        free = sum(1 for s in m.seat_set.all() if not s.player_id and not s.bot)
        if free and len(open_rows) < 2 * rows:
            html = template.render({"m": m, "players": _names(m), "free": free})
            open_rows.append((m.pk, mark_safe(html)))
    template = get_template("play/lobby.html#watch_row")
    under_way = seats.filter(status=Match.Status.PLAYING).order_by("-updated")[: 2 * rows]
    watch = [(m.pk, mark_safe(template.render({"m": m, "players": _names(m)}))) for m in under_way]
    return {"open": open_rows, "watch": watch}


def _kept_lists(rows: int) -> dict[str, list[tuple[int, SafeString]]]:
    """``_public_lists`` kept at the lobby's versions, and made again every ``LOBBY_SECONDS``."""
    from ..core import cache

    bucket = int(time.time() // LOBBY_SECONDS)
    lists: dict[str, list[tuple[int, SafeString]]] = cache.kept(
        LOBBY_VERSIONS, f"lobby:{bucket}:{rows}", lambda: _public_lists(rows)
    )
    return lists


def _without(kept: list[tuple[int, SafeString]], mine: set[int], rows: int) -> list[SafeString] | None:
    """The kept rows that are not ``mine``, ``rows`` of them; None when leaving out the reader's
    own leaves too few of a list that may have had more (read them for the reader then)."""
    shown = [html for pk, html in kept if pk not in mine]
    if len(shown) < rows and len(kept) >= 2 * rows and mine:
        return None
    return shown[:rows]


def lobby_matches(
    *, user: Any, rows: int = LOBBY_ROWS, only: Collection[str] = ("open", "mine", "watch")
) -> dict[str, list[Any]]:
    """The lobby's three lists (``only`` those asked for): open tables the user can join, the
    user's own matches (those where it is their turn first, then the ones under way, open, and
    the last few finished), and matches under way to watch, ``rows`` of each at most. The open
    and watched lists are rendered rows, the same for everyone and kept (``_kept_lists``); the
    user's own are dicts (``match``, ``players``, ``seat``, ``my_turn``)."""
    player = getattr(user, "player", None) if getattr(user, "is_authenticated", False) else None
    # Each list's seats read with their players in one query (not one for the seats, one more
    # for their players): the lobby is read by everyone on the big day.
    seats = Match.objects.prefetch_related(
        Prefetch("seat_set", queryset=MatchSeat.objects.select_related("player"))
    )
    mine_ids: set[int] = set()
    mine: list[dict[str, Any]] = []
    if player is not None and "mine" in only:
        current = seats.filter(seat_set__player=player).exclude(status=Match.Status.ABANDONED)
        listed = list(current.exclude(status=Match.Status.FINISHED).order_by("-updated").distinct()[:rows])
        listed += list(current.filter(status=Match.Status.FINISHED).order_by("-updated").distinct()[:5])
        for match in listed:
            seat = next(s.number for s in match.seat_set.all() if s.player_id == player.pk)
            to_act = _to_act(match)
            mine_ids.add(match.pk)
            mine.append({"match": match, "players": _names(match), "seat": seat, "my_turn": seat in to_act})
        order = {Match.Status.PLAYING: 1, Match.Status.OPEN: 2, Match.Status.FINISHED: 3}
        mine.sort(key=lambda r: (not r["my_turn"], order.get(r["match"].status, 4)))
    out: dict[str, list[Any]] = {"open": [], "mine": mine, "watch": []}
    if "open" in only or "watch" in only:
        kept = _kept_lists(rows)
        for name in ("open", "watch"):
            if name in only:
                shown = _without(kept[name], mine_ids, rows)
                if shown is None:  # enough rows to leave out all of the reader's own
                    wider = _public_lists(rows + len(mine_ids))[name]
                    shown = [html for pk, html in wider if pk not in mine_ids][:rows]
                out[name] = shown
    return out


# --- the rules pages: the engine's rulings, from its package docstring -------------------------

_HEADING_RULE = re.compile(r"^[-=]{3,}$")
_NUMBERED = re.compile(r"^(\d+)\.\s+(.*)$")
_NAMED = re.compile(r"^([a-z][a-z0-9_]*)$")
_BOLD_TITLE = re.compile(r"^\*\*(.+?)\*\*\s*(.*)$", re.S)


def _words(text: str) -> str:
    """Docstring markup to plain words: ``code`` and **bold** lose their marks."""
    return re.sub(r"\s+", " ", text.replace("``", "").replace("**", "")).strip()


@cache
def has_rules(slug: str) -> bool:
    """Whether the game has a rules page (``templates/play/rules/<slug>.html``)."""
    try:
        get_template(f"play/rules/{slug}.html")
    except TemplateDoesNotExist:
        return False
    return True


@cache
def game_rulings(slug: str) -> list[dict[str, Any]]:
    """The rulings the game's engine decided, as ``{"title", "text"}``, read from the section
    "Rulings" of its package docstring (the same words its tests are named after)."""
    try:
        module = importlib.import_module(game_info(slug).module)
    except (LookupError, ImportError):
        return []
    lines = (module.__doc__ or "").splitlines()
    start = next(
        (
            i + 2
            for i, line in enumerate(lines[:-1])
            if line.strip() == "Rulings" and _HEADING_RULE.match(lines[i + 1].strip())
        ),
        None,
    )
    if start is None:
        return []
    body: list[str] = []
    for i in range(start, len(lines)):
        if i + 1 < len(lines) and lines[i].strip() and _HEADING_RULE.match(lines[i + 1].strip()):
            break  # the next section
        body.append(lines[i])
    items: list[dict[str, Any]] = []
    previous = ""
    for line in body:
        numbered = _NUMBERED.match(line)
        named = _NAMED.match(line)
        if numbered:
            items.append({"title": "", "parts": [numbered.group(2)]})
        elif named:
            items.append({"title": named.group(1).replace("_", " ").capitalize() + ".", "parts": []})
        elif items and (line.startswith(" ") or not line.strip()):
            items[-1]["parts"].append(line)
        elif items and line.strip():
            if previous.strip() and items[-1].get("note"):
                items[-1]["parts"].append(line)  # the note's paragraph goes on
            else:
                items.append({"title": "", "parts": [line], "note": True})
        previous = line
    out = []
    for item in items:
        text = " ".join(p.strip() for p in item["parts"])
        title = item["title"]
        bold = _BOLD_TITLE.match(text)
        if bold and not title:
            title, rest = bold.group(1), bold.group(2)
            if title.rstrip().endswith((".", ":")) or rest.startswith(":"):
                # "**Sanction:** your spy ..." is a heading, then the ruling.
                text = rest.lstrip(": ")
                text = text[:1].upper() + text[1:]
            else:
                # "**Roll again** works once a turn": the heading begins the ruling's sentence.
                text = f"{title}{'' if rest[:1] in ',;)' else ' '}{rest}"
        lead = text.split(": ", 1)
        if not title and len(lead) == 2 and len(lead[0]) <= 40:  # "First dealer: each player draws..."
            title, text = lead[0] + ".", lead[1][:1].upper() + lead[1][1:]
        if title:  # one way for every heading: "Sanction:" and "Cashing in" read "Sanction." "Cashing in."
            title = title.strip().rstrip(":.").rstrip() + "."
        out.append({"title": _words(title), "text": _words(text), "note": bool(item.get("note"))})
    return [r for r in out if r["text"] or r["title"]]
