"""The Spycatcher board as data: its file format, the loader that checks it, and moves along it.

The rule sheet refers to a board and to location cards that it does not reproduce. The board
the engine plays on is therefore a data file: ``games/spycatcher/data/<name>.json``, loaded and
checked when the package is imported (a bad file stops the start-up with a list of what is
wrong, each problem naming the square or card and the field). The engine option ``board`` names
the file (without ``.json``); the shipped board is ``league``. A club that owns the real board
can describe it in a new file in the same format, or replace ``league.json``, without touching
code; ``Spycatcher(boards=...)`` builds an engine with boards loaded from anywhere else.

The format (version ``spycatcher-board/1``)
===========================================

A JSON object with these fields (nothing else is allowed, so that a misspelt field is caught):

- ``format``: ``"spycatcher-board/1"``.
- ``name``: the board's name, lower-case letters, digits and ``-``; it must match the file name.
- ``title``: a title for people; ``note``: where the board comes from and what was invented.
- ``invented``: ``true`` when any part of the board is invented rather than read off a real board.
- ``size``: ``{"width": w, "height": h}``, the drawing area in board units (a square is 1 unit).
- ``circles``: the four circles, one per suit: ``{"suit", "title", "x", "y", "r", "invented"}``
  (``x``, ``y`` the centre and ``r`` the radius, in board units, for drawing).
- ``squares``: a list of squares, each ``{"id", "kind", "x", "y", "next", "invented"}`` plus:

  - ``kind``: ``"blank"`` (a plain circuit square), ``"action"`` (needs ``instruction`` and
    ``text``), ``"challenge"`` (needs ``circle``: the suit of the circle it rings), ``"mi5"``
    (exactly one: where the pieces start and where "report to MI5 for questioning" sends a
    piece) or ``"centre"`` (exactly one: where a piece holding all four permissions wins).
  - ``x``, ``y``: the square's centre in board units, inside ``size``; ``size`` (optional,
    default 1): how large to draw it (MI5 and the centre may be drawn larger).
  - ``next``: the squares a piece may step to from this one (the one-way system); a piece
    moving the die's number chooses at every fork. Every square needs at least one.
  - optional ``name`` and ``text`` (shown to people) and ``source`` (where a value comes from).

- ``packs``: ``{"court": [...], "government": [...], "press": [...], "publisher": [...]}``, the
  four packs of location cards, each card ``{"id", "title", "text", "permission",
  "instruction", "invented"}``: ``permission`` says whether the card is a permission card that
  the player keeps (false: it is followed and then goes to the bottom of its pack). Each pack
  needs at least six permission cards, so that six players can each hold one.

An ``instruction`` is ``{"do": ...}`` with one of:

- ``"go_to_mi5"``: report to MI5 for questioning.
- ``"replace_influence"``: put your influence cards at the bottom of the discard pile and draw as
  many new ones from the pack.
- ``"replace_permission"`` with ``"kind"`` (a suit, or ``"any"``: one of your choice): put that
  permission card at the bottom of its pack (nothing happens if you hold none).
- ``"give_permission"`` with optional ``"kind"`` (a suit, or ``"any"``, the default): give one of
  your permission cards to a player of your choice who holds none of that kind and would not
  reach four with it (nothing happens if no such gift exists).
- ``"miss_turn"``: miss your next turn.
- ``"move"`` with ``"steps"`` (1 to 12): move on that many squares along the one-way system.
- ``"go_to"`` with ``"square"``: go to that square (not MI5 and not the centre).
- ``"roll_again"``: roll again and move (squares only: a location card ends the turn).
- ``"nothing"``: keep the card and do nothing more (location cards only).

Every square, circle and card carries ``"invented": true`` or ``false``; the loader requires it,
so that a board never mixes real and invented values without saying which is which.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeGuard

from .cards import SUITS

FORMAT: Final = "spycatcher-board/1"
DATA: Final = Path(__file__).resolve().parent / "data"
DEFAULT_BOARD: Final = "league"

BLANK: Final = "blank"
ACTION: Final = "action"
CHALLENGE: Final = "challenge"
MI5: Final = "mi5"
CENTRE: Final = "centre"
KINDS: Final = (BLANK, ACTION, CHALLENGE, MI5, CENTRE)

ANY: Final = "any"
INSTRUCTIONS: Final[dict[str, frozenset[str]]] = {  # what each instruction takes besides "do"
    "go_to_mi5": frozenset(),
    "replace_influence": frozenset(),
    "replace_permission": frozenset({"kind"}),
    "give_permission": frozenset({"kind"}),
    "miss_turn": frozenset(),
    "move": frozenset({"steps"}),
    "go_to": frozenset({"square"}),
    "roll_again": frozenset(),
    "nothing": frozenset(),
}
SQUARE_ONLY: Final = frozenset({"roll_again"})
CARD_ONLY: Final = frozenset({"nothing"})
MOST_STEPS: Final = 12
LEAST_PERMISSIONS_PER_PACK: Final = 6

_NAME: Final = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_TOP_FIELDS: Final = frozenset(
    {"format", "name", "title", "note", "invented", "size", "circles", "squares", "packs"}
)
_SQUARE_FIELDS: Final = frozenset(
    {"id", "kind", "x", "y", "next", "invented", "circle", "instruction", "text", "name", "size", "source"}
)
_CIRCLE_FIELDS: Final = frozenset({"suit", "title", "x", "y", "r", "invented", "source"})
_CARD_FIELDS: Final = frozenset({"id", "title", "text", "permission", "instruction", "invented", "source"})


class BoardError(ValueError):
    """A board file that cannot be played on. ``problems`` lists every fault found, in words."""

    def __init__(self, where: str, problems: list[str]) -> None:
        self.where = where
        self.problems = problems
        lines = "\n".join(f"- {problem}" for problem in problems)
        super().__init__(f"The Spycatcher board {where} is not valid:\n{lines}")


@dataclass(frozen=True, slots=True)
class Instruction:
    do: str
    kind: str | None = None  # replace_permission / give_permission: a suit or "any"
    steps: int = 0  # move
    square: int | None = None  # go_to: the square's index

    def as_dict(self, board: Board) -> dict[str, Any]:
        out: dict[str, Any] = {"do": self.do}
        if self.kind is not None:
            out["kind"] = self.kind
        if self.do == "move":
            out["steps"] = self.steps
        if self.square is not None:
            out["square"] = board.squares[self.square].id
        return out


@dataclass(frozen=True, slots=True)
class Square:
    index: int
    id: str
    kind: str
    x: float
    y: float
    next: tuple[int, ...]
    circle: str | None = None
    instruction: Instruction | None = None
    text: str = ""
    name: str = ""


@dataclass(frozen=True, slots=True)
class LocationCard:
    id: str
    suit: str
    title: str
    text: str
    permission: bool
    instruction: Instruction


@dataclass(frozen=True, eq=False)
class Board:
    """A checked board. Squares are referred to by their index in ``squares``."""

    name: str
    title: str
    squares: tuple[Square, ...]
    index: Mapping[str, int]
    mi5: int
    centre: int
    packs: Mapping[str, tuple[LocationCard, ...]]
    cards: Mapping[str, LocationCard]
    source: Mapping[str, Any] = field(repr=False)
    _reach: dict[tuple[int, int, bool], tuple[int, ...]] = field(default_factory=dict, repr=False)

    def reach(self, start: int, steps: int, stop_at_centre: bool) -> tuple[int, ...]:
        """Every square a piece on ``start`` can end on after exactly ``steps`` forced steps.

        With ``stop_at_centre`` (a piece holding all four permissions) a path that reaches the
        centre ends there, whatever is left of the count.
        """
        key = (start, steps, stop_at_centre)
        found = self._reach.get(key)
        if found is not None:
            return found
        layer = {start}
        ends: set[int] = set()
        for _ in range(steps):
            nxt: set[int] = set()
            for square in layer:
                nxt.update(self.squares[square].next)
            if stop_at_centre and self.centre in nxt:
                ends.add(self.centre)
                nxt.discard(self.centre)
            layer = nxt
        ends |= layer
        found = tuple(sorted(ends))
        self._reach[key] = found
        return found

    def drawing(self) -> dict[str, Any]:
        """The board as it is in its file (a fresh copy), for the web layer to draw."""
        copied: dict[str, Any] = json.loads(json.dumps(self.source))
        return copied


# ---------------------------------------------------------------- loading


def load_board(path: str | Path) -> Board:
    """Load and check one board file; raise ``BoardError`` with every problem found."""
    path = Path(path)
    where = f"file {path.name}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BoardError(where, [f"it cannot be read: {exc.strerror or exc}."]) from None
    except json.JSONDecodeError as exc:
        raise BoardError(
            where, [f"it is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."]
        ) from None
    board = board_from_dict(data, where=where)
    if board.name != path.stem:
        raise BoardError(where, [f"field 'name': {board.name!r} must match the file name {path.stem!r}."])
    return board


def load_boards(folder: str | Path = DATA) -> dict[str, Board]:
    """Every board in a folder (``*.json``), by name."""
    return {board.name: board for board in map(load_board, sorted(Path(folder).glob("*.json")))}


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def board_from_dict(data: object, where: str = "given") -> Board:
    """Check a board given as a dict (the parsed file) and build it."""
    return _Checker(where).build(data)


class _Checker:
    def __init__(self, where: str) -> None:
        self.where = where
        self.problems: list[str] = []
        self.kinds: dict[str, object] = {}  # the kind of every square with an id, even a faulty one

    def fail(self, problem: str) -> None:
        self.problems.append(problem)

    def stop(self) -> BoardError:
        return BoardError(self.where, self.problems)

    # -------------------------------------------------------------- top level

    def build(self, data: object) -> Board:
        if not isinstance(data, dict):
            self.fail(f"the board must be a JSON object, not {type(data).__name__}.")
            raise self.stop()
        for key in sorted(set(data) - _TOP_FIELDS):
            self.fail(f"field {key!r} is not a board field (known: {', '.join(sorted(_TOP_FIELDS))}).")
        for key in sorted(_TOP_FIELDS - set(data)):
            self.fail(f"field {key!r} is missing.")
        if self.problems:
            raise self.stop()
        if data["format"] != FORMAT:
            self.fail(f"field 'format': must be {FORMAT!r}, not {data['format']!r}.")
        name = data["name"]
        if not isinstance(name, str) or not _NAME.match(name):
            self.fail(f"field 'name': {name!r} must be lower-case letters, digits and '-'.")
        for key in ("title", "note"):
            if not isinstance(data[key], str) or not data[key].strip():
                self.fail(f"field {key!r}: must be some text.")
        if not isinstance(data["invented"], bool):
            self.fail(f"field 'invented': must be true or false, not {data['invented']!r}.")
        width, height = self.size(data["size"])
        self.check_circles(data["circles"], width, height)
        squares = self.check_squares(data["squares"], width, height)
        index = {sq["id"]: i for i, sq in enumerate(squares)}
        built = self.link(squares, index)
        packs = self.check_packs(data["packs"], index)
        if self.problems:
            raise self.stop()
        self.check_graph(built, index)
        if self.problems:
            raise self.stop()
        mi5 = next(sq.index for sq in built if sq.kind == MI5)
        centre = next(sq.index for sq in built if sq.kind == CENTRE)
        cards = {card.id: card for pack in packs.values() for card in pack}
        return Board(
            name=str(name),
            title=str(data["title"]),
            squares=built,
            index=index,
            mi5=mi5,
            centre=centre,
            packs=packs,
            cards=cards,
            source=data,
        )

    def size(self, size: object) -> tuple[float, float]:
        if not isinstance(size, dict) or set(size) != {"width", "height"}:
            self.fail('field \'size\': must be {"width": w, "height": h}.')
            return (0.0, 0.0)
        out = []
        for key in ("width", "height"):
            value = size[key]
            if not _is_number(value) or value <= 0:
                self.fail(f"field 'size', {key!r}: must be a positive number, not {value!r}.")
                out.append(0.0)
            else:
                out.append(float(value))
        return out[0], out[1]

    def position(self, what: str, item: dict[str, Any], width: float, height: float) -> None:
        for key, most in (("x", width), ("y", height)):
            value = item.get(key)
            if not _is_number(value):
                self.fail(f"{what}, field {key!r}: must be a number, not {value!r}.")
            elif not 0 <= value <= most:
                self.fail(f"{what}, field {key!r}: {value} is off the board (0 to {most:g}).")

    def fields(
        self, what: str, item: dict[str, Any], allowed: frozenset[str], required: tuple[str, ...]
    ) -> bool:
        ok = True
        for key in sorted(set(item) - allowed):
            self.fail(f"{what}, field {key!r}: not a field here (known: {', '.join(sorted(allowed))}).")
            ok = False
        for key in required:
            if key not in item:
                self.fail(f"{what}, field {key!r}: missing.")
                ok = False
        if "invented" in item and not isinstance(item["invented"], bool):
            self.fail(f"{what}, field 'invented': must be true or false, not {item['invented']!r}.")
        for key in ("source", "name"):
            if key in item and not isinstance(item[key], str):
                self.fail(f"{what}, field {key!r}: must be text, not {item[key]!r}.")
        return ok

    # ---------------------------------------------------------------- circles

    def check_circles(self, circles: object, width: float, height: float) -> None:
        if not isinstance(circles, list):
            self.fail("field 'circles': must be a list of the four circles.")
            return
        seen: set[str] = set()
        for i, circle in enumerate(circles):
            if not isinstance(circle, dict):
                self.fail(f"circle {i + 1}: must be an object, not {circle!r}.")
                continue
            suit = circle.get("suit")
            what = f"circle {suit!r}" if isinstance(suit, str) else f"circle {i + 1}"
            if not self.fields(what, circle, _CIRCLE_FIELDS, ("suit", "title", "x", "y", "r", "invented")):
                continue
            if suit not in SUITS:
                self.fail(f"{what}, field 'suit': must be one of {', '.join(SUITS)}.")
            elif suit in seen:
                self.fail(f"{what}, field 'suit': there are two {suit} circles.")
            else:
                seen.add(suit)
            if not isinstance(circle["title"], str) or not circle["title"].strip():
                self.fail(f"{what}, field 'title': must be some text.")
            self.position(what, circle, width, height)
            if not _is_number(circle["r"]) or circle["r"] <= 0:
                self.fail(f"{what}, field 'r': must be a positive number, not {circle['r']!r}.")
        for suit in SUITS:
            if suit not in seen:
                self.fail(f"field 'circles': there is no {suit} circle (one is needed for each suit).")

    # ---------------------------------------------------------------- squares

    def check_squares(self, squares: object, width: float, height: float) -> list[dict[str, Any]]:
        if not isinstance(squares, list) or not squares:
            self.fail("field 'squares': must be a list of squares.")
            return []
        good: list[dict[str, Any]] = []
        ids: set[str] = set()
        for i, square in enumerate(squares):
            if not isinstance(square, dict):
                self.fail(f"square {i + 1}: must be an object, not {square!r}.")
                continue
            sid = square.get("id")
            if not isinstance(sid, str) or not sid:
                self.fail(f"square {i + 1}, field 'id': must be some text, not {sid!r}.")
                continue
            what = f"square {sid!r}"
            if sid in ids:
                self.fail(f"{what}, field 'id': two squares have this id.")
                continue
            ids.add(sid)
            self.kinds[sid] = square.get("kind")
            if not self.fields(what, square, _SQUARE_FIELDS, ("kind", "x", "y", "next", "invented")):
                continue
            kind = square["kind"]
            if kind not in KINDS:
                self.fail(
                    f"{what}, field 'kind': {kind!r} is not a kind of square (known: {', '.join(KINDS)})."
                )
                continue
            self.position(what, square, width, height)
            if "size" in square and (not _is_number(square["size"]) or square["size"] <= 0):
                self.fail(f"{what}, field 'size': must be a positive number, not {square['size']!r}.")
            if "text" in square and not isinstance(square["text"], str):
                self.fail(f"{what}, field 'text': must be text, not {square['text']!r}.")
            nxt = square["next"]
            if not isinstance(nxt, list) or not all(isinstance(n, str) for n in nxt):
                self.fail(f"{what}, field 'next': must be a list of square ids, not {nxt!r}.")
                continue
            if kind == CHALLENGE:
                if square.get("circle") not in SUITS:
                    self.fail(
                        f"{what}, field 'circle': a challenge square needs the suit of its circle "
                        f"({', '.join(SUITS)}), not {square.get('circle')!r}."
                    )
            elif "circle" in square:
                self.fail(f"{what}, field 'circle': only challenge squares ring a circle.")
            if kind == ACTION:
                if "instruction" not in square:
                    self.fail(f"{what}, field 'instruction': an action square needs one.")
                if not isinstance(square.get("text"), str) or not square["text"].strip():
                    self.fail(f"{what}, field 'text': an action square needs its words, as printed.")
            elif "instruction" in square:
                self.fail(f"{what}, field 'instruction': only action squares carry instructions.")
            good.append(square)
        for kind in (MI5, CENTRE):
            count = sum(1 for sq in good if sq["kind"] == kind)
            if count != 1:
                self.fail(f"field 'squares': there must be exactly one {kind!r} square, not {count}.")
        return good

    def instruction(
        self, what: str, raw: object, index: Mapping[str, int], on_card: bool
    ) -> Instruction | None:
        where = f"{what}, field 'instruction'"
        if not isinstance(raw, dict) or not isinstance(raw.get("do"), str):
            self.fail(f'{where}: must be an object such as {{"do": "go_to_mi5"}}, not {raw!r}.')
            return None
        do = raw["do"]
        if do not in INSTRUCTIONS:
            self.fail(f"{where}: {do!r} is not an instruction (known: {', '.join(INSTRUCTIONS)}).")
            return None
        if on_card and do in SQUARE_ONLY:
            self.fail(f"{where}: a location card ends the turn, so it cannot say {do!r}.")
        if not on_card and do in CARD_ONLY:
            self.fail(f"{where}: {do!r} is for location cards; a square that does nothing is a blank square.")
        params = set(raw) - {"do"}
        for key in sorted(params - INSTRUCTIONS[do]):
            self.fail(f"{where}: {do!r} takes no {key!r}.")
        if do == "replace_permission" or do == "give_permission":
            kind = raw.get("kind", ANY if do == "give_permission" else None)
            if kind not in (*SUITS, ANY):
                self.fail(
                    f"{where}, 'kind': {do!r} needs a suit ({', '.join(SUITS)}) or 'any', not {kind!r}."
                )
                return None
            return Instruction(do, kind=kind)
        if do == "move":
            steps = raw.get("steps")
            if not _is_int(steps) or not 1 <= steps <= MOST_STEPS:
                self.fail(f"{where}, 'steps': must be a whole number from 1 to {MOST_STEPS}, not {steps!r}.")
                return None
            return Instruction(do, steps=steps)
        if do == "go_to":
            target = raw.get("square")
            if not isinstance(target, str) or target not in self.kinds:
                self.fail(f"{where}, 'square': {target!r} is not a square on this board.")
                return None
            if self.kinds[target] in (MI5, CENTRE):
                self.fail(f"{where}, 'square': use 'go_to_mi5' for MI5; nothing sends a piece to the centre.")
                return None
            return Instruction(do, square=index.get(target, -1))
        return Instruction(do)

    def link(self, squares: list[dict[str, Any]], index: Mapping[str, int]) -> tuple[Square, ...]:
        built = []
        for i, sq in enumerate(squares):
            what = f"square {sq['id']!r}"
            nxt = []
            for target in sq["next"]:
                if target not in self.kinds:
                    self.fail(
                        f"{what}, field 'next': links to {target!r}, which is not a square on this board."
                    )
                elif target == sq["id"]:
                    self.fail(f"{what}, field 'next': a square cannot link to itself.")
                elif target not in index:
                    continue  # a faulty square, already explained
                elif index[target] in nxt:
                    self.fail(f"{what}, field 'next': links to {target!r} twice.")
                else:
                    nxt.append(index[target])
            if not sq["next"]:
                self.fail(f"{what}, field 'next': every square needs a way on (a move is forced).")
            instruction = None
            if sq["kind"] == ACTION and "instruction" in sq:
                instruction = self.instruction(what, sq["instruction"], index, on_card=False)
            built.append(
                Square(
                    index=i,
                    id=sq["id"],
                    kind=sq["kind"],
                    x=float(sq["x"]) if _is_number(sq["x"]) else 0.0,  # (a bad one is already explained)
                    y=float(sq["y"]) if _is_number(sq["y"]) else 0.0,
                    next=tuple(nxt),
                    circle=sq.get("circle"),
                    instruction=instruction,
                    text=str(sq.get("text", "")),
                    name=str(sq.get("name", "")),
                )
            )
        return tuple(built)

    # ------------------------------------------------------------------ packs

    def check_packs(self, packs: object, index: Mapping[str, int]) -> dict[str, tuple[LocationCard, ...]]:
        out: dict[str, tuple[LocationCard, ...]] = {}
        if not isinstance(packs, dict):
            self.fail("field 'packs': must map each suit to its list of location cards.")
            return out
        for key in sorted(set(packs) - set(SUITS)):
            self.fail(f"field 'packs': {key!r} is not a suit ({', '.join(SUITS)}).")
        ids: set[str] = set()
        for suit in SUITS:
            pack = packs.get(suit)
            if not isinstance(pack, list) or not pack:
                self.fail(f"pack {suit!r}: missing, or not a list of location cards.")
                continue
            cards = []
            for i, card in enumerate(pack):
                if not isinstance(card, dict):
                    self.fail(f"pack {suit!r}, card {i + 1}: must be an object, not {card!r}.")
                    continue
                cid = card.get("id")
                if not isinstance(cid, str) or not cid:
                    self.fail(f"pack {suit!r}, card {i + 1}, field 'id': must be some text, not {cid!r}.")
                    continue
                what = f"location card {cid!r}"
                if cid in ids:
                    self.fail(f"{what}, field 'id': two location cards have this id.")
                    continue
                ids.add(cid)
                required = ("title", "text", "permission", "instruction", "invented")
                if not self.fields(what, card, _CARD_FIELDS, required):
                    continue
                for key in ("title", "text"):
                    if not isinstance(card[key], str) or not card[key].strip():
                        self.fail(f"{what}, field {key!r}: must be some text.")
                if not isinstance(card["permission"], bool):
                    self.fail(
                        f"{what}, field 'permission': must be true or false, not {card['permission']!r}."
                    )
                    continue
                instruction = self.instruction(what, card["instruction"], index, on_card=True)
                if instruction is None:
                    continue
                cards.append(
                    LocationCard(
                        cid, suit, str(card["title"]), str(card["text"]), card["permission"], instruction
                    )
                )
            permissions = sum(1 for card in cards if card.permission)
            if permissions < LEAST_PERMISSIONS_PER_PACK and len(cards) == len(pack):
                self.fail(
                    f"pack {suit!r}: has {permissions} permission cards; it needs at least "
                    f"{LEAST_PERMISSIONS_PER_PACK} so that six players can each hold one."
                )
            out[suit] = tuple(cards)
        return out

    # ------------------------------------------------------------------ graph

    def check_graph(self, squares: tuple[Square, ...], index: Mapping[str, int]) -> None:
        mi5 = next(sq.index for sq in squares if sq.kind == MI5)
        centre = next(sq.index for sq in squares if sq.kind == CENTRE)
        reached = {mi5}
        todo = [mi5]
        while todo:
            for nxt in squares[todo.pop()].next:
                if nxt not in reached:
                    reached.add(nxt)
                    todo.append(nxt)
        for sq in squares:
            if sq.index not in reached and sq.kind != MI5:
                self.fail(f"square {sq.id!r}: cannot be reached from MI5 along the one-way links.")
        back: dict[int, list[int]] = {sq.index: [] for sq in squares}
        for sq in squares:
            for nxt in sq.next:
                back[nxt].append(sq.index)
        home = {centre}
        todo = [centre]
        while todo:
            for prev in back[todo.pop()]:
                if prev not in home:
                    home.add(prev)
                    todo.append(prev)
        for sq in squares:
            if sq.index not in home:
                self.fail(f"square {sq.id!r}: there is no way from it to the centre along the one-way links.")
        for suit in SUITS:
            if not any(sq.kind == CHALLENGE and sq.circle == suit for sq in squares):
                self.fail(f"circle {suit!r}: no challenge square rings it.")
