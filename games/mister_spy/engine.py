"""The rules engine for Before I Kill You, Mister Spy.

The rules, the action and view formats and the rulings are in the package docstring
(``games/mister_spy/__init__.py``). This module holds the state and the engine. It is one
idea, the game's rules as one state machine (the phases of a turn, the taunts and foils that
answer out of turn, the lairs' scoring), kept in one file so that every rule and the move that
enforces it read together; the scoring sheet's arithmetic is ``scoresheet.py``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
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

from .cards import DECK, HAND_SIZES, KIND, LAIR, SPY, TAUNT, VALUE, WINNING_POINTS, card_name

# Phases of play.
TURN: Final = "turn"  # the seat whose turn it is chooses one action (after the automatic draw)
STOLEN: Final = "stolen"  # that seat has just stolen a Spy: keep it or play it at once
CAPTIVE: Final = "captive"  # a captor holds a captured Spy: taunt it or kill it
WINDOW: Final = "window"  # a taunt was played: every opponent of the taunter foils or lets it pass
OVER: Final = "over"

END_33: Final = "33 points"
END_DECK: Final = "deck empty"

#: How many of the most recent public events ``view`` shows.
VIEW_EVENTS: Final = 20

_PHASE_ACTIONS: Final[dict[str, frozenset[str]]] = {
    TURN: frozenset({"pass", "play_lair", "capture", "steal_lair", "steal_spy"}),
    STOLEN: frozenset({"keep", "capture", "steal_lair"}),
    CAPTIVE: frozenset({"kill", "taunt"}),
    WINDOW: frozenset({"let_pass", "foil"}),
    OVER: frozenset(),
}
_ALONE: Final = tuple(frozenset({seat}) for seat in range(6))
_NOBODY: Final[frozenset[int]] = frozenset()


@dataclass(frozen=True, slots=True)
class Lair:
    """A card in a player's Lair: a Lair card, or a taunt played as a Deathtrap.

    ``id`` ("L1", "L2", ...) numbers the cards in the order they reach the table; it
    says nothing about the card, so a face-down card can be named without showing it.
    """

    id: str
    card: str
    face_up: bool

    @property
    def deathtrap(self) -> bool:
        return KIND[self.card] == TAUNT

    @property
    def size(self) -> int:
        """What the card adds to its Lair: its value face up, 1 while a Secret Lair."""
        return VALUE[self.card] if self.face_up else 1


@dataclass(frozen=True, slots=True)
class Spy:
    """A Spy on the table: the captive being taunted, or a Spy in a score pile.

    ``how`` is ``"killed"`` (captured, maybe taunted, then killed), ``"henchman"``
    (a Double Agent that matched the Lair it stole) or ``"deathtrap"`` (killed by a
    Deathtrap). ``taunts`` are the successful taunt cards on it, face down.
    """

    id: str
    card: str
    taunts: tuple[str, ...] = ()
    how: str = "killed"

    @property
    def points(self) -> int:
        return VALUE[self.card] << len(self.taunts)


@dataclass(frozen=True, slots=True)
class Window:
    """An open reaction window after a taunt."""

    taunter: int
    taunt: str
    waiting: frozenset[int]  # seats still to answer
    foilers: frozenset[int]  # seats that answered "foil" (hidden until the window closes)


@dataclass(frozen=True, slots=True)
class Stolen:
    """The Spy just stolen by the seat whose turn it is."""

    card: str
    source: int | None  # the seat it was taken from; None for the top of the deck


@dataclass(frozen=True, slots=True)
class MisterSpyState:
    seats: int
    seed: int
    dealer: int
    deck: tuple[str, ...]  # the shuffled deck; deck[top] is its top card
    top: int
    hands: tuple[tuple[str, ...], ...]  # sorted
    lairs: tuple[tuple[Lair, ...], ...]
    piles: tuple[tuple[Spy, ...], ...]  # score piles (henchmen included)
    scores: tuple[int, ...]
    discard: tuple[str, ...]  # face up; the last card is on top
    turn: int  # the seat whose turn it is
    phase: str
    captor: int | None = None
    captive: Spy | None = None
    window: Window | None = None
    stolen: Stolen | None = None
    serial: int = 0  # how many cards have been given a table id (L1, S2, ...)
    steals: int = 0  # how many Spies were stolen from hands (labels the seeded chance)
    log: LogEntry | None = None
    end: str | None = None

    @property
    def deck_left(self) -> int:
        return len(self.deck) - self.top


def _log(state: MisterSpyState, event: dict[str, Any]) -> LogEntry:
    return LogEntry(event, state.log)


def _without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _with(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    return tuple(sorted((*hand, card)))


def _set(row: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*row[:i], value, *row[i + 1 :])


def _spies_in(hand: tuple[str, ...]) -> int:
    return sum(1 for card in hand if KIND[card] == SPY)


@lru_cache(maxsize=4096)
def _reveal_sets(need: int, twos: int, threes: int, fours: int) -> tuple[tuple[str, ...], ...]:
    """Every way to turn over Secret Lairs that adds at least ``need``, none of them superfluous.

    Turning over a ``lair-v`` adds ``v - 1`` (it was worth 1 face down).
    """
    if need <= 0:
        return ((),)
    out = []
    for a4 in range(fours + 1):
        for a3 in range(threes + 1):
            for a2 in range(twos + 1):
                gain = a2 + 2 * a3 + 3 * a4
                if gain < need:
                    continue
                smallest = 1 if a2 else 2 if a3 else 3
                if gain - smallest >= need:
                    continue  # a card could stay face down
                out.append(("lair-2",) * a2 + ("lair-3",) * a3 + ("lair-4",) * a4)
    out.sort()
    return tuple(out)


def lair_size(lair: tuple[Lair, ...]) -> int:
    """A Lair's size as the table sees it (Secret Lairs and Deathtraps count 1)."""
    return sum(card.size for card in lair)


class MisterSpy:
    """Before I Kill You, Mister Spy: the engine object (stateless)."""

    slug = "mister-spy"
    title = "Before I Kill You, Mister Spy"
    seats = range(2, 7)
    options: Mapping[str, Option] = {
        "dealer": Option(
            int,
            0,
            "The seat that deals and so plays first; pass the deal to the last game's winner.",
            lambda v: None if v >= 0 else "must be a seat number (0 or more).",
        ),
    }

    # ------------------------------------------------------------------ start

    def start(self, seats: int, seed: int, options: Mapping[str, Any]) -> MisterSpyState:
        if isinstance(seats, bool) or not isinstance(seats, int) or seats not in self.seats:
            raise InvalidOptions(f"{self.title} is played by 2 to 6 players, not {seats!r}.")
        opts = validate_options(options, self.options)
        dealer: int = opts["dealer"]
        if dealer >= seats:
            raise InvalidOptions(f"Option 'dealer': there is no seat {dealer} at a table of {seats}.")
        deck = tuple(shuffled(DECK, seed, "deck"))
        size = HAND_SIZES[seats]
        order = [(dealer + 1 + k) % seats for k in range(seats)]  # one at a time, from the dealer's left
        dealt: list[list[str]] = [[] for _ in range(seats)]
        for i in range(size * seats):
            dealt[order[i % seats]].append(deck[i])
        state = MisterSpyState(
            seats=seats,
            seed=seed,
            dealer=dealer,
            deck=deck,
            top=size * seats,
            hands=tuple(tuple(sorted(hand)) for hand in dealt),
            lairs=((),) * seats,
            piles=((),) * seats,
            scores=(0,) * seats,
            discard=(),
            turn=dealer,
            phase=TURN,
        )
        state = replace(state, log=_log(state, {"event": "deal", "dealer": dealer, "cards": size}))
        return self._begin_turn(state, dealer)

    # ---------------------------------------------------------------- to_act

    def to_act(self, state: MisterSpyState) -> frozenset[int]:
        phase = state.phase
        if phase in (TURN, STOLEN):
            return _ALONE[state.turn]
        if phase == CAPTIVE:
            assert state.captor is not None
            return _ALONE[state.captor]
        if phase == WINDOW:
            assert state.window is not None
            return state.window.waiting
        return _NOBODY

    def reaction_window(self, state: MisterSpyState) -> bool:
        """Whether a taunt's reaction window is open (the web layer puts it on a timer)."""
        return state.phase == WINDOW

    def timeout_action(self, state: MisterSpyState, seat: int) -> Action | None:
        """What a seat that did not answer a taunt in time does: it lets the taunt pass.

        ``None`` for a seat that is not asked (the taunter, a seat that has answered, or
        any seat outside a reaction window: turns have no time limit).
        """
        if state.phase == WINDOW and state.window is not None and seat in state.window.waiting:
            return {"type": "let_pass"}
        return None

    # ----------------------------------------------------------------- legal

    def legal(self, state: MisterSpyState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase == TURN:
            return self._turn_actions(state, seat)
        if phase == STOLEN:
            assert state.stolen is not None
            card, source = state.stolen.card, state.stolen.source
            acts: list[Action] = [{"type": "keep"}]
            acts.extend(self._capture_actions(state, seat, (card,)))
            acts.extend(self._steal_lair_actions(state, seat, (card,), source))
            return acts
        if phase == CAPTIVE:
            assert state.captive is not None
            acts = [{"type": "kill"}]
            if state.captive.how == "killed":
                used = set(state.captive.taunts)
                for card in sorted(set(state.hands[seat])):
                    if KIND[card] == TAUNT and card not in used:
                        acts.append({"type": "taunt", "card": card})
            return acts
        assert phase == WINDOW and state.window is not None
        acts = [{"type": "let_pass"}]
        if state.window.taunt in state.hands[seat]:
            acts.append({"type": "foil", "card": state.window.taunt})
        return acts

    def _turn_actions(self, state: MisterSpyState, seat: int) -> list[Action]:
        hand = state.hands[seat]
        acts: list[Action] = [{"type": "pass"}]
        distinct = sorted(set(hand))
        spies = []
        for card in distinct:
            if KIND[card] == SPY:
                spies.append(card)
            else:
                acts.append({"type": "play_lair", "card": card})
        if spies:
            acts.extend(self._capture_actions(state, seat, spies))
            acts.extend(self._steal_lair_actions(state, seat, spies, None))
        n = state.seats
        for k in range(1, n):
            other = (seat + k) % n
            if any(KIND[card] == SPY for card in state.hands[other]):
                acts.append({"type": "steal_spy", "from": other})
        if state.top < len(state.deck) and KIND[state.deck[state.top]] == SPY:
            acts.append({"type": "steal_spy", "from": "deck"})
        return acts

    def _capture_actions(
        self, state: MisterSpyState, seat: int, spies: list[str] | tuple[str, ...]
    ) -> list[Action]:
        base = 0
        secret = [0, 0, 0]  # face-down Lair cards of value 2, 3, 4 (Deathtraps cannot be turned over)
        for card in state.lairs[seat]:
            if card.face_up:
                base += VALUE[card.card]
            else:
                base += 1
                if KIND[card.card] == LAIR:
                    secret[VALUE[card.card] - 2] += 1
        acts: list[Action] = []
        for spy in spies:
            for reveal in _reveal_sets(VALUE[spy] - base, secret[0], secret[1], secret[2]):
                acts.append({"type": "capture", "card": spy, "reveal": list(reveal)})
        return acts

    def _steal_lair_actions(
        self, state: MisterSpyState, seat: int, spies: list[str] | tuple[str, ...], source: int | None
    ) -> list[Action]:
        targets = [
            card.id
            for k in range(1, state.seats)
            if (other := (seat + k) % state.seats) != source
            for card in state.lairs[other]
        ]
        return [{"type": "steal_lair", "card": spy, "lair": lair} for spy in spies for lair in targets]

    # ----------------------------------------------------------------- apply

    def apply(self, state: MisterSpyState, seat: int, action: Action) -> MisterSpyState:
        if state.phase == OVER:
            raise IllegalAction("The game is over; nobody can act.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction('An action must be an object with a "type", such as {"type": "pass"}.')
        if seat not in self.to_act(state):
            raise IllegalAction(self._not_now(state, seat))
        if not is_listed(action, self.legal(state, seat)):
            raise IllegalAction(self._why_illegal(state, seat, action))
        kind = action["type"]
        phase = state.phase
        if phase == WINDOW:
            return self._answer(state, seat, kind == "foil")
        if phase == CAPTIVE:
            if kind == "kill":
                return self._kill(state, seat)
            return self._taunt(state, seat, action["card"])
        if kind == "pass":
            return self._end_turn(replace(state, log=_log(state, {"event": "pass", "seat": seat})))
        if kind == "keep":
            return self._end_turn(
                replace(state, stolen=None, log=_log(state, {"event": "keep", "seat": seat}))
            )
        if kind == "play_lair":
            return self._play_lair(state, seat, action["card"])
        if kind == "capture":
            return self._capture(state, seat, action["card"], action["reveal"])
        if kind == "steal_lair":
            return self._steal_lair(state, seat, action["card"], action["lair"])
        assert kind == "steal_spy"
        return self._steal_spy(state, seat, action["from"])

    # Turn flow ---------------------------------------------------------------

    def _begin_turn(self, state: MisterSpyState, seat: int) -> MisterSpyState:
        """Start ``seat``'s turn with its draw, or end the game if the deck is empty."""
        if state.top >= len(state.deck):
            return replace(
                state,
                phase=OVER,
                end=END_DECK,
                turn=seat,
                captor=None,
                captive=None,
                window=None,
                stolen=None,
                log=_log(state, {"event": "game_over", "end": END_DECK, "seat": seat}),
            )
        card = state.deck[state.top]
        return replace(
            state,
            top=state.top + 1,
            hands=_set(state.hands, seat, _with(state.hands[seat], card)),
            turn=seat,
            phase=TURN,
            captor=None,
            captive=None,
            window=None,
            stolen=None,
            log=_log(state, {"event": "draw", "seat": seat, "spy": KIND[card] == SPY}),
        )

    def _end_turn(self, state: MisterSpyState) -> MisterSpyState:
        return self._begin_turn(state, (state.turn + 1) % state.seats)

    def _score(self, state: MisterSpyState, seat: int, spy: Spy, event: dict[str, Any]) -> MisterSpyState:
        """Put ``spy`` in ``seat``'s score pile, then end the game at 33 or end the turn."""
        points = state.scores[seat] + spy.points
        event = {**event, "points": spy.points, "score": points}
        state = replace(
            state,
            piles=_set(state.piles, seat, (*state.piles[seat], spy)),
            scores=_set(state.scores, seat, points),
            captor=None,
            captive=None,
            window=None,
            stolen=None,
            log=_log(state, event),
        )
        if points >= WINNING_POINTS:
            return replace(
                state,
                phase=OVER,
                end=END_33,
                log=_log(state, {"event": "game_over", "end": END_33, "seat": seat}),
            )
        return self._end_turn(state)

    def _new_id(self, state: MisterSpyState, prefix: str) -> tuple[str, int]:
        return f"{prefix}{state.serial + 1}", state.serial + 1

    # Actions ---------------------------------------------------------------

    def _play_lair(self, state: MisterSpyState, seat: int, card: str) -> MisterSpyState:
        lair_id, serial = self._new_id(state, "L")
        state = replace(
            state,
            hands=_set(state.hands, seat, _without(state.hands[seat], card)),
            lairs=_set(state.lairs, seat, (*state.lairs[seat], Lair(lair_id, card, False))),
            serial=serial,
            log=_log(state, {"event": "play_lair", "seat": seat, "lair": lair_id}),
        )
        return self._end_turn(state)

    def _capture(self, state: MisterSpyState, seat: int, card: str, reveal: list[str]) -> MisterSpyState:
        lair = list(state.lairs[seat])
        revealed = []
        for code in reveal:
            i = next(i for i, c in enumerate(lair) if not c.face_up and c.card == code)
            lair[i] = Lair(lair[i].id, code, True)
            revealed.append({"lair": lair[i].id, "card": code})
        spy_id, serial = self._new_id(state, "S")
        return replace(
            state,
            hands=_set(state.hands, seat, _without(state.hands[seat], card)),
            lairs=_set(state.lairs, seat, tuple(lair)),
            serial=serial,
            phase=CAPTIVE,
            captor=seat,
            captive=Spy(spy_id, card),
            stolen=None,
            log=_log(
                state, {"event": "capture", "seat": seat, "spy": spy_id, "card": card, "revealed": revealed}
            ),
        )

    def _taunt(self, state: MisterSpyState, seat: int, card: str) -> MisterSpyState:
        assert state.captive is not None
        others = frozenset(s for s in range(state.seats) if s != seat)
        return replace(
            state,
            hands=_set(state.hands, seat, _without(state.hands[seat], card)),
            phase=WINDOW,
            window=Window(seat, card, others, _NOBODY),
            log=_log(state, {"event": "taunt", "seat": seat, "spy": state.captive.id}),
        )

    def _kill(self, state: MisterSpyState, seat: int) -> MisterSpyState:
        spy = state.captive
        assert spy is not None
        return self._score(state, seat, spy, {"event": "kill", "seat": seat, "spy": spy.id, "card": spy.card})

    def _answer(self, state: MisterSpyState, seat: int, foil: bool) -> MisterSpyState:
        window = state.window
        assert window is not None and state.captive is not None
        window = Window(
            window.taunter,
            window.taunt,
            window.waiting - _ALONE[seat],
            window.foilers | _ALONE[seat] if foil else window.foilers,
        )
        if window.waiting:
            return replace(state, window=window)
        spy = state.captive
        if window.foilers:
            n = state.seats
            foiler = next(
                s for k in range(1, n) if (s := (window.taunter + k) % n) in window.foilers
            )  # the first from the taunter's left
            discard = (*state.discard, *spy.taunts, window.taunt, window.taunt, spy.card)
            state = replace(
                state,
                hands=_set(state.hands, foiler, _without(state.hands[foiler], window.taunt)),
                discard=discard,
                captor=None,
                captive=None,
                window=None,
                log=_log(
                    state,
                    {
                        "event": "foil",
                        "seat": foiler,
                        "taunter": window.taunter,
                        "spy": spy.id,
                        "card": spy.card,
                        "taunt": window.taunt,
                    },
                ),
            )
            return self._end_turn(state)
        spy = Spy(spy.id, spy.card, (*spy.taunts, window.taunt))
        return replace(
            state,
            phase=CAPTIVE,
            captive=spy,
            window=None,
            log=_log(
                state,
                {"event": "taunt_succeeds", "seat": window.taunter, "spy": spy.id, "value": spy.points},
            ),
        )

    def _steal_lair(self, state: MisterSpyState, seat: int, card: str, lair_id: str) -> MisterSpyState:
        owner, i = next(
            (o, i) for o, lair in enumerate(state.lairs) for i, c in enumerate(lair) if c.id == lair_id
        )
        target = state.lairs[owner][i]
        hands = _set(state.hands, seat, _without(state.hands[seat], card))
        spy_id, serial = self._new_id(state, "S")
        event: dict[str, Any] = {
            "event": "steal_lair",
            "seat": seat,
            "from": owner,
            "lair": lair_id,
            "lair_card": target.card,
            "card": card,
            "spy": spy_id,
        }
        state = replace(state, hands=hands, serial=serial, stolen=None)
        if target.deathtrap:
            event["result"] = "deathtrap"
            state = replace(
                state,
                lairs=_set(state.lairs, owner, state.lairs[owner][:i] + state.lairs[owner][i + 1 :]),
                discard=(*state.discard, target.card),
                log=_log(state, event),
            )
            return self._score(
                state,
                owner,
                Spy(spy_id, card, (), "deathtrap"),
                {"event": "deathtrap", "seat": owner, "spy": spy_id},
            )
        spy_value, lair_value = VALUE[card], VALUE[target.card]
        if spy_value < lair_value:
            event["result"] = "smaller"
            return replace(
                state,
                lairs=_set(state.lairs, owner, _set(state.lairs[owner], i, Lair(lair_id, target.card, True))),
                phase=CAPTIVE,
                captor=owner,
                captive=Spy(spy_id, card),
                log=_log(state, event),
            )
        lairs = _set(state.lairs, owner, state.lairs[owner][:i] + state.lairs[owner][i + 1 :])
        lairs = _set(lairs, seat, (*lairs[seat], Lair(lair_id, target.card, True)))
        if spy_value > lair_value:
            event["result"] = "larger"
            state = replace(state, lairs=lairs, discard=(*state.discard, card), log=_log(state, event))
            return self._end_turn(state)
        event["result"] = "match"
        state = replace(state, lairs=lairs, log=_log(state, event))
        return self._score(
            state, seat, Spy(spy_id, card, (), "henchman"), {"event": "henchman", "seat": seat, "spy": spy_id}
        )

    def _steal_spy(self, state: MisterSpyState, seat: int, source: int | str) -> MisterSpyState:
        if source == "deck":
            card = state.deck[state.top]
            return replace(
                state,
                top=state.top + 1,
                hands=_set(state.hands, seat, _with(state.hands[seat], card)),
                phase=STOLEN,
                stolen=Stolen(card, None),
                log=_log(state, {"event": "steal_spy", "seat": seat, "from": "deck"}),
            )
        assert isinstance(source, int)
        victim = state.hands[source]
        spies = [c for c in victim if KIND[c] == SPY]
        card = spies[chance(state.seed, "steal", state.steals).randrange(len(spies))]
        hands = _set(state.hands, source, _without(victim, card))
        hands = _set(hands, seat, _with(hands[seat], card))
        return replace(
            state,
            hands=hands,
            steals=state.steals + 1,
            phase=STOLEN,
            stolen=Stolen(card, source),
            log=_log(state, {"event": "steal_spy", "seat": seat, "from": source}),
        )

    # Reasons ---------------------------------------------------------------

    def _not_now(self, state: MisterSpyState, seat: int) -> str:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
            return f"There is no seat {seat!r} at this table."
        if state.phase == WINDOW:
            assert state.window is not None
            if seat == state.window.taunter:
                return "You cannot answer your own taunt; your opponents are deciding whether to foil it."
            return "You have already answered this taunt."
        if state.phase == CAPTIVE:
            return f"Seat {state.captor} is deciding whether to taunt or kill a captured Spy."
        return f"It is seat {state.turn}'s turn, not yours."

    def _why_illegal(self, state: MisterSpyState, seat: int, action: Action) -> str:
        kind = action.get("type")
        if kind not in _PHASE_ACTIONS[state.phase]:
            allowed = sorted({a["type"] for a in self.legal(state, seat)})
            return f"You cannot {kind!r} now; you may: {', '.join(allowed)}."
        hand = state.hands[seat]
        raw = action.get("card")
        card = raw if isinstance(raw, str) else ""
        if kind in ("play_lair", "capture", "steal_lair", "taunt", "foil") and card not in hand:
            return f"You do not hold {card_name(raw)}."
        if kind == "foil":
            assert state.window is not None
            return (
                f"Only the other {card_name(state.window.taunt)} can foil this taunt, not {card_name(card)}."
            )
        if kind == "play_lair":
            return "Only a Lair card or a taunt (as a Deathtrap) can be played as a Secret Lair, never a Spy."
        if kind == "capture":
            if KIND[card] != SPY:
                return f"{card_name(card)} is not a Spy."
            if state.stolen is not None and card != state.stolen.card:
                return f"Only the Spy you just stole ({card_name(state.stolen.card)}) can be played now."
            return (
                f"Your Lair (size {lair_size(state.lairs[seat])}, Secret Lairs counted as 1) cannot hold "
                f"{card_name(card)} with those cards turned over: turn over only your own face-down Lair "
                "cards, and "
                'only as many as are needed; "reveal" lists their codes, such as ["lair-3"].'
            )
        if kind == "steal_lair":
            if KIND[card] != SPY:
                return f"Only a Spy can be played as a Double Agent, not {card_name(card)}."
            lair = action.get("lair")
            owners = [o for o, cards in enumerate(state.lairs) for c in cards if c.id == lair]
            if not owners:
                return f"There is no Lair card {lair!r} on the table."
            if owners[0] == seat:
                return "You cannot steal from your own Lair (or play Spies into your own Deathtraps)."
            if state.stolen is not None:
                if card != state.stolen.card:
                    return f"Only the Spy you just stole ({card_name(state.stolen.card)}) can be played now."
                return "You cannot steal a Lair from the player you just stole the Spy from."
        if kind == "steal_spy":
            source = action.get("from")
            if source == "deck":
                return "You can steal from the deck only when its top card is a Spy."
            if source == seat:
                return "You steal Spies from an opponent's hand, not your own."
            return f"Seat {source!r} has no Spy in hand to steal."
        if kind == "taunt":
            if KIND[card] != TAUNT:
                return f"{card_name(card)} is not a taunt card."
            if state.captive is not None and card in state.captive.taunts:
                return (
                    f"This Spy already has a {card_name(card)}: two matching taunts on one Spy do not work."
                )
            return "A henchman or a Deathtrap victim cannot be taunted."
        return "That action is not allowed now (check its fields against the legal actions)."

    # ------------------------------------------------------------------ view

    def view(self, state: MisterSpyState, seat: int | None) -> dict[str, Any]:
        n = state.seats
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"There is no seat {seat!r} at this table.")
        deck_left = state.deck_left
        lairs = []
        for owner, lair in enumerate(state.lairs):
            cards = []
            for c in lair:
                entry: dict[str, Any] = {"id": c.id, "face_up": c.face_up, "size": c.size}
                entry["card"] = c.card if c.face_up or owner == seat else None
                if owner == seat and not c.face_up:
                    entry["deathtrap"] = c.deathtrap
                cards.append(entry)
            lairs.append(cards)
        piles = []
        for owner, pile in enumerate(state.piles):
            spies = []
            for spy in pile:
                entry = {
                    "id": spy.id,
                    "card": spy.card,
                    "how": spy.how,
                    "taunts": len(spy.taunts),
                    "points": spy.points,
                }
                if owner == seat:
                    entry["taunt_cards"] = list(spy.taunts)
                spies.append(entry)
            piles.append(spies)
        captive: dict[str, Any] | None = None
        if state.captive is not None:
            spy = state.captive
            captive = {
                "captor": state.captor,
                "id": spy.id,
                "card": spy.card,
                "how": spy.how,
                "taunts": len(spy.taunts),
                "value": spy.points,
            }
            if seat == state.captor:
                captive["taunt_cards"] = list(spy.taunts)
        window = None
        if state.window is not None and state.captive is not None:
            window = {
                "taunter": state.window.taunter,
                "spy": state.captive.id,
                "spy_card": state.captive.card,
                "taunt": state.window.taunt,
                "value": state.captive.points,
                "stake": state.captive.points * 2,
                "waiting": sorted(state.window.waiting),
            }
        stolen = None
        if state.stolen is not None:
            source = state.stolen.source
            stolen = {
                "seat": state.turn,
                "from": "deck" if source is None else source,
                "card": state.stolen.card if seat is not None and seat in (state.turn, source) else None,
            }
        out: dict[str, Any] = {
            "game": self.slug,
            "seat": seat,
            "seats": n,
            "dealer": state.dealer,
            "options": {"dealer": state.dealer},
            "turn": state.turn,
            "phase": state.phase,
            "to_act": sorted(self.to_act(state)),
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hands": [{"seat": s, "cards": len(h), "spies": _spies_in(h)} for s, h in enumerate(state.hands)],
            "deck": {
                "cards": deck_left,
                "top_is_spy": KIND[state.deck[state.top]] == SPY if deck_left else None,
            },
            "lairs": lairs,
            "lair_sizes": [lair_size(lair) for lair in state.lairs],
            "score_piles": piles,
            "scores": list(state.scores),
            "discard": list(state.discard),
            "captive": captive,
            "window": window,
            "stolen": stolen,
            "events": log_events(state.log, VIEW_EVENTS),
            "over": state.phase == OVER,
            "end": state.end,
        }
        return out

    # --------------------------------------------------------------- outcome

    def outcome(self, state: MisterSpyState) -> Outcome | None:
        if state.phase != OVER:
            return None
        scores = state.scores
        places = places_from_scores(scores, lowest_wins=False)
        n = state.seats
        winners = [s for s in range(n) if places[s] == 1]
        next_dealer = next(s for k in range(1, n + 1) if (s := (state.dealer + k) % n) in winners)
        return Outcome(
            scores=tuple(scores),
            places=places,
            detail={"end": state.end, "winners": winners, "next_dealer": next_dealer},
        )

    # --------------------------------------------------------------- helpers

    def events(self, state: MisterSpyState) -> list[dict[str, Any]]:
        """The whole public event log (what every seat and a spectator saw happen)."""
        return log_events(state.log)


ENGINE: Final = MisterSpy()
