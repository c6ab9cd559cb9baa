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

from games.core import Action, Bot, LogEntry, RandomBot, chance
from games.core.search import GuidedSearchBot, utility

from .board import ACTION, CENTRE, CHALLENGE, Board, Instruction
from .cards import DECK, MASTERS, NUMBER, SUIT, SUITS, is_master, runs, sort_cards, total
from .engine import ENGINE, Moving, Spycatcher, SpycatcherState, Window

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
    label = "Beginner"

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


# The expert: search over hidden states ---------------------------------------------------


def _instruction(board: Board, events: list[dict[str, Any]]) -> Instruction | None:
    """The instruction a give / replace choice waits on: the newest one in the events."""
    for event in reversed(events):
        if event.get("event") == "instruction":
            source = event["from"]
            if source in board.cards:
                return board.cards[source].instruction
            return board.squares[board.index[source]].instruction
    return None


def _this_turn(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The events of ``seat``'s turn so far (as far as the view's events reach back)."""
    out: list[dict[str, Any]] = []
    for event in reversed(events):
        out.append(event)
        if event.get("event") == "draw" and event.get("seat") == seat:
            break
    out.reverse()
    return out


def determinize(
    view: dict[str, Any], rng: random.Random, engine: Spycatcher | None = None
) -> SpycatcherState:
    """A full state the game could be in, given ``view``: the other hands, the pack, the discard
    pile under its top card, a seeker's face-down cards and the location packs' order are
    sampled (cards seen taken from the discard pile stay with their taker); the dice get a fresh
    seed. ``engine.view(state, view["seat"]) == view``."""
    engine = engine or ENGINE
    board = engine.boards[view["board"]]
    n: int = view["seats"]
    me: int = view["seat"]
    events: list[dict[str, Any]] = view["events"]
    sizes: list[int] = view["hands"]
    window = view["window"]
    top = view["discard"]["top"]
    known: set[str] = set(view["hand"])
    if top is not None:
        known.add(top)
    answered: list[tuple[int, tuple[str, ...]]] = []
    if window is not None:
        for challenge in window["challenges"]:
            known.update(challenge["cards"])
        if window["cards"] is not None:
            known.update(window["cards"])
    # cards seen taken from the discard pile, still in the taker's hand
    held: list[list[str]] = [[] for _ in range(n)]
    for event in events:
        kind, seat = event.get("event"), event.get("seat", -1)
        if kind == "draw" and event.get("from") == "discard" and seat != me:
            held[seat].append(event["card"])
        elif kind == "discard" and event["card"] in held[seat]:
            held[seat].remove(event["card"])
        elif kind == "challenge_played":
            held[seat] = [c for c in held[seat] if c not in event["cards"]]
        elif kind in ("seek", "instruction"):
            held[seat] = []  # face-down cards left the hand, or the hand may have been replaced
    unknown = [c for c in DECK if c not in known]
    for seat in range(n):
        held[seat] = [c for c in held[seat] if c in unknown][: sizes[seat]]
    reserved = {c for cards in held for c in cards}
    pool = [c for c in unknown if c not in reserved]
    rng.shuffle(pool)
    seeker_cards: tuple[str, ...] = ()
    if window is not None:
        if window["cards"] is not None:
            seeker_cards = tuple(window["cards"])
        else:
            suit = window["circle"]
            if window["face_down"] == 1:
                seeker_cards = (MASTERS[suit],)
            else:
                options = list(runs(pool, suit))
                seeker_cards = options[rng.randrange(len(options))]
            pool = [c for c in pool if c not in seeker_cards]
    hands: list[tuple[str, ...]] = []
    for seat in range(n):
        if seat == me:
            hands.append(tuple(view["hand"]))
            continue
        need = sizes[seat] - len(held[seat])
        hands.append(sort_cards([*held[seat], *pool[:need]]))
        pool = pool[need:]
    below = view["discard"]["cards"] - (1 if top is not None else 0)
    discard = (*pool[:below], *([top] if top is not None else []))
    pack = tuple(pool[below:])
    assert len(pack) == view["pack"], (len(pack), view["pack"])
    taken = {p["card"] for row in view["permissions"] for p in row}
    locations = []
    for suit in SUITS:
        ids = [card.id for card in board.packs[suit] if card.id not in taken]
        rng.shuffle(ids)
        locations.append(tuple(ids))
    turn: int = view["turn"]
    first: int = view["first"]
    rnd: int = view["round"]
    turns = (rnd - 1) * n + (turn - first) % n + 1 if rnd else 0
    now = _this_turn(events, turn)
    obeyed = frozenset(
        board.index[e["from"]] for e in now if e.get("event") == "instruction" and e["from"] in board.index
    )
    rolled_again = any(e.get("event") == "instruction" and e.get("do") == "roll_again" for e in now)
    log: LogEntry | None = None
    for event in events:
        log = LogEntry(event, log)
    opts = view["options"]
    moving = None
    if view["moving"] is not None:
        moving = Moving(tuple(board.index[s] for s in view["moving"]["to"]), view["moving"]["die_move"])
    win = None
    if window is not None:
        answers = [(c["seat"], tuple(c["cards"])) for c in window["challenges"]]
        waiting = frozenset(window["waiting"])
        played = {s for s, _ in answers}
        declined = [s for s in range(n) if s != window["seeker"] and s not in waiting and s not in played]
        answered = [*answers, *((s, ()) for s in declined)]
        win = Window(window["seeker"], window["circle"], seeker_cards, waiting, tuple(answered))
    pending = _instruction(board, events) if view["instruction"] is not None else None
    return SpycatcherState(
        seats=n,
        seed=rng.getrandbits(63),
        board=board,
        options=dict(opts),
        hand_size=opts["hand_size"],
        may_stay=opts["may_stay"],
        turn_limit=opts["turn_limit"],
        pack=pack,
        top=0,
        discard=discard,
        hands=tuple(hands),
        positions=tuple(board.index[p] for p in view["positions"]),
        permissions=tuple(tuple(p["card"] for p in row) for row in view["permissions"]),
        locations=tuple(locations),
        first=first,
        turn=turn,
        phase=view["phase"],
        turns=turns,
        roll=view["roll"],
        rolls=0,
        shuffles=0,
        rolled_again=rolled_again,
        obeyed=obeyed,
        must_move=frozenset(view["must_move"]),
        missing=tuple(view["missed_turns"]),
        moving=moving,
        window=win,
        instruction=pending,
        log=log,
    )


#: Moves a rollout plays before the position is judged (a whole game is far longer).
ROLLOUT_MOVES: Final = 40


def evaluate(engine: Spycatcher, state: SpycatcherState, seat: int) -> float:
    """A position's worth to ``seat`` in [0, 1]: the outcome when over, otherwise how its
    permission cards compare with the best other player's."""
    outcome = engine.outcome(state)
    if outcome is not None:
        return utility(tuple(outcome.places), seat)
    held = [len(p) for p in state.permissions]
    mine = held[seat]
    best_other = max(h for s, h in enumerate(held) if s != seat)
    return min(1.0, max(0.0, 0.5 + 0.12 * (mine - best_other) + 0.03 * mine))


def rollout(engine: Spycatcher, state: SpycatcherState, seat: int, policy: Bot, rng: random.Random) -> float:
    """Play ``ROLLOUT_MOVES`` moves with ``policy`` in every seat, judging the position after each:
    the mean of those judgements, so that a permission card gained sooner counts for more
    (judged only at the end, a seek now and the same seek a turn later looked alike)."""
    worth = evaluate(engine, state, seat)
    count = 1
    for _ in range(ROLLOUT_MOVES):
        acting = engine.to_act(state)
        if not acting:
            break
        s = min(acting)
        state = engine.apply(state, s, policy.choose(engine.view(state, s), engine.legal(state, s), rng))
        worth += evaluate(engine, state, seat)
        count += 1
    final = evaluate(engine, state, seat)
    return (worth + final * (ROLLOUT_MOVES + 1 - count)) / (ROLLOUT_MOVES + 1)


#: The phases where the expert searches; drawing and discarding it leaves to the heuristic.
SEARCHED: Final = frozenset({"roll", "move", "seek", "window", "give", "replace"})


class ExpertBot(GuidedSearchBot):
    """The heuristic's choice, unless a search over hidden states finds a better one
    (``GuidedSearchBot``), in the phases where a choice matters (``SEARCHED``)."""

    def __init__(self, name: str, label: str, samples: int, max_seconds: float = 1.0) -> None:
        super().__init__(
            ENGINE,
            determinize,
            name=name,
            label=label,
            policy=HeuristicBot(),
            samples=samples,
            max_seconds=max_seconds,
            rollout=rollout,
        )

    def options(self, view: dict[str, Any], legal: list[Action], guess: Action) -> list[Action]:
        if view["phase"] not in SEARCHED:
            return []
        return [a for a in legal if a != guess]


BOTS: Final[dict[str, Bot]] = {
    "random": RandomBot(),
    "heuristic": HeuristicBot(),
    "intermediate": ExpertBot("intermediate", "Intermediate", 6),
    "expert": ExpertBot("expert", "Expert", 24),
}


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
