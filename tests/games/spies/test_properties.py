"""Properties of random legal games for 2 to 5 players (Hypothesis picks seats and seeds)."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.spies import ENGINE, SpiesState
from games.spies.engine import (
    BOARD,
    HAND,
    MOVE,
    ON_MAP,
    OVER,
    SEA,
    SURPLUS,
    knowers,
    seen_powers,
)
from tests.games.protocol import (
    apply_keeping_state,
    check_refusals,
    check_replay,
    check_views_hide,
    unlisted,
)

MAX_MOVES = 20_000

EXAMPLES = settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
PUBLIC = frozenset(range(5))  # known to every power: face up
ALL_CHITS = Counter({kind: spec.count for kind, spec in BOARD.chits.items()})


def snapshot(state: SpiesState) -> tuple[Any, ...]:
    """Everything in a state, the log as a list of events."""
    return (replace(state, log=None), json.dumps(ENGINE.events(state, everything=True)))


def pick(state: SpiesState, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random legal action: half the time uniform, half the time a uniform type first
    (so that games do not drown in diplomacy and spies travel)."""
    legal = ENGINE.legal(state, seat)
    if rng.random() < 0.5:
        return legal[rng.randrange(len(legal))]
    kinds = sorted({a["type"] for a in legal})
    kind = kinds[rng.randrange(len(kinds))]
    if kind == "end_turn" and len(kinds) > 1 and rng.random() < 0.7:
        kind = kinds[rng.randrange(len(kinds))]
    options = [a for a in legal if a["type"] == kind]
    return options[rng.randrange(len(options))]


def check_invariants(state: SpiesState) -> None:
    # spies, police and secrets are conserved
    for p, setup in enumerate(BOARD.powers):
        spies = [(s.strength, s.value) for s in state.spies if s.power == p]
        assert sorted(spies + list(state.spy_reserve[p])) == sorted(
            (c.strength, c.value) for c in setup.spies
        )
        police = [s.strength for s in state.police if s.power == p]
        assert sorted(police + list(state.police_reserve[p])) == sorted(setup.police)
    assert sorted(s.spec for s in state.secrets) == list(range(len(BOARD.secrets)))
    assert Counter(state.cup) + Counter(c for h in state.hands for c in h) == ALL_CHITS
    assert all(m >= 0 for m in state.money)
    if state.window is None or state.window.kind != SURPLUS:
        assert all(len(h) <= BOARD.chits_in_hand for h in state.hands)
    # control is consistent: one secret a piece, the controller on the secret's square
    pieces = {p.id: p for p in (*state.spies, *state.police)}
    controllers = [s.controller for s in state.secrets if s.controller is not None]
    assert len(controllers) == len(set(controllers))
    for secret in state.secrets:
        if secret.controller is not None:
            piece = pieces[secret.controller]
            assert secret.status == ON_MAP and piece.status == ON_MAP and piece.where == secret.where
        if secret.status == ON_MAP:
            assert secret.where is not None
        if secret.where in SEA:
            assert secret.controller is not None
    # no spy at sea except the one moving; police only in their home country
    for spy in state.spies:
        if spy.where in SEA:
            assert state.phase == MOVE and spy.id == state.turn.mover
    for police in state.police:
        assert police.where in BOARD.home_cities[police.power]
    if state.phase not in (OVER,) and state.window is None and state.phase == MOVE:
        pass


def scramble(state: SpiesState, viewer: int | None, rng: random.Random) -> SpiesState:
    """Redeal everything ``viewer`` cannot see among places it cannot tell apart."""
    seen = seen_powers(state, viewer)
    know = knowers(state, viewer)
    spies = list(state.spies)
    police = list(state.police)
    spy_reserve = [list(r) for r in state.spy_reserve]
    police_reserve = [list(r) for r in state.police_reserve]
    for p in range(5):
        if p in seen:
            continue
        slots = [i for i, s in enumerate(spies) if s.power == p and not s.known & know and s.known != PUBLIC]
        values = [(spies[i].strength, spies[i].value) for i in slots] + spy_reserve[p]
        rng.shuffle(values)
        for i, (strength, value) in zip(slots, values, strict=False):
            spies[i] = replace(spies[i], strength=strength, value=value)
        spy_reserve[p] = sorted(values[len(slots) :], reverse=True)
        pslots = [
            i for i, s in enumerate(police) if s.power == p and not s.known & know and s.known != PUBLIC
        ]
        pvalues = [police[i].strength for i in pslots] + police_reserve[p]
        rng.shuffle(pvalues)
        for i, strength in zip(pslots, pvalues, strict=False):
            police[i] = replace(police[i], strength=strength)
        police_reserve[p] = sorted(pvalues[len(pslots) :], reverse=True)
    secrets = list(state.secrets)
    hidden = [i for i, s in enumerate(secrets) if s.status in (HAND, ON_MAP) and not s.known & know]
    specs = [secrets[i].spec for i in hidden]
    rng.shuffle(specs)
    for i, spec in zip(hidden, specs, strict=True):
        secrets[i] = replace(secrets[i], spec=spec)
    unseen = [p for p in range(5) if p not in seen]
    pool = list(state.cup) + [c for p in unseen for c in state.hands[p]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for p in unseen:
        n = len(hands[p])
        hands[p], pool = tuple(sorted(pool[:n])), pool[n:]
    cup = tuple(sorted(pool))
    tiles = list(state.tiles)
    discards = list(state.discards)
    tile_pool = [t for p in unseen for t in (*tiles[p], *discards[p])]
    rng.shuffle(tile_pool)
    for p in unseen:
        n, m = len(tiles[p]), len(discards[p])
        tiles[p], discards[p], tile_pool = (
            tuple(tile_pool[:n]),
            tuple(tile_pool[n : n + m]),
            tile_pool[n + m :],
        )
    offer = state.offer
    if offer is not None and offer.source not in seen and offer.target not in seen:
        offer = replace(offer, give_money=offer.give_money + 1, ask_chits=("cover",))
    return replace(
        state,
        spies=tuple(spies),
        police=tuple(police),
        spy_reserve=tuple(tuple(r) for r in spy_reserve),
        police_reserve=tuple(tuple(r) for r in police_reserve),
        secrets=tuple(secrets),
        hands=tuple(hands),
        cup=cup,
        tiles=tuple(tiles),
        discards=tuple(discards),
        offer=offer,
    )


def illegal_candidates(state: SpiesState, seat: int, legal: list[dict[str, Any]]) -> list[Any]:
    out: list[Any] = [
        {"type": "end_turn", "extra": 1},
        {"type": "fly"},
        {"type": "move", "spy": "G-spy-1", "to": "atlantis"},
        {"type": "move", "spy": "nobody", "to": "paris"},
        {"type": "discover", "spy": "G-spy-1", "secret": "S99"},
        {"type": "cash", "spy": "B-spy-9"},
        {"type": "place_spy", "strength": 9, "value": 9, "city": "paris"},
        {"type": "police", "city": "madrid"},
        {"type": "offer", "to": "X"},
        {"type": "return_chit", "chit": "double_cross"},
        {"type": "accept"},
        {"type": "decline"},
        {"type": "papers"},
        {"type": "cover"},
        "end_turn",
        None,
    ]
    for action in legal[:5]:
        if "to" in action:
            out.append({**action, "to": "atlantis"})
        if "city" in action:
            out.append({**action, "city": "sea of tranquility"})
        if "strength" in action:
            out.append({**action, "strength": True})
    return unlisted(out, legal)


def play_random(seats: int, seed: int, check: bool = True) -> tuple[SpiesState, list[tuple[int, Any]]]:
    rng = random.Random(seed)
    state = ENGINE.start(seats, seed, {})
    moves: list[tuple[int, Any]] = []
    for step in range(MAX_MOVES):
        to_act = ENGINE.to_act(state)
        if not to_act:
            assert state.phase == OVER
            return state, moves
        assert len(to_act) == 1
        (seat,) = to_act
        legal = ENGINE.legal(state, seat)
        assert legal, "a seat to act always has a legal action"
        for other in range(seats):
            if other != seat:
                assert ENGINE.legal(state, other) == []
        assert ENGINE.reaction_window(state) == (state.window is not None)
        if state.window is not None and state.window.kind != SURPLUS:
            assert {"type": "decline"} in legal
            assert ENGINE.reaction_window(state)
        if check:
            check_invariants(state)
            if step % 19 == 0:
                check_views_hide(ENGINE, state, [None, *range(seats)], scramble, rng, where=step)
            if step % 23 == 0:
                bad = illegal_candidates(state, seat, legal)
                check_refusals(ENGINE, state, seat, bad, seats=seats, snapshot=snapshot)
        action = pick(state, seat, rng)
        kept = snapshot if check and step % 17 == 0 else None
        after = apply_keeping_state(ENGINE, state, seat, action, kept)
        moves.append((seat, json.loads(json.dumps(action))))
        state = after
    raise AssertionError("the game did not end")


@pytest.mark.slow
@EXAMPLES
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_random_games_conserve_pieces_leak_nothing_reject_illegal_actions_and_end_in_1939(
    seats: int, seed: int
) -> None:
    state, _moves = play_random(seats, seed)
    assert state.phase == OVER and state.year == 1939
    turns = [e for e in ENGINE.events(state, everything=True) if e["event"] == "turn"]
    assert len(turns) == 35
    assert [t["year"] for t in turns[::5]] == list(range(1933, 1940))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and len(outcome.places) == seats and min(outcome.places) == 1
    assert all(float(s).is_integer() and s >= 0 for s in outcome.scores)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_replay_from_the_move_log_is_exact(seats: int, seed: int) -> None:
    state, moves = play_random(seats, seed, check=False)
    check_replay(ENGINE, seats, seed, {}, moves, state, snapshot)


PUBLIC_WITH_FACES = {
    "captured",
    "sanctioned",
    "counterspy",
    "cash_in",
    "original_secrets_counted",
    "game_over",
}


def test_public_events_name_no_hidden_strength_value_chit_or_tile() -> None:
    for seed in range(4):
        state, _ = play_random(2 + seed % 4, 100 + seed, check=False)
        for event in ENGINE.events(state, None):
            assert "private" not in event
            kind = event["event"]
            if {"strength", "value", "secrets", "victory_points"} & set(event):
                assert kind in PUBLIC_WITH_FACES, event
            if isinstance(event.get("chits"), list):
                raise AssertionError(event)
            if "tile" in event:
                assert kind == "event_tile", event
            assert "concessions" not in json.dumps(event), event


# Every type of action the engine knows. Random games reach all but the rare ones, which
# the scenario tests (test_rules.py, test_rulings.py, test_setup.py) play one by one.
ACTION_TYPES = frozenset(
    {
        "place_secret",
        "place_police",
        "place_spy",
        "spies_done",
        "play_event",
        "discard_event",
        "police",
        "police_done",
        "search",
        "searches_done",
        "move",
        "discover",
        "sanction",
        "recruit",
        "escape",
        "guard",
        "hand",
        "cash",
        "end_turn",
        "offer",
        "offer_add",
        "offer_send",
        "offer_cancel",
        "accept",
        "decline",
        "papers",
        "cover",
        "return_chit",
    }
)
RARE_IN_RANDOM_GAMES = frozenset({"cash", "cover", "escape", "offer_cancel", "return_chit", "spies_done"})


def test_random_games_reach_every_kind_of_action() -> None:
    kinds: Counter[str] = Counter()
    events: Counter[str] = Counter()
    for seed in range(10):
        state, moves = play_random(2 + seed % 4, seed, check=False)
        kinds.update(a["type"] for _, a in moves)
        events.update(e["event"] for e in ENGINE.events(state, everything=True))
    for kind in sorted(ACTION_TYPES - RARE_IN_RANDOM_GAMES):
        assert kinds[kind] > 0, kind
    for event in ("captured", "counterspy", "control", "year"):
        assert events[event] > 0, event


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 1940)
    | st.sampled_from(["paris", "G-spy-1", "S1", "papers", "G", ""]),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(["a", "spy"]), inner, max_size=2)
    ),
    max_leaves=4,
)
TYPES = sorted(ACTION_TYPES | {"teleport"})  # and a type no engine knows


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    kind=st.sampled_from(TYPES),
    fields=st.dictionaries(
        st.sampled_from(
            ["spy", "to", "city", "secret", "target", "strength", "value", "tile", "chit", "item", "amount"]
        ),
        JSONISH,
        max_size=3,
    ),
    when=st.integers(0, 3),
)
def test_any_malformed_action_is_refused_with_illegal_action(
    kind: str, fields: dict[str, Any], when: int
) -> None:
    from .tables import table

    states = [
        ENGINE.start(5, 1, {}),
        table(
            power="G", phase="move", spies=[("G", 3, "berlin"), ("F", 1, "berlin")], hands={"G": ["sanction"]}
        ),
        table(power="F", phase="search", police=[("F", 2, "paris")], spies=[("G", 1, "paris")]),
        table(power="G", phase="event", tiles={"G": ["G1"]}),
    ]
    state = states[when]
    if kind == "move" and when == 1:
        fields.setdefault("to", "paris")
    (seat,) = ENGINE.to_act(state)
    action = {"type": kind, **fields}
    legal = ENGINE.legal(state, seat)
    if action in legal:
        return
    check_refusals(ENGINE, state, seat, [action], seats=state.seats, snapshot=snapshot)
