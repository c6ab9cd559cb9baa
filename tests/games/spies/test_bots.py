"""The bots play legal moves from their own view, finish games, and the heuristic one plays better."""

from __future__ import annotations

import random

import pytest

from games import get_bots
from games.core import Bot, chance
from games.spies import ENGINE, SpiesState
from games.spies.bots import BOTS, HeuristicBot, play_game
from games.spies.engine import BOARD

from .tables import act, table


def test_the_registry_finds_both_bots() -> None:
    assert set(get_bots("spies")) == {"random", "heuristic"}


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_bot_games_end_in_1939_with_legal_moves_only(seats: int) -> None:
    bots: list[Bot] = [BOTS["heuristic"] if s % 2 == 0 else BOTS["random"] for s in range(seats)]
    state, moves = play_game(bots, 40 + seats)  # apply() would raise on an illegal move
    assert state.phase == "over" and state.year == 1939
    assert ENGINE.outcome(state) is not None
    assert moves


def test_the_heuristic_bot_sees_only_its_view_and_is_deterministic() -> None:
    state, _ = play_game([BOTS["heuristic"]] * 5, 3)
    assert state.phase == "over"
    # mid-game: the same view and legal list give the same choice
    live = ENGINE.start(5, 3, {})
    bot = HeuristicBot()
    for _ in range(200):
        (seat,) = ENGINE.to_act(live)
        view, legal = ENGINE.view(live, seat), ENGINE.legal(live, seat)
        first = bot.choose(view, legal, random.Random(1))
        assert bot.choose(view, legal, random.Random(1)) == first
        assert first in legal
        live = ENGINE.apply(live, seat, first)


def test_the_heuristic_bot_carries_a_foreign_secret_home_and_cashes_it() -> None:
    state = table(
        power="F",
        phase="move",
        spies=[("F", 3, "brussels")],
        secrets=[{"where": "brussels", "origin": None, "controller": "F-spy-1", "known": ["F"]}],
    )
    bot = HeuristicBot()
    for _ in range(4):
        if state.power != 3:
            break
        action = bot.choose(ENGINE.view(state, 3), ENGINE.legal(state, 3), random.Random(0))
        state = act(state, action)
    assert state.secrets[0].status == "record" and state.money[3] == 40


def test_the_heuristic_bot_evades_a_search_that_could_capture_a_spy_with_a_secret() -> None:
    state = table(
        power="G",
        phase="move",
        police=[("F", 2, "lille")],
        spies=[("G", 4, "brussels")],
        secrets=[{"where": "brussels", "origin": None, "controller": "G-spy-1"}],
        hands={"G": ["papers"]},
    )
    state = act(
        state, {"type": "move", "spy": "G-spy-1", "to": "lille"}, {"type": "search", "spy": "G-spy-1"}
    )
    choice = HeuristicBot().choose(ENGINE.view(state, 0), ENGINE.legal(state, 0), random.Random(0))
    assert choice == {"type": "papers"}


@pytest.mark.slow
def test_the_heuristic_bot_beats_random_bots() -> None:
    wins = 0.0
    games = 10
    for seed in range(games):
        seats = 5
        seat = seed % seats
        bots: list[Bot] = [BOTS["random"]] * seats
        bots[seat] = BOTS["heuristic"]
        state, _ = play_game(bots, 1000 + seed)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
    assert wins / games > 0.3, wins / games  # one random seat of five wins 20%


def test_bots_use_the_seeded_chance_of_the_game() -> None:
    a = play_game([BOTS["random"]] * 3, 5)[1]
    b = play_game([BOTS["random"]] * 3, 5)[1]
    assert a == b
    assert chance(5, "bot", 0).random() == chance(5, "bot", 0).random()


def bot_setup(seed: int) -> SpiesState:
    """Five heuristic bots set up the game of ``seed``."""
    state = ENGINE.start(5, seed, {})
    rngs = [chance(seed, "bot", s) for s in range(5)]
    bot = HeuristicBot()
    while state.phase.startswith("setup"):
        (s,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, s, bot.choose(ENGINE.view(state, s), ENGINE.legal(state, s), rngs[s]))
    return state


def test_ruling_3_the_heuristic_bot_sets_up_in_a_random_order_so_table_ids_say_nothing() -> None:
    # Pieces get table ids in the order they reach the map (ruling 3): a bot placing its
    # strongest first would tell everyone that its police 1 and spy 1 are its strongest.
    police_orders, spy_orders = set(), set()
    for seed in range(6):
        state = bot_setup(seed)
        for p, setup in enumerate(BOARD.powers):
            police = [piece for piece in state.police if piece.power == p]
            spies = [piece for piece in state.spies if piece.power == p]
            assert sorted(piece.strength for piece in police) == sorted(setup.police)
            assert len(spies) == setup.spies_at_start
            # what the bot places has not changed: its strongest spies, its strongest police
            # on its original secrets' police cities and then its capital
            strongest = sorted(((c.strength, c.value) for c in setup.spies), reverse=True)
            assert sorted(((s.strength, s.value) for s in spies), reverse=True) == strongest[: len(spies)]
            guarded = {s.where for s in state.secrets if s.origin == p} & set(BOARD.police_cities[p])
            top = sorted(setup.police, reverse=True)[: len(guarded)]
            at_secrets = sorted((pc.strength for pc in police if pc.where in guarded), reverse=True)
            assert at_secrets[: len(top)] == top
            police_orders.add(tuple(piece.strength for piece in police))
            spy_orders.add(tuple(piece.strength for piece in spies))
    assert any(list(order) != sorted(order, reverse=True) for order in police_orders)
    assert any(list(order) != sorted(order, reverse=True) for order in spy_orders if len(set(order)) > 1)
    assert len(police_orders) > 10
