"""Bots for Spycatcher. Both see only their own ``view`` and the legal actions.

- ``random``: a uniformly random legal action (``games.core.RandomBot``).
- ``heuristic``: collects cards of the suits it still needs, keeping those that make or nearly
  make runs; takes the discard pile's top card when it helps; walks towards the nearest circle
  it still needs (towards the centre once it holds all four) and away from squares that would
  hurt it; stays on a challenge square while it holds a run; seeks permission with the master
  card unless a high run is safe enough; challenges when its cards are likely to beat the
  hidden run and the seeker is a threat (its guess counts the runs the cards it can see allow).

The board is public: the heuristic bot reads it by the name in the view, from the boards it was
given (the shipped boards by default). On a board it does not know it still plays legally, only
without a sense of direction.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from games.core import Action, Bot, RandomBot, chance

from .board import ACTION, CENTRE, CHALLENGE, Board
from .cards import MASTERS, NUMBER, SUIT, SUITS, is_master, runs, total
from .engine import ENGINE, Spycatcher, SpycatcherState

FAR: Final = 99


class _Map:
    """Distances on a board (in squares, along the one-way links) to each circle and the centre."""

    def __init__(self, board: Board) -> None:
        self.board = board
        back: dict[int, list[int]] = {sq.index: [] for sq in board.squares}
        for sq in board.squares:
            for nxt in sq.next:
                back[nxt].append(sq.index)
        self.to_circle = {
            suit: self._distances(back, [sq.index for sq in board.squares if sq.circle == suit])
            for suit in SUITS
        }
        self.to_centre = self._distances(back, [board.centre])

    @staticmethod
    def _distances(back: dict[int, list[int]], targets: list[int]) -> dict[int, int]:
        dist = dict.fromkeys(targets, 0)
        todo = list(targets)
        while todo:
            following = []
            for square in todo:
                for prev in back[square]:
                    if prev not in dist:
                        dist[prev] = dist[square] + 1
                        following.append(prev)
            todo = following
        return dist


def _needed(view: dict[str, Any]) -> set[str]:
    held = {card["suit"] for card in view["permissions"][view["seat"]]}
    return set(SUITS) - held


def _window(card: str, hand: list[str]) -> int:
    """The most cards of ``hand`` in one run-shaped window (n, n+1, n+2) that holds ``card``."""
    suit, number = SUIT[card], NUMBER[card]
    held = {NUMBER[c] for c in hand if c in NUMBER and SUIT[c] == suit}
    return max(len({n, n + 1, n + 2} & held) for n in range(max(1, number - 2), min(10, number) + 1))


def card_value(card: str, hand: list[str], needed: set[str]) -> float:
    """How much a card is worth keeping in ``hand`` (which holds it): a master card of a suit still
    needed most, then cards in (nearly) complete runs; cards of suits already held are kept only
    for challenging."""
    suit = SUIT[card]
    if suit not in needed:
        return 0.1 + NUMBER.get(card, 13) / 100
    if is_master(card):
        return 10.0
    return float(_window(card, hand))


def beat_chance(my_total: int, suit: str, seen: set[str]) -> float:
    """The share of the runs still possible (none of whose cards this seat has seen) below ``my_total``."""
    possible = [
        3 * n + 3 for n in range(1, 11) if not {f"{suit}-{n}", f"{suit}-{n + 1}", f"{suit}-{n + 2}"} & seen
    ]
    if not possible:
        return 0.0
    return sum(1 for t in possible if t < my_total) / len(possible)


class HeuristicBot:
    name = "heuristic"

    def __init__(self, boards: Mapping[str, Board] | None = None) -> None:
        self._boards = dict(ENGINE.boards if boards is None else boards)
        self._maps: dict[str, _Map] = {}

    def _map(self, view: dict[str, Any]) -> _Map | None:
        name = view["board"]
        if name not in self._maps:
            board = self._boards.get(name)
            if board is None:
                return None
            self._maps[name] = _Map(board)
        return self._maps[name]

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError("The bot was asked to act with no legal action.")
        phase = view["phase"]
        kinds = {action["type"] for action in legal}
        if phase == "draw":
            return self._draw(view, legal)
        if phase == "discard":
            hand = view["hand"]
            needed = _needed(view)
            # a little noise, so that tables where everyone hoards half-runs still move on
            card = min(hand, key=lambda c: (card_value(c, hand, needed) + rng.random() * 1.2, c))
            return {"type": "discard", "card": card}
        if phase == "roll":
            if "stay" in kinds and self._ready(view, self._square_circle(view)):
                return {"type": "stay"}
            return {"type": "roll"}
        if phase == "move":
            return self._move(view, legal, rng)
        if phase == "seek":
            return self._seek(legal)
        if phase == "window":
            return self._answer(view, legal)
        if phase == "give":
            permissions = view["permissions"]
            return min(legal, key=lambda a: (len(permissions[a["to"]]), a["to"], a["card"]))
        return legal[0]

    # Cards ------------------------------------------------------------------

    def _draw(self, view: dict[str, Any], legal: list[Action]) -> Action:
        top = view["discard"]["top"]
        if top is not None and {"type": "draw", "from": "discard"} in legal:
            hand = [*view["hand"], top]
            if card_value(top, hand, _needed(view)) >= 2.0:
                return {"type": "draw", "from": "discard"}
        return legal[0]

    def _square_circle(self, view: dict[str, Any]) -> str | None:
        square_map = self._map(view)
        if square_map is None:
            return None
        board = square_map.board
        return board.squares[board.index[view["positions"][view["seat"]]]].circle

    @staticmethod
    def _ready(view: dict[str, Any], suit: str | None) -> bool:
        """Whether the hand can seek permission in ``suit``'s circle now."""
        if suit is None:
            return False
        hand = view["hand"]
        return MASTERS[suit] in hand or bool(runs(hand, suit))

    @staticmethod
    def _seek(legal: list[Action]) -> Action:
        seeks = [a for a in legal if a["type"] == "seek"]
        if not seeks:
            return {"type": "pass"}
        master = next((a for a in seeks if len(a["cards"]) == 1), None)
        best_run = max(
            (a for a in seeks if len(a["cards"]) == 3), key=lambda a: total(a["cards"]), default=None
        )
        if best_run is not None and (master is None or total(best_run["cards"]) >= 27):
            return best_run
        assert master is not None
        return master

    # The challenge ----------------------------------------------------------

    def _answer(self, view: dict[str, Any], legal: list[Action]) -> Action:
        window = view["window"]
        if window["face_down"] == 1:
            return {"type": "decline"}  # a master card: no challenge can beat it
        played = window.get("challenges") or []
        if any(is_master(c["cards"][0]) for c in played):
            return {"type": "decline"}  # a master card already beats the run: keep the cards
        suit = window["circle"]
        seeker_holds = len(view["permissions"][window["seeker"]])
        threat = 1.0 + 1.5 * seeker_holds
        hand = view["hand"]
        needed = _needed(view)
        seen = set(hand)
        seen.update(card for c in played for card in c["cards"])  # challenges are face up
        if view["discard"]["top"] is not None:
            seen.add(view["discard"]["top"])
        best: tuple[float, Action] = (0.0, {"type": "decline"})
        for action in legal:
            if action["type"] != "challenge":
                continue
            cards = action["cards"]
            chance_to_beat = 1.0 if is_master(cards[0]) else beat_chance(total(cards), suit, seen)
            cost = sum(max(0.0, card_value(c, hand, needed) - 1.0) * 0.5 + 0.3 for c in cards)
            worth = chance_to_beat * threat - cost
            if worth > best[0]:
                best = (worth, action)
        return best[1]

    # Moving -----------------------------------------------------------------

    def _move(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        square_map = self._map(view)
        if square_map is None:
            return legal[rng.randrange(len(legal))]
        board = square_map.board
        needed = _needed(view)
        me = view["seat"]
        held = {card["suit"] for card in view["permissions"][me]}
        die_move = bool(view["moving"] and view["moving"]["die_move"])
        ready = {suit for suit in needed if self._ready(view, suit)}
        targets = ready or needed  # head for a circle where the hand can seek permission now

        def score(action: Action) -> float:
            sq = board.squares[board.index[action["to"]]]
            if not needed:
                if sq.kind == CENTRE:
                    return 1000.0
                return -float(square_map.to_centre.get(sq.index, FAR))
            value = -float(min(square_map.to_circle[s].get(sq.index, FAR) for s in targets))
            if sq.kind == CHALLENGE and sq.circle in targets:
                value += 12.0 if sq.circle in ready else 4.0
            if sq.kind == ACTION and die_move and sq.instruction is not None:
                do, kind = sq.instruction.do, sq.instruction.kind
                if do == "go_to_mi5":
                    value -= 10.0
                elif do == "replace_permission" and (kind in held or (kind == "any" and held)):
                    value -= 15.0
                elif do == "give_permission" and held:
                    value -= 6.0
                elif do == "miss_turn":
                    value -= 5.0
                elif do in ("move", "go_to", "roll_again"):
                    value += 1.0
            return value

        return max(legal, key=lambda a: (score(a), a["to"]))


BOTS: Final[dict[str, Bot]] = {"random": RandomBot(), "heuristic": HeuristicBot()}


def play_game(
    bots: list[Bot], seed: int, options: dict[str, Any] | None = None, engine: Spycatcher | None = None
) -> tuple[SpycatcherState, list[tuple[int, Action]]]:
    """Play one game with one bot per seat; return the final state and the move log.

    When several seats must act at once (a challenge window), they answer in seat order,
    each from its own view.
    """
    engine = engine or ENGINE
    state = engine.start(len(bots), seed, options or {})
    rngs = [chance(seed, "bot", seat) for seat in range(len(bots))]
    moves: list[tuple[int, Action]] = []
    while True:
        seats = engine.to_act(state)
        if not seats:
            return state, moves
        seat = min(seats)
        action = bots[seat].choose(engine.view(state, seat), engine.legal(state, seat), rngs[seat])
        state = engine.apply(state, seat, action)
        moves.append((seat, action))
