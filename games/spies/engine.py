"""The rules engine for Spies! (slug ``spies``).

The rules, the action and view formats and the rulings are in the package docstring
(``games/spies/__init__.py``). This module holds the state and the engine; the map and the
counters come from ``board.py`` (the JSON files in ``data/``). It is long because it is one idea,
the whole of a year's turn of five powers as one state machine (events, action chits, moves by
rail, sea and air, spies and secrets, the victory record), and a rule split from the move that
enforces it would be harder to check against the rule book, not easier.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from games.core import (
    Action,
    IllegalAction,
    InvalidOptions,
    Option,
    Outcome,
    chance,
    is_listed,
    shuffled,
    validate_options,
)

from .board import CHIT_KINDS, FIRST_YEAR, LAST_YEAR, POWER_CODES, Board, default_board

BOARD: Final[Board] = default_board()


def _piece_words(piece_id: object) -> str:
    """``G-spy-3`` -> ``German spy 3``: a piece as the players name it (a message's words)."""
    if not isinstance(piece_id, str):
        return repr(piece_id)
    code, _, rest = piece_id.partition("-")
    kind, _, number = rest.partition("-")
    power = next((p for p in BOARD.powers if p.code == code), None)
    if power is None or not kind:
        return repr(piece_id)
    return f"{power.adjective} {kind} {number}".rstrip()


def _place_words(where: object) -> str:
    """A city's or a sea zone's id -> its name on the map."""
    if isinstance(where, str):
        if where in BOARD.cities:
            return BOARD.cities[where].name
        if where in BOARD.sea_zones:
            return BOARD.sea_zones[where].name
    return repr(where)


POWERS: Final = len(POWER_CODES)
CODE_INDEX: Final = {code: i for i, code in enumerate(POWER_CODES)}
NEIGHBOURS: Final = BOARD.neighbours
SEA: Final = frozenset(BOARD.sea_zones)
CHIT_COST: Final = {kind: spec.cost for kind, spec in BOARD.chits.items()}
MAX_CHITS: Final = BOARD.chits_in_hand
MAX_SPACES: Final = BOARD.move_spaces
#: Each power's home country cities in name order: where its police are re-arranged (ruling 4).
HOME_CITIES: Final = tuple(tuple(sorted(cities)) for cities in BOARD.home_cities)

# Phases. Set-up, one power at a time in turn order:
SETUP_SECRETS: Final = "setup_secrets"
SETUP_POLICE: Final = "setup_police"
SETUP_SPIES: Final = "setup_spies"
# The steps of a turn, in order:
EVENT: Final = "event"
POLICE: Final = "police"
SEARCH: Final = "search"
MOVE: Final = "move"
OFFER_BUILD: Final = "offer_build"  # the power whose turn it is is writing an offer
# Windows: one seat answers outside the turn order (a "decline"-style answer is always legal).
ARRIVAL: Final = "arrival"  # police may search an enemy spy that has just moved into their city
EVADE: Final = "evade"  # a searched spy may play Papers or Escape
COVER: Final = "cover"  # a sanctioned spy's owner, or a discovered secret's controller, may play Cover
OFFER: Final = "offer"  # the power offered a deal accepts or declines
SURPLUS: Final = "surplus"  # a power holding more than 7 chits returns one (not declinable)
OVER: Final = "over"

WINDOWS: Final = frozenset({ARRIVAL, EVADE, COVER, OFFER, SURPLUS})
MAIN_STEPS: Final = (EVENT, POLICE, SEARCH, MOVE)
SETUP_PHASES: Final = frozenset({SETUP_SECRETS, SETUP_POLICE, SETUP_SPIES})

# Where pieces and secrets are.
HAND: Final = "hand"  # a secret drawn at set-up and not yet placed
ON_MAP: Final = "map"
RECORD: Final = "record"  # a secret on a Time and Victory Record (cashed in, or counted in 1939)
REMOVED: Final = "removed"  # a counterspy removed from play
CAPTURED: Final = "captured"  # a spy on its captor's Time and Victory Record
BOX: Final = "box"  # a spy in the Spies Captured in Neutral Countries box
SANCTIONED: Final = "sanctioned"

#: Concessions an offer may grant or ask for. They are promises: the engine records them, it
#: does not enforce them (nor does the rule text).
CONCESSIONS: Final = {
    "no_search": "will not search the other side's spies for the rest of the year",
    "no_sanction": "will not sanction the other side's spies for the rest of the year",
    "no_discovery": "will not discover secrets the other side controls for the rest of the year",
}
OFFER_AMOUNTS: Final = (1, 5)
VIEW_EVENTS: Final = 30

# Which seat runs which power (index: the number of players). -1: Russia, alternating by year.
_SEATS_OF: Final[dict[int, tuple[int, ...]]] = {
    5: (0, 1, 2, 3, 4),
    4: (0, 0, 1, 2, 3),
    3: (0, 0, 1, 2, 2),
    2: (0, 0, -1, 1, 1),
}
_ALONE: Final = tuple(frozenset({seat}) for seat in range(5))
_NOBODY: Final[frozenset[int]] = frozenset()
_EVERYONE: Final = frozenset(range(POWERS))


@dataclass(frozen=True, slots=True)
class Piece:
    """A spy or police counter that has been put on the map (it keeps its id when it leaves).

    Ids (``G-spy-3``, ``F-police-2``) number a power's pieces in the order they reach the map,
    so an id says nothing about the face-down strength.
    """

    id: str
    power: int
    spy: bool
    strength: int
    value: int
    where: str | None  # a city or sea zone while on the map
    status: str = ON_MAP  # map, captured, box, sanctioned
    known: frozenset[int] = _NOBODY  # powers that know the strength (the owner always does)
    captor: int | None = None
    year: int | None = None


@dataclass(frozen=True, slots=True)
class Secret:
    """A secret counter (a counterspy is one too). ``id`` (``S1`` .. ``S40``) follows the shuffle."""

    id: str
    spec: int  # index into BOARD.secrets
    origin: int | None  # the power in whose territory it began (None: a SECRET city)
    where: str | None
    status: str  # hand, map, record, removed
    controller: str | None = None  # the piece on top of it
    known: frozenset[int] = _NOBODY  # powers that have seen its face
    holder: int | None = None  # whose Time and Victory Record holds it
    year: int | None = None

    @property
    def counterspy(self) -> bool:
        return BOARD.secrets[self.spec].counterspy

    @property
    def value(self) -> int:
        return BOARD.secrets[self.spec].value


@dataclass(frozen=True, slots=True)
class Turn:
    """What has happened so far in the current power's turn."""

    mover: str | None = None  # the spy now moving
    used: int = 0  # spaces it has moved
    moved: frozenset[str] = frozenset()  # spies that have begun moving this turn
    searched: frozenset[str] = frozenset()  # enemy spies searched in the search step
    police_next: int = 0  # the police piece (index in table order) to re-place next
    offers: int = 0  # offers made this turn


@dataclass(frozen=True, slots=True)
class Window:
    kind: str  # arrival, evade, cover, offer, surplus
    power: int  # the power that answers
    actor: int  # the power whose act opened it (the searcher, the sanctioner, ...)
    resume: str  # the main step to return to
    spy: str | None = None  # the spy searched, sanctioning or discovering
    target: str | None = None  # the secret discovered or the spy sanctioned
    cause: str | None = None  # cover: "sanction" or "discovery"


@dataclass(frozen=True, slots=True)
class Offer:
    source: int
    target: int
    resume: str
    give_chits: tuple[str, ...] = ()
    give_money: int = 0
    ask_chits: tuple[str, ...] = ()
    ask_money: int = 0
    grant: tuple[str, ...] = ()
    ask: tuple[str, ...] = ()
    give_secrets: tuple[str, ...] = ()  # secrets the source controls, for the target's spies
    ask_secrets: tuple[str, ...] = ()  # secrets the target controls, for the source's spies

    @property
    def empty(self) -> bool:
        return not (
            self.give_chits
            or self.give_money
            or self.ask_chits
            or self.ask_money
            or self.grant
            or self.ask
            or self.give_secrets
            or self.ask_secrets
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "from": POWER_CODES[self.source],
            "to": POWER_CODES[self.target],
            "give": {
                "chits": list(self.give_chits),
                "money": self.give_money,
                "concessions": list(self.grant),
                "secrets": list(self.give_secrets),
            },
            "ask": {
                "chits": list(self.ask_chits),
                "money": self.ask_money,
                "concessions": list(self.ask),
                "secrets": list(self.ask_secrets),
            },
        }


@dataclass(frozen=True, slots=True, eq=False)
class LogEntry:
    """The event log as a linked list. ``to``: the powers that may read it (None: everyone).

    Compared by identity (a long chain compared field by field would recurse too deeply);
    compare ``ENGINE.events(state, everything=True)`` instead.
    """

    event: Mapping[str, Any]
    to: frozenset[int] | None
    previous: LogEntry | None


@dataclass(frozen=True, slots=True)
class SpiesState:
    seats: int
    seed: int
    turn_minutes: int
    offers_per_turn: int
    year: int
    power: int  # the power setting up or taking its turn
    phase: str
    spies: tuple[Piece, ...]
    police: tuple[Piece, ...]
    spy_reserve: tuple[tuple[tuple[int, int], ...], ...]  # (strength, value) of spies not yet in play
    police_reserve: tuple[tuple[int, ...], ...]  # police not yet placed (set-up only)
    secrets: tuple[Secret, ...]
    money: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]  # Action chits, sorted
    cup: tuple[str, ...]  # sorted
    tiles: tuple[tuple[str, ...], ...]  # Event Tiles in hand
    played: tuple[tuple[str, int, int], ...]  # (tile, power, year), face up
    discards: tuple[tuple[str, ...], ...]  # face down
    sanctions: tuple[tuple[int, str, int], ...]  # (sanctioning power, spy, year): Sanctioned Spy markers
    turn: Turn = Turn()
    window: Window | None = None
    offer: Offer | None = None
    draws: int = 0  # how many draws from the cup so far (labels the seeded chance)
    log: LogEntry | None = None
    # legal actions by seat, filled lazily; never copied by ``replace`` (init=False)
    cache: dict[int, list[Action]] = field(default_factory=dict, init=False, compare=False, repr=False)


# ------------------------------------------------------------------------------ helpers


def _set(row: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*row[:i], value, *row[i + 1 :])


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _with(items: tuple[str, ...], *more: str) -> tuple[str, ...]:
    return tuple(sorted((*items, *more)))


def seat_of(state: SpiesState, power: int) -> int:
    """The seat that runs ``power`` now (in the 2-player game Russia changes hands each year)."""
    seat = _SEATS_OF[state.seats][power]
    if seat < 0:
        return 0 if (state.year - FIRST_YEAR) % 2 == 0 else 1
    return seat


def seat_powers(state: SpiesState, seat: int) -> tuple[int, ...]:
    """The powers ``seat`` runs now."""
    return tuple(p for p in range(POWERS) if seat_of(state, p) == seat)


def seen_powers(state: SpiesState, seat: int | None) -> frozenset[int]:
    """The powers whose own hidden things (pieces, chits, tiles, reserves, original secrets)
    ``seat`` sees: the powers it runs, and in the two-player game Russia too (ruling 20)."""
    if seat is None:
        return _NOBODY
    own = {p for p in range(POWERS) if _SEATS_OF[state.seats][p] in (seat, -1)}
    return frozenset(own)


def knower(state: SpiesState, power: int) -> int:
    """Under which key what ``power`` learns now is kept (ruling 20).

    A power's own index, except for a power that changes hands (Russia in the two-player game):
    what it learns is learned by the player running it now, kept under ``POWERS + seat``, and
    stays with that player when the power changes hands.
    """
    if _SEATS_OF[state.seats][power] < 0:
        return POWERS + seat_of(state, power)
    return power


def knowers(state: SpiesState, seat: int | None) -> frozenset[int]:
    """The keys of everything ``seat`` knows: its powers' own things and what it has learned."""
    if seat is None:
        return _NOBODY
    seen = seen_powers(state, seat)
    if any(s < 0 for s in _SEATS_OF[state.seats]):
        return seen | {POWERS + seat}
    return seen


def rivals(state: SpiesState, power: int, other: int) -> bool:
    """True when ``other`` is run by another player than ``power`` now (ruling 21)."""
    return seat_of(state, power) != seat_of(state, other)


def _learn(known: frozenset[int], key: int) -> frozenset[int]:
    """``known`` once ``key`` has seen the face too (a face-up piece or secret stays face up)."""
    return known if known == _EVERYONE else known | {key}


def _key_power(key: int) -> int:
    """The power a knowledge key stands for (a player's Russian knowledge stands for Russia)."""
    return key if key < POWERS else _SEATS_OF[2].index(-1)


def _log(state: SpiesState, event: dict[str, Any], to: Iterable[int] | None = None) -> LogEntry:
    return LogEntry(event, None if to is None else frozenset(to), state.log)


def _events(
    log: LogEntry | None, seen: frozenset[int] | None, limit: int | None = None
) -> list[dict[str, Any]]:
    """Events readable by the powers in ``seen`` (None: every event, for the record)."""
    out: list[dict[str, Any]] = []
    while log is not None and (limit is None or len(out) < limit):
        if seen is None or log.to is None or log.to & seen:
            entry = dict(log.event)
            if log.to is not None:
                entry["private"] = [POWER_CODES[p] for p in sorted({_key_power(k) for k in log.to})]
            out.append(entry)
        log = log.previous
    out.reverse()
    return out


def _index(pieces: tuple[Piece, ...], pid: str) -> int:
    for i, piece in enumerate(pieces):
        if piece.id == pid:
            return i
    raise KeyError(pid)


def _secret_index(state: SpiesState, sid: str) -> int:
    return int(sid[1:]) - 1


def _piece(state: SpiesState, pid: str) -> Piece:
    pieces = state.spies if "-spy-" in pid else state.police
    return pieces[_index(pieces, pid)]


def _controlled_by(state: SpiesState, pid: str) -> Secret | None:
    for secret in state.secrets:
        if secret.controller == pid:
            return secret
    return None


def _controller_power(state: SpiesState, secret: Secret) -> int | None:
    if secret.controller is None:
        return None
    return CODE_INDEX[secret.controller[0]]


def _police_at(state: SpiesState, power: int, city: str) -> list[Piece]:
    return [p for p in state.police if p.power == power and p.where == city]


def _territory(power: int) -> frozenset[str]:
    return BOARD.territory[power]


def vp_of(state: SpiesState, power: int) -> int:
    """Victory Points on ``power``'s Time and Victory Record."""
    mult = BOARD.multipliers
    total = 0
    for secret in state.secrets:
        if secret.status == RECORD and secret.holder == power:
            assert secret.year is not None
            total += secret.value * mult[secret.year]
    for spy in state.spies:
        if spy.status == CAPTURED and spy.captor == power:
            assert spy.year is not None
            total += spy.value * mult[spy.year]
    for sanctioner, _spy, year in state.sanctions:
        if sanctioner == power:
            total += BOARD.sanction_marker_value * mult[year]
    return total


def _record(state: SpiesState, power: int) -> list[dict[str, Any]]:
    mult = BOARD.multipliers
    out: list[dict[str, Any]] = []
    for secret in state.secrets:
        if secret.status == RECORD and secret.holder == power:
            assert secret.year is not None
            out.append(
                {
                    "kind": "secret",
                    "id": secret.id,
                    "year": secret.year,
                    "value": secret.value,
                    "points": secret.value * mult[secret.year],
                    "original": secret.origin == power,
                }
            )
    for spy in state.spies:
        if spy.status == CAPTURED and spy.captor == power:
            assert spy.year is not None
            out.append(
                {
                    "kind": "spy",
                    "id": spy.id,
                    "year": spy.year,
                    "value": spy.value,
                    "points": spy.value * mult[spy.year],
                }
            )
    for sanctioner, spy_id, year in state.sanctions:
        if sanctioner == power:
            value = BOARD.sanction_marker_value
            out.append(
                {"kind": "sanction", "id": spy_id, "year": year, "value": value, "points": value * mult[year]}
            )
    return out


class Spies:
    """Spies!: the engine object (stateless)."""

    slug = "spies"
    title = "Spies!"
    seats = range(2, 6)
    options: Mapping[str, Option] = {
        "turn_minutes": Option(
            int,
            0,
            "Time limit for each turn in minutes (the rules suggest 5); 0 for none. The site ends a "
            "turn whose time runs out (see turn_clock and timeout_action).",
            lambda v: None if 0 <= v <= 60 else "must be from 0 (no limit) to 60 minutes.",
        ),
        "offers_per_turn": Option(
            int,
            3,
            "How many diplomatic offers a power may make in one turn (0: no diplomacy).",
            lambda v: None if 0 <= v <= 10 else "must be from 0 to 10.",
        ),
    }

    # ------------------------------------------------------------------ start

    def start(self, seats: int, seed: int, options: Mapping[str, Any]) -> SpiesState:
        if isinstance(seats, bool) or not isinstance(seats, int) or seats not in self.seats:
            raise InvalidOptions(f"{self.title} is played by 2 to 5 players, not {seats!r}.")
        opts = validate_options(options, self.options)
        b = BOARD
        randoms = shuffled(sorted(e.id for e in b.events.values() if e.power is None), seed, "event tiles")
        tiles = []
        for p in range(POWERS):
            own = sorted(e.id for e in b.events.values() if e.power == p)
            drawn = randoms[p * b.random_events_drawn : (p + 1) * b.random_events_drawn]
            tiles.append(tuple(own + sorted(drawn)))
        order = shuffled(list(range(len(b.secrets))), seed, "secrets")
        secrets: list[Secret] = []
        for p, setup in enumerate(b.powers):
            for _ in range(setup.secrets):
                n = len(secrets)
                secrets.append(Secret(f"S{n + 1}", order[n], p, None, HAND, known=frozenset({p})))
        for city in b.secret_cities:
            n = len(secrets)
            secrets.append(Secret(f"S{n + 1}", order[n], None, city, ON_MAP))
        cup = tuple(sorted(kind for kind, spec in b.chits.items() for _ in range(spec.count)))
        state = SpiesState(
            seats=seats,
            seed=seed,
            turn_minutes=opts["turn_minutes"],
            offers_per_turn=opts["offers_per_turn"],
            year=FIRST_YEAR,
            power=0,
            phase=SETUP_SECRETS,
            spies=(),
            police=(),
            spy_reserve=tuple(
                tuple(sorted(((s.strength, s.value) for s in p.spies), reverse=True)) for p in b.powers
            ),
            police_reserve=tuple(tuple(sorted(p.police, reverse=True)) for p in b.powers),
            secrets=tuple(secrets),
            money=tuple(p.bank for p in b.powers),
            hands=((),) * POWERS,
            cup=cup,
            tiles=tuple(tiles),
            played=(),
            discards=((),) * POWERS,
            sanctions=(),
        )
        state = replace(
            state,
            log=_log(
                state,
                {
                    "event": "setup",
                    "seats": seats,
                    "players": [
                        [POWER_CODES[p] for p in range(POWERS) if _SEATS_OF[seats][p] == s]
                        for s in range(seats)
                    ],
                    "secret_cities": list(b.secret_cities),
                },
            ),
        )
        return self._begin_setup(state, 0)

    def _begin_setup(self, state: SpiesState, power: int) -> SpiesState:
        """Set-up of ``power``: its secrets, then its police, then its spies; then the next power."""
        while power < POWERS:
            if any(s.status == HAND and s.origin == power for s in state.secrets):
                return replace(state, power=power, phase=SETUP_SECRETS)
            if state.police_reserve[power]:
                return replace(state, power=power, phase=SETUP_POLICE)
            placed = sum(1 for s in state.spies if s.power == power)
            if placed < BOARD.powers[power].spies_at_start and state.spy_reserve[power]:
                return replace(state, power=power, phase=SETUP_SPIES)
            power += 1
        # Everyone has set up: the chit draw, then Germany's turn in 1933.
        for p, setup in enumerate(BOARD.powers):
            state = self._draw(state, p, setup.chits)
        state = replace(state, log=_log(state, {"event": "year", "year": FIRST_YEAR}))
        return self._begin_turn(state, 0)

    # ---------------------------------------------------------------- to_act

    def to_act(self, state: SpiesState) -> frozenset[int]:
        if state.phase == OVER:
            return _NOBODY
        if state.window is not None:
            return _ALONE[seat_of(state, state.window.power)]
        return _ALONE[seat_of(state, state.power)]

    def acting_power(self, state: SpiesState) -> int | None:
        """The power on whose behalf the seat in ``to_act`` acts."""
        if state.phase == OVER:
            return None
        return state.window.power if state.window is not None else state.power

    def reaction_window(self, state: SpiesState) -> bool:
        """True while a seat answers outside the turn order (the site closes it on a timer)."""
        return state.window is not None

    def timeout_action(self, state: SpiesState, seat: int) -> Action | None:
        """What the site plays for ``seat`` when its time runs out (None: it need not act).

        Windows: ``decline`` (a surplus chit: the first one). A turn: the action that finishes the
        current step (discard the first Event Tile, keep the police, end the searches, end the
        turn, land a spy at sea); called again until the turn is over. Set-up: a placement at
        random within the rules (ruling 22), called again until the power has set up.
        """
        if seat not in self.to_act(state):
            return None
        legal = self.legal(state, seat)
        if state.window is None and state.phase in SETUP_PHASES:
            return self._random_placement(state, legal)
        by_type: dict[str, Action] = {}
        for action in legal:
            by_type.setdefault(action["type"], action)
        for kind in (
            "decline",
            "return_chit",
            "offer_cancel",
            "discard_event",
            "police_done",
            "searches_done",
            "end_turn",
        ):
            if kind in by_type:
                return by_type[kind]
        if state.phase == POLICE:
            return by_type.get("police", legal[0])
        # A spy at sea: land it (its zone always has a port within reach).
        landing = [a for a in legal if a["type"] == "move" and a["to"] not in SEA]
        return landing[0] if landing else legal[0]

    def _random_placement(self, state: SpiesState, legal: list[Action]) -> Action:
        """A timed-out set-up's next placement (ruling 22): the next secret in a random city of the
        territory; a police piece drawn at random from those left, in a random police city with
        room; a spy drawn at random from those left, in a random city, until the Starting Set-Up
        number is on the map. Chance is seeded by the game and the pieces placed so far."""
        p = state.power
        placed = sum(1 for s in state.secrets if s.status != HAND)
        rng = chance(state.seed, "timeout", POWER_CODES[p], placed, len(state.police), len(state.spies))
        if state.phase == SETUP_POLICE:
            strength = rng.choice(state.police_reserve[p])
            legal = [a for a in legal if a["strength"] == strength]
        elif state.phase == SETUP_SPIES:
            strength, value = rng.choice(state.spy_reserve[p])
            legal = [
                a
                for a in legal
                if a["type"] == "place_spy" and (a["strength"], a["value"]) == (strength, value)
            ]
        return legal[rng.randrange(len(legal))]

    def turn_clock(self, state: SpiesState) -> dict[str, Any] | None:
        """The per-turn time limit (option ``turn_minutes``) for the site to enforce.

        ``key`` changes when a new turn (or a new power's set-up) begins; the site starts a timer of
        ``seconds`` then, and when it runs out calls ``timeout_action`` for the seat in ``to_act``
        until ``key`` changes. None: no limit, or a reaction window is open (those have their own timer).
        """
        if not state.turn_minutes or state.phase == OVER or state.window is not None:
            return None
        stage = "setup" if state.phase in SETUP_PHASES else str(state.year)
        return {"key": f"{stage}:{POWER_CODES[state.power]}", "seconds": state.turn_minutes * 60}

    # ----------------------------------------------------------------- legal

    def legal(self, state: SpiesState, seat: int) -> list[Action]:
        return [dict(a) for a in self._legal_cached(state, seat)]

    def _legal_cached(self, state: SpiesState, seat: int) -> list[Action]:
        """The legal actions, computed once per state and seat (callers must not change them)."""
        cached = state.cache.get(seat)
        if cached is None:
            cached = state.cache[seat] = self._legal(state, seat)
        return cached

    def _legal(self, state: SpiesState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if state.window is not None:
            return self._window_actions(state)
        p = state.power
        if phase == SETUP_SECRETS:
            taken = {s.where for s in state.secrets if s.status == ON_MAP}
            return [{"type": "place_secret", "city": c} for c in sorted(_territory(p)) if c not in taken]
        if phase == SETUP_POLICE:
            acts: list[Action] = []
            for strength in sorted(set(state.police_reserve[p]), reverse=True):
                for city in BOARD.police_cities[p]:
                    if len(_police_at(state, p, city)) < BOARD.police_per_city:
                        acts.append({"type": "place_police", "strength": strength, "city": city})
            return acts
        if phase == SETUP_SPIES:
            acts = [{"type": "spies_done"}]
            for strength, value in sorted(set(state.spy_reserve[p]), reverse=True):
                for city in BOARD.city_ids:
                    acts.append({"type": "place_spy", "strength": strength, "value": value, "city": city})
            return acts
        if phase == OFFER_BUILD:
            return self._offer_build_actions(state)
        acts = []
        if phase == EVENT:
            tiles = state.tiles[p]
            for tile in tiles:
                if state.year in BOARD.events[tile].years:
                    acts.append({"type": "play_event", "tile": tile})
            acts.extend({"type": "discard_event", "tile": tile} for tile in tiles)
        elif phase == POLICE:
            acts.extend(self._police_actions(state))
        elif phase == SEARCH:
            acts.extend({"type": "search", "spy": sid} for sid in self._search_candidates(state))
            acts.append({"type": "searches_done"})
        elif phase == MOVE:
            at_sea = self._mover_at_sea(state)
            acts.extend(self._move_actions(state, at_sea))
            if at_sea:
                return acts
            acts.extend(self._chit_actions(state))
            acts.append({"type": "end_turn"})
        acts.extend(self._offer_openers(state))
        return acts

    def _window_actions(self, state: SpiesState) -> list[Action]:
        window = state.window
        assert window is not None
        owner = window.power
        if window.kind == ARRIVAL:
            return [{"type": "search", "spy": window.spy}, {"type": "decline"}]
        if window.kind == EVADE:
            acts: list[Action] = [
                {"type": kind} for kind in ("papers", "escape") if self._can_play(state, owner, kind)
            ]
            return [*acts, {"type": "decline"}]
        if window.kind == COVER:
            acts = [{"type": "cover"}] if self._can_play(state, owner, "cover") else []
            return [*acts, {"type": "decline"}]
        if window.kind == OFFER:
            offer = state.offer
            assert offer is not None
            able = (
                state.money[owner] >= offer.ask_money
                and not (Counter(offer.ask_chits) - Counter(state.hands[owner]))
                and self._trade_plan(state, offer) is not None
            )
            return [{"type": "accept"}, {"type": "decline"}] if able else [{"type": "decline"}]
        assert window.kind == SURPLUS
        return [{"type": "return_chit", "chit": kind} for kind in sorted(set(state.hands[owner]))]

    def _can_play(self, state: SpiesState, power: int, kind: str) -> bool:
        return kind in state.hands[power] and state.money[power] >= CHIT_COST[kind]

    def _police_actions(self, state: SpiesState) -> list[Action]:
        p = state.power
        mine = [piece for piece in state.police if piece.power == p]
        nxt = state.turn.police_next
        acts: list[Action] = []
        if nxt < len(mine):
            placed = Counter(piece.where for piece in mine[:nxt])
            acts.extend(
                {"type": "police", "city": c} for c in HOME_CITIES[p] if placed[c] < BOARD.police_per_city
            )
        if max(Counter(piece.where for piece in mine).values(), default=0) <= BOARD.police_per_city:
            acts.append({"type": "police_done"})
        return acts

    def _search_candidates(self, state: SpiesState) -> list[str]:
        p = state.power
        cities = {piece.where for piece in state.police if piece.power == p}
        return [
            spy.id
            for spy in state.spies
            if spy.status == ON_MAP
            and rivals(state, p, spy.power)
            and spy.where in cities
            and spy.id not in state.turn.searched
        ]

    def _mover_at_sea(self, state: SpiesState) -> bool:
        mover = state.turn.mover
        return mover is not None and _piece(state, mover).where in SEA

    @staticmethod
    def _steps(where: str, used: int) -> list[str]:
        """Where a spy at ``where`` that has moved ``used`` spaces may step next."""
        if used >= MAX_SPACES:
            return []
        out = []
        for node in NEIGHBOURS[where]:
            if node in SEA:
                if used + 1 < MAX_SPACES:  # a ship must leave a space to land (never end at sea)
                    out.append(node)
            else:
                out.append(node)
        return out

    def _move_actions(self, state: SpiesState, at_sea: bool) -> list[Action]:
        p = state.power
        turn = state.turn
        acts: list[Action] = []
        if turn.mover is not None:
            mover = _piece(state, turn.mover)
            if mover.status == ON_MAP:
                assert mover.where is not None
                acts.extend(
                    {"type": "move", "spy": mover.id, "to": n} for n in self._steps(mover.where, turn.used)
                )
            if at_sea:
                return acts
        for spy in state.spies:
            if spy.power == p and spy.status == ON_MAP and spy.id not in turn.moved:
                assert spy.where is not None
                acts.extend({"type": "move", "spy": spy.id, "to": n} for n in self._steps(spy.where, 0))
        return acts

    def _chit_actions(self, state: SpiesState) -> list[Action]:
        p = state.power
        acts: list[Action] = []
        discovery = self._can_play(state, p, "discovery")
        sanction = self._can_play(state, p, "sanction")
        mine = [s for s in state.spies if s.power == p and s.status == ON_MAP]
        controls = {s.controller: s for s in state.secrets if s.controller is not None}
        capital = BOARD.capitals[p]
        territory = _territory(p)
        for spy in mine:
            city = spy.where
            assert city is not None
            carried = controls.get(spy.id)
            here = [s for s in state.secrets if s.status == ON_MAP and s.where == city]
            if carried is not None:
                if city == capital and carried.origin != p and not self._partner(state, p, carried.origin):
                    acts.append({"type": "cash", "spy": spy.id})
                for other in mine:
                    if other.id != spy.id and other.where == city and other.id not in controls:
                        acts.append({"type": "hand", "spy": spy.id, "to": other.id})
                if carried.origin == p and city in BOARD.home_cities[p]:
                    for police in state.police:
                        if police.power == p and police.where == city and police.id not in controls:
                            acts.append({"type": "hand", "spy": spy.id, "to": police.id})
            else:
                for secret in here:
                    owner = _controller_power(state, secret)
                    if owner == p:
                        continue
                    if self._partner(state, p, owner) or self._partner(state, p, secret.origin):
                        continue  # never a secret of the player's other country (ruling 21)
                    if secret.origin == p and city in territory and owner is None:
                        acts.append({"type": "guard", "spy": spy.id, "secret": secret.id})
                    elif discovery:
                        acts.append({"type": "discover", "spy": spy.id, "secret": secret.id})
            if sanction:
                for enemy in state.spies:
                    if enemy.status == ON_MAP and enemy.where == city and rivals(state, p, enemy.power):
                        acts.append({"type": "sanction", "spy": spy.id, "target": enemy.id})
        if self._can_play(state, p, "recruit"):
            for strength, value in sorted(set(state.spy_reserve[p]), reverse=True):
                acts.append({"type": "recruit", "strength": strength, "value": value})
        if self._can_play(state, p, "escape"):
            for spy in state.spies:
                if (
                    spy.power == p
                    and spy.status in (CAPTURED, BOX)
                    and not self._partner(state, p, spy.captor)
                ):
                    acts.append({"type": "escape", "spy": spy.id})
        return acts

    @staticmethod
    def _partner(state: SpiesState, power: int, other: int | None) -> bool:
        """True when ``other`` is another power of the player running ``power`` now (ruling 21)."""
        return other is not None and other != power and not rivals(state, power, other)

    def _offer_openers(self, state: SpiesState) -> list[Action]:
        if state.turn.offers >= state.offers_per_turn:
            return []
        me = seat_of(state, state.power)
        return [{"type": "offer", "to": POWER_CODES[q]} for q in range(POWERS) if seat_of(state, q) != me]

    def _offer_build_actions(self, state: SpiesState) -> list[Action]:
        offer = state.offer
        assert offer is not None
        p, q = offer.source, offer.target
        acts: list[Action] = []
        given = Counter(offer.give_chits)
        held = Counter(state.hands[p])
        for kind in sorted(held):
            if held[kind] > given[kind]:
                acts.append({"type": "offer_add", "item": "give_chit", "chit": kind})
        for amount in OFFER_AMOUNTS:
            if offer.give_money + amount <= state.money[p]:
                acts.append({"type": "offer_add", "item": "give_money", "amount": amount})
        if len(offer.ask_chits) < MAX_CHITS:
            acts.extend({"type": "offer_add", "item": "ask_chit", "chit": kind} for kind in CHIT_KINDS)
        for amount in OFFER_AMOUNTS:
            if offer.ask_money + amount <= state.money[q]:
                acts.append({"type": "offer_add", "item": "ask_money", "amount": amount})
        acts.extend(
            {"type": "offer_add", "item": "grant", "concession": c}
            for c in CONCESSIONS
            if c not in offer.grant
        )
        acts.extend(
            {"type": "offer_add", "item": "ask", "concession": c} for c in CONCESSIONS if c not in offer.ask
        )
        for item, owner, receiver, listed in (
            ("give_secret", p, q, offer.give_secrets),
            ("ask_secret", q, p, offer.ask_secrets),
        ):
            acts.extend(
                {"type": "offer_add", "item": item, "secret": secret.id}
                for secret in self._tradable(state, owner, receiver, listed)
            )
        if not offer.empty:
            acts.append({"type": "offer_send"})
        acts.append({"type": "offer_cancel"})
        return acts

    @staticmethod
    def _free_spies(state: SpiesState, power: int, city: str) -> list[str]:
        """``power``'s spies in ``city`` that control no secret, in table order."""
        busy = {s.controller for s in state.secrets if s.controller is not None}
        return [
            spy.id
            for spy in state.spies
            if spy.power == power and spy.status == ON_MAP and spy.where == city and spy.id not in busy
        ]

    def _tradable(
        self, state: SpiesState, owner: int, receiver: int, listed: tuple[str, ...]
    ) -> list[Secret]:
        """Secrets ``owner`` controls in a city where a spy of ``receiver`` could take each of them
        over (one free spy a secret), not yet in the offer (ruling 18); never an original secret of
        the receiver's player's other power (ruling 21)."""
        taken = Counter(state.secrets[_secret_index(state, sid)].where for sid in listed)
        out = []
        for secret in state.secrets:
            if secret.id in listed or secret.status != ON_MAP or secret.where in SEA:
                continue
            if _controller_power(state, secret) != owner or secret.where is None:
                continue
            if self._partner(state, receiver, secret.origin):
                continue
            if len(self._free_spies(state, receiver, secret.where)) > taken[secret.where]:
                out.append(secret)
        return out

    def _trade_plan(self, state: SpiesState, offer: Offer) -> list[tuple[str, str]] | None:
        """Which spy takes over each traded secret (the receiver's free spies in table order), or
        None when the offer's secrets cannot all change hands."""
        plan: list[tuple[str, str]] = []
        for owner, receiver, listed in (
            (offer.source, offer.target, offer.give_secrets),
            (offer.target, offer.source, offer.ask_secrets),
        ):
            free: dict[str, list[str]] = {}
            for sid in listed:
                secret = state.secrets[_secret_index(state, sid)]
                if (
                    secret.status != ON_MAP
                    or secret.where is None
                    or _controller_power(state, secret) != owner
                    or self._partner(state, receiver, secret.origin)
                ):
                    return None
                spies = free.setdefault(secret.where, self._free_spies(state, receiver, secret.where))
                if not spies:
                    return None
                plan.append((sid, spies.pop(0)))
        return plan

    # ----------------------------------------------------------------- apply

    def apply(self, state: SpiesState, seat: int, action: Action) -> SpiesState:
        if state.phase == OVER:
            raise IllegalAction("The game is over; nobody can act.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction('An action must be an object with a "type", such as {"type": "end_turn"}.')
        if seat not in self.to_act(state):
            raise IllegalAction(self._not_now(state, seat))
        legal = self._legal_cached(state, seat)
        if not is_listed(action, legal):
            raise IllegalAction(self._why_illegal(state, seat, action, legal))
        return self._do(state, action)

    def _do(self, state: SpiesState, action: Action) -> SpiesState:
        kind = action["type"]
        phase = state.phase
        if state.window is not None:
            return self._answer(state, action)
        if phase == SETUP_SECRETS:
            return self._place_secret(state, action["city"])
        if phase == SETUP_POLICE:
            return self._place_police(state, action["strength"], action["city"])
        if phase == SETUP_SPIES:
            if kind == "spies_done":
                return self._begin_setup(
                    replace(
                        state, log=_log(state, {"event": "spies_done", "power": POWER_CODES[state.power]})
                    ),
                    state.power + 1,
                )
            return self._place_spy(state, action["strength"], action["value"], action["city"])
        if phase == OFFER_BUILD:
            return self._build_offer(state, action)
        if kind == "offer":
            return self._open_offer(state, CODE_INDEX[action["to"]])
        if kind == "play_event":
            return self._play_event(state, action["tile"])
        if kind == "discard_event":
            return self._discard_event(state, action["tile"])
        if kind == "police":
            return self._rearrange(state, action["city"])
        if kind == "police_done":
            return self._enter_search(self._police_done(state))
        if kind == "search":
            return self._search(state, action["spy"], state.power, SEARCH)
        if kind == "searches_done":
            return self._enter(state, MOVE)
        if kind == "move":
            return self._move(state, action["spy"], action["to"])
        if kind == "end_turn":
            return self._end_turn(state)
        if kind == "discover":
            return self._discover(state, action["spy"], action["secret"])
        if kind == "sanction":
            return self._sanction(state, action["spy"], action["target"])
        if kind == "recruit":
            return self._recruit(state, action["strength"], action["value"])
        if kind == "escape":
            return self._escape(state, action["spy"])
        if kind == "guard":
            return self._guard(state, action["spy"], action["secret"])
        if kind == "hand":
            return self._hand(state, action["spy"], action["to"])
        if kind == "cash":
            return self._cash(state, action["spy"])
        raise AssertionError(f"unhandled action {action!r}")  # pragma: no cover

    # Set-up ----------------------------------------------------------------

    def _place_secret(self, state: SpiesState, city: str) -> SpiesState:
        p = state.power
        i = next(i for i, s in enumerate(state.secrets) if s.status == HAND and s.origin == p)
        secret = replace(state.secrets[i], where=city, status=ON_MAP)
        state = replace(
            state,
            secrets=_set(state.secrets, i, secret),
            log=_log(
                state, {"event": "place_secret", "power": POWER_CODES[p], "secret": secret.id, "city": city}
            ),
        )
        return self._begin_setup(state, p)

    def _place_police(self, state: SpiesState, strength: int, city: str) -> SpiesState:
        p = state.power
        n = sum(1 for piece in state.police if piece.power == p) + 1
        piece = Piece(f"{POWER_CODES[p]}-police-{n}", p, False, strength, 0, city, known=frozenset({p}))
        reserve = list(state.police_reserve[p])
        reserve.remove(strength)
        state = replace(
            state,
            police=(*state.police, piece),
            police_reserve=_set(state.police_reserve, p, tuple(reserve)),
            log=_log(
                state, {"event": "place_police", "power": POWER_CODES[p], "police": piece.id, "city": city}
            ),
        )
        return self._begin_setup(self._police_control(state), p)

    def _place_spy(self, state: SpiesState, strength: int, value: int, city: str) -> SpiesState:
        p = state.power
        state, spy = self._new_spy(state, p, strength, value, city)
        state = replace(
            state,
            log=_log(state, {"event": "place_spy", "power": POWER_CODES[p], "spy": spy.id, "city": city}),
        )
        placed = sum(1 for s in state.spies if s.power == p)
        if placed >= BOARD.powers[p].spies_at_start or not state.spy_reserve[p]:
            return self._begin_setup(state, p + 1)
        return state

    def _new_spy(
        self, state: SpiesState, p: int, strength: int, value: int, city: str
    ) -> tuple[SpiesState, Piece]:
        n = sum(1 for s in state.spies if s.power == p) + 1
        spy = Piece(f"{POWER_CODES[p]}-spy-{n}", p, True, strength, value, city, known=frozenset({p}))
        reserve = list(state.spy_reserve[p])
        reserve.remove((strength, value))
        state = replace(
            state, spies=(*state.spies, spy), spy_reserve=_set(state.spy_reserve, p, tuple(reserve))
        )
        return state, spy

    # Turn flow ---------------------------------------------------------------

    def _begin_turn(self, state: SpiesState, power: int) -> SpiesState:
        state = replace(
            state,
            power=power,
            turn=Turn(),
            window=None,
            offer=None,
            log=_log(state, {"event": "turn", "power": POWER_CODES[power], "year": state.year}),
        )
        if not state.tiles[power]:
            return replace(state, phase=POLICE)
        return replace(state, phase=EVENT)

    def _enter(self, state: SpiesState, phase: str) -> SpiesState:
        """Go to a main step (skipping the search step when there is nobody to search)."""
        if phase == SEARCH:
            return self._enter_search(state)
        return replace(state, phase=phase, window=None)

    def _enter_search(self, state: SpiesState) -> SpiesState:
        state = replace(state, phase=SEARCH, window=None)
        if not self._search_candidates(state):
            return replace(state, phase=MOVE)
        return state

    def _settle(self, state: SpiesState, resume: str) -> SpiesState:
        """After chits were gained: a power holding more than 7 returns the surplus, then ``resume``."""
        order = [(state.power + k) % POWERS for k in range(POWERS)]
        for p in order:
            if len(state.hands[p]) > MAX_CHITS:
                return replace(state, window=Window(SURPLUS, p, p, resume))
        return self._enter(state, resume)

    def _end_turn(self, state: SpiesState) -> SpiesState:
        p = state.power
        state = replace(state, log=_log(state, {"event": "end_turn", "power": POWER_CODES[p]}))
        if p < POWERS - 1:
            return self._begin_turn(state, p + 1)
        if state.year >= LAST_YEAR:
            return self._final(state)
        state = replace(state, year=state.year + 1)
        state = replace(state, log=_log(state, {"event": "year", "year": state.year}))
        return self._begin_turn(state, 0)

    def _final(self, state: SpiesState) -> SpiesState:
        """The end of the British turn in 1939: original secrets at home and not enemy-held count."""
        secrets = list(state.secrets)
        counted: list[dict[str, Any]] = []
        for i, secret in enumerate(secrets):
            origin = secret.origin
            if secret.status != ON_MAP or origin is None or secret.counterspy:
                continue
            if secret.where not in _territory(origin):
                continue
            holder = _controller_power(state, secret)
            if holder is not None and holder != origin:
                continue
            secrets[i] = replace(
                secret,
                status=RECORD,
                holder=origin,
                year=LAST_YEAR,
                where=None,
                controller=None,
                known=_EVERYONE,
            )
            counted.append({"secret": secret.id, "power": POWER_CODES[origin], "value": secret.value})
        state = replace(state, secrets=tuple(secrets), phase=OVER, window=None, offer=None, turn=Turn())
        state = replace(state, log=_log(state, {"event": "original_secrets_counted", "secrets": counted}))
        vps = {POWER_CODES[p]: vp_of(state, p) for p in range(POWERS)}
        return replace(state, log=_log(state, {"event": "game_over", "victory_points": vps}))

    # Event step --------------------------------------------------------------

    def _play_event(self, state: SpiesState, tile_id: str) -> SpiesState:
        p = state.power
        tile = BOARD.events[tile_id]
        awards: dict[str, dict[str, int]] = {}
        gains: list[tuple[int, int, int]] = []
        for q in range(POWERS):
            cities = {
                s.where
                for s in state.spies
                if s.power == q and s.status == ON_MAP and s.where not in _territory(q)
            }
            n = sum(1 for c in tile.cities if c in cities)
            if n and (tile.chits or tile.money):
                awards[POWER_CODES[q]] = {"chits": n * tile.chits, "money": n * tile.money}
                gains.append((q, n * tile.chits, n * tile.money))
        state = replace(
            state,
            tiles=_set(state.tiles, p, _without(state.tiles[p], tile_id)),
            played=(*state.played, (tile_id, p, state.year)),
            log=_log(
                state,
                {
                    "event": "event_tile",
                    "power": POWER_CODES[p],
                    "tile": tile_id,
                    "title": tile.title,
                    "cities": list(tile.cities),
                    "award": tile.award,
                    "awards": awards,
                },
            ),
        )
        for q, chits, money in gains:
            if money:
                state = replace(state, money=_set(state.money, q, state.money[q] + money))
            if chits:
                state = self._draw(state, q, chits)
        return self._settle(state, POLICE)

    def _discard_event(self, state: SpiesState, tile_id: str) -> SpiesState:
        p = state.power
        state = replace(
            state,
            tiles=_set(state.tiles, p, _without(state.tiles[p], tile_id)),
            discards=_set(state.discards, p, (*state.discards[p], tile_id)),
            log=_log(state, {"event": "discard_tile", "power": POWER_CODES[p]}),
        )
        state = replace(state, log=_log(state, {"event": "discarded", "tile": tile_id}, (p,)))
        return replace(state, phase=POLICE)

    def _draw(self, state: SpiesState, power: int, n: int) -> SpiesState:
        """Draw ``n`` chits at random from the cup (as many as it holds)."""
        cup = list(state.cup)
        rng = chance(state.seed, "draw", state.draws)
        drawn = []
        for _ in range(min(n, len(cup))):
            drawn.append(cup.pop(rng.randrange(len(cup))))
        state = replace(
            state,
            cup=tuple(cup),
            hands=_set(state.hands, power, _with(state.hands[power], *drawn)),
            draws=state.draws + 1,
            log=_log(state, {"event": "draw", "power": POWER_CODES[power], "count": len(drawn)}),
        )
        if drawn:
            state = replace(
                state,
                log=_log(
                    state, {"event": "drew", "power": POWER_CODES[power], "chits": sorted(drawn)}, (power,)
                ),
            )
        return state

    def _pay(self, state: SpiesState, power: int, kind: str) -> SpiesState:
        """Play a chit: pay its cost and return it to the cup (face up: public)."""
        return replace(
            state,
            hands=_set(state.hands, power, _without(state.hands[power], kind)),
            money=_set(state.money, power, state.money[power] - CHIT_COST[kind]),
            cup=_with(state.cup, kind),
        )

    # Police step -------------------------------------------------------------

    def _rearrange(self, state: SpiesState, city: str) -> SpiesState:
        p = state.power
        mine = [i for i, piece in enumerate(state.police) if piece.power == p]
        i = mine[state.turn.police_next]
        piece = state.police[i]
        secrets = state.secrets
        if piece.where != city:
            held = _controlled_by(state, piece.id)
            if held is not None:
                secrets = _set(secrets, _secret_index(state, held.id), replace(held, controller=None))
        state = replace(
            state,
            police=_set(state.police, i, replace(piece, where=city)),
            secrets=secrets,
            turn=replace(state.turn, police_next=state.turn.police_next + 1),
            log=_log(
                state,
                {
                    "event": "police",
                    "power": POWER_CODES[p],
                    "police": piece.id,
                    "from": piece.where,
                    "to": city,
                },
            ),
        )
        if state.turn.police_next >= len(mine):
            return self._enter_search(self._police_done(state))
        return state

    def _police_done(self, state: SpiesState) -> SpiesState:
        state = self._police_control(state)
        return replace(
            state,
            turn=replace(state.turn, police_next=0),
            log=_log(state, {"event": "police_done", "power": POWER_CODES[state.power]}),
        )

    def _police_control(self, state: SpiesState) -> SpiesState:
        """Police take control of their power's uncontrolled original secrets in their city (ruling 5)."""
        busy = {s.controller for s in state.secrets if s.controller is not None}
        secrets = state.secrets
        changed = False
        for i, secret in enumerate(secrets):
            if secret.status != ON_MAP or secret.controller is not None or secret.origin is None:
                continue
            origin = secret.origin
            if secret.where not in BOARD.home_cities[origin]:
                continue
            for piece in state.police:
                if piece.power == origin and piece.where == secret.where and piece.id not in busy:
                    secrets = _set(secrets, i, replace(secret, controller=piece.id))
                    busy.add(piece.id)
                    changed = True
                    break
        return replace(state, secrets=secrets) if changed else state

    # Searches ----------------------------------------------------------------

    def _search(self, state: SpiesState, spy_id: str, searcher: int, resume: str) -> SpiesState:
        spy = _piece(state, spy_id)
        if resume == SEARCH:
            state = replace(state, turn=replace(state.turn, searched=state.turn.searched | {spy_id}))
        state = replace(
            state,
            window=Window(EVADE, spy.power, searcher, resume, spy=spy_id),
            log=_log(
                state,
                {"event": "search", "power": POWER_CODES[searcher], "spy": spy_id, "city": spy.where},
            ),
        )
        return state

    def _resolve_search(self, state: SpiesState, evade: str | None) -> SpiesState:
        window = state.window
        assert window is not None and window.spy is not None
        searcher, owner = window.actor, window.power
        spy = _piece(state, window.spy)
        city = spy.where
        assert city is not None
        if evade is not None:
            state = self._pay(state, owner, evade)
            state = replace(
                state,
                log=_log(
                    state, {"event": "evaded", "power": POWER_CODES[owner], "spy": spy.id, "chit": evade}
                ),
            )
            return self._close(state, window.resume)
        police = _police_at(state, searcher, city)
        strength = sum(piece.strength for piece in police)
        captured = strength > spy.strength
        # Both sides see both strengths (a private comparison).
        seeker, hider = knower(state, searcher), knower(state, owner)
        spies = _set(state.spies, _index(state.spies, spy.id), replace(spy, known=_learn(spy.known, seeker)))
        police_row = state.police
        for piece in police:
            j = _index(police_row, piece.id)
            police_row = _set(police_row, j, replace(piece, known=_learn(piece.known, hider)))
        state = replace(state, spies=spies, police=police_row)
        state = replace(
            state,
            log=_log(
                state,
                {
                    "event": "search_result",
                    "power": POWER_CODES[searcher],
                    "spy": spy.id,
                    "city": city,
                    "result": "captured" if captured else "no effect",
                },
            ),
        )
        state = replace(
            state,
            log=_log(
                state,
                {
                    "event": "comparison",
                    "spy": spy.id,
                    "spy_strength": spy.strength,
                    "police_strength": strength,
                },
                (seeker, hider),
            ),
        )
        if captured:
            state = self._capture(state, spy.id, searcher, neutral=False)
        return self._close(state, window.resume)

    def _capture(self, state: SpiesState, spy_id: str, captor: int, neutral: bool) -> SpiesState:
        """A spy is captured: onto the captor's record (or the neutral-country box)."""
        i = _index(state.spies, spy_id)
        spy = state.spies[i]
        held = _controlled_by(state, spy_id)
        secrets = state.secrets
        if held is not None:
            secrets = _set(secrets, _secret_index(state, held.id), replace(held, controller=None))
        captured = replace(
            spy,
            status=BOX if neutral else CAPTURED,
            where=None,
            captor=None if neutral else captor,
            year=None if neutral else state.year,
            known=_EVERYONE,
        )
        turn = state.turn
        if turn.mover == spy_id:
            turn = replace(turn, mover=None, used=0)
        state = replace(
            state,
            spies=_set(state.spies, i, captured),
            secrets=secrets,
            turn=turn,
            log=_log(
                state,
                {
                    "event": "captured",
                    "spy": spy_id,
                    "power": POWER_CODES[spy.power],
                    "by": POWER_CODES[captor],
                    "city": spy.where,
                    "strength": spy.strength,
                    "value": spy.value,
                    "place": "neutral_box" if neutral else "record",
                    "year": state.year,
                },
            ),
        )
        return self._police_control(state)

    def _close(self, state: SpiesState, resume: str) -> SpiesState:
        state = replace(state, window=None)
        return self._settle(state, resume)

    # Movement ------------------------------------------------------------------

    def _move(self, state: SpiesState, spy_id: str, to: str) -> SpiesState:
        turn = state.turn
        if turn.mover != spy_id:
            turn = replace(turn, mover=spy_id, used=0, moved=turn.moved | {spy_id})
        turn = replace(turn, used=turn.used + 1)
        i = _index(state.spies, spy_id)
        spy = state.spies[i]
        secrets = state.secrets
        held = _controlled_by(state, spy_id)
        if held is not None:
            secrets = _set(secrets, _secret_index(state, held.id), replace(held, where=to))
        state = replace(
            state,
            spies=_set(state.spies, i, replace(spy, where=to)),
            secrets=secrets,
            turn=turn,
            log=_log(
                state, {"event": "move", "spy": spy_id, "from": spy.where, "to": to, "space": turn.used}
            ),
        )
        if to in SEA:
            return state
        # Searching arriving enemy spies: the police of the city may search (ruling 7).
        for q in range(POWERS):
            if rivals(state, spy.power, q) and _police_at(state, q, to):
                return replace(state, window=Window(ARRIVAL, q, q, MOVE, spy=spy_id))
        return state

    def _discover(self, state: SpiesState, spy_id: str, secret_id: str) -> SpiesState:
        p = state.power
        state = self._pay(state, p, "discovery")
        secret = state.secrets[_secret_index(state, secret_id)]
        state = replace(
            state,
            log=_log(
                state,
                {"event": "discovery", "power": POWER_CODES[p], "spy": spy_id, "secret": secret_id},
            ),
        )
        defender = _controller_power(state, secret)
        if defender is not None and defender != p:
            return replace(
                state,
                window=Window(COVER, defender, p, MOVE, spy=spy_id, target=secret_id, cause="discovery"),
            )
        return self._resolve_discovery(state, spy_id, secret_id)

    def _resolve_discovery(self, state: SpiesState, spy_id: str, secret_id: str) -> SpiesState:
        p = state.power
        k = _secret_index(state, secret_id)
        secret = state.secrets[k]
        spy = _piece(state, spy_id)
        city = spy.where
        assert city is not None
        if secret.counterspy:
            controller = _controller_power(state, secret)
            strength = BOARD.secrets[secret.spec].strength
            removed = replace(secret, status=REMOVED, where=None, controller=None, known=_EVERYONE)
            state = replace(state, secrets=_set(state.secrets, k, removed))
            if controller is None or controller == p:
                return replace(
                    state,
                    log=_log(
                        state,
                        {
                            "event": "counterspy",
                            "secret": secret_id,
                            "strength": strength,
                            "spy": spy_id,
                            "controller": None,
                            "result": "no effect",
                        },
                    ),
                )
            captured = strength > spy.strength
            i = _index(state.spies, spy_id)
            guard = knower(state, controller)
            state = replace(state, spies=_set(state.spies, i, replace(spy, known=_learn(spy.known, guard))))
            state = replace(
                state,
                log=_log(
                    state,
                    {
                        "event": "counterspy",
                        "secret": secret_id,
                        "strength": strength,
                        "spy": spy_id,
                        "controller": POWER_CODES[controller],
                        "result": "captured" if captured else "no effect",
                    },
                ),
            )
            state = replace(
                state,
                log=_log(
                    state,
                    {
                        "event": "comparison",
                        "spy": spy_id,
                        "spy_strength": spy.strength,
                        "counterspy_strength": strength,
                    },
                    (knower(state, p), guard),
                ),
            )
            if captured:
                state = self._capture(state, spy_id, controller, neutral=city in BOARD.neutral)
            return state
        found = replace(secret, controller=spy_id, known=_learn(secret.known, knower(state, p)))
        state = replace(
            state,
            secrets=_set(state.secrets, k, found),
            log=_log(
                state, {"event": "control", "spy": spy_id, "secret": secret_id, "power": POWER_CODES[p]}
            ),
        )
        return replace(
            state,
            log=_log(
                state,
                {"event": "secret_seen", "secret": secret_id, "value": secret.value},
                (knower(state, p),),
            ),
        )

    def _sanction(self, state: SpiesState, spy_id: str, target: str) -> SpiesState:
        p = state.power
        state = self._pay(state, p, "sanction")
        victim = _piece(state, target)
        state = replace(
            state,
            log=_log(state, {"event": "sanction", "power": POWER_CODES[p], "spy": spy_id, "target": target}),
        )
        return replace(
            state, window=Window(COVER, victim.power, p, MOVE, spy=spy_id, target=target, cause="sanction")
        )

    def _resolve_sanction(self, state: SpiesState, target: str) -> SpiesState:
        p = state.power
        i = _index(state.spies, target)
        victim = state.spies[i]
        held = _controlled_by(state, target)
        secrets = state.secrets
        if held is not None:
            secrets = _set(secrets, _secret_index(state, held.id), replace(held, controller=None))
        state = replace(
            state,
            spies=_set(state.spies, i, replace(victim, status=SANCTIONED, where=None, known=_EVERYONE)),
            secrets=secrets,
            sanctions=(*state.sanctions, (p, target, state.year)),
            log=_log(
                state,
                {
                    "event": "sanctioned",
                    "spy": target,
                    "power": POWER_CODES[victim.power],
                    "by": POWER_CODES[p],
                    "city": victim.where,
                    "strength": victim.strength,
                    "year": state.year,
                },
            ),
        )
        return self._police_control(state)

    def _recruit(self, state: SpiesState, strength: int, value: int) -> SpiesState:
        p = state.power
        state = self._pay(state, p, "recruit")
        capital = BOARD.capitals[p]
        state, spy = self._new_spy(state, p, strength, value, capital)
        return replace(
            state,
            log=_log(state, {"event": "recruit", "power": POWER_CODES[p], "spy": spy.id, "city": capital}),
        )

    def _escape(self, state: SpiesState, spy_id: str) -> SpiesState:
        p = state.power
        state = self._pay(state, p, "escape")
        i = _index(state.spies, spy_id)
        spy = state.spies[i]
        capital = BOARD.capitals[p]
        state = replace(
            state,
            spies=_set(state.spies, i, replace(spy, status=ON_MAP, where=capital, captor=None, year=None)),
            log=_log(
                state,
                {
                    "event": "escape",
                    "power": POWER_CODES[p],
                    "spy": spy_id,
                    "from": "neutral_box" if spy.status == BOX else POWER_CODES[spy.captor or 0],
                    "city": capital,
                },
            ),
        )
        return state

    def _guard(self, state: SpiesState, spy_id: str, secret_id: str) -> SpiesState:
        k = _secret_index(state, secret_id)
        return replace(
            state,
            secrets=_set(state.secrets, k, replace(state.secrets[k], controller=spy_id)),
            log=_log(state, {"event": "guard", "spy": spy_id, "secret": secret_id}),
        )

    def _hand(self, state: SpiesState, spy_id: str, to: str) -> SpiesState:
        held = _controlled_by(state, spy_id)
        assert held is not None
        k = _secret_index(state, held.id)
        return replace(
            state,
            secrets=_set(state.secrets, k, replace(held, controller=to)),
            log=_log(state, {"event": "hand", "spy": spy_id, "to": to, "secret": held.id}),
        )

    def _cash(self, state: SpiesState, spy_id: str) -> SpiesState:
        p = state.power
        held = _controlled_by(state, spy_id)
        assert held is not None
        k = _secret_index(state, held.id)
        cashed = replace(
            held, status=RECORD, holder=p, year=state.year, where=None, controller=None, known=_EVERYONE
        )
        state = replace(
            state,
            secrets=_set(state.secrets, k, cashed),
            money=_set(state.money, p, state.money[p] + BOARD.cash_in_money),
            log=_log(
                state,
                {
                    "event": "cash_in",
                    "power": POWER_CODES[p],
                    "spy": spy_id,
                    "secret": held.id,
                    "value": held.value,
                    "year": state.year,
                    "money": BOARD.cash_in_money,
                },
            ),
        )
        state = self._draw(state, p, BOARD.cash_in_chits)
        return self._settle(state, MOVE)

    # Windows -------------------------------------------------------------------

    def _answer(self, state: SpiesState, action: Action) -> SpiesState:
        window = state.window
        assert window is not None
        kind = action["type"]
        if window.kind == ARRIVAL:
            if kind == "search":
                assert window.spy is not None
                return self._search(replace(state, window=None), window.spy, window.power, MOVE)
            state = replace(
                state,
                window=None,
                log=_log(
                    state, {"event": "no_search", "power": POWER_CODES[window.power], "spy": window.spy}
                ),
            )
            return state
        if window.kind == EVADE:
            return self._resolve_search(state, None if kind == "decline" else kind)
        if window.kind == COVER:
            assert window.spy is not None and window.target is not None
            if kind == "cover":
                state = self._pay(state, window.power, "cover")
                state = replace(
                    state,
                    window=None,
                    log=_log(
                        state,
                        {"event": "covered", "power": POWER_CODES[window.power], "against": window.cause},
                    ),
                )
                return state
            state = replace(state, window=None)
            if window.cause == "sanction":
                return self._resolve_sanction(state, window.target)
            return self._resolve_discovery(state, window.spy, window.target)
        if window.kind == OFFER:
            return self._answer_offer(state, kind == "accept")
        assert window.kind == SURPLUS
        p = window.power
        state = replace(
            state,
            hands=_set(state.hands, p, _without(state.hands[p], action["chit"])),
            cup=_with(state.cup, action["chit"]),
            window=None,
            log=_log(state, {"event": "return_chit", "power": POWER_CODES[p]}),
        )
        return self._settle(state, window.resume)

    # Diplomacy -----------------------------------------------------------------

    def _open_offer(self, state: SpiesState, to: int) -> SpiesState:
        p = state.power
        return replace(
            state,
            phase=OFFER_BUILD,
            offer=Offer(p, to, state.phase),
            turn=replace(state.turn, offers=state.turn.offers + 1),
        )

    def _build_offer(self, state: SpiesState, action: Action) -> SpiesState:
        offer = state.offer
        assert offer is not None
        kind = action["type"]
        if kind == "offer_cancel":
            return replace(state, phase=offer.resume, offer=None)
        if kind == "offer_send":
            state = replace(
                state,
                window=Window(OFFER, offer.target, offer.source, offer.resume),
                log=_log(
                    state,
                    {"event": "offer", "from": POWER_CODES[offer.source], "to": POWER_CODES[offer.target]},
                ),
            )
            return replace(
                state,
                log=_log(state, {"event": "offer_terms", **offer.as_json()}, (offer.source, offer.target)),
            )
        item = action["item"]
        if item == "give_chit":
            offer = replace(offer, give_chits=_with(offer.give_chits, action["chit"]))
        elif item == "give_money":
            offer = replace(offer, give_money=offer.give_money + action["amount"])
        elif item == "ask_chit":
            offer = replace(offer, ask_chits=_with(offer.ask_chits, action["chit"]))
        elif item == "ask_money":
            offer = replace(offer, ask_money=offer.ask_money + action["amount"])
        elif item == "grant":
            offer = replace(offer, grant=(*offer.grant, action["concession"]))
        elif item == "ask":
            offer = replace(offer, ask=(*offer.ask, action["concession"]))
        elif item == "give_secret":
            offer = replace(offer, give_secrets=(*offer.give_secrets, action["secret"]))
        else:
            offer = replace(offer, ask_secrets=(*offer.ask_secrets, action["secret"]))
        return replace(state, offer=offer)

    def _answer_offer(self, state: SpiesState, accept: bool) -> SpiesState:
        offer = state.offer
        assert offer is not None
        p, q = offer.source, offer.target
        state = replace(state, window=None, offer=None, phase=offer.resume)
        if not accept:
            return replace(
                state,
                log=_log(state, {"event": "offer_declined", "from": POWER_CODES[p], "to": POWER_CODES[q]}),
            )
        hands = list(state.hands)
        mine, theirs = list(hands[p]), list(hands[q])
        for chit in offer.give_chits:
            mine.remove(chit)
            theirs.append(chit)
        for chit in offer.ask_chits:
            theirs.remove(chit)
            mine.append(chit)
        hands[p], hands[q] = tuple(sorted(mine)), tuple(sorted(theirs))
        money = list(state.money)
        money[p] += offer.ask_money - offer.give_money
        money[q] += offer.give_money - offer.ask_money
        plan = self._trade_plan(state, offer)
        assert plan is not None
        state = replace(
            state,
            hands=tuple(hands),
            money=tuple(money),
            log=_log(
                state,
                {
                    "event": "offer_accepted",
                    "from": POWER_CODES[p],
                    "to": POWER_CODES[q],
                    "money": {
                        POWER_CODES[p]: offer.ask_money - offer.give_money,
                        POWER_CODES[q]: offer.give_money - offer.ask_money,
                    },
                    "chits": {
                        POWER_CODES[p]: len(offer.ask_chits) - len(offer.give_chits),
                        POWER_CODES[q]: len(offer.give_chits) - len(offer.ask_chits),
                    },
                    "new_control": dict(plan),
                },
            ),
        )
        for sid, spy_id in plan:
            state = self._take_over(state, sid, spy_id)
        return self._settle(self._police_control(state), offer.resume)

    def _take_over(self, state: SpiesState, secret_id: str, spy_id: str) -> SpiesState:
        """A traded secret passes to ``spy_id``, whose power sees its face; a counterspy is turned
        face up and removed from play with no effect (ruling 18)."""
        k = _secret_index(state, secret_id)
        secret = state.secrets[k]
        power = _piece(state, spy_id).power
        if secret.counterspy:
            removed = replace(secret, status=REMOVED, where=None, controller=None, known=_EVERYONE)
            return replace(
                state,
                secrets=_set(state.secrets, k, removed),
                log=_log(
                    state,
                    {
                        "event": "counterspy",
                        "secret": secret_id,
                        "strength": BOARD.secrets[secret.spec].strength,
                        "spy": spy_id,
                        "controller": None,
                        "result": "no effect",
                    },
                ),
            )
        taken = replace(secret, controller=spy_id, known=_learn(secret.known, knower(state, power)))
        state = replace(state, secrets=_set(state.secrets, k, taken))
        return replace(
            state,
            log=_log(
                state,
                {"event": "secret_seen", "secret": secret_id, "value": secret.value},
                (knower(state, power),),
            ),
        )

    # Reasons -------------------------------------------------------------------

    def _not_now(self, state: SpiesState, seat: int) -> str:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
            return f"There is no seat {seat!r} at this table."
        power = self.acting_power(state)
        assert power is not None
        name = BOARD.powers[power].name
        if state.window is not None:
            return f"{name} is answering ({state.window.kind}); wait until it has."
        return f"It is {name}'s turn, not yours."

    def _why_illegal(self, state: SpiesState, seat: int, action: Action, legal: list[Action]) -> str:
        kind = action.get("type")
        kinds = sorted({a["type"] for a in legal})
        if kind not in kinds and state.phase == MOVE and state.window is None and self._mover_at_sea(state):
            return (
                f"{state.turn.mover} is at sea: it must sail on or land first "
                "(a spy cannot end its movement at sea)."
            )
        if kind not in kinds:
            where = (
                f"in the {state.window.kind} window"
                if state.window is not None
                else f"in the {state.phase} step"
            )
            return f"You cannot {kind!r} now ({where}); you may: {', '.join(kinds)}."
        same = [a for a in legal if a["type"] == kind]
        p = self.acting_power(state)
        assert p is not None
        if kind == "move":
            spy_id = action.get("spy")
            spies = [a["spy"] for a in same]
            if not isinstance(spy_id, str) or spy_id not in spies:
                if state.turn.mover is not None and self._mover_at_sea(state):
                    return (
                        f"{_piece_words(state.turn.mover)} is at sea and must land before another spy moves."
                    )
                if isinstance(spy_id, str) and spy_id in state.turn.moved:
                    spy_words = _piece_words(spy_id)
                    return f"{spy_words} has already moved this turn (finish one spy before the next)."
                return f"{_piece_words(spy_id)} is not one of your spies that can move now."
            to = action.get("to")
            spy = _piece(state, str(spy_id))
            used = state.turn.used if state.turn.mover == spy_id else 0
            if to not in NEIGHBOURS.get(spy.where or "", ()):
                here = _place_words(spy.where)
                return f"{_place_words(to)} is not one rail line, air line or sea step from {here}."
            if used >= MAX_SPACES:
                return f"{_piece_words(spy_id)} has moved its {MAX_SPACES} spaces this turn."
            return (
                f"{_piece_words(spy_id)} may not go to sea with only {MAX_SPACES - used} space(s) left: "
                "it cannot end its move at sea."
            )
        if kind in ("discover", "sanction", "guard", "hand", "cash", "recruit", "escape", "papers", "cover"):
            return (
                f"That {kind} is not possible now: check the chit is in hand and affordable "
                f"and the pieces are where they must be ({len(same)} such action(s) are legal)."
            )
        if kind == "place_spy":
            return "Place one of your spies not yet in play (by its strength and value) in a city of the map."
        if kind == "place_police":
            return "Place a police piece you still hold in one of your police cities with room (2 a city)."
        if kind == "place_secret":
            return "Place your next secret in a city of your territory that holds no secret yet."
        if kind == "police":
            return "Re-place your next police piece in a city of your home country (at most 2 a city)."
        if kind == "play_event":
            return f"Only an Event Tile you hold that is marked {state.year} can be played now."
        if kind == "offer_add":
            return (
                "That cannot be added to the offer (you can give only what you hold, ask only what "
                "they could hold, and trade a secret only where a spy of the other side that controls "
                "nothing can take it over, never to a power whose player's other power placed it)."
            )
        if kind == "offer":
            return "Offers go to a power run by another player."
        if kind == "return_chit":
            return "Return a chit you hold."
        return "That action is not allowed now (check its fields against the legal actions)."

    # ------------------------------------------------------------------ view

    def view(self, state: SpiesState, seat: int | None) -> dict[str, Any]:
        n = state.seats
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"There is no seat {seat!r} at this table.")
        seen = seen_powers(state, seat)
        know = knowers(state, seat)
        controls = {s.controller: s.id for s in state.secrets if s.controller is not None}

        def piece_json(piece: Piece) -> dict[str, Any]:
            visible = piece.power in seen or bool(piece.known & know) or piece.known == _EVERYONE
            return {
                "id": piece.id,
                "power": POWER_CODES[piece.power],
                "kind": "spy" if piece.spy else "police",
                "where": piece.where,
                "status": piece.status,
                "strength": piece.strength if visible else None,
                "value": piece.value if (visible and piece.spy) else None,
                "controls": controls.get(piece.id),
                "captor": None if piece.captor is None else POWER_CODES[piece.captor],
                "year": piece.year,
            }

        def secret_json(secret: Secret) -> dict[str, Any]:
            visible = bool(secret.known & know) or secret.known == _EVERYONE
            spec = BOARD.secrets[secret.spec]
            return {
                "id": secret.id,
                "where": secret.where,
                "status": secret.status,
                "origin": None if secret.origin is None else POWER_CODES[secret.origin],
                "controller": secret.controller,
                "value": spec.value if visible else None,
                "counterspy": spec.counterspy if visible else None,
                "strength": (spec.strength if spec.counterspy else None) if visible else None,
                "holder": None if secret.holder is None else POWER_CODES[secret.holder],
                "year": secret.year,
            }

        powers_json = []
        for p in range(POWERS):
            mine = p in seen
            entry: dict[str, Any] = {
                "code": POWER_CODES[p],
                "name": BOARD.powers[p].name,
                "seat": seat_of(state, p),
                "capital": BOARD.capitals[p],
                "money": state.money[p],
                "chits": len(state.hands[p]),
                "hand": list(state.hands[p]) if mine else None,
                "tiles": len(state.tiles[p]),
                "tile_list": [self._tile_json(t) for t in state.tiles[p]] if mine else None,
                "discarded": len(state.discards[p]),
                "discard_list": list(state.discards[p]) if mine else None,
                "reserve": len(state.spy_reserve[p]),
                "reserve_list": [{"strength": s, "value": v} for s, v in state.spy_reserve[p]]
                if mine
                else None,
                "police_reserve": len(state.police_reserve[p]),
                "police_reserve_list": list(state.police_reserve[p]) if mine else None,
                "record": _record(state, p),
                "victory_points": vp_of(state, p),
            }
            powers_json.append(entry)
        window: dict[str, Any] | None = None
        if state.window is not None:
            w = state.window
            window = {
                "kind": w.kind,
                "power": POWER_CODES[w.power],
                "actor": POWER_CODES[w.actor],
                "spy": w.spy,
                "target": w.target,
                "cause": w.cause,
            }
        offer: dict[str, Any] | None = None
        if state.offer is not None:
            o = state.offer
            if o.source in seen or o.target in seen:
                offer = {**o.as_json(), "sent": state.window is not None}
            else:
                offer = {
                    "from": POWER_CODES[o.source],
                    "to": POWER_CODES[o.target],
                    "sent": state.window is not None,
                }
        acting = self.acting_power(state)
        return {
            "game": self.slug,
            "seat": seat,
            "seats": n,
            "powers": [POWER_CODES[p] for p in seat_powers(state, seat)] if seat is not None else [],
            "sees": [POWER_CODES[p] for p in sorted(seen)],
            "options": {"turn_minutes": state.turn_minutes, "offers_per_turn": state.offers_per_turn},
            "year": state.year,
            "multiplier": BOARD.multipliers[state.year],
            "turn": POWER_CODES[state.power],
            "phase": state.phase,
            "acting": None if acting is None else POWER_CODES[acting],
            "to_act": sorted(self.to_act(state)),
            "step": {
                "mover": state.turn.mover,
                "spaces_used": state.turn.used,
                "moved": sorted(state.turn.moved),
                "searched": sorted(state.turn.searched),
                "police_next": self._police_next_id(state),
                "offers_made": state.turn.offers,
            },
            "window": window,
            "offer": offer,
            "placing_secret": self._placing_secret(state, seen),
            "spies": [piece_json(s) for s in state.spies],
            "police": [piece_json(s) for s in state.police],
            "secrets": [secret_json(s) for s in state.secrets],
            "power_info": powers_json,
            "cup": len(state.cup),
            "played_tiles": [
                {**self._tile_json(t), "power": POWER_CODES[p], "played_in": y} for t, p, y in state.played
            ],
            "neutral_box": [s.id for s in state.spies if s.status == BOX],
            "events": _events(state.log, know, VIEW_EVENTS),
            "over": state.phase == OVER,
        }

    @staticmethod
    def _tile_json(tile_id: str) -> dict[str, Any]:
        tile = BOARD.events[tile_id]
        return {
            "id": tile.id,
            "title": tile.title,
            "years": list(tile.years),
            "cities": list(tile.cities),
            "award": tile.award,
            "random": tile.power is None,
        }

    def _police_next_id(self, state: SpiesState) -> str | None:
        if state.phase != POLICE:
            return None
        mine = [piece for piece in state.police if piece.power == state.power]
        nxt = state.turn.police_next
        return mine[nxt].id if nxt < len(mine) else None

    def _placing_secret(self, state: SpiesState, seen: frozenset[int]) -> str | None:
        if state.phase != SETUP_SECRETS:
            return None
        return next(s.id for s in state.secrets if s.status == HAND and s.origin == state.power)

    # --------------------------------------------------------------- outcome

    def outcome(self, state: SpiesState) -> Outcome | None:
        if state.phase != OVER:
            return None
        vps = [vp_of(state, p) for p in range(POWERS)]
        money = state.money
        keys = [(vps[p], money[p]) for p in range(POWERS)]
        power_places = [1 + sum(1 for k in keys if k > keys[p]) for p in range(POWERS)]
        seat_best: list[int] = []
        for seat in range(state.seats):
            own = [p for p in range(POWERS) if _SEATS_OF[state.seats][p] == seat]
            seat_best.append(max(own, key=lambda p: (keys[p], -p)))
        seat_keys = [keys[p] for p in seat_best]
        places = tuple(1 + sum(1 for k in seat_keys if k > seat_keys[s]) for s in range(state.seats))
        return Outcome(
            scores=tuple(float(vps[p]) for p in seat_best),
            places=places,
            detail={
                "powers": {
                    POWER_CODES[p]: {
                        "victory_points": vps[p],
                        "money": money[p],
                        "place": power_places[p],
                        "seat": None if _SEATS_OF[state.seats][p] < 0 else _SEATS_OF[state.seats][p],
                    }
                    for p in range(POWERS)
                },
                "scored_power": [POWER_CODES[p] for p in seat_best],
                "winners": [POWER_CODES[p] for p in range(POWERS) if power_places[p] == 1],
            },
        )

    # --------------------------------------------------------------- helpers

    def events(
        self, state: SpiesState, seat: int | None = None, everything: bool = False
    ) -> list[dict[str, Any]]:
        """The event log as ``seat`` may read it (``everything``: the whole log, for the record)."""
        return _events(state.log, None if everything else knowers(state, seat))

    def board(self) -> dict[str, Any]:
        """The map and the counters' public data, for drawing the map and the rules pages."""
        return BOARD.as_json()


ENGINE: Final = Spies()
