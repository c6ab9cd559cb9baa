"""Set up Spies! tables by hand for the rule scenarios.

``table()`` builds a state in the middle of a turn with the given pieces, secrets, chits, money
and tiles. Pieces get the engine's ids in the order given (``G-spy-1``, ``G-spy-2``, ...,
``F-police-1``); secrets are ``S1``, ``S2``, ... in the order given. Every chit not in a hand is in
the cup, so chits are conserved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from games.core import Outcome
from games.spies import ENGINE
from games.spies.board import POWER_CODES
from games.spies.engine import (
    BOARD,
    MOVE,
    ON_MAP,
    Piece,
    Secret,
    SpiesState,
    Turn,
)

CODE = {code: i for i, code in enumerate(POWER_CODES)}


def spec_index(value: int = 2, counterspy: int | None = None) -> int:
    """The index of a secret in counters.json with that value (or a counterspy of that strength)."""
    for i, spec in enumerate(BOARD.secrets):
        if counterspy is not None:
            if spec.counterspy and spec.strength == counterspy:
                return i
        elif not spec.counterspy and spec.value == value:
            return i
    raise LookupError((value, counterspy))


def table(
    *,
    spies: Sequence[tuple[str, int, str]] = (),
    police: Sequence[tuple[str, int, str]] = (),
    secrets: Sequence[Mapping[str, Any]] = (),
    hands: Mapping[str, Sequence[str]] | None = None,
    money: Mapping[str, int] | None = None,
    tiles: Mapping[str, Sequence[str]] | None = None,
    reserve: Mapping[str, Sequence[tuple[int, int]]] | None = None,
    power: str = "G",
    phase: str = MOVE,
    year: int = 1933,
    seats: int = 5,
    seed: int = 1,
    offers_per_turn: int = 3,
    turn_minutes: int = 0,
) -> SpiesState:
    """A table in ``power``'s turn, step ``phase``.

    ``spies`` and ``police``: (power code, strength, city). ``secrets``: dicts with ``where``,
    ``origin`` (code or None), ``value`` (default 2) or ``counterspy`` (a strength), ``controller``
    (a piece id) and ``known`` (codes; default: the origin).
    """
    counts: Counter[str] = Counter()
    spy_pieces = []
    for code, strength, where in spies:
        counts[code + "s"] += 1
        p = CODE[code]
        spy_pieces.append(
            Piece(
                f"{code}-spy-{counts[code + 's']}", p, True, strength, strength, where, known=frozenset({p})
            )
        )
    police_pieces = []
    for code, strength, where in police:
        counts[code + "p"] += 1
        p = CODE[code]
        police_pieces.append(
            Piece(f"{code}-police-{counts[code + 'p']}", p, False, strength, 0, where, known=frozenset({p}))
        )
    secret_rows = []
    for n, spec in enumerate(secrets, 1):
        origin = spec.get("origin")
        index = spec_index(spec.get("value", 2), spec.get("counterspy"))
        known = spec.get("known", [origin] if origin else [])
        secret_rows.append(
            Secret(
                f"S{n}",
                index,
                None if origin is None else CODE[origin],
                spec["where"],
                spec.get("status", ON_MAP),
                controller=spec.get("controller"),
                known=frozenset(CODE[c] for c in known),
            )
        )
    hand_rows = [tuple(sorted((hands or {}).get(code, ()))) for code in POWER_CODES]
    everything = Counter(kind for kind, spec in BOARD.chits.items() for _ in range(spec.count))
    held = Counter(c for row in hand_rows for c in row)
    assert not held - everything, "more chits than the cup holds"
    cup = tuple(sorted((everything - held).elements()))
    money_row = tuple((money or {}).get(code, 20) for code in POWER_CODES)
    tile_rows = tuple(tuple((tiles or {}).get(code, ())) for code in POWER_CODES)
    reserve_rows = tuple(tuple((reserve or {}).get(code, ())) for code in POWER_CODES)
    return SpiesState(
        seats=seats,
        seed=seed,
        turn_minutes=turn_minutes,
        offers_per_turn=offers_per_turn,
        year=year,
        power=CODE[power],
        phase=phase,
        spies=tuple(spy_pieces),
        police=tuple(police_pieces),
        spy_reserve=reserve_rows,
        police_reserve=((),) * 5,
        secrets=tuple(secret_rows),
        money=money_row,
        hands=tuple(hand_rows),
        cup=cup,
        tiles=tile_rows,
        played=(),
        discards=((),) * 5,
        sanctions=(),
        turn=Turn(),
    )


def last_turn(**table_args: Any) -> SpiesState:
    """Britain moving in 1939: the game's last turn (``table_args`` as for ``table()``)."""
    return table(power="B", phase=MOVE, year=1939, **table_args)


def final_outcome(state: SpiesState) -> Outcome:
    """The outcome once the power moving in its 1939 turn ends it."""
    outcome = ENGINE.outcome(act(state, {"type": "end_turn"}))
    assert outcome is not None
    return outcome


def seat(state: SpiesState) -> int:
    (only,) = ENGINE.to_act(state)
    return only


def act(state: SpiesState, *actions: dict[str, Any]) -> SpiesState:
    """Apply ``actions`` in order, each by the one seat to act."""
    for action in actions:
        state = ENGINE.apply(state, seat(state), action)
    return state


def legal_types(state: SpiesState) -> set[str]:
    return {a["type"] for a in ENGINE.legal(state, seat(state))}


def spy(state: SpiesState, spy_id: str) -> Piece:
    return next(s for s in state.spies if s.id == spy_id)


def secret(state: SpiesState, sid: str) -> Secret:
    return next(s for s in state.secrets if s.id == sid)


def with_turn(state: SpiesState, **changes: Any) -> SpiesState:
    return replace(state, turn=replace(state.turn, **changes))


def setup_game(seats: int = 5, seed: int = 3) -> SpiesState:
    """A real game played through its set-up with the first legal choice each time."""
    state = ENGINE.start(seats, seed, {})
    while state.phase.startswith("setup"):
        legal = ENGINE.legal(state, seat(state))
        places = [a for a in legal if a["type"] != "spies_done"]
        state = ENGINE.apply(state, seat(state), places[0] if places else legal[0])
    return state


def public_events(state: SpiesState) -> list[dict[str, Any]]:
    return ENGINE.events(state, None)


def finish_turn(state: SpiesState) -> SpiesState:
    """Play the current power's turn to its end with the time-out actions (keeping, declining)."""
    power, year = state.power, state.year
    while state.phase != "over" and (state.power, state.year) == (power, year):
        state = act(state, ENGINE.timeout_action(state, seat(state)) or {})
    return state
