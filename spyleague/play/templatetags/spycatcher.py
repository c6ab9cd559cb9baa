"""The Spycatcher match board: the circuit drawn as SVG, cards, actions and events in words.

Everything a seat sees comes from its own view (``p.view``) and its legal actions
(``p.legal``). The board itself (squares, links, circles, location cards) is public: it is
read from the board file the view names, never from the game's state.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from functools import cache
from typing import Any, Final

from django import template
from django.utils import timezone

from games import get_engine

from .cards import seat_name

register = template.Library()

SUITS: Final = ("court", "government", "press", "publisher")
SUIT_NAMES: Final = {"court": "Court", "government": "Government", "press": "Press", "publisher": "Publisher"}
#: What fits at the foot of a card.
SUIT_SHORT: Final = {"court": "Court", "government": "Gov\u2019t", "press": "Press", "publisher": "Publisher"}
SUIT_COLOURS: Final = {
    "court": "#6b2fa3",
    "government": "#1f5fbf",
    "press": "#b3122e",
    "publisher": "#1d7a46",
}
SUIT_TINTS: Final = {
    "court": "#efe4f8",
    "government": "#e2ecfb",
    "press": "#fbe3e7",
    "publisher": "#e0f2e7",
}
#: The playing pieces: (name, fill, ink for the number on it).
SEAT_COLOURS: Final = (
    ("red", "#e03131", "#ffffff"),
    ("blue", "#1c7ed6", "#ffffff"),
    ("yellow", "#fcc419", "#1b2230"),
    ("green", "#2f9e44", "#ffffff"),
    ("white", "#ffffff", "#1b2230"),
    ("black", "#212529", "#ffffff"),
)
UNIT: Final = 40  # SVG units per board unit (a square is one board unit)
SQUARE: Final = 0.84  # how much of its cell a square fills (the rest is the gap the arrows sit in)
PHASE_WORDS: Final = {
    "draw": "take a card",
    "discard": "discard a card",
    "roll": "roll the die",
    "move": "choose where to stop",
    "seek": "seek permission?",
    "window": "waiting for challenges",
    "give": "give a permission card away",
    "replace": "put back a permission card",
}
LETTERS: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ"


# ------------------------------------------------------------------------ cards


def _split(code: str) -> tuple[str, str]:
    suit, _, number = str(code).rpartition("-")
    return suit, number


_UNKNOWN: Final[dict[str, Any]] = {
    "code": "",
    "suit": "",
    "colour": "#555",
    "tint": "#fff",
    "mark": "?",
    "number": 0,
    "master": False,
    "name": "",
    "short": "",
    "label": "a card",
}


@register.filter
def sc_card(code: str | None) -> dict[str, Any]:
    """``court-5`` -> what an influence card shows: suit, colour, number (``M``: the master card)."""
    suit, number = _split(code or "")
    if suit not in SUIT_NAMES or not (number == "M" or number.isdigit()):
        return dict(_UNKNOWN)
    master = number == "M"
    name = SUIT_NAMES[suit]
    return {
        "code": code,
        "suit": suit,
        "colour": SUIT_COLOURS[suit],
        "tint": SUIT_TINTS[suit],
        "mark": "M" if master else number,
        "number": 0 if master else int(number),
        "master": master,
        "name": name,
        "short": SUIT_SHORT[suit],
        "label": f"{name} master card" if master else f"{name} {number}",
    }


def card_words(code: str) -> str:
    return str(sc_card(code)["label"])


def cards_words(cards: list[str]) -> str:
    """``[court-5, court-6, court-7]`` -> ``Court 5, 6, 7``; a master card alone by its name."""
    if not cards:
        return "no cards"
    faces = [sc_card(c) for c in cards]
    if len(faces) == 1 or any(f["master"] for f in faces):
        return " + ".join(str(f["label"]) for f in faces)
    suits = {f["suit"] for f in faces}
    if len(suits) == 1:
        return f"{faces[0]['name']} {', '.join(str(f['mark']) for f in faces)}"
    return ", ".join(str(f["label"]) for f in faces)


def _total(cards: list[str]) -> int:
    return sum(int(sc_card(c)["number"]) for c in cards)


def _has_master(cards: list[str]) -> bool:
    return any(sc_card(c)["master"] for c in cards)


def _best_beaten_run(total: int) -> int:
    """The lowest card of the highest run ``n, n+1, n+2`` a challenge of ``total`` beats (0: none)."""
    return max(0, min(10, (total - 4) // 3))


# ------------------------------------------------------------------------ the board file


@cache
def _board(name: str) -> dict[str, Any]:
    """The public board a view names, indexed for drawing and for words."""
    drawing = get_engine("spycatcher").board_drawing(name)  # type: ignore[attr-defined]
    squares = {sq["id"]: sq for sq in drawing["squares"]}
    circles = {c["suit"]: c for c in drawing["circles"]}
    cards = {card["id"]: {**card, "suit": suit} for suit, pack in drawing["packs"].items() for card in pack}
    return {"drawing": drawing, "squares": squares, "circles": circles, "cards": cards}


def _board_of(view: dict[str, Any]) -> dict[str, Any] | None:
    name = view.get("board")
    if not name:
        return None
    try:
        return _board(str(name))
    except KeyError:
        return None


def circle_title(board: dict[str, Any] | None, suit: str) -> str:
    if board and suit in board["circles"]:
        return str(board["circles"][suit]["title"])
    return f"the {SUIT_NAMES.get(suit, suit)} circle"


def square_words(board: dict[str, Any] | None, square_id: str, *, long: bool = False) -> str:
    """A square as players would name it: MI5, the centre, a circle's challenge square..."""
    sq = board["squares"].get(square_id) if board else None
    if sq is None:
        return f"square {square_id}"
    kind = sq["kind"]
    if kind == "mi5":
        return "MI5"
    if kind == "centre":
        return "the centre"
    if kind == "challenge":
        return f"{circle_title(board, sq['circle'])} (challenge square)"
    if kind == "action":
        return f"an action square: “{sq['text']}”" if long else f"action square {square_id}"
    return str(sq.get("name") or f"square {square_id}")


def card_title(board: dict[str, Any] | None, card_id: str) -> tuple[str, str]:
    """A location card's (suit, title)."""
    card = board["cards"].get(card_id) if board else None
    if card is None:
        return "", card_id
    return str(card["suit"]), str(card["title"])


def _dump(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"))


# ------------------------------------------------------------------------ the drawing


def _chevron(x1: float, y1: float, x2: float, y2: float, size: float) -> str:
    """A small arrow head at the middle of a link, pointing from (x1, y1) to (x2, y2)."""
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    px, py = -uy, ux
    tip = (mx + ux * size * 0.6, my + uy * size * 0.6)
    left = (mx - ux * size * 0.5 + px * size * 0.55, my - uy * size * 0.5 + py * size * 0.55)
    right = (mx - ux * size * 0.5 - px * size * 0.55, my - uy * size * 0.5 - py * size * 0.55)
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in (tip, left, right))


@cache
def _layout(name: str) -> dict[str, Any]:
    """The parts of the drawing that never change during a game."""
    board = _board(name)
    drawing = board["drawing"]
    width, height = drawing["size"]["width"] * UNIT, drawing["size"]["height"] * UNIT
    squares = []
    for sq in drawing["squares"]:
        side = float(sq.get("size", 1)) * UNIT * SQUARE
        cx, cy = sq["x"] * UNIT, sq["y"] * UNIT
        kind = sq["kind"]
        item = {
            "id": sq["id"],
            "kind": kind,
            "x": round(cx - side / 2, 1),
            "y": round(cy - side / 2, 1),
            "cx": round(cx, 1),
            "cy": round(cy, 1),
            "side": round(side, 1),
            "fill": "",
            "stroke": "",
            "mark": "",
            "title": square_words(board, sq["id"], long=True),
            "text": sq.get("text", ""),
        }
        if kind == "challenge":
            item["fill"], item["stroke"] = SUIT_TINTS[sq["circle"]], SUIT_COLOURS[sq["circle"]]
            item["suit"] = sq["circle"]
        elif kind == "action":
            item["mark"] = "!"
        elif kind == "mi5":
            item["mark"] = "MI5"
            item["title"] = "MI5: " + str(sq.get("text") or "where the pieces start")
        elif kind == "centre":
            item["title"] = "The centre: " + str(sq.get("text") or "return here with all four permissions")
            star = side * 0.8
            item.update(sx=round(cx - star / 2, 1), sy=round(cy - star / 2, 1), ss=round(star, 1))
        squares.append(item)
    centres = {sq["id"]: (sq["x"] * UNIT, sq["y"] * UNIT) for sq in drawing["squares"]}
    links = []
    for sq in drawing["squares"]:
        x1, y1 = centres[sq["id"]]
        for target in sq["next"]:
            x2, y2 = centres[target]
            long = math.hypot(x2 - x1, y2 - y1) > UNIT * 1.05
            links.append(
                {
                    "x1": round(x1, 1),
                    "y1": round(y1, 1),
                    "x2": round(x2, 1),
                    "y2": round(y2, 1),
                    "long": long,
                    "points": _chevron(x1, y1, x2, y2, UNIT * 0.3),
                }
            )
    circles = []
    for c in drawing["circles"]:
        cx, cy = c["x"] * UNIT, c["y"] * UNIT
        # The circle's name goes just outside its ring of squares, on the side towards the
        # middle of the board (below a circle in the top half, above one in the bottom half).
        ring = [sq for sq in drawing["squares"] if sq.get("circle") == c["suit"]]
        reach = max((abs(sq["y"] - c["y"]) + float(sq.get("size", 1)) / 2 for sq in ring), default=c["r"])
        if c["y"] * UNIT < height / 2:
            ly, ly2 = cy + (reach + 0.45) * UNIT, cy + (reach + 0.78) * UNIT
        else:
            ly, ly2 = cy - (reach + 0.5) * UNIT, cy - (reach + 0.17) * UNIT
        r = max(c["r"], 0.42) * UNIT
        circles.append(
            {
                "suit": c["suit"],
                "title": c["title"],
                "cx": round(cx, 1),
                "cy": round(cy, 1),
                "r": round(r, 1),
                "sx": round(cx - r * 0.62, 1),
                "sy": round(cy - r * 0.62, 1),
                "ss": round(r * 1.24, 1),
                "colour": SUIT_COLOURS[c["suit"]],
                "lx": round(cx, 1),
                "ly": round(ly, 1),
                "ly2": round(ly2, 1),
            }
        )
    pad = UNIT / 4
    return {
        "width": width,
        "height": height,
        "viewbox": f"{-pad:g} {-pad:g} {width + 2 * pad:g} {height + 2 * pad:g}",
        "felt": {"x": -pad, "y": -pad, "w": width + 2 * pad, "h": height + 2 * pad},
        "squares": squares,
        "links": links,
        "circles": circles,
    }


def _grown(sq: dict[str, Any], by: float) -> dict[str, float]:
    """A square's box grown by ``by`` on every side (for outlines drawn round it)."""
    return {"x": round(sq["x"] - by, 1), "y": round(sq["y"] - by, 1), "side": round(sq["side"] + 2 * by, 1)}


def _piece_offsets(count: int) -> list[tuple[float, float]]:
    if count == 1:
        return [(0.0, 0.0)]
    if count == 2:
        return [(-0.19, 0.0), (0.19, 0.0)]
    if count == 3:
        return [(-0.19, -0.15), (0.19, -0.15), (0.0, 0.17)]
    if count == 4:
        return [(-0.19, -0.19), (0.19, -0.19), (-0.19, 0.19), (0.19, 0.19)]
    return [(dx, dy) for dy in (-0.17, 0.17) for dx in (-0.26, 0.0, 0.26)][:count]


@register.filter
def sc_drawing(p: Any) -> dict[str, Any] | None:
    """The board as SVG parts: squares, arrows, circles, and every seat's piece on its square."""
    view: dict[str, Any] = p.view or {}
    board = _board_of(view)
    if board is None:
        return None
    layout = _layout(str(view["board"]))
    positions: list[str] = view.get("positions") or []
    by_square: dict[str, list[int]] = {}
    for seat, square in enumerate(positions):
        by_square.setdefault(square, []).append(seat)
    centres = {sq["id"]: sq for sq in layout["squares"]}
    pieces = []
    over = bool(view.get("over"))
    for square, seats in by_square.items():
        sq = centres.get(square)
        if sq is None:
            continue
        scale = sq["side"] / (UNIT * SQUARE)
        radius = (0.32 if len(seats) == 1 else 0.21 if len(seats) <= 4 else 0.15) * UNIT * min(scale, 1.3)
        for seat, (dx, dy) in zip(seats, _piece_offsets(len(seats)), strict=False):
            name, fill, ink = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            pieces.append(
                {
                    "seat": seat,
                    "cx": round(sq["cx"] + dx * UNIT * scale, 1),
                    "cy": round(sq["cy"] + dy * UNIT * scale, 1),
                    "r": round(radius, 1),
                    "halo": round(radius + 5, 1),
                    "fill": fill,
                    "ink": ink,
                    "label": seat + 1,
                    "turn": seat == view.get("turn") and not over,
                    "me": seat == p.seat,
                    "title": f"{seat_name(p.seats, seat)} ({name}) on {square_words(board, square)}",
                }
            )
    pieces.sort(key=lambda piece: (piece["turn"], piece["me"]))  # the player to move is drawn on top
    marks = []
    moving = view.get("moving") or {}
    for i, square in enumerate(moving.get("to") or []):
        sq = centres.get(square)
        if sq is not None:
            marks.append(
                {
                    "id": sq["id"],
                    "title": sq["title"],
                    "letter": LETTERS[i % len(LETTERS)],
                    **_grown(sq, 3),
                    "bx": round(sq["x"] + sq["side"], 1),
                    "by": round(sq["y"], 1),
                }
            )
    window = view.get("window") or {}
    seeking = _grown(centres[window["square"]], 4) if window and window.get("square") in centres else None
    packs = view.get("location_packs") or {}
    circles = [{**c, "left": packs.get(c["suit"])} for c in layout["circles"]]
    return {
        **layout,
        "circles": circles,
        "pieces": pieces,
        "marks": marks,
        "seeking": seeking,
        "label": _drawing_label(view, p, board),
    }


def _drawing_label(view: dict[str, Any], p: Any, board: dict[str, Any]) -> str:
    where = "; ".join(
        f"{seat_name(p.seats, seat)} on {square_words(board, square)}"
        for seat, square in enumerate(view.get("positions") or [])
    )
    return f"The board. {where}."


# ------------------------------------------------------------------------ actions


def _challenge_item(action: dict[str, Any], face_down: int) -> dict[str, Any]:
    cards: list[str] = list(action.get("cards") or [])
    master = _has_master(cards)
    total = _total(cards)
    if face_down == 1:
        hint = "cannot win: the one face-down card is the master card"
    elif master:
        hint = "wins outright"
    else:
        best = _best_beaten_run(total)
        hint = f"beats a run up to {best}, {best + 1}, {best + 2}" if best else "cannot beat any run"
    if master:
        label = f"Challenge with the {card_words(cards[0])}"
    else:
        label = f"Challenge with {cards_words(cards)} (total {total})"
    return {
        "json": _dump(action),
        "type": "challenge",
        "label": label,
        "hint": hint,
        "cards": [sc_card(c) for c in cards],
        "total": 99 if master else total,
        "size": len(cards),
        "master": master,
    }


@register.filter
def sc_actions(p: Any) -> dict[str, Any]:
    """The seat's legal actions, grouped and worded for the board's buttons."""
    view: dict[str, Any] = p.view or {}
    board = _board_of(view)
    groups: dict[str, Any] = {
        "draw": [],
        "discard": {},
        "roll": [],
        "move": [],
        "seek": [],
        "pass": [],
        "decline": [],
        "challenge": [],
        "challenge_more": [],
        "give": [],
        "replace": [],
        "any": bool(p.legal),
    }
    window = view.get("window") or {}
    moves = (view.get("moving") or {}).get("to") or []
    challenges = []
    for action in p.legal:
        kind = action.get("type")
        item: dict[str, Any] = {"json": _dump(action), "type": str(kind)}
        if kind == "draw":
            if action.get("from") == "discard":
                top = (view.get("discard") or {}).get("top")
                item["label"] = (
                    f"Take the {card_words(top)} from the discard pile" if top else "Take the discard"
                )
                item["card"] = sc_card(top) if top else None
            else:
                item["label"] = "Take the top card of the pack"
            groups["draw"].append(item)
        elif kind == "discard":
            groups["discard"][action["card"]] = item["json"]
        elif kind == "roll":
            item["label"] = "Roll the die"
            groups["roll"].append(item)
        elif kind == "stay":
            item["label"] = "Stay here and seek permission again"
            groups["roll"].append(item)
        elif kind == "move":
            to = str(action.get("to"))
            index = moves.index(to) if to in moves else len(groups["move"])
            item["letter"] = LETTERS[index % len(LETTERS)]
            item["label"] = f"Stop on {square_words(board, to, long=True)}"
            item["to"] = to
            groups["move"].append(item)
        elif kind == "seek":
            cards = list(action.get("cards") or [])
            item["cards"] = [sc_card(c) for c in cards]
            if _has_master(cards):
                item["label"] = f"Seek permission with the {card_words(cards[0])}"
                item["hint"] = "no challenge can beat it"
            else:
                item["label"] = f"Seek permission with {cards_words(cards)}"
                item["hint"] = f"total {_total(cards)}: a challenger needs more"
            groups["seek"].append(item)
        elif kind == "pass":
            item["label"] = "Do not seek permission"
            groups["pass"].append(item)
        elif kind == "decline":
            item["label"] = "Do not challenge"
            groups["decline"].append(item)
        elif kind == "challenge":
            challenges.append(_challenge_item(action, int(window.get("face_down") or 0)))
        elif kind == "give":
            suit, title = card_title(board, str(action.get("card")))
            item["label"] = (
                f"Give “{title}” ({SUIT_NAMES.get(suit, suit)}) to {seat_name(p.seats, action.get('to'))}"
            )
            groups["give"].append(item)
        elif kind == "replace":
            suit, title = card_title(board, str(action.get("card")))
            item["label"] = f"Put back “{title}” ({SUIT_NAMES.get(suit, suit)})"
            groups["replace"].append(item)
    # The strongest challenge of each size (and the master card) are offered first; every
    # other legal choice stays one tap away.
    challenges.sort(key=lambda c: (-c["total"], c["size"]))
    first: list[dict[str, Any]] = []
    sizes: set[int] = set()
    for item in challenges:
        key = 0 if item["master"] else item["size"]
        if key not in sizes:
            sizes.add(key)
            first.append(item)
    groups["challenge"] = first
    groups["challenge_more"] = [c for c in challenges if c not in first]
    return groups


# ------------------------------------------------------------------------ the players


@register.filter
def sc_seats(p: Any) -> list[dict[str, Any]]:
    """One row per seat: piece colour, square, cards in hand and the permission cards held."""
    view: dict[str, Any] = p.view or {}
    if not view:
        return []
    board = _board_of(view)
    window = view.get("window") or {}
    waiting = set(window.get("waiting") or [])
    must_move = set(view.get("must_move") or [])
    missed = view.get("missed_turns") or []
    rows = []
    for s in p.seats:
        n = s.number
        colour, fill, ink = SEAT_COLOURS[n % len(SEAT_COLOURS)]
        held = {card["suit"]: card for card in (view.get("permissions") or [[]] * (n + 1))[n]}
        square = (view.get("positions") or [""] * (n + 1))[n]
        rows.append(
            {
                "number": n,
                "name": seat_name(p.seats, n),
                "me": n == p.seat,
                "turn": n == view.get("turn") and not view.get("over"),
                "waiting": n in waiting,
                "seeker": bool(window) and n == window.get("seeker"),
                "colour": colour,
                "fill": fill,
                "ink": ink,
                "cards": (view.get("hands") or [0] * (n + 1))[n],
                "square": square_words(board, square),
                "square_id": square,
                "permissions": [
                    {
                        "suit": suit,
                        "name": SUIT_NAMES[suit],
                        "colour": SUIT_COLOURS[suit],
                        "tint": SUIT_TINTS[suit],
                        "title": held[suit]["title"] if suit in held else "",
                        "held": suit in held,
                    }
                    for suit in SUITS
                ],
                "count": len(held),
                "must_move": n in must_move and not view.get("over"),
                "missing": (missed[n] if n < len(missed) else 0) if not view.get("over") else 0,
                "winner": view.get("winner") == n,
            }
        )
    return rows


# ------------------------------------------------------------------------ events in words


def _instruction_words(
    event: dict[str, Any], who: str, seats: list[Any], board: dict[str, Any] | None
) -> str:
    do = event.get("do")
    source = str(event.get("from", ""))
    if board and source in board["squares"]:
        printed = str(board["squares"][source].get("text", "")).strip()
        return f"{who} landed on “{printed}”" + ("" if printed.endswith((".", "!", "?")) else ".")
    kind = SUIT_NAMES.get(str(event.get("kind")), "")
    words = {
        "go_to_mi5": f"{who} reports to MI5 for questioning.",
        "replace_influence": f"{who} replaces all their influence cards.",
        "replace_permission": f"{who} must put back a {kind or 'permission'} card.".replace(" a Any", " a"),
        "give_permission": f"{who} must give a permission card to another player.",
        "miss_turn": f"{who} will miss the next turn.",
        "move": f"{who} moves on {event.get('steps')} squares.",
        "go_to": f"{who} goes to {square_words(board, str(event.get('square')))}.",
        "roll_again": f"{who} rolls again.",
        "nothing": "",
    }
    return words.get(str(do), f"{who} follows the card.")


def challenge_words(event: dict[str, Any], seats: list[Any], board: dict[str, Any] | None) -> dict[str, Any]:
    """A settled request for permission: the run turned over, each challenge, the verdict."""
    seeker = seat_name(seats, event.get("seat"))
    circle = circle_title(board, str(event.get("circle")))
    run: list[str] = list(event.get("cards") or [])
    master = _has_master(run)
    shown = f"the {card_words(run[0])}" if master else f"{cards_words(run)} (total {event.get('total')})"
    lines = [f"{seeker} sought permission in {circle} with {shown}."]
    for c in event.get("challenges") or []:
        cards: list[str] = list(c.get("cards") or [])
        by = seat_name(seats, c.get("seat"))
        with_what = (
            f"the {card_words(cards[0])}"
            if _has_master(cards)
            else f"{cards_words(cards)} (total {c.get('total')})"
        )
        if master:
            lines.append(f"{by} challenged with {with_what}, but nothing beats the master card.")
        elif c.get("seat") in (event.get("beaten_by") or []):
            lines.append(f"{by} challenged with {with_what} and beat it!")
        else:
            lines.append(f"{by} challenged with {with_what}: not enough.")
    granted = event.get("result") == "granted"
    if event.get("event") == "unchallenged":
        lines.append("Nobody challenged.")
    if granted:
        verdict = f"Permission granted to {seeker}"
    else:
        verdict = f"Permission refused: {seeker} must move on next turn"
    return {"granted": granted, "lines": lines, "verdict": verdict, "circle": event.get("circle")}


@register.simple_tag
def sc_event(event: dict[str, Any], p: Any) -> str:
    """One public event in words. Events never name a hidden card, and neither does this."""
    seats = p.seats
    board = _board_of(p.view or {})

    def who(key: str = "seat") -> str:
        return seat_name(seats, event.get(key))

    kind = event.get("event")
    if kind == "deal":
        turned = card_words(event.get("discard", ""))
        return f"Each player was dealt {event.get('cards')} cards; the {turned} was turned up."
    if kind == "roll_for_first":
        return f"{who()} won the roll for the first turn."
    if kind == "draw":
        if event.get("from") == "discard":
            return f"{who()} took the {card_words(event.get('card', ''))} from the discard pile."
        return f"{who()} drew from the pack."
    if kind == "discard":
        return f"{who()} discarded the {card_words(event.get('card', ''))}."
    if kind == "roll":
        return f"{who()} rolled a {event.get('die')}."
    if kind == "stay":
        return f"{who()} stayed on {square_words(board, str(event.get('square')))} to seek permission."
    if kind == "move":
        return f"{who()} moved to {square_words(board, str(event.get('to')))}."
    if kind == "no_seek":
        return f"{who()} did not seek permission."
    if kind == "seek":
        laid = event.get("face_down")
        return (
            f"{who()} sought permission in {circle_title(board, str(event.get('circle')))} "
            f"with {laid} card{'s' if laid != 1 else ''} face down."
        )
    if kind == "challenge_played":
        cards: list[str] = list(event.get("cards") or [])
        with_what = (
            f"the {card_words(cards[0])}"
            if _has_master(cards)
            else f"{cards_words(cards)} (total {event.get('total')})"
        )
        return f"{who()} challenged {who('seeker')} with {with_what}, face up."
    if kind == "obeyed_already":
        return (
            f"{who()} is back on {square_words(board, str(event.get('square')))}, "
            "already obeyed this turn: it stays there."
        )
    if kind in ("challenge", "unchallenged"):
        said = challenge_words(event, seats, board)
        return " ".join([*said["lines"], f"{said['verdict']}."])
    if kind == "location_card":
        suit, title = card_title(board, str(event.get("card")))
        if event.get("kept"):
            return f"{who()} took the {SUIT_NAMES.get(suit, suit)} permission card “{title}”."
        return f"{who()} drew “{title}” from the {SUIT_NAMES.get(suit, suit)} pack."
    if kind == "instruction":
        return _instruction_words(event, who(), seats, board)
    if kind == "replace_permission":
        suit, title = card_title(board, str(event.get("card")))
        return f"{who()} put back the {SUIT_NAMES.get(suit, suit)} permission card “{title}”."
    if kind == "give":
        suit, title = card_title(board, str(event.get("card")))
        return f"{who()} gave the {SUIT_NAMES.get(suit, suit)} permission card “{title}” to {who('to')}."
    if kind == "no_gift":
        return f"{who()} had no permission card that could be given."
    if kind == "miss_turn":
        return f"{who()} missed a turn."
    if kind == "reshuffle":
        return f"The discard pile was shuffled into a new pack of {event.get('cards')} cards."
    if kind == "game_over":
        if event.get("end") == "centre":
            return f"{who()} returned to the centre with all four permissions: the book is published!"
        return f"Game over: the limit of {event.get('rounds')} rounds was reached."
    return str(kind or "").replace("_", " ").capitalize()


@register.filter
def sc_recent(events: list[dict[str, Any]] | None, count: int = 14) -> list[dict[str, Any]]:
    """The last ``count`` events worth telling, newest first."""
    told = [e for e in (events or []) if not (e.get("event") == "instruction" and e.get("do") == "nothing")]
    return list(reversed(told[-int(count) :]))


@register.filter
def sc_last_roll(view: dict[str, Any] | None) -> dict[str, Any] | None:
    """The last die rolled (who and what), with the pips to draw."""
    for event in reversed((view or {}).get("events") or []):
        if event.get("event") == "roll":
            die = int(event.get("die") or 0)
            return {"seat": event.get("seat"), "die": die, "pips": PIPS.get(die, [])}
    return None


PIPS: Final = {
    1: [(50, 50)],
    2: [(28, 28), (72, 72)],
    3: [(26, 26), (50, 50), (74, 74)],
    4: [(28, 28), (72, 28), (28, 72), (72, 72)],
    5: [(26, 26), (74, 26), (50, 50), (26, 74), (74, 74)],
    6: [(28, 24), (72, 24), (28, 50), (72, 50), (28, 76), (72, 76)],
}


@register.filter
def sc_recent_challenge(p: Any) -> dict[str, Any] | None:
    """The last settled request for permission while it is news (until its seeker's next turn
    ends: every seat has drawn once since), with the permission card it earned."""
    view: dict[str, Any] = p.view or {}
    if not view or view.get("window"):
        return None
    events: list[dict[str, Any]] = view.get("events") or []
    draws = 0
    for i in range(len(events) - 1, -1, -1):
        event = events[i]
        if event.get("event") in ("challenge", "unchallenged"):
            said = challenge_words(event, p.seats, _board_of(view))
            taken = next(
                (
                    e
                    for e in events[i + 1 :]
                    if e.get("event") == "location_card" and e.get("seat") == event.get("seat")
                ),
                None,
            )
            if taken is not None:
                suit, title = card_title(_board_of(view), str(taken.get("card")))
                said["card"] = {"title": title, "suit": suit, "colour": SUIT_COLOURS.get(suit, "#555")}
            said["cards"] = [sc_card(c) for c in event.get("cards") or []]
            said["challenged"] = event.get("event") == "challenge"
            return said
        if event.get("event") == "draw":
            draws += 1
            if draws > int(view.get("seats") or 0):
                return None
    return None


@register.filter
def sc_window(p: Any) -> dict[str, Any] | None:
    """The open request for permission, as every seat sees it: the run stays face down, and
    each challenge is shown face up as soon as it is played."""
    view: dict[str, Any] = p.view or {}
    window = view.get("window")
    if not window:
        return None
    board = _board_of(view)
    waiting = set(window.get("waiting") or [])
    played = {c.get("seat"): c for c in window.get("challenges") or []}
    others = []
    for s in p.seats:
        if s.number == window["seeker"]:
            continue
        challenge = played.get(s.number)
        cards: list[str] = list(challenge.get("cards") or []) if challenge else []
        others.append(
            {
                "name": seat_name(p.seats, s.number),
                "waiting": s.number in waiting,
                "me": s.number == p.seat,
                "cards": [sc_card(c) for c in cards],
                "total": challenge.get("total") if challenge else None,
                "master": _has_master(cards),
            }
        )
    answer = window.get("answer")
    if answer == "decline":
        answered = "You did not challenge."
    elif answer:
        answered = f"You challenged with {cards_words(answer)}."
    else:
        answered = ""
    mine = list(window.get("cards") or [])
    suit = str(window.get("circle"))
    held = [sc_card(c) for c in (view.get("hand") or []) if sc_card(c)["suit"] == suit]
    numbered = [c for c in held if not c["master"]]
    ways = []
    if len(numbered) == 1:
        ways.append(f"your {numbered[0]['label']}")
    elif numbered:
        some = "one or both" if len(numbered) == 2 else "one, two or three"
        ways.append(f"{some} of your {len(numbered)} numbered {SUIT_NAMES.get(suit, suit)} cards")
    if any(c["master"] for c in held):
        ways.append("the master card, which wins outright")
    return {
        "seeker": window["seeker"],
        "seeker_name": seat_name(p.seats, window["seeker"]),
        "circle": circle_title(board, suit),
        "suit": suit,
        "suit_name": SUIT_NAMES.get(suit, suit),
        "colour": SUIT_COLOURS.get(suit, "#555"),
        "face_down": int(window.get("face_down") or 0),
        "backs": range(int(window.get("face_down") or 0)),
        "mine": [sc_card(c) for c in mine],
        "mine_total": _total(mine),
        "mine_master": _has_master(mine),
        "others": others,
        "waiting": [seat_name(p.seats, s) for s in sorted(waiting)],
        "answered": answered,
        "held": len(held),
        "ways": " or ".join(ways),
    }


@register.filter
def sc_status(p: Any) -> str:
    """Whose turn it is and what they are doing, in words."""
    view: dict[str, Any] = p.view or {}
    if not view:
        return ""
    if view.get("over"):
        if view.get("end") == "centre":
            return f"Game over: {seat_name(p.seats, view.get('winner'))} published the book"
        return "Game over: the round limit was reached"
    if view.get("phase") == "window":
        window = view.get("window") or {}
        if window.get("seeker") == p.seat:
            return "You are seeking permission"
        return f"{seat_name(p.seats, window.get('seeker'))} is seeking permission"
    doing = PHASE_WORDS.get(str(view.get("phase")), "")
    if view.get("turn") == p.seat:
        return f"Your turn: {doing}"
    return f"{seat_name(p.seats, view.get('turn'))}'s turn: {doing}"


@register.filter
def sc_seat_list(names: list[str] | None) -> str:
    names = list(names or [])
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


@register.filter
def sc_seat_colour(number: int | None) -> dict[str, str]:
    name, fill, ink = SEAT_COLOURS[int(number or 0) % len(SEAT_COLOURS)]
    return {"name": name, "fill": fill, "ink": ink}


# ------------------------------------------------------------------------ the clock


@register.filter
def sc_iso(moment: datetime | None) -> str:
    """A moment as an ISO 8601 time in UTC with milliseconds (what JavaScript's Date reads)."""
    if moment is None:
        return ""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@register.filter
def sc_seconds_left(deadline: datetime | None) -> int:
    if deadline is None:
        return 0
    return max(0, math.ceil((deadline - timezone.now()).total_seconds()))


@register.simple_tag
def sc_now() -> str:
    return sc_iso(timezone.now())
