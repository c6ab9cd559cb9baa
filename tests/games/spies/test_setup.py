"""How to Begin the Game: one test per sentence of the set-up rules."""

from __future__ import annotations

from collections import Counter

import pytest

from games.core import IllegalAction, InvalidOptions
from games.spies import ENGINE
from games.spies.engine import (
    BOARD,
    EVENT,
    HAND,
    ON_MAP,
    SETUP_POLICE,
    SETUP_SECRETS,
    SETUP_SPIES,
)

from .tables import act, seat, setup_game


def test_the_turn_order_in_which_you_set_up_is_germany_italy_russia_france_britain() -> None:
    state = ENGINE.start(5, 1, {})
    order = []
    while state.phase.startswith("setup"):
        if not order or order[-1] != state.power:
            order.append(state.power)
        legal = ENGINE.legal(state, seat(state))
        state = ENGINE.apply(state, seat(state), legal[-1] if state.phase == SETUP_SPIES else legal[0])
    assert order == [0, 1, 2, 3, 4]
    assert state.phase == EVENT and state.power == 0 and state.year == 1933


def test_each_bank_marker_starts_in_the_box_with_its_countrys_name() -> None:
    state = ENGINE.start(5, 1, {})
    assert list(state.money) == [p.bank for p in BOARD.powers]


def test_each_power_takes_its_seven_tiles_and_draws_three_random_ones() -> None:
    state = ENGINE.start(5, 8, {})
    randoms: list[str] = []
    for p, tiles in enumerate(state.tiles):
        own = [t for t in tiles if BOARD.events[t].power == p]
        drawn = [t for t in tiles if BOARD.events[t].power is None]
        assert len(own) == 7 and len(drawn) == 3 and len(tiles) == 10
        randoms += drawn
    assert len(set(randoms)) == 15
    other = ENGINE.start(5, 9, {})
    assert other.tiles != state.tiles  # drawn blindly: the seed decides


def test_all_forty_secrets_are_shuffled_and_each_power_draws_its_allotment() -> None:
    state = ENGINE.start(5, 2, {})
    assert len(state.secrets) == 40
    assert sorted(s.spec for s in state.secrets) == list(range(40))
    for p, setup in enumerate(BOARD.powers):
        assert sum(1 for s in state.secrets if s.origin == p and s.status == HAND) == setup.secrets
    assert ENGINE.start(5, 3, {}).secrets != state.secrets


def test_the_eight_remaining_secrets_go_one_per_city_to_the_secret_cities() -> None:
    state = ENGINE.start(5, 2, {})
    placed = [s for s in state.secrets if s.origin is None]
    assert len(placed) == 8
    assert sorted(s.where for s in placed) == sorted(BOARD.secret_cities)
    assert all(s.status == ON_MAP and s.known == frozenset() for s in placed)


def test_you_place_your_secrets_one_per_city_in_any_cities_of_your_territory() -> None:
    state = ENGINE.start(5, 2, {})
    assert state.phase == SETUP_SECRETS
    cities = {a["city"] for a in ENGINE.legal(state, 0)}
    assert cities == set(BOARD.territory[0])
    state = act(state, {"type": "place_secret", "city": "munich"})
    assert "munich" not in {a["city"] for a in ENGINE.legal(state, 0)}  # one per city
    with pytest.raises(IllegalAction, match="territory"):
        ENGINE.apply(state, 0, {"type": "place_secret", "city": "paris"})


def test_colonies_are_part_of_the_territory_for_secrets() -> None:
    state = ENGINE.start(5, 2, {})
    while state.power != 3:
        state = act(
            state,
            ENGINE.legal(state, seat(state))[0] if state.phase != SETUP_SPIES else {"type": "spies_done"},
        )
    assert state.phase == SETUP_SECRETS
    assert "algiers" in {a["city"] for a in ENGINE.legal(state, seat(state))}


def test_police_go_no_more_than_two_per_city_in_police_cities_of_the_home_country() -> None:
    state = ENGINE.start(5, 2, {})
    while state.phase == SETUP_SECRETS:
        state = act(state, ENGINE.legal(state, 0)[0])
    assert state.phase == SETUP_POLICE
    cities = {a["city"] for a in ENGINE.legal(state, 0)}
    assert cities == set(BOARD.police_cities[0])
    assert "berlin" in cities  # including the capital
    strength = max(BOARD.powers[0].police)
    state = act(state, {"type": "place_police", "strength": strength, "city": "berlin"})
    second = next(a for a in ENGINE.legal(state, 0) if a["city"] == "berlin")
    state = act(state, second)
    assert all(a["city"] != "berlin" for a in ENGINE.legal(state, 0))


def test_you_select_spies_up_to_the_starting_number_and_place_them_anywhere() -> None:
    state = ENGINE.start(5, 2, {})
    while state.phase != SETUP_SPIES:
        state = act(state, ENGINE.legal(state, 0)[0])
    cities = {a["city"] for a in ENGINE.legal(state, 0) if a["type"] == "place_spy"}
    assert cities == set(BOARD.cities)  # without restrictions
    strengths = {a["strength"] for a in ENGINE.legal(state, 0) if a["type"] == "place_spy"}
    assert strengths == {s.strength for s in BOARD.powers[0].spies}  # whichever you prefer
    for strength, city in ((5, "paris"), (4, "paris"), (4, "london"), (2, "moscow"), (1, "rome")):
        assert state.power == 0
        state = act(state, {"type": "place_spy", "strength": strength, "value": strength, "city": city})
    assert Counter(s.where for s in state.spies if s.power == 0) == {
        "paris": 2,
        "london": 1,
        "moscow": 1,
        "rome": 1,
    }


def test_fewer_spies_may_be_placed() -> None:
    state = ENGINE.start(5, 2, {})
    while state.phase != SETUP_SPIES:
        state = act(state, ENGINE.legal(state, 0)[0])
    state = act(
        state, {"type": "place_spy", "strength": 5, "value": 5, "city": "vienna"}, {"type": "spies_done"}
    )
    assert state.power == 1
    assert sum(1 for s in state.spies if s.power == 0) == 1
    assert len(state.spy_reserve[0]) == len(BOARD.powers[0].spies) - 1


def test_chits_are_drawn_at_random_after_set_up_and_the_rest_stay_in_the_cup() -> None:
    state = setup_game(5, 4)
    total = sum(spec.count for spec in BOARD.chits.values())
    for p, setup in enumerate(BOARD.powers):
        assert len(state.hands[p]) == setup.chits
    assert len(state.cup) == total - sum(p.chits for p in BOARD.powers)
    assert Counter(state.cup) + Counter(c for h in state.hands for c in h) == Counter(
        {k: s.count for k, s in BOARD.chits.items()}
    )
    assert setup_game(5, 5).hands != state.hands


def test_the_unused_chits_are_not_in_the_game() -> None:
    state = setup_game(5, 4)
    kinds = set(state.cup) | {c for h in state.hands for c in h}
    assert kinds <= {"discovery", "papers", "sanction", "recruit", "escape", "cover"}


def test_the_game_year_marker_starts_under_1933() -> None:
    state = setup_game(5, 4)
    assert state.year == 1933
    assert ENGINE.view(state, None)["year"] == 1933


def test_a_turn_time_limit_of_five_minutes_is_an_option() -> None:
    state = ENGINE.start(5, 1, {"turn_minutes": 5})
    assert ENGINE.turn_clock(state) == {"key": "setup:G", "seconds": 300}
    assert ENGINE.turn_clock(ENGINE.start(5, 1, {})) is None
    with pytest.raises(InvalidOptions, match="turn_minutes"):
        ENGINE.start(5, 1, {"turn_minutes": -1})
    with pytest.raises(InvalidOptions, match="Unknown option"):
        ENGINE.start(5, 1, {"minutes": 5})
    with pytest.raises(InvalidOptions, match="2 to 5 players"):
        ENGINE.start(6, 1, {})
