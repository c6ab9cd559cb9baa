"""The rules engine for Spycatcher.

The rules, the action and view formats and the rulings are in the package docstring
(``games/spycatcher/__init__.py``); the board format is in ``board.py``. This module holds
the state and the engine: one idea, the game's rules as one state machine (a turn's roll, move,
runs of influence cards and challenges), in one file so that each rule and the move that
enforces it read together; the cards are ``cards.py``'s, the scoring sheet ``scoresheet.py``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from dataclasses import replace as dataclass_replace
from pathlib import Path
from typing import Any, Final

from games.core import (
    Action,
    IllegalAction,
    InvalidOptions,
    LogEntry,
    Option,
    Outcome,
    chance,
    is_listed,
    log_events,
    places_from_scores,
    shuffled,
    validate_options,
)

from .board import (
    ACTION,
    ANY,
    CENTRE,
    CHALLENGE,
    DEFAULT_BOARD,
    Board,
    Instruction,
    LocationCard,
    load_board,
    load_boards,
)
from .cards import (
    DECK,
    MASTERS,
    ORDER,
    SUIT,
    SUITS,
    card_name,
    challenges,
    is_master,
    runs,
    sort_cards,
    total,
)

# Phases of a turn.
DRAW: Final = "draw"  # take the top card of the pack or of the discard pile
DISCARD: Final = "discard"  # throw one card onto the discard pile
ROLL: Final = "roll"  # roll the die (or stay on a challenge square)
MOVE: Final = "move"  # choose where a move ends (only when the one-way system forks)
SEEK: Final = "seek"  # on a challenge square: seek permission, or not
WINDOW: Final = "window"  # permission sought: every other player challenges or declines
GIVE: Final = "give"  # an instruction: give a permission card to a player of your choice
REPLACE: Final = "replace"  # an instruction: replace a permission card of your choice
OVER: Final = "over"

END_CENTRE: Final = "centre"
END_LIMIT: Final = "turn limit"

#: The winner's score: four permission cards and the book published.
WINNER_SCORE: Final = 5
#: How many of the most recent public events ``view`` shows.
VIEW_EVENTS: Final = 20
#: Hand sizes the options allow: seven as dealt, or the "always five" of the rule sheet.
HAND_SIZES: Final = (5, 7)
DEFAULT_TURN_LIMIT: Final = 150

_PHASE_ACTIONS: Final[dict[str, frozenset[str]]] = {
    DRAW: frozenset({"draw"}),
    DISCARD: frozenset({"discard"}),
    ROLL: frozenset({"roll", "stay"}),
    MOVE: frozenset({"move"}),
    SEEK: frozenset({"seek", "pass"}),
    WINDOW: frozenset({"decline", "challenge"}),
    GIVE: frozenset({"give"}),
    REPLACE: frozenset({"replace"}),
    OVER: frozenset(),
}
_SUIT_INDEX: Final = {suit: i for i, suit in enumerate(SUITS)}
_ALONE: Final = tuple(frozenset({seat}) for seat in range(6))
_NOBODY: Final[frozenset[int]] = frozenset()
DECLINE: Final[Action] = {"type": "decline"}


@dataclass(frozen=True, slots=True)
class Window:
    """Permission sought: the face-down cards and the other players' answers so far.

    A challenge is played face up: its cards leave the challenger's hand at once and every
    player sees them (ruling 6). ``answers`` are in the order they came.
    """

    seeker: int
    suit: str
    cards: tuple[str, ...]  # face down until the window closes
    waiting: frozenset[int]
    answers: tuple[tuple[int, tuple[str, ...]], ...]  # (seat, cards played face up; () for a decline)


@dataclass(frozen=True, slots=True)
class Moving:
    """A move whose end the player chooses (the one-way system forks on the way)."""

    ends: tuple[int, ...]
    full: bool  # a move of the die: the square reached is acted upon


@dataclass(frozen=True)
class SpycatcherState:
    seats: int
    seed: int
    board: Board
    options: Mapping[str, Any]  # validated, defaults filled in
    hand_size: int
    may_stay: bool
    turn_limit: int
    pack: tuple[str, ...]  # the influence pack face down; pack[top] is its top card
    top: int
    discard: tuple[str, ...]  # face up; discard[-1] is the top card, discard[0] the bottom
    hands: tuple[tuple[str, ...], ...]  # in card order
    positions: tuple[int, ...]  # square index per seat
    permissions: tuple[tuple[str, ...], ...]  # location card ids held, per seat, in the order gained
    locations: tuple[tuple[str, ...], ...]  # the four location packs (SUITS order); [0] is the top card
    first: int
    turn: int
    phase: str
    turns: int = 0  # turns begun, missed ones included
    roll: int | None = None  # the die this turn (the last one, after a roll again)
    rolls: int = 0  # dice rolled in the game (labels the chance)
    shuffles: int = 0  # reshuffles of the discard pile (labels the chance)
    rolled_again: bool = False
    obeyed: frozenset[int] = _NOBODY  # action squares obeyed this turn (ruling 12: once each)
    must_move: frozenset[int] = _NOBODY
    missing: tuple[int, ...] = ()
    moving: Moving | None = None
    window: Window | None = None
    instruction: Instruction | None = None  # a give / replace waiting for the player's choice
    log: LogEntry | None = None
    end: str | None = None
    winner: int | None = None

    @property
    def pack_left(self) -> int:
        return len(self.pack) - self.top


_STATE_FIELDS: Final = frozenset(f.name for f in fields(SpycatcherState))


def _with(state: SpycatcherState, **changes: Any) -> SpycatcherState:
    """A copy of ``state`` with some fields changed: ``dataclasses.replace`` without its cost
    (a state has many fields and every action makes several copies)."""
    assert changes.keys() <= _STATE_FIELDS, changes.keys() - _STATE_FIELDS
    new: SpycatcherState = object.__new__(SpycatcherState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _log(state: SpycatcherState, event: dict[str, Any]) -> LogEntry:
    return LogEntry(event, state.log)


def _set(row: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*row[:i], value, *row[i + 1 :])


def _without(hand: tuple[str, ...], cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


def _seat_check(first: int | None) -> str | None:
    return None if first is None or 0 <= first < 6 else "must be a seat number (0 to 5)."


class Spycatcher:
    """Spycatcher: the engine object (stateless apart from the boards it knows)."""

    slug = "spycatcher"
    title = "Spycatcher"
    seats = range(2, 7)

    def __init__(self, boards: Mapping[str, Board] | None = None, default_board: str | None = None) -> None:
        self.boards: dict[str, Board] = dict(load_boards() if boards is None else boards)
        if not self.boards:
            raise ValueError("A Spycatcher engine needs at least one board.")
        if default_board is None:
            default_board = DEFAULT_BOARD if DEFAULT_BOARD in self.boards else min(self.boards)
        if default_board not in self.boards:
            raise ValueError(f"There is no board {default_board!r}.")
        names = ", ".join(sorted(self.boards))
        self.options: Mapping[str, Option] = {
            "board": Option(
                str,
                default_board,
                f"The board to play on (a board file's name; known: {names}).",
                lambda v: None if v in self.boards else f"there is no board {v!r} (known: {names}).",
            ),
            "hand_size": Option(
                int,
                7,
                "Influence cards in a hand: 7 as dealt by the rules, or 5 ('always five in your hand').",
                lambda v: None if v in HAND_SIZES else "must be 7 (as dealt) or 5.",
            ),
            "may_stay": Option(
                bool,
                True,
                "A piece on a challenge square may stay there instead of rolling, to seek permission again.",
            ),
            "turn_limit": Option(
                int,
                DEFAULT_TURN_LIMIT,
                "The game stops after this many rounds; the most permission cards then wins.",
                lambda v: None if 1 <= v <= 10_000 else "must be from 1 to 10000 rounds.",
            ),
            "first_player": Option(
                int,
                None,
                "The seat that plays first (default: the players roll the die for it).",
                _seat_check,
            ),
        }

    @classmethod
    def with_board_file(cls, path: str | Path) -> Spycatcher:
        """An engine that plays only on the board in ``path`` (a club's own board file)."""
        board = load_board(path)
        return cls({board.name: board})

    # ----------------------------------------------------------------- start

    def start(self, seats: int, seed: int, options: Mapping[str, Any]) -> SpycatcherState:
        if isinstance(seats, bool) or not isinstance(seats, int) or seats not in self.seats:
            raise InvalidOptions(f"Spycatcher is played by 2 to 6 players, not {seats!r}.")
        opts = validate_options(options, self.options)
        board = self.boards[opts["board"]]
        first_player = opts["first_player"]
        if first_player is not None and first_player >= seats:
            raise InvalidOptions(
                f"Option 'first_player': there is no seat {first_player} at {seats} players."
            )
        hand_size: int = opts["hand_size"]
        deck = shuffled(DECK, seed, "deal")
        hands = tuple(sort_cards(deck[seat : seats * hand_size : seats]) for seat in range(seats))
        turned = deck[seats * hand_size]
        locations = tuple(
            tuple(shuffled([card.id for card in board.packs[suit]], seed, "location", suit)) for suit in SUITS
        )
        events: list[dict[str, Any]] = [
            {"event": "deal", "cards": hand_size, "discard": turned},
        ]
        if first_player is None:
            first, rolls = self._roll_off(seed, seats)
            events.append({"event": "roll_for_first", "rounds": rolls, "seat": first})
        else:
            first = first_player
        state = SpycatcherState(
            seats=seats,
            seed=seed,
            board=board,
            options=opts,
            hand_size=hand_size,
            may_stay=opts["may_stay"],
            turn_limit=opts["turn_limit"],
            pack=tuple(deck[seats * hand_size + 1 :]),
            top=0,
            discard=(turned,),
            hands=hands,
            positions=(board.mi5,) * seats,
            permissions=((),) * seats,
            locations=locations,
            first=first,
            turn=first,
            phase=DRAW,
            missing=(0,) * seats,
        )
        for event in events:
            state = _with(state, log=_log(state, event))
        return self._begin_turn(state, first)

    @staticmethod
    def _roll_off(seed: int, seats: int) -> tuple[int, list[dict[str, int]]]:
        """Everyone rolls the die; the highest starts; the tied highest roll again."""
        rng = chance(seed, "first")
        rolling = list(range(seats))
        rounds: list[dict[str, int]] = []
        while True:
            dice = {seat: rng.randint(1, 6) for seat in rolling}
            rounds.append({str(seat): die for seat, die in dice.items()})
            best = max(dice.values())
            rolling = [seat for seat in rolling if dice[seat] == best]
            if len(rolling) == 1:
                return rolling[0], rounds

    # ---------------------------------------------------------------- to_act

    def to_act(self, state: SpycatcherState) -> frozenset[int]:
        if state.phase == OVER:
            return _NOBODY
        if state.phase == WINDOW:
            assert state.window is not None
            return state.window.waiting
        return _ALONE[state.turn]

    def reaction_window(self, state: SpycatcherState) -> bool:
        """Whether a challenge window is open (the web layer puts it on a timer)."""
        return state.phase == WINDOW

    def timeout_action(self, state: SpycatcherState, seat: int) -> Action | None:
        """What a seat that did not answer in time does: it declines to challenge."""
        if state.phase == WINDOW and state.window is not None and seat in state.window.waiting:
            return dict(DECLINE)
        return None

    # ----------------------------------------------------------------- legal

    def legal(self, state: SpycatcherState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase == DRAW:
            acts: list[Action] = []
            if state.pack_left or state.discard:
                acts.append({"type": "draw", "from": "pack"})
            if state.discard:
                acts.append({"type": "draw", "from": "discard"})
            return acts
        if phase == DISCARD:
            return [{"type": "discard", "card": card} for card in state.hands[seat]]
        if phase == ROLL:
            acts = [{"type": "roll"}]
            if self._may_stay(state, seat):
                acts.append({"type": "stay"})
            return acts
        if phase == MOVE:
            assert state.moving is not None
            return [{"type": "move", "to": state.board.squares[end].id} for end in state.moving.ends]
        if phase == SEEK:
            suit = self._circle(state, seat)
            assert suit is not None
            hand = state.hands[seat]
            acts = [{"type": "pass"}]
            acts.extend({"type": "seek", "cards": list(run)} for run in runs(hand, suit))
            if MASTERS[suit] in hand:
                acts.append({"type": "seek", "cards": [MASTERS[suit]]})
            return acts
        if phase == WINDOW:
            assert state.window is not None
            acts = [dict(DECLINE)]
            acts.extend(
                {"type": "challenge", "cards": list(cards)}
                for cards in challenges(state.hands[seat], state.window.suit)
            )
            return acts
        if phase == GIVE:
            return [{"type": "give", "card": card, "to": to} for card, to in self._gifts(state, seat)]
        if phase == REPLACE:
            assert state.instruction is not None
            return [
                {"type": "replace", "card": card}
                for card in self._held(state, seat, state.instruction.kind or ANY)
            ]
        return []

    def _circle(self, state: SpycatcherState, seat: int) -> str | None:
        square = state.board.squares[state.positions[seat]]
        return square.circle if square.kind == CHALLENGE else None

    def _holds(self, state: SpycatcherState, seat: int, suit: str) -> bool:
        return any(state.board.cards[card].suit == suit for card in state.permissions[seat])

    def _all_four(self, state: SpycatcherState, seat: int) -> bool:
        return len({state.board.cards[card].suit for card in state.permissions[seat]}) == len(SUITS)

    def _can_seek(self, state: SpycatcherState, seat: int) -> bool:
        suit = self._circle(state, seat)
        return (
            suit is not None
            and not self._holds(state, seat, suit)
            and bool(state.locations[_SUIT_INDEX[suit]])
        )

    def _may_stay(self, state: SpycatcherState, seat: int) -> bool:
        return state.may_stay and seat not in state.must_move and self._can_seek(state, seat)

    def _held(self, state: SpycatcherState, seat: int, kind: str) -> list[str]:
        return [
            card for card in state.permissions[seat] if kind == ANY or state.board.cards[card].suit == kind
        ]

    def _gifts(self, state: SpycatcherState, seat: int) -> list[tuple[str, int]]:
        """Every (card, player) a 'give a permission card' instruction allows."""
        assert state.instruction is not None
        out = []
        for card in self._held(state, seat, state.instruction.kind or ANY):
            suit = state.board.cards[card].suit
            for k in range(1, state.seats):
                to = (seat + k) % state.seats
                if not self._holds(state, to, suit) and len(state.permissions[to]) < len(SUITS) - 1:
                    out.append((card, to))
        return out

    # ----------------------------------------------------------------- apply

    def apply(self, state: SpycatcherState, seat: int, action: Action) -> SpycatcherState:
        if state.phase == OVER:
            raise IllegalAction("The game is over; nobody can act.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction('An action must be an object with a "type", such as {"type": "roll"}.')
        if isinstance(seat, bool) or seat not in self.to_act(state):
            raise IllegalAction(self._not_now(state, seat))
        if not is_listed(action, self.legal(state, seat)):
            raise IllegalAction(self._why_illegal(state, seat, action))
        kind = action["type"]
        if kind == "draw":
            return self._draw_for_turn(state, seat, action["from"])
        if kind == "discard":
            card = action["card"]
            return _with(
                state,
                hands=_set(state.hands, seat, _without(state.hands[seat], (card,))),
                discard=(*state.discard, card),
                phase=ROLL,
                log=_log(state, {"event": "discard", "seat": seat, "card": card}),
            )
        if kind == "roll":
            return self._roll(_with(state, must_move=state.must_move - _ALONE[seat]), seat)
        if kind == "stay":
            square = state.board.squares[state.positions[seat]].id
            state = _with(state, log=_log(state, {"event": "stay", "seat": seat, "square": square}))
            return _with(state, phase=SEEK)
        if kind == "move":
            assert state.moving is not None
            return self._arrive(state, seat, state.board.index[action["to"]], state.moving.full)
        if kind == "pass":
            return self._end_turn(_with(state, log=_log(state, {"event": "no_seek", "seat": seat})))
        if kind == "seek":
            return self._seek(state, seat, tuple(action["cards"]))
        if kind in ("decline", "challenge"):
            return self._answer(state, seat, tuple(action.get("cards", ())))
        if kind == "give":
            return self._give(state, seat, action["card"], action["to"])
        assert kind == "replace"
        return self._replace_permission(state, seat, action["card"])

    # Turn flow ---------------------------------------------------------------

    def _begin_turn(self, state: SpycatcherState, seat: int) -> SpycatcherState:
        """Start ``seat``'s turn, skipping missed turns; stop the game at the turn limit."""
        state = _with(
            state,
            moving=None,
            window=None,
            instruction=None,
            roll=None,
            rolled_again=False,
            obeyed=_NOBODY,
        )
        while True:
            if state.turns >= state.turn_limit * state.seats:
                return _with(
                    state,
                    phase=OVER,
                    end=END_LIMIT,
                    turn=seat,
                    log=_log(state, {"event": "game_over", "end": END_LIMIT, "rounds": state.turn_limit}),
                )
            if state.missing[seat]:
                state = _with(
                    state,
                    missing=_set(state.missing, seat, state.missing[seat] - 1),
                    turns=state.turns + 1,
                    log=_log(state, {"event": "miss_turn", "seat": seat}),
                )
                seat = (seat + 1) % state.seats
                continue
            return _with(state, turn=seat, phase=DRAW, turns=state.turns + 1)

    def _end_turn(self, state: SpycatcherState) -> SpycatcherState:
        return self._begin_turn(state, (state.turn + 1) % state.seats)

    def _draw_for_turn(self, state: SpycatcherState, seat: int, source: str) -> SpycatcherState:
        if source == "discard":
            card = state.discard[-1]
            state = _with(
                state,
                discard=state.discard[:-1],
                hands=_set(state.hands, seat, sort_cards((*state.hands[seat], card))),
                log=_log(state, {"event": "draw", "seat": seat, "from": "discard", "card": card}),
            )
        else:
            state = _with(state, log=_log(state, {"event": "draw", "seat": seat, "from": "pack"}))
            state = self._draw(state, seat, 1)
        return _with(state, phase=DISCARD)

    def _draw(self, state: SpycatcherState, seat: int, count: int) -> SpycatcherState:
        """``seat`` takes ``count`` cards from the top of the pack, reshuffling when it runs out."""
        taken: list[str] = []
        pack, top, discard, shuffles = state.pack, state.top, state.discard, state.shuffles
        events: list[dict[str, Any]] = []
        for _ in range(count):
            if top >= len(pack):
                if not discard:
                    break  # every card is in a hand or on the table (ruling 17: cannot happen)
                pack, top, discard = tuple(shuffled(discard, state.seed, "reshuffle", shuffles)), 0, ()
                shuffles += 1
                events.append({"event": "reshuffle", "cards": len(pack)})
            taken.append(pack[top])
            top += 1
            if top >= len(pack) and discard:
                pack, top, discard = tuple(shuffled(discard, state.seed, "reshuffle", shuffles)), 0, ()
                shuffles += 1
                events.append({"event": "reshuffle", "cards": len(pack)})
        log = state.log
        for event in events:
            log = LogEntry(event, log)
        return _with(
            state,
            pack=pack,
            top=top,
            discard=discard,
            shuffles=shuffles,
            hands=_set(state.hands, seat, sort_cards((*state.hands[seat], *taken))),
            log=log,
        )

    def _roll(self, state: SpycatcherState, seat: int) -> SpycatcherState:
        die = chance(state.seed, "die", state.rolls).randint(1, 6)
        state = _with(
            state,
            roll=die,
            rolls=state.rolls + 1,
            log=_log(state, {"event": "roll", "seat": seat, "die": die}),
        )
        return self._move(state, seat, die, full=True)

    def _move(self, state: SpycatcherState, seat: int, steps: int, full: bool) -> SpycatcherState:
        ends = state.board.reach(state.positions[seat], steps, self._all_four(state, seat))
        if len(ends) == 1:
            return self._arrive(state, seat, ends[0], full)
        return _with(state, phase=MOVE, moving=Moving(ends, full))

    def _arrive(self, state: SpycatcherState, seat: int, square: int, full: bool) -> SpycatcherState:
        """The piece ends its move on ``square`` and acts upon it: an action square always (once
        a turn each, ruling 12), a challenge square only if the die (``full``) brought it there."""
        board = state.board
        sq = board.squares[square]
        state = _with(
            state,
            positions=_set(state.positions, seat, square),
            moving=None,
            log=_log(state, {"event": "move", "seat": seat, "to": sq.id}),
        )
        if sq.kind == CENTRE and self._all_four(state, seat):
            return _with(
                state,
                phase=OVER,
                end=END_CENTRE,
                winner=seat,
                log=_log(state, {"event": "game_over", "end": END_CENTRE, "seat": seat}),
            )
        if sq.kind == ACTION:
            assert sq.instruction is not None
            if square in state.obeyed:  # ruling 12: obeyed once a turn, so every turn ends
                return self._end_turn(
                    _with(state, log=_log(state, {"event": "obeyed_already", "seat": seat, "square": sq.id}))
                )
            state = _with(state, obeyed=state.obeyed | {square})
            return self._obey(state, seat, sq.instruction, sq.id)
        if full and sq.kind == CHALLENGE and self._can_seek(state, seat):
            return _with(state, phase=SEEK)
        return self._end_turn(state)

    # Instructions --------------------------------------------------------------

    def _obey(
        self, state: SpycatcherState, seat: int, instruction: Instruction, source: str
    ) -> SpycatcherState:
        """Follow an action square's or a location card's instruction; the turn then ends."""
        do = instruction.do
        event: dict[str, Any] = {
            "event": "instruction",
            "seat": seat,
            "from": source,
            **instruction.as_dict(state.board),
        }
        state = _with(state, log=_log(state, event))
        if do == "go_to_mi5":
            return self._end_turn(_with(state, positions=_set(state.positions, seat, state.board.mi5)))
        if do == "replace_influence":
            hand = state.hands[seat]
            state = _with(
                state,
                hands=_set(state.hands, seat, ()),
                discard=(*hand, *state.discard),
            )
            return self._end_turn(self._draw(state, seat, len(hand)))
        if do == "replace_permission":
            held = self._held(state, seat, instruction.kind or ANY)
            if not held:
                return self._end_turn(state)
            if len(held) == 1:
                return self._replace_permission(state, seat, held[0])
            return _with(state, phase=REPLACE, instruction=instruction)
        if do == "give_permission":
            gifts = self._gifts(_with(state, instruction=instruction), seat)
            if not gifts:
                return self._end_turn(_with(state, log=_log(state, {"event": "no_gift", "seat": seat})))
            if len(gifts) == 1:
                return self._give(state, seat, *gifts[0])
            return _with(state, phase=GIVE, instruction=instruction)
        if do == "miss_turn":
            return self._end_turn(_with(state, missing=_set(state.missing, seat, state.missing[seat] + 1)))
        if do == "move":
            return self._move(state, seat, instruction.steps, full=False)
        if do == "go_to":
            assert instruction.square is not None
            return self._arrive(state, seat, instruction.square, full=False)
        if do == "roll_again":
            if state.rolled_again:
                return self._end_turn(state)  # ruling 13: once a turn
            return self._roll(_with(state, rolled_again=True), seat)
        assert do == "nothing"
        return self._end_turn(state)

    def _replace_permission(self, state: SpycatcherState, seat: int, card: str) -> SpycatcherState:
        suit = state.board.cards[card].suit
        i = _SUIT_INDEX[suit]
        state = _with(
            state,
            permissions=_set(state.permissions, seat, tuple(c for c in state.permissions[seat] if c != card)),
            locations=_set(state.locations, i, (*state.locations[i], card)),
            instruction=None,
            log=_log(state, {"event": "replace_permission", "seat": seat, "card": card, "suit": suit}),
        )
        return self._end_turn(state)

    def _give(self, state: SpycatcherState, seat: int, card: str, to: int) -> SpycatcherState:
        permissions = _set(state.permissions, seat, tuple(c for c in state.permissions[seat] if c != card))
        permissions = _set(permissions, to, (*permissions[to], card))
        state = _with(
            state,
            permissions=permissions,
            instruction=None,
            log=_log(
                state,
                {"event": "give", "seat": seat, "to": to, "card": card, "suit": state.board.cards[card].suit},
            ),
        )
        return self._end_turn(state)

    # Seeking permission and the challenge -----------------------------------------

    def _seek(self, state: SpycatcherState, seat: int, cards: tuple[str, ...]) -> SpycatcherState:
        suit = self._circle(state, seat)
        assert suit is not None
        others = frozenset(s for s in range(state.seats) if s != seat)
        return _with(
            state,
            hands=_set(state.hands, seat, _without(state.hands[seat], cards)),
            phase=WINDOW,
            window=Window(seat, suit, cards, others, ()),
            log=_log(state, {"event": "seek", "seat": seat, "circle": suit, "face_down": len(cards)}),
        )

    def _answer(self, state: SpycatcherState, seat: int, cards: tuple[str, ...]) -> SpycatcherState:
        window = state.window
        assert window is not None
        window = dataclass_replace(
            window, waiting=window.waiting - _ALONE[seat], answers=(*window.answers, (seat, cards))
        )
        if cards:  # ruling 6: played face up, for everyone to see at once
            event = {
                "event": "challenge_played",
                "seat": seat,
                "seeker": window.seeker,
                "circle": window.suit,
                "cards": list(cards),
                "total": None if is_master(cards[0]) else total(cards),
            }
            state = _with(
                state,
                hands=_set(state.hands, seat, _without(state.hands[seat], cards)),
                log=_log(state, event),
            )
        if window.waiting:
            return _with(state, window=window)
        return self._settle(state, window)

    def _settle(self, state: SpycatcherState, window: Window) -> SpycatcherState:
        """Every answer is in: turn the cards over and settle the challenge."""
        n = state.seats
        seeker, run = window.seeker, window.cards
        answers = dict(window.answers)
        order = [(seeker + k) % n for k in range(1, n)]  # from the seeker's left
        played = [(s, answers[s]) for s in order if answers[s]]
        master = is_master(run[0])
        beaten_by = (
            [] if master else [s for s, cards in played if is_master(cards[0]) or total(cards) > total(run)]
        )
        granted = not beaten_by
        event = {
            "event": "challenge" if played else "unchallenged",
            "seat": seeker,
            "circle": window.suit,
            "cards": list(run),
            "total": None if master else total(run),
            "challenges": [
                {"seat": s, "cards": list(cards), "total": None if is_master(cards[0]) else total(cards)}
                for s, cards in played
            ],
            "beaten_by": beaten_by,
            "result": "granted" if granted else "refused",
        }
        under: list[str] = list(run)
        for _, cards in played:
            under.extend(cards)  # already out of the hands, face up since they were played
        state = _with(
            state,
            discard=(*under, *state.discard),
            window=None,
            log=_log(state, event),
        )
        state = self._draw(state, seeker, len(run))
        for s, cards in played:
            state = self._draw(state, s, len(cards))
        if not granted:
            return self._end_turn(_with(state, must_move=state.must_move | _ALONE[seeker]))
        return self._take_location_card(state, seeker, window.suit)

    def _take_location_card(self, state: SpycatcherState, seat: int, suit: str) -> SpycatcherState:
        i = _SUIT_INDEX[suit]
        pack = state.locations[i]
        card: LocationCard = state.board.cards[pack[0]]
        event = {"event": "location_card", "seat": seat, "card": card.id, "suit": suit, "title": card.title}
        if card.permission:
            state = _with(
                state,
                locations=_set(state.locations, i, pack[1:]),
                permissions=_set(state.permissions, seat, (*state.permissions[seat], card.id)),
                log=_log(state, {**event, "kept": True}),
            )
        else:
            state = _with(
                state,
                locations=_set(state.locations, i, (*pack[1:], card.id)),
                log=_log(state, {**event, "kept": False}),
            )
        return self._obey(state, seat, card.instruction, card.id)

    # Reasons ---------------------------------------------------------------

    def _not_now(self, state: SpycatcherState, seat: int) -> str:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
            return f"There is no seat {seat!r} at this table."
        if state.phase == WINDOW:
            assert state.window is not None
            if seat == state.window.seeker:
                return "You are seeking permission; the other players are deciding whether to challenge."
            return "You have already answered this request for permission."
        return f"It is seat {state.turn}'s turn, not yours."

    def _why_illegal(self, state: SpycatcherState, seat: int, action: Action) -> str:
        kind = action.get("type")
        phase = state.phase
        allowed = sorted({a["type"] for a in self.legal(state, seat)})
        if kind not in _PHASE_ACTIONS[phase]:
            return f"You cannot {kind!r} now; you may: {', '.join(allowed)}."
        hand = state.hands[seat]
        if kind == "draw":
            if action.get("from") == "discard" and not state.discard:
                return "The discard pile is empty; take the top card of the pack."
            return 'Take a card with "from": "pack" or "from": "discard".'
        if kind == "discard":
            return f"You do not hold {card_name(action.get('card'))}."
        if kind == "stay":
            if not state.may_stay:
                return "This table plays without staying on challenge squares: roll the die."
            if seat in state.must_move:
                return "Your request for permission was refused here, so you must move on this turn."
            return "You can stay only on a challenge square of a circle whose permission card you still need."
        if kind == "move":
            ends = [state.board.squares[e].id for e in state.moving.ends] if state.moving else []
            return f"That move cannot end on {action.get('to')!r}; it can end on: {', '.join(ends)}."
        if kind in ("seek", "challenge"):
            cards = action.get("cards")
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                return 'List the cards as "cards": ["court-5", "court-6", "court-7"].'
            missing = [c for c in cards if c not in hand]
            if missing:
                return f"You do not hold {', '.join(map(card_name, missing))}."
            suit = state.window.suit if kind == "challenge" and state.window else self._circle(state, seat)
            wrong = [c for c in cards if SUIT.get(c) != suit]
            if wrong:
                suit_name = str(suit).capitalize()
                return (
                    f"Only {suit_name} cards can be played in the {suit_name} circle, "
                    f"not {', '.join(map(card_name, wrong))}."
                )
            if [*cards] != sorted(cards, key=ORDER.__getitem__):
                return "List the cards in order (lowest first), as the legal actions give them."
            if any(is_master(c) for c in cards):
                return "A master card is played on its own."
            if kind == "seek":
                return (
                    "Seeking permission needs a run of three numbers in sequence (such as 5, 6, 7) "
                    "or the master card."
                )
            return "A challenge is one, two or three cards of the circle's suit, or its master card alone."
        if kind == "give":
            return (
                "You can give a permission card only to a player who holds none of that kind and for whom it "
                "would not be the fourth."
            )
        if kind == "replace":
            return "Choose one of your own permission cards that the instruction names."
        return "That action is not allowed now (check its fields against the legal actions)."

    # ------------------------------------------------------------------ view

    def view(self, state: SpycatcherState, seat: int | None) -> dict[str, Any]:
        n = state.seats
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"There is no seat {seat!r} at this table.")
        board = state.board
        window = None
        if state.window is not None:
            w = state.window
            window = {
                "seeker": w.seeker,
                "circle": w.suit,
                "square": board.squares[state.positions[w.seeker]].id,
                "face_down": len(w.cards),
                "waiting": sorted(w.waiting),
                "cards": list(w.cards) if seat == w.seeker else None,
                "challenges": [
                    {"seat": s, "cards": list(cards), "total": None if is_master(cards[0]) else total(cards)}
                    for s, cards in w.answers
                    if cards
                ],
                "answer": None,
            }
            if seat is not None and seat != w.seeker:
                mine = dict(w.answers).get(seat)
                if mine is not None:
                    window["answer"] = list(mine) if mine else "decline"
        pending = None
        if state.phase in (GIVE, REPLACE) and state.instruction is not None:
            pending = state.instruction.as_dict(board)
        moving = None
        if state.moving is not None:
            moving = {"to": [board.squares[e].id for e in state.moving.ends], "die_move": state.moving.full}
        out: dict[str, Any] = {
            "game": self.slug,
            "seat": seat,
            "seats": n,
            "board": board.name,
            "options": dict(state.options),
            "first": state.first,
            "turn": state.turn,
            "phase": state.phase,
            "to_act": sorted(self.to_act(state)),
            "round": (state.turns - 1) // n + 1 if state.turns else 0,
            "turn_limit": state.turn_limit,
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hands": [len(hand) for hand in state.hands],
            "pack": state.pack_left,
            "discard": {"top": state.discard[-1] if state.discard else None, "cards": len(state.discard)},
            "positions": [board.squares[p].id for p in state.positions],
            "permissions": [
                [{"card": c, "suit": board.cards[c].suit, "title": board.cards[c].title} for c in held]
                for held in state.permissions
            ],
            "location_packs": {suit: len(state.locations[i]) for i, suit in enumerate(SUITS)},
            "roll": state.roll,
            "moving": moving,
            "must_move": sorted(state.must_move),
            "missed_turns": list(state.missing),
            "window": window,
            "instruction": pending,
            "events": log_events(state.log, VIEW_EVENTS),
            "over": state.phase == OVER,
            "end": state.end,
            "winner": state.winner,
        }
        return out

    # --------------------------------------------------------------- outcome

    def outcome(self, state: SpycatcherState) -> Outcome | None:
        if state.phase != OVER:
            return None
        held = [len(cards) for cards in state.permissions]
        scores = tuple(
            float(WINNER_SCORE if seat == state.winner else count) for seat, count in enumerate(held)
        )
        return Outcome(
            scores=scores,
            places=places_from_scores(scores, lowest_wins=False),
            detail={
                "end": state.end,
                "winner": state.winner,
                "permissions": [
                    sorted(state.board.cards[c].suit for c in cards) for cards in state.permissions
                ],
                "rounds": (state.turns - 1) // state.seats + 1 if state.turns else 0,
            },
        )

    # --------------------------------------------------------------- helpers

    def events(self, state: SpycatcherState) -> list[dict[str, Any]]:
        """The whole public event log (what every seat and a spectator saw happen)."""
        return log_events(state.log)

    def board_drawing(self, state_or_name: SpycatcherState | str) -> dict[str, Any]:
        """The board of a game (or a board by name) as in its file: squares with ``x``/``y``,
        links, circles and cards, for the web layer to draw (public: nothing in it is hidden)."""
        if isinstance(state_or_name, str):
            return self.boards[state_or_name].drawing()
        return state_or_name.board.drawing()


ENGINE: Final = Spycatcher()
