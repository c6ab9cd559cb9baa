"""The Spies! match board: the map, the turn's steps, the actions and the events in words.

The map is drawn from the board data (``games/spies/data/map.json``); its unchanging part (land,
borders, routes) is ``spies_map.map_background``. Everything that changes during play (pieces,
what can be clicked, the latest search) comes only from the seat's own view (``p.view``) and its
legal actions (``p.legal``), so the board never shows more than the engine lets that seat see.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from typing import Any, Final

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.spies.board import CHIT_KINDS, FIRST_YEAR, LAST_YEAR, POWER_CODES, Board, default_board

from .cards import seat_name
from .mister_spy import ms_iso, ms_now, ms_seconds_left
from .spies_map import HEIGHT, SHIP, STAR, WIDTH, map_background, node_name, num, project

register = template.Library()

BOARD: Final[Board] = default_board()
CODE_INDEX: Final = {code: i for i, code in enumerate(POWER_CODES)}
PIECE: Final = 10.0  # the pitch of the piece grid under a city, in map units
PIECES_PER_ROW: Final = 4

# ----------------------------------------------------------------------------------- words


def power_name(code: str | None) -> str:
    if code is None or code not in CODE_INDEX:
        return "nobody"
    return BOARD.powers[CODE_INDEX[code]].name


def power_adjective(code: str) -> str:
    return BOARD.powers[CODE_INDEX[code]].adjective if code in CODE_INDEX else str(code)


def piece_name(piece_id: str | None) -> str:
    """``G-spy-3`` -> ``German spy 3``; ``F-police-2`` -> ``French police 2``."""
    if not piece_id:
        return "a piece"
    code, _, rest = str(piece_id).partition("-")
    kind, _, number = rest.partition("-")
    return f"{power_adjective(code)} {kind} {number}".strip()


def chit_name(kind: str) -> str:
    spec = BOARD.chits.get(kind)
    return spec.name if spec is not None else str(kind).capitalize()


def chit_cost(kind: str) -> int:
    spec = BOARD.chits.get(kind)
    return spec.cost if spec is not None else 0


def tile_title(tile_id: str) -> str:
    tile = BOARD.events.get(tile_id)
    return tile.title if tile is not None else str(tile_id)


MINUS: Final = "\u2212"
RECORD_MARKS: Final = {"spy": "spy\u00b7", "sanction": "\u2715\u00b7"}


def pounds(amount: int) -> str:
    return f"{amount}£"


CONCESSION_WORDS: Final = {
    "no_search": "no searches of the other side's spies this year",
    "no_sanction": "no sanctions of the other side's spies this year",
    "no_discovery": "no discoveries of secrets the other side controls this year",
}


def _concession(code: str) -> str:
    return CONCESSION_WORDS.get(code, code.replace("_", " "))


def _list_words(items: list[str]) -> str:
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _a(word: str) -> str:
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _chits_words(kinds: list[str]) -> list[str]:
    counts = Counter(kinds)
    return [f"{n} {chit_name(k)}" if n > 1 else _a(chit_name(k)) for k, n in sorted(counts.items())]


def _terms_words(side: dict[str, Any]) -> str:
    parts = _chits_words(side.get("chits") or [])
    if side.get("money"):
        parts.append(pounds(side["money"]))
    parts += [f"a promise of {_concession(c)}" for c in side.get("concessions") or []]
    parts += [f"secret {sid}" for sid in side.get("secrets") or []]
    return _list_words(parts)


class _Table:
    """Lookups into one seat's view."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.spies = {s["id"]: s for s in view.get("spies") or []}
        self.police = {s["id"]: s for s in view.get("police") or []}
        self.secrets = {s["id"]: s for s in view.get("secrets") or []}
        self.mine = set(view.get("powers") or [])

    def piece(self, piece_id: str | None) -> dict[str, Any]:
        if piece_id is None:
            return {}
        return self.spies.get(piece_id) or self.police.get(piece_id) or {}

    def where(self, piece_id: str | None) -> str | None:
        return self.piece(piece_id).get("where")

    def spy_words(self, spy_id: str | None, *, strength: bool = True) -> str:
        spy = self.piece(spy_id)
        name = piece_name(spy_id)
        if strength and spy.get("strength") is not None:
            name += f" (strength {spy['strength']})"
        return name

    def secret_words(self, secret_id: str | None) -> str:
        secret = self.secrets.get(secret_id or "", {})
        if secret.get("counterspy"):
            return f"secret {secret_id} (a counterspy, strength {secret.get('strength')})"
        if secret.get("value") is not None:
            return f"secret {secret_id} (value {secret['value']})"
        return f"secret {secret_id}"


# -------------------------------------------------------------------------------- actions


def _dump(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"))


def _route(a: str | None, b: str) -> str:
    if a is None:
        return ""
    if (a, b) in _RAIL or (b, a) in _RAIL:
        return "rail"
    if (a, b) in _AIR or (b, a) in _AIR:
        return "air"
    if b in BOARD.sea_zones and a in BOARD.sea_zones:
        return "sail"
    if b in BOARD.sea_zones:
        return "to sea"
    return "land"


_RAIL: Final = frozenset(BOARD.rail)
_AIR: Final = frozenset(BOARD.air)

GROUPS: Final = (
    "window",
    "setup",
    "event",
    "police",
    "search",
    "move",
    "secrets",
    "chits",
    "next",
    "offer_open",
    "offer_build",
    "other",
)


def _action_item(action: dict[str, Any], table: _Table) -> tuple[str, dict[str, Any]]:
    """One legal action: the group it belongs to and its button (label in words, what it names)."""
    view = table.view
    kind = str(action.get("type"))
    item: dict[str, Any] = {
        "json": _dump(action),
        "type": kind,
        "label": kind.replace("_", " ").capitalize(),
        "city": action.get("city"),
        "spy": action.get("spy") if isinstance(action.get("spy"), str) else None,
        "to": action.get("to") if isinstance(action.get("to"), str) else None,
        "target": action.get("target"),
        "secret": action.get("secret"),
        "tone": "secondary",
    }
    window = view.get("window") or {}
    if window:
        item["spy"] = item["spy"] or window.get("spy")
        wkind = window.get("kind")
        spy = window.get("spy")
        if kind == "search":
            item["label"] = f"Search {table.spy_words(spy)} in {node_name(table.where(spy))}"
            item["tone"] = "primary"
            item["city"] = table.where(spy)
        elif kind == "papers":
            item["label"] = f"Show Papers ({pounds(chit_cost('papers'))}): the search has no effect"
            item["tone"] = "primary"
        elif kind == "escape":
            item["label"] = f"Play Escape ({pounds(chit_cost('escape'))}): slip away from the search"
            item["tone"] = "primary"
        elif kind == "cover":
            item["label"] = f"Play Cover ({pounds(chit_cost('cover'))}) against the {window.get('cause')}"
            item["tone"] = "primary"
        elif kind == "accept":
            item["label"] = "Accept the offer"
            item["tone"] = "primary"
        elif kind == "return_chit":
            item["label"] = f"Return a {chit_name(action['chit'])} chit to the cup"
        elif kind == "decline":
            item["label"] = {
                "arrival": "Let it pass (no search)",
                "evade": "Face the search (compare strengths)",
                "cover": "Do not cover",
                "offer": "Refuse the offer",
            }.get(str(wkind), "Decline")
        return "window", item
    step = view.get("step") or {}
    if kind == "place_secret":
        item["label"] = f"Place {view.get('placing_secret') or 'the secret'} in {node_name(action['city'])}"
        item["short"] = node_name(action["city"])
        return "setup", item
    if kind == "place_police":
        item["label"] = f"Police of strength {action['strength']} to {node_name(action['city'])}"
        item["short"] = node_name(action["city"])  # under its strength's heading: ``setup_police``
        item["strength"] = action["strength"]
        return "setup", item
    if kind == "place_spy":
        item["label"] = (
            f"Spy of strength {action['strength']} (value {action['value']}) to {node_name(action['city'])}"
        )
        return "setup", item
    if kind == "spies_done":
        item["label"] = "Place no more spies"
        item["tone"] = "next"
        return "next", item
    if kind in ("play_event", "discard_event"):
        tile = action["tile"]
        item["tile"] = tile
        verb = "Play" if kind == "play_event" else "Discard"
        item["label"] = f"{verb} “{tile_title(tile)}”" + (" face down" if kind == "discard_event" else "")
        item["short"] = "Play it" if kind == "play_event" else "Discard it face down"
        return "event", item
    if kind == "police":
        moving = step.get("police_next")
        now = table.where(moving)
        target = action["city"]
        stays = "stays in" if target == now else "to"
        item["label"] = f"{piece_name(moving)} {stays} {node_name(target)}"
        item["short"] = node_name(target) + (" (stay)" if target == now else "")
        return "police", item
    if kind == "police_done":
        item["label"] = "Leave the other police where they are"
        item["tone"] = "next"
        return "next", item
    if kind == "search":
        spy = action["spy"]
        item["label"] = f"Search {piece_name(spy)} in {node_name(table.where(spy))}"
        item["city"] = table.where(spy)
        item["tone"] = "primary"
        return "search", item
    if kind == "searches_done":
        item["label"] = "No more searches: on to movement"
        item["tone"] = "next"
        return "next", item
    if kind == "move":
        spy, to = action["spy"], action["to"]
        route = _route(table.where(spy), to)
        item["short"] = f"At sea: {BOARD.sea_zones[to].name}" if to in BOARD.sea_zones else node_name(to)
        item["route"] = route
        item["label"] = f"{piece_name(spy)} → {node_name(to)}" + (f" ({route})" if route else "")
        return "move", item
    if kind == "discover":
        item["label"] = (
            f"{piece_name(action['spy'])} discovers {action['secret']} in "
            f"{node_name(table.where(action['spy']))} (Discovery, {pounds(chit_cost('discovery'))})"
        )
        item["city"] = table.where(action["spy"])
        return "chits", item
    if kind == "sanction":
        item["label"] = (
            f"{piece_name(action['spy'])} sanctions {piece_name(action['target'])} "
            f"(Sanction, {pounds(chit_cost('sanction'))})"
        )
        item["city"] = table.where(action["spy"])
        return "chits", item
    if kind == "recruit":
        item["label"] = (
            f"Recruit a spy of strength {action['strength']} (value {action['value']}) "
            f"(Recruit, {pounds(chit_cost('recruit'))})"
        )
        return "chits", item
    if kind == "escape":
        spy = table.piece(action["spy"])
        held = f" from {power_name(spy.get('captor'))}'s record" if spy.get("captor") else ""
        item["label"] = f"Free {piece_name(action['spy'])}{held} (Escape, {pounds(chit_cost('escape'))})"
        return "chits", item
    if kind == "guard":
        item["label"] = f"{piece_name(action['spy'])} guards your {action['secret']}"
        item["city"] = table.where(action["spy"])
        return "secrets", item
    if kind == "hand":
        item["label"] = f"{piece_name(action['spy'])} hands its secret to {piece_name(action['to'])}"
        item["to"] = None  # a piece, not a place
        item["target"] = action["to"]
        return "secrets", item
    if kind == "cash":
        carried = table.piece(action["spy"]).get("controls")
        item["label"] = (
            f"Cash in {table.secret_words(carried)} with {piece_name(action['spy'])} "
            f"(+{pounds(BOARD.cash_in_money)} and a chit)"
        )
        item["tone"] = "primary"
        return "secrets", item
    if kind == "end_turn":
        item["label"] = "End the turn"
        item["tone"] = "next"
        return "next", item
    if kind == "offer":
        item["label"] = f"Make an offer to {power_name(action['to'])}"
        item["to"] = None
        item["power"] = action["to"]
        return "offer_open", item
    if kind == "offer_add":
        what = action.get("item")
        if what in ("give_chit", "ask_chit"):
            item["short"] = _a(chit_name(action["chit"]))
        elif what in ("give_money", "ask_money"):
            item["short"] = f"{pounds(action['amount'])} more"
        elif what in ("give_secret", "ask_secret"):
            where = table.secrets.get(action["secret"], {}).get("where")
            item["short"] = f"{table.secret_words(action['secret'])} in {node_name(where)}"
        else:
            item["short"] = _concession(action["concession"])
        item["item"] = what
        item["label"] = {
            "give_chit": "Give {}",
            "ask_chit": "Ask for {}",
            "give_money": "Give {}",
            "ask_money": "Ask for {}",
            "grant": "Promise {}",
            "ask": "Ask them to promise {}",
            "give_secret": "Give {}",
            "ask_secret": "Ask for {}",
        }.get(str(what), "{}").format(item["short"])
        return "offer_build", item
    if kind == "offer_send":
        item["label"] = "Send the offer"
        item["tone"] = "primary"
        return "offer_build", item
    if kind == "offer_cancel":
        item["label"] = "Cancel the offer"
        return "offer_build", item
    return "other", item


def _own_police_reserve(view: dict[str, Any]) -> list[int]:
    """The strengths of the acting power's police still to place (its own view shows them)."""
    acting = view.get("acting")
    for info in view.get("power_info") or []:
        if info.get("code") == acting:
            return list(info.get("police_reserve_list") or [])
    return []


@register.filter
def spies_actions(p: Any) -> dict[str, Any]:
    """The seat's legal actions, grouped and worded for the board's buttons."""
    view: dict[str, Any] = p.view or {}
    table = _Table(view)
    groups: dict[str, Any] = {name: [] for name in GROUPS}
    place_spy: list[dict[str, Any]] = []
    for action in p.legal:
        group, item = _action_item(action, table)
        if item["type"] == "place_spy":
            place_spy.append(action)
            continue
        groups[group].append(item)
    # Moves, spy by spy (the spy now moving first).
    by_spy: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in groups["move"]:
        by_spy[item["spy"]].append(item)
    mover = (view.get("step") or {}).get("mover")
    groups["move_by_spy"] = [
        {
            "spy": spy_id,
            "name": table.spy_words(spy_id),
            "where": node_name(table.where(spy_id)),
            "moving": spy_id == mover,
            "spaces_left": BOARD.move_spaces - int((view.get("step") or {}).get("spaces_used") or 0)
            if spy_id == mover
            else BOARD.move_spaces,
            "moves": items,
        }
        for spy_id, items in sorted(by_spy.items(), key=lambda kv: (kv[0] != mover, kv[0]))
    ]
    # Offer items: what to give, what to ask.
    build = groups["offer_build"]
    groups["offer_give"] = [
        i for i in build if i.get("item") in ("give_chit", "give_money", "grant", "give_secret")
    ]
    groups["offer_ask"] = [
        i for i in build if i.get("item") in ("ask_chit", "ask_money", "ask", "ask_secret")
    ]
    groups["offer_finish"] = [i for i in build if i["type"] in ("offer_send", "offer_cancel")]
    # Spies to place: one choice of counter, one of city (the map can pick the city too).
    if place_spy:
        kinds = sorted({(a["strength"], a["value"]) for a in place_spy}, reverse=True)
        cities = sorted({a["city"] for a in place_spy}, key=node_name)
        groups["place_spy"] = {
            "kinds": [
                {"value": f"{s}-{v}", "label": f"Strength {s}, value {v}", "strength": s, "worth": v}
                for s, v in kinds
            ],
            "cities": [{"id": c, "name": node_name(c)} for c in cities],
            "first": _dump(
                {"type": "place_spy", "strength": kinds[0][0], "value": kinds[0][1], "city": cities[0]}
            ),
        }
    else:
        groups["place_spy"] = None
    # Police to place: a city is offered once for each strength left in the reserve, so the
    # buttons go under one heading per strength ("Strength 3, 2 pieces left") and say the city.
    reserve = Counter(_own_police_reserve(view))
    by_strength: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for item in groups["setup"]:
        if item["type"] == "place_police":
            by_strength[item["strength"]].append(item)
    groups["setup_police"] = [
        {"strength": strength, "left": reserve.get(strength, 0), "actions": items}
        for strength, items in sorted(by_strength.items(), reverse=True)
    ]
    if by_strength:
        groups["setup"] = [i for i in groups["setup"] if i["type"] != "place_police"]
    moving = (view.get("step") or {}).get("police_next")
    groups["police_piece"] = ""
    if moving:
        piece = table.piece(moving)
        strength = f", strength {piece['strength']}" if piece.get("strength") is not None else ""
        groups["police_piece"] = f"{piece_name(moving)}{strength}, now in {node_name(piece.get('where'))}"
    groups["any"] = bool(p.legal)
    return groups


# ------------------------------------------------------------------------------------ the map


def _attrs(**values: Any) -> str:
    return "".join(f' data-{k.replace("_", "-")}="{escape(v)}"' for k, v in values.items() if v is not None)


def _spy_svg(
    spy: dict[str, Any], mine: set[str], x: float, y: float, table: _Table, chosen: str | None
) -> str:
    power = spy["power"]
    strength = spy.get("strength")
    own = power in mine
    classes = ["sp-piece", "sp-p-spy", f"sp-{power}"]
    if own:
        classes.append("sp-mine")
    if strength is None:
        classes.append("sp-down")
    if spy.get("controls"):
        classes.append("sp-carrying")
    if spy["id"] == chosen:
        classes.append("sp-chosen")
    words = piece_name(spy["id"])
    if strength is not None:
        words += f", strength {strength}"
        if spy.get("value") is not None:
            words += f", value {spy['value']}"
    else:
        words += ", face down"
    if spy.get("controls"):
        words += f", controls {table.secret_words(spy['controls'])}"
    label = "" if strength is None else f'<text x="{num(x)}" y="{num(y + 3)}">{strength}</text>'
    dot = (
        f'<circle class="sp-carry" cx="{num(x + 4)}" cy="{num(y - 4)}" r="2.2"/>'
        if spy.get("controls")
        else ""
    )
    return (
        f'<g class="{" ".join(classes)}"{_attrs(spy=spy["id"], strength=strength)}>'
        f"<title>{escape(words)}</title>"
        f'<rect x="{num(x - 4.4)}" y="{num(y - 4.4)}" width="8.8" height="8.8" rx="1.8"/>{label}{dot}</g>'
    )


def _police_svg(piece: dict[str, Any], mine: set[str], x: float, y: float) -> str:
    power = piece["power"]
    strength = piece.get("strength")
    classes = ["sp-piece", "sp-p-police", f"sp-{power}"]
    if power in mine:
        classes.append("sp-mine")
    if strength is None:
        classes.append("sp-down")
    words = piece_name(piece["id"]) + (f", strength {strength}" if strength is not None else ", face down")
    label = "" if strength is None else f'<text x="{num(x)}" y="{num(y + 3)}">{strength}</text>'
    return (
        f'<g class="{" ".join(classes)}"{_attrs(police=piece["id"], strength=strength)}>'
        f"<title>{escape(words)}</title>"
        f'<circle cx="{num(x)}" cy="{num(y)}" r="4.7"/>{label}</g>'
    )


def _secret_svg(secret: dict[str, Any], mine: set[str], x: float, y: float, table: _Table) -> str:
    classes = ["sp-piece", "sp-p-secret"]
    origin = secret.get("origin")
    if origin in mine:
        classes.append("sp-mine")
    if secret.get("value") is None:
        classes.append("sp-down")
    if secret.get("counterspy"):
        classes.append("sp-counterspy")
    controller = secret.get("controller")
    if controller:
        classes.append(f"sp-held sp-{controller.split('-')[0]}")
    mark = (
        "C"
        if secret.get("counterspy")
        else (str(secret["value"]) if secret.get("value") is not None else "S")
    )
    came = f"an original {power_adjective(origin)} secret" if origin else "from a SECRET city"
    words = f"{table.secret_words(secret['id'])}, {came}"
    if secret.get("value") is None:
        words += ", face down"
    if controller:
        words += f", controlled by {piece_name(controller)}"
    return (
        f'<g class="{" ".join(classes)}"{_attrs(secret=secret["id"], value=secret.get("value"))}>'
        f"<title>{escape(words)}</title>"
        f'<path d="M{num(x)},{num(y - 5.4)}L{num(x + 5.4)},{num(y)}L{num(x)},{num(y + 5.4)}'
        f'L{num(x - 5.4)},{num(y)}Z"/><text x="{num(x)}" y="{num(y + 2.8)}">{escape(mark)}</text></g>'
    )


def _layout(
    pieces: list[tuple[str, dict[str, Any]]], mine: set[str], table: _Table, chosen: str | None
) -> str:
    rows = []
    for index, (kind, piece) in enumerate(pieces):
        c = index % PIECES_PER_ROW
        r = index // PIECES_PER_ROW
        in_row = min(PIECES_PER_ROW, len(pieces) - r * PIECES_PER_ROW)
        x = -(in_row - 1) * PIECE / 2 + c * PIECE
        y = 11 + r * PIECE
        if kind == "spy":
            rows.append(_spy_svg(piece, mine, x, y, table, chosen))
        elif kind == "police":
            rows.append(_police_svg(piece, mine, x, y))
        else:
            rows.append(_secret_svg(piece, mine, x, y, table))
    return "".join(rows)


def _hot(view: dict[str, Any]) -> tuple[str | None, str | None]:
    """The city of the search, capture or sanction that is news now (and what happened there)."""
    news = latest_news(view)
    if news is None:
        return None, None
    return news.get("city"), news.get("kind")


@register.simple_tag
def spies_map(p: Any) -> SafeString:
    """The map as SVG: the background, then the cities and seas with this seat's view of the pieces."""
    view: dict[str, Any] = p.view or {}
    table = _Table(view)
    mine = table.mine
    legal: list[dict[str, Any]] = list(p.legal or [])
    can = {a.get("city") for a in legal} | {a.get("to") for a in legal if isinstance(a.get("to"), str)}
    window = view.get("window") or {}
    step = view.get("step") or {}
    chosen = step.get("mover") if step.get("mover") in table.spies else None
    hot_city, hot_kind = _hot(view)
    asked_city = table.where(window.get("spy")) if window.get("spy") else None
    at: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for spy in view.get("spies") or []:
        if spy.get("status") == "map" and spy.get("where"):
            at[spy["where"]].append(("spy", spy))
    for piece in view.get("police") or []:
        if piece.get("status") == "map" and piece.get("where"):
            at[piece["where"]].append(("police", piece))
    for secret in view.get("secrets") or []:
        if secret.get("status") == "map" and secret.get("where"):
            at[secret["where"]].append(("secret", secret))
    home_capitals = set(BOARD.capitals)
    home = None
    if view.get("powers"):
        capital = BOARD.cities[BOARD.capitals[CODE_INDEX[view["powers"][0]]]]
        home = ",".join(num(n) for n in project(capital.lon, capital.lat))
    mover = chosen if chosen and chosen.split("-")[0] in mine else None
    parts = [
        f'<svg id="spies-map" class="sp-map" viewBox="0 0 {WIDTH} {HEIGHT}" data-full="0 0 {WIDTH} {HEIGHT}"'
        f' preserveAspectRatio="xMidYMid meet" role="img" aria-labelledby="sp-map-title"'
        f"{_attrs(mover=mover, home=home)}>"
        '<title id="sp-map-title">Map of Europe, the Middle East and North Africa</title>',
        map_background(),
        '<g class="sp-seas">',
    ]
    for zone in BOARD.sea_zones.values():
        x, y = project(zone.lon, zone.lat)
        classes = ["sp-zone"]
        if zone.id in can:
            classes.append("sp-can")
        parts.append(
            f'<g class="{" ".join(classes)}" data-node="{zone.id}" data-name="{escape(zone.name)}"'
            f' transform="translate({num(x)},{num(y)})"><g class="sp-mk">'
            f'<circle class="sp-hit" r="11"/><path class="sp-ship" d="{SHIP}"/>'
            f'<text class="sp-zone-name" y="15">{escape(zone.name)}</text>'
            f"{_layout(at.get(zone.id, []), mine, table, chosen)}</g></g>"
        )
    parts.append('</g><g class="sp-cities">')
    # Cities in the south first, so a northern city's pieces are drawn over its southern neighbour.
    for city in sorted(BOARD.cities.values(), key=lambda c: -c.lat):
        x, y = project(city.lon, city.lat)
        owner = BOARD.owner[city.id]
        classes = ["sp-city"]
        if city.capital:
            classes.append("sp-capital")
        if city.id in home_capitals:
            classes.append("sp-home-capital")
        if city.police:
            classes.append("sp-police-city")
        if city.secret:
            classes.append("sp-secret-city")
        if city.port:
            classes.append("sp-port")
        if city.id in can:
            classes.append("sp-can")
        if city.id == hot_city:
            classes.append(f"sp-hot sp-hot-{hot_kind}")
        if city.id == asked_city:
            classes.append("sp-asked")
        look = f"sp-{POWER_CODES[owner]}" if owner is not None else "sp-neutral-city"
        features = [BOARD.countries[city.country].name]
        if city.id in home_capitals:
            features.append(f"capital of {BOARD.powers[BOARD.capitals.index(city.id)].name}")
        elif city.capital:
            features.append("capital")
        features += [
            w for w, on in (("police", city.police), ("SECRET", city.secret), ("port", city.port)) if on
        ]
        mark = (
            f'<path class="sp-star {look}" d="{STAR}"/>'
            if city.id in home_capitals
            else f'<circle class="sp-dot {look}" r="{3.4 if city.capital else 2.8}"/>'
        )
        parts.append(
            f'<g class="{" ".join(classes)}" data-node="{city.id}" data-name="{escape(city.name)}"'
            f' data-about="{escape(", ".join(features))}" transform="translate({num(x)},{num(y)})">'
            f'<g class="sp-mk"><circle class="sp-hit" r="9"/>'
            + ('<circle class="sp-ring-secret" r="7.5"/>' if city.secret else "")
            + ('<circle class="sp-ring-police" r="5.4"/>' if city.police else "")
            + mark
            + ('<text class="sp-anchor" x="-11" y="3">⚓</text>' if city.port else "")
            + f'<text class="sp-name" x="6" y="-4">{escape(city.name)}</text>'
            + f"{_layout(at.get(city.id, []), mine, table, chosen)}</g></g>"
        )
    parts.append("</g></svg>")
    return mark_safe("".join(parts))  # every dynamic text above is escaped


# ---------------------------------------------------------------------------------- events


def event_words(event: dict[str, Any], table: _Table) -> str:
    """One event of the log, in words. Events carry only what the seat may read; so do these."""
    kind = event.get("event")
    who = power_name(event.get("power"))
    if kind == "setup":
        return (
            "The game is set up: bank, Event Tiles and secrets are dealt; each power now places its pieces."
        )
    if kind == "year":
        year = event.get("year")
        mult = BOARD.multipliers.get(int(year or 0), "?") if year else "?"
        return f"{year} begins (the Time and Victory Record multiplies by {mult})."
    if kind == "turn":
        return f"{who}'s turn ({event.get('year')})."
    if kind == "place_secret":
        return f"{who} placed secret {event.get('secret')} in {node_name(event.get('city'))}."
    if kind == "place_police":
        return f"{who} placed {piece_name(event.get('police'))} in {node_name(event.get('city'))}."
    if kind == "place_spy":
        return f"{who} placed {piece_name(event.get('spy'))} in {node_name(event.get('city'))}."
    if kind == "spies_done":
        return f"{who} has placed its spies."
    if kind == "draw":
        count = int(event.get("count") or 0)
        return f"{who} drew {count} Action chit{'s' if count != 1 else ''}."
    if kind == "drew":
        return f"{who} drew {_list_words(_chits_words(event.get('chits') or []))}."
    if kind == "event_tile":
        awards = event.get("awards") or {}
        gains = []
        for code, award in awards.items():
            got = []
            if award.get("chits"):
                got.append(f"{award['chits']} chit{'s' if award['chits'] != 1 else ''}")
            if award.get("money"):
                got.append(pounds(award["money"]))
            gains.append(f"{power_name(code)} {' and '.join(got)}")
        cities = _list_words([node_name(c) for c in event.get("cities") or []])
        result = f": {_list_words(gains)}" if gains else ": nobody gains"
        return f"{who} played “{event.get('title')}” ({event.get('award')} for each spy in {cities}){result}."
    if kind == "discard_tile":
        return f"{who} discarded an Event Tile face down."
    if kind == "discarded":
        return f"You discarded “{tile_title(str(event.get('tile')))}”."
    if kind == "police":
        if event.get("from") == event.get("to"):
            return f"{piece_name(event.get('police'))} stays in {node_name(event.get('to'))}."
        return (
            f"{piece_name(event.get('police'))} moved from {node_name(event.get('from'))} "
            f"to {node_name(event.get('to'))}."
        )
    if kind == "police_done":
        return f"{who} has arranged its police."
    if kind == "search":
        return f"{who}'s police search {piece_name(event.get('spy'))} in {node_name(event.get('city'))}…"
    if kind == "search_result":
        result = "CAPTURED!" if event.get("result") == "captured" else "no effect."
        return f"Search in {node_name(event.get('city'))} of {piece_name(event.get('spy'))}: {result}"
    if kind == "comparison":
        other = (
            f"counterspy {event.get('counterspy_strength')}"
            if "counterspy_strength" in event
            else f"police {event.get('police_strength')}"
        )
        return (
            f"Strengths compared: {piece_name(event.get('spy'))} {event.get('spy_strength')} against {other}."
        )
    if kind == "captured":
        place = (
            "the Spies Captured in Neutral Countries box"
            if event.get("place") == "neutral_box"
            else f"{power_name(event.get('by'))}'s Time and Victory Record"
        )
        return (
            f"{piece_name(event.get('spy'))} (strength {event.get('strength')}, value {event.get('value')}) "
            f"was captured in {node_name(event.get('city'))} and goes to {place}."
        )
    if kind == "no_search":
        return f"{who} let {piece_name(event.get('spy'))} pass."
    if kind == "evaded":
        how = "showed Papers" if event.get("chit") == "papers" else "played Escape"
        return f"{piece_name(event.get('spy'))} {how}: the search has no effect."
    if kind == "discovery":
        return f"{piece_name(event.get('spy'))} plays Discovery on secret {event.get('secret')}."
    if kind == "counterspy":
        result = "captures the spy!" if event.get("result") == "captured" else "has no effect."
        holder = event.get("controller")
        whose = f" of {power_name(holder)}" if holder else ""
        return (
            f"Secret {event.get('secret')} was a counterspy{whose} (strength {event.get('strength')}): "
            f"it {result} It is removed from play."
        )
    if kind == "control":
        return f"{piece_name(event.get('spy'))} takes control of secret {event.get('secret')}."
    if kind == "secret_seen":
        return f"Secret {event.get('secret')} is worth {event.get('value')}."
    if kind == "sanction":
        return f"{piece_name(event.get('spy'))} plays Sanction on {piece_name(event.get('target'))}…"
    if kind == "sanctioned":
        return (
            f"{piece_name(event.get('spy'))} was sanctioned by {power_name(event.get('by'))} "
            f"in {node_name(event.get('city'))}."
        )
    if kind == "covered":
        return f"{who} played Cover: the {event.get('against')} has no effect."
    if kind == "recruit":
        return f"{who} recruited {piece_name(event.get('spy'))} in {node_name(event.get('city'))}."
    if kind == "escape":
        source = event.get("from")
        held = "the neutral box" if source == "neutral_box" else f"{power_name(source)}'s record"
        return f"{piece_name(event.get('spy'))} escaped from {held} to {node_name(event.get('city'))}."
    if kind == "guard":
        return f"{piece_name(event.get('spy'))} guards secret {event.get('secret')}."
    if kind == "hand":
        handed = f"{piece_name(event.get('spy'))} handed secret {event.get('secret')}"
        return f"{handed} to {piece_name(event.get('to'))}."
    if kind == "cash_in":
        return (
            f"{who} cashed in secret {event.get('secret')} (value {event.get('value')}) "
            f"in {event.get('year')}: "
            f"+{pounds(int(event.get('money') or 0))} and a chit."
        )
    if kind == "return_chit":
        return f"{who} returned a chit to the cup (7 at most)."
    if kind == "offer":
        return f"{power_name(event.get('from'))} made an offer to {power_name(event.get('to'))}."
    if kind == "offer_terms":
        return (
            f"Terms: {power_name(event.get('from'))} gives {_terms_words(event.get('give') or {})} "
            f"and asks {_terms_words(event.get('ask') or {})}."
        )
    if kind == "offer_declined":
        return f"{power_name(event.get('to'))} refused {power_name(event.get('from'))}'s offer."
    if kind == "offer_accepted":
        moves = []
        for code, amount in (event.get("money") or {}).items():
            if amount:
                moves.append(f"{power_name(code)} {'+' if amount > 0 else MINUS}{pounds(abs(amount))}")
        for code, count in (event.get("chits") or {}).items():
            if count:
                moves.append(
                    f"{power_name(code)} {'+' if count > 0 else MINUS}{abs(count)} "
                    f"chit{'s' if abs(count) != 1 else ''}"
                )
        for secret_id, spy_id in (event.get("new_control") or {}).items():
            moves.append(f"secret {secret_id} to {piece_name(spy_id)}")
        done = f": {', '.join(moves)}" if moves else ""
        return f"{power_name(event.get('to'))} accepted {power_name(event.get('from'))}'s offer{done}."
    if kind == "end_turn":
        return f"{who} ended its turn."
    if kind == "original_secrets_counted":
        counted = event.get("secrets") or []
        if not counted:
            return "1939 is over: no original secret counts."
        by_power: dict[str, int] = defaultdict(int)
        for item in counted:
            by_power[item["power"]] += 1
        shares = [f"{power_name(c)} {n}" for c, n in by_power.items()]
        return f"1939 is over: original secrets at home count for their powers ({_list_words(shares)})."
    if kind == "game_over":
        vps = event.get("victory_points") or {}
        scores = ", ".join(f"{power_name(c)} {v}" for c, v in sorted(vps.items(), key=lambda kv: -kv[1]))
        return f"Game over. Victory points: {scores}."
    if kind == "move":
        return (
            f"{piece_name(event.get('spy'))} moved from {node_name(event.get('from'))} "
            f"to {node_name(event.get('to'))} (space {event.get('space')})."
        )
    return str(kind or "").replace("_", " ").capitalize() + "."


NEWS_KINDS: Final = {
    "search": "search",
    "search_result": "search",
    "captured": "capture",
    "evaded": "search",
    "no_search": "search",
    "sanctioned": "capture",
    "counterspy": "capture",
    "covered": "search",
}


def latest_news(view: dict[str, Any]) -> dict[str, Any] | None:
    """The search, capture or sanction of the current turn that every seat should notice."""
    table = _Table(view)
    events = view.get("events") or []
    for event in reversed(events):
        kind = event.get("event")
        if kind in ("turn", "year", "game_over"):
            return None
        if kind not in NEWS_KINDS or event.get("private"):
            continue
        city = event.get("city") or table.where(event.get("spy"))
        if kind == "search_result" and event.get("result") == "captured":
            continue  # the capture itself follows
        news_kind = NEWS_KINDS[kind]
        if kind == "counterspy" and event.get("result") != "captured":
            news_kind = "search"
        return {"kind": news_kind, "city": city, "text": event_words(event, table), "event": kind}
    return None


@register.filter
def spies_news(view: dict[str, Any] | None) -> dict[str, Any] | None:
    return latest_news(view or {})


@register.filter
def spies_log(view: dict[str, Any] | None, count: int = 24) -> list[dict[str, Any]]:
    """The last events in words, newest first."""
    view = view or {}
    table = _Table(view)
    events = (view.get("events") or [])[-int(count) :]
    out = []
    for event in reversed(events):
        kind = str(event.get("event"))
        out.append(
            {
                "kind": kind,
                "text": event_words(event, table),
                "private": _list_words([power_name(c) for c in event.get("private") or []])
                if event.get("private")
                else "",
                "news": kind in NEWS_KINDS or kind in ("cash_in", "offer_accepted", "game_over"),
                "turn": kind in ("turn", "year"),
            }
        )
    return out


# ----------------------------------------------------------------------------------- the turn

TURN_STEPS: Final = (
    ("event", "Event tile"),
    ("chits", "Chits"),
    ("police", "Police"),
    ("search", "Searches"),
    ("move", "Moves"),
    ("secrets", "Secrets"),
    ("cash", "Cash in"),
    ("played", "Chits played"),
)
SETUP_STEPS: Final = (
    ("setup_secrets", "Secrets"),
    ("setup_police", "Police"),
    ("setup_spies", "Spies"),
)
STEP_HELP: Final = {
    "event": "Play an Event Tile of this year, or discard one face down.",
    "chits": "Tiles and cash-ins award chits; nobody keeps more than 7.",
    "police": "Re-arrange your police in your home cities, 2 at most a city.",
    "search": "Your police may search each enemy spy in their city once.",
    "move": (
        "Each spy moves up to 5 spaces by rail, air or sea, one spy after another. Secrets, cash-ins "
        "and chits (Discovery, Sanction, Recruit, Escape) happen while the spies move."
    ),
    "secrets": "Discover secrets (Discovery chit), guard your own, hand them on.",
    "cash": "A spy carrying a foreign secret into your capital cashes it in: 20£ and a chit.",
    "played": "Discovery, Sanction, Recruit and Escape are played during your moves.",
    "setup_secrets": "Each secret goes face down in a city of your territory.",
    "setup_police": "Police go face down in your police cities, 2 at most a city.",
    "setup_spies": "Spies go face down in any cities, up to your Starting Set-Up number.",
}
MOVE_STEP_TYPES: Final = {
    "move": ("move",),
    "secrets": ("discover", "guard", "hand"),
    "cash": ("cash",),
    "played": ("discover", "sanction", "recruit", "escape"),
}


def _current_step(view: dict[str, Any]) -> int | None:
    phase = view.get("phase")
    window = view.get("window") or {}
    if window.get("kind") == "surplus":
        return 1
    if phase == "event":
        return 0
    if phase == "police":
        return 2
    if phase == "search":
        return 3
    if phase == "move":
        return 4
    if phase == "offer_build":
        step = view.get("step") or {}
        if step.get("moved") or step.get("mover"):
            return 4
        if step.get("searched"):
            return 3
    return None


def _guide(view: dict[str, Any], legal: list[dict[str, Any]], my_turn: bool) -> list[dict[str, Any]]:
    phase = str(view.get("phase"))
    kinds = {a.get("type") for a in legal}
    if phase.startswith("setup_"):
        order = [key for key, _ in SETUP_STEPS]
        now = order.index(phase)
        return [
            {
                "key": key,
                "label": label,
                "state": "done" if i < now else ("now" if i == now else "next"),
                "help": STEP_HELP[key],
                "can": False,
            }
            for i, (key, label) in enumerate(SETUP_STEPS)
        ]
    current = _current_step(view)
    steps = []
    for i, (key, label) in enumerate(TURN_STEPS):
        if current is None:
            state = "next"
        elif current >= 4 and i >= 4:
            state = "now"  # secrets, cash-ins and chits all happen while the spies move
        elif i < current:
            state = "done"
        elif i == current:
            state = "now"
        else:
            state = "next"
        can = my_turn and any(k in kinds for k in MOVE_STEP_TYPES.get(key, ())) and state == "now"
        steps.append({"key": key, "label": label, "state": state, "help": STEP_HELP[key], "can": can})
    return steps


def _window_title(view: dict[str, Any], p: Any) -> str:
    window = view.get("window") or {}
    table = _Table(view)
    you = view.get("acting") in set(view.get("powers") or []) and p.my_turn
    if window:
        kind = window.get("kind")
        spy = window.get("spy")
        asked = "you" if you else power_name(window.get("power"))
        if kind == "arrival":
            return f"{piece_name(spy)} arrives in {node_name(table.where(spy))}: {asked} may search it"
        if kind == "evade":
            return (
                f"{power_name(window.get('actor'))}'s police search {piece_name(spy)} "
                f"in {node_name(table.where(spy))}"
            )
        if kind == "cover":
            target = window.get("target")
            what = piece_name(target) if window.get("cause") == "sanction" else f"secret {target}"
            return (
                f"{power_name(window.get('actor'))} plays {str(window.get('cause')).capitalize()} on {what}"
            )
        if kind == "offer":
            return f"{power_name(window.get('actor'))} makes an offer to {power_name(window.get('power'))}"
        if kind == "surplus":
            return f"{power_name(window.get('power'))} holds more than 7 chits and returns one"
    return ""


def _headline(view: dict[str, Any], p: Any) -> str:
    if view.get("over"):
        return "Game over: 1939 has ended"
    phase = str(view.get("phase"))
    turn = view.get("turn")
    mine = set(view.get("powers") or [])
    you = turn in mine and p.seat is not None
    whose = f"Your turn ({power_name(turn)})" if you else f"{power_name(turn)}'s turn"
    if phase.startswith("setup_"):
        what = {"setup_secrets": "secrets", "setup_police": "police", "setup_spies": "spies"}[phase]
        return f"Set-up: {'you place' if you else power_name(turn) + ' places'} {what}"
    step = {
        "event": "the Event Tile",
        "police": "re-arranging police",
        "search": "searches",
        "move": "moving spies",
        "offer_build": "writing an offer",
    }.get(phase, phase)
    return f"{whose}, {view.get('year')}: {step}"


def _power_rows(view: dict[str, Any], p: Any) -> list[dict[str, Any]]:
    mine = set(view.get("powers") or [])
    rows = []
    spies = view.get("spies") or []
    for info in view.get("power_info") or []:
        code = info["code"]
        on_map = sum(1 for s in spies if s["power"] == code and s.get("status") == "map")
        lost = sum(
            1 for s in spies if s["power"] == code and s.get("status") in ("captured", "box", "sanctioned")
        )
        rows.append(
            {
                "code": code,
                "name": info["name"],
                "player": seat_name(p.seats, info["seat"]) if info.get("seat") is not None else "",
                "me": code in mine,
                "turn": code == view.get("turn") and not view.get("over"),
                "acting": code == view.get("acting") and not view.get("over"),
                "money": info["money"],
                "chits": info["chits"],
                "tiles": info["tiles"],
                "spies": on_map,
                "lost": lost,
                "reserve": info.get("reserve"),
                "vp": info["victory_points"],
            }
        )
    return rows


def _record(view: dict[str, Any]) -> dict[str, Any]:
    years = [{"year": y, "multiplier": m, "now": y == view.get("year")} for y, m in BOARD.multipliers.items()]
    rows = []
    for info in view.get("power_info") or []:
        by_year: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for entry in info.get("record") or []:
            kind = entry["kind"]
            what = {"secret": "Secret", "spy": "Spy", "sanction": "Sanction"}.get(kind, kind)
            name = entry["id"] if kind == "secret" else piece_name(entry["id"])
            by_year[int(entry["year"])].append(
                {
                    "kind": kind,
                    "short": f"{RECORD_MARKS.get(kind, entry['id'] + '\u00b7')}{entry['value']}",
                    "title": (
                        f"{what} {name}: value {entry['value']} \u00d7 "
                        f"{BOARD.multipliers.get(int(entry['year']))} = {entry['points']} VP"
                    ),
                    "points": entry["points"],
                }
            )
        rows.append(
            {
                "code": info["code"],
                "name": info["name"],
                "cells": [by_year.get(y["year"], []) for y in years],
                "vp": info["victory_points"],
                "me": info["code"] in set(view.get("powers") or []),
            }
        )
    return {"years": years, "rows": rows}


def _mine(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the seat knows of its own powers: chits, tiles, secrets, spies."""
    table = _Table(view)
    playable = {a["tile"] for a in legal if a.get("type") == "play_event"}
    year = int(view.get("year") or FIRST_YEAR)
    out = []
    infos = {i["code"]: i for i in view.get("power_info") or []}
    for code in view.get("powers") or []:
        info = infos.get(code) or {}
        hand = info.get("hand") or []
        secrets = []
        for s in view.get("secrets") or []:
            held_by_me = bool(s.get("controller")) and s["controller"].split("-")[0] == code
            if s.get("origin") != code and not held_by_me:
                continue
            if s.get("status") in ("record", "removed"):
                continue
            controller = s.get("controller")
            secrets.append(
                {
                    "id": s["id"],
                    "value": s.get("value"),
                    "counterspy": s.get("counterspy"),
                    "strength": s.get("strength"),
                    "where": node_name(s["where"]) if s.get("where") else "in hand (to place)",
                    "original": s.get("origin") == code,
                    "held": piece_name(controller) if controller else "",
                    "enemy": bool(controller) and controller.split("-")[0] not in table.mine,
                }
            )
        spies = [
            {
                "id": s["id"],
                "name": piece_name(s["id"]),
                "strength": s.get("strength"),
                "value": s.get("value"),
                "where": node_name(s.get("where")) if s.get("status") == "map" else "",
                "status": s.get("status"),
                "captor": power_name(s.get("captor")) if s.get("captor") else "",
                "carrying": s.get("controls"),
            }
            for s in view.get("spies") or []
            if s["power"] == code
        ]
        tiles = [
            {
                **t,
                "now": year in t["years"],
                "playable": t["id"] in playable,
                "past": max(t["years"]) < year,
                "years_text": "\u2013".join(str(y) for y in (t["years"][0], t["years"][-1]))
                if len(t["years"]) > 1
                else str(t["years"][0]),
                "cities_text": _list_words([node_name(c) for c in t["cities"]]),
            }
            for t in info.get("tile_list") or []
        ]
        out.append(
            {
                "code": code,
                "name": info.get("name", power_name(code)),
                "money": info.get("money"),
                "hand": [
                    {"kind": k, "name": chit_name(k), "cost": chit_cost(k), "text": BOARD.chits[k].text}
                    for k in hand
                    if k in BOARD.chits
                ],
                "chits": len(hand),
                "tiles": tiles,
                # The event step lists the tiles this year's play can use first: on a phone
                # the tray shows the top of the list without scrolling.
                "tiles_playable_first": sorted(tiles, key=lambda t: not t["playable"]),
                "secrets": secrets,
                "spies": spies,
                "reserve": info.get("reserve_list") or [],
                "police_reserve": info.get("police_reserve_list") or [],
                "vp": info.get("victory_points"),
            }
        )
    return out


def _window(view: dict[str, Any], p: Any) -> dict[str, Any] | None:
    window = view.get("window")
    if not window:
        return None
    table = _Table(view)
    mine = table.mine
    asked = window.get("power") in mine and p.my_turn
    spy = window.get("spy")
    kind = window.get("kind")
    city = node_name(table.where(spy)) if spy else ""
    text = ""
    if kind == "arrival":
        text = (
            f"{piece_name(spy)} has just moved into {city}, "
            f"where {power_name(window.get('power'))} has police. "
            "Police may search each spy that moves into their city."
        )
    elif kind == "evade":
        text = (
            f"{power_name(window.get('actor'))}'s police search {piece_name(spy)} in {city}. "
            "Its owner may play Papers or Escape to avoid the comparison; otherwise the stronger side wins "
            "(the police must be stronger to capture)."
        )
    elif kind == "cover":
        target = window.get("target")
        if window.get("cause") == "sanction":
            text = (
                f"{piece_name(spy)} plays Sanction on {piece_name(target)} in {city}: "
                "a Cover chit makes it fail."
            )
        else:
            text = (
                f"{piece_name(spy)} plays Discovery on secret {target} in {city}, which "
                f"{power_name(window.get('power'))} controls: a Cover chit makes it fail."
            )
    elif kind == "offer":
        text = f"{power_name(window.get('actor'))} offers {power_name(window.get('power'))} a deal."
    elif kind == "surplus":
        text = (
            f"{power_name(window.get('power'))} holds more than {BOARD.chits_in_hand} chits "
            "and returns one to the cup."
        )
    return {
        "kind": kind,
        "title": _window_title(view, p),
        "text": text,
        "asked": asked,
        "power": power_name(window.get("power")),
        "mine_involved": window.get("power") in mine or window.get("actor") in mine,
    }


def _offer(view: dict[str, Any]) -> dict[str, Any] | None:
    offer = view.get("offer")
    if not offer:
        return None
    mine = set(view.get("powers") or [])
    out = {
        "from": power_name(offer.get("from")),
        "to": power_name(offer.get("to")),
        "sent": offer.get("sent"),
        "ours": offer.get("from") in mine,
        "theirs": offer.get("to") in mine,
        "terms": "give" in offer,
    }
    if "give" in offer:
        out["give"] = _terms_words(offer["give"])
        out["ask"] = _terms_words(offer["ask"])
    return out


def _final(view: dict[str, Any], p: Any) -> dict[str, Any] | None:
    outcome = p.outcome
    if not outcome or not view.get("over"):
        return None
    powers = (outcome.get("detail") or {}).get("powers") or {}
    rows = []
    for code, entry in powers.items():
        seat = entry.get("seat")
        rows.append(
            {
                "code": code,
                "name": power_name(code),
                "player": seat_name(p.seats, seat) if seat is not None else "both players",
                "vp": entry.get("victory_points"),
                "money": entry.get("money"),
                "place": entry.get("place"),
                "me": code in set(view.get("powers") or []),
            }
        )
    rows.sort(key=lambda r: (r["place"], r["code"]))
    winners = [r for r in rows if r["place"] == 1]
    return {"rows": rows, "winners": winners}


@register.filter
def spies_board(p: Any) -> dict[str, Any]:
    """Everything the side of the board shows, from this seat's view and legal actions."""
    view: dict[str, Any] = p.view or {}
    legal: list[dict[str, Any]] = list(p.legal or [])
    step = view.get("step") or {}
    guide = _guide(view, legal, p.my_turn)
    return {
        "headline": _headline(view, p),
        "guide": guide,
        "step_help": next((s["help"] for s in guide if s["state"] == "now"), ""),
        "setup": str(view.get("phase", "")).startswith("setup_"),
        "powers": _power_rows(view, p),
        "record": _record(view),
        "mine": _mine(view, legal),
        "window": _window(view, p),
        "offer": _offer(view),
        "news": latest_news(view),
        "final": _final(view, p),
        "spaces_left": BOARD.move_spaces - int(step.get("spaces_used") or 0),
        "mover": piece_name(step.get("mover")) if step.get("mover") else "",
        "turn_minutes": (view.get("options") or {}).get("turn_minutes") or 0,
        "turn_name": power_name(view.get("turn")),
        "placing_secret": view.get("placing_secret"),
        "multiplier": view.get("multiplier"),
        "cup": view.get("cup"),
        "neutral_box": [piece_name(s) for s in view.get("neutral_box") or []],
        "years_left": LAST_YEAR - int(view.get("year") or LAST_YEAR),
        "chit_kinds": [
            {"name": chit_name(k), "cost": chit_cost(k), "text": BOARD.chits[k].text} for k in CHIT_KINDS
        ],
    }


# ------------------------------------------------------------------------------------ clocks


@register.filter
def spies_iso(moment: Any) -> str:
    return ms_iso(moment)


@register.filter
def spies_seconds_left(deadline: Any) -> int:
    return ms_seconds_left(deadline)


@register.filter
def spies_clock_text(seconds: int) -> str:
    seconds = max(0, int(seconds or 0))
    return f"{seconds // 60}:{seconds % 60:02d}"


@register.simple_tag
def spies_now() -> str:
    return ms_now()
