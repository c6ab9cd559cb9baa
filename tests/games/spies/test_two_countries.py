"""One player, two countries: "you cannot exchange Action chits, money, or secrets between them".

Over random games with 2 to 4 players, no action of one of a player's countries ever targets the
player's other country (searches, sanctions, discoveries, escapes from its record, cash-ins of its
secrets, offers, secrets asked for or accepted in a trade) or pays it (money, chits or victory
points going from one to the other), and no country ever comes to control a secret that began the
game in its player's other country. In the two-player game Russia is, in the years a player runs
it, one of that player's countries.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core import chance
from games.spies import ENGINE, SpiesState
from games.spies.board import FIRST_YEAR, POWER_CODES
from games.spies.bots import BOTS
from games.spies.engine import ARRIVAL, OFFER, vp_of

from .test_properties import pick

CODE = {code: i for i, code in enumerate(POWER_CODES)}
RUNS = {
    4: ((0, 1), (2,), (3,), (4,)),
    3: ((0, 1), (2,), (3, 4)),
    2: ((0, 1), (3, 4)),  # and Russia (2), alternately
}


def seat_running(state: SpiesState, power: int) -> int:
    if state.seats == 2 and power == CODE["R"]:
        return (state.year - FIRST_YEAR) % 2
    return next(seat for seat, powers in enumerate(RUNS[state.seats]) if power in powers)


def partners(state: SpiesState, power: int) -> set[int]:
    """The player's other countries, now."""
    seat = seat_running(state, power)
    return {q for q in range(5) if q != power and seat_running(state, q) == seat}


def targets(state: SpiesState, action: dict[str, Any]) -> set[int | None]:
    """The powers an action acts against or takes from."""
    kind = action["type"]
    spies = {s.id: s for s in state.spies}
    secrets = {s.id: s for s in state.secrets}
    pieces = {s.id: s for s in (*state.spies, *state.police)}
    if kind == "search":
        return {spies[action["spy"]].power}
    if kind == "sanction":
        return {spies[action["target"]].power}
    if kind == "discover":
        secret = secrets[action["secret"]]
        holder = None if secret.controller is None else pieces[secret.controller].power
        return {secret.origin, holder}
    if kind == "escape":
        return {spies[action["spy"]].captor}
    if kind == "cash":
        held = next(s for s in state.secrets if s.controller == action["spy"])
        return {held.origin}
    if kind == "offer":
        return {CODE[action["to"]]}
    if kind == "offer_add" and action["item"] == "ask_secret":
        return {secrets[action["secret"]].origin}  # the asker's spy would take it over
    return set()


def check_step(before: SpiesState, action: dict[str, Any], after: SpiesState) -> None:
    actor = ENGINE.acting_power(before)
    assert actor is not None
    others = partners(before, actor)
    if not others:
        return
    window = before.window
    if window is None:
        aimed = targets(before, action)
    elif window.kind == ARRIVAL and action["type"] == "search":
        aimed = {next(s for s in before.spies if s.id == window.spy).power}
    elif window.kind == OFFER and action["type"] == "accept":
        assert before.offer is not None  # the accepting power's spies take the secrets given
        aimed = {next(s for s in before.secrets if s.id == sid).origin for sid in before.offer.give_secrets}
    else:
        aimed = set()  # an answer to another power's act (Papers, Escape, Cover, declining an offer)
    assert not aimed & others, ("acts against its own other country", POWER_CODES[actor], action)
    for power, origin in _new_control(before, after):
        assert origin not in partners(before, power), ("takes its other country's secret", action)
    for q in others:
        assert vp_of(after, q) >= vp_of(before, q), ("takes points from its other country", action)
        for row in ("money", "hands"):
            mine = _amount(after, row, actor) - _amount(before, row, actor)
            theirs = _amount(after, row, q) - _amount(before, row, q)
            assert not (mine > 0 > theirs or mine < 0 < theirs), ("passes", row, action)
    gained = _record(after, actor) - _record(before, actor)
    for kind, origin in gained:
        assert origin not in others, ("scores its other country's", kind, action)


def _controlling_power(state: SpiesState) -> dict[str, int]:
    pieces = {p.id: p.power for p in (*state.spies, *state.police)}
    return {s.id: pieces[s.controller] for s in state.secrets if s.controller is not None}


def _new_control(before: SpiesState, after: SpiesState) -> list[tuple[int, int | None]]:
    """(power, origin) of each secret that came under the control of another power."""
    was, now = _controlling_power(before), _controlling_power(after)
    origin = {s.id: s.origin for s in after.secrets}
    return [(power, origin[sid]) for sid, power in now.items() if was.get(sid) != power]


def _amount(state: SpiesState, row: str, power: int) -> int:
    return state.money[power] if row == "money" else len(state.hands[power])


def _record(state: SpiesState, power: int) -> set[tuple[str, int | None]]:
    """What lies on ``power``'s record, with the power each item came from."""
    out: set[tuple[str, int | None]] = set()
    out.update((s.id, s.origin) for s in state.secrets if s.status == "record" and s.holder == power)
    out.update((s.id, s.power) for s in state.spies if s.status == "captured" and s.captor == power)
    by_id = {s.id: s.power for s in state.spies}
    out.update((f"sanction-{spy}", by_id[spy]) for who, spy, _ in state.sanctions if who == power)
    return out


#: What the "keen" driver favours: everything that acts on another power or passes value.
KEEN = frozenset({"discover", "sanction", "cash", "escape", "search", "offer", "offer_add", "accept"})


def keen(state: SpiesState, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random legal action that trades secrets whenever it can and acts on others often (random
    play rarely builds an offer that trades a secret, let alone sends it)."""
    legal = ENGINE.legal(state, seat)
    secrets = [a for a in legal if a.get("item") in ("ask_secret", "give_secret")]
    if secrets and rng.random() < 0.8:
        return rng.choice(secrets)
    if {"type": "offer_send"} in legal and rng.random() < 0.5:
        return {"type": "offer_send"}
    chosen = [a for a in legal if a["type"] in KEEN]
    return rng.choice(chosen if chosen and rng.random() < 0.5 else legal)


@pytest.mark.parametrize(("seats", "seed"), [(4, 99), (4, 1), (4, 7), (3, 2), (3, 11), (2, 4242), (2, 5)])
@pytest.mark.parametrize("driver", ["random", "heuristic", "keen"])
def test_no_action_of_a_players_country_targets_or_pays_its_other_country(
    seats: int, seed: int, driver: str
) -> None:
    rng = random.Random(seed)
    bot = BOTS["heuristic"]
    bot_rngs = [chance(seed, "bot", seat) for seat in range(seats)]
    state = ENGINE.start(seats, seed, {})
    steps = 0
    while ENGINE.to_act(state):
        seat = min(ENGINE.to_act(state))
        if driver == "random":
            action = pick(state, seat, rng)
        elif driver == "keen":
            action = keen(state, seat, rng)
        else:
            action = bot.choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), bot_rngs[seat])
        after = ENGINE.apply(state, seat, action)
        check_step(state, action, after)
        state, steps = after, steps + 1
    assert steps > 300
