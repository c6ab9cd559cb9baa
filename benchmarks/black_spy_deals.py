"""Black Spy speed, next to OpenSpiel's Hearts, and the heuristic bot against random bots.

    .venv/bin/python benchmarks/black_spy_deals.py               # deals/s vs Hearts games/s
    .venv/bin/python benchmarks/black_spy_deals.py --bots 1000   # heuristic vs 3 random bots

Speed: random legal 4-player games (default options) through the public protocol only
(``start``, ``to_act``, ``legal``, ``apply``, ``outcome``), counting deals. Hearts
(``pyspiel.load_game("hearts")``, ``pip install open-spiel==2.0.2``, the ``bench`` extra)
is played from Python the same way: a random legal action at every step to the terminal
state. At chance nodes two samplers are timed: ``legal_actions()`` (Hearts' chance
outcomes are uniform, so this is a fair sample, and it is the faster loop: the ratio is
reported against it) and ``chance_outcomes()``. One Hearts game is one deal.

For context a third Hearts loop is timed, ``state.child(action)``: a new state at every
step with the old one left as it was, which is what the engines' protocol asks of
``apply`` (OpenSpiel's ``apply_action`` changes the state in place instead).

The machine may be shared: each round times every loop for ``--seconds`` in turn, and
the summary gives the median of the rounds' ratios. Black Spy runs compiled when
``scripts/build-engines`` has built it (the first line says which);
``SPYLEAGUE_PURE_PYTHON=1`` times the plain Python engine instead.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import get_engine
from games.black_spy import COMPILED
from games.black_spy.bots import BOTS

ENGINE = get_engine("black-spy")


class BlackSpyLoop:
    """Random legal 4-player games through the protocol, run slice by slice."""

    def __init__(self, players: int = 4, seed: int = 1) -> None:
        self.players = players
        self.rnd = random.Random(seed).random
        self.game = 0  # the seed of the next game: every slice plays new games
        self.deals = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        rnd, players = self.rnd, self.players
        start, to_act, legal, apply, outcome = (
            ENGINE.start,
            ENGINE.to_act,
            ENGINE.legal,
            ENGINE.apply,
            ENGINE.outcome,
        )
        deals = 0
        game = self.game
        began = time.perf_counter()
        while time.perf_counter() - began < seconds:
            state = start(players, game, {})
            game += 1
            while True:
                acting = to_act(state)
                if not acting:
                    break
                for seat in acting:  # noqa: B007 (the cheapest way to take any seat that may act)
                    break
                actions = legal(state, seat)
                state = apply(state, seat, actions[int(rnd() * len(actions))])
            result = outcome(state)
            assert result is not None
            deals += result.detail["deals"]
        self.elapsed += time.perf_counter() - began
        self.deals += deals
        self.game = game


class HeartsLoop:
    """Random OpenSpiel Hearts games from Python, run slice by slice.

    ``sampler``: "legal_actions" or "chance_outcomes" (how chance nodes are sampled; both
    apply the action in place), or "child" (a new state per step, the old one kept).
    """

    def __init__(self, game: Any, sampler: str, seed: int = 1) -> None:
        self.hearts = game
        self.sampler = sampler
        self.rnd = random.Random(seed).random
        self.games = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        game, sampler, rnd = self.hearts, self.sampler, self.rnd
        games = 0
        began = time.perf_counter()
        while time.perf_counter() - began < seconds:
            state = game.new_initial_state()
            if sampler == "child":
                while not state.is_terminal():
                    actions = state.legal_actions()
                    state = state.child(actions[int(rnd() * len(actions))])
            else:
                while not state.is_terminal():
                    if sampler == "chance_outcomes" and state.is_chance_node():
                        outcomes = state.chance_outcomes()
                        state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
                    else:
                        actions = state.legal_actions()
                        state.apply_action(actions[int(rnd() * len(actions))])
            games += 1
        self.elapsed += time.perf_counter() - began
        self.games += games


SLICE = 0.1  # seconds: the loops take turns this often, so that they share the machine's load


def speed(seconds: float, rounds: int) -> None:
    mode = "compiled (mypyc)" if COMPILED else "plain Python"
    print(f"Black Spy engine: {mode}; {rounds} rounds of {seconds:g} s per loop, in turns of {SLICE:g} s")
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        pyspiel = None
        print("OpenSpiel is not installed (pip install open-spiel==2.0.2): no Hearts figures.")
    samplers = ("legal_actions", "chance_outcomes", "child")
    ratios: dict[str, list[float]] = {sampler: [] for sampler in samplers}
    for r in range(1, rounds + 1):
        black_spy = BlackSpyLoop()
        hearts = [HeartsLoop(pyspiel.load_game("hearts"), sampler) for sampler in samplers] if pyspiel else []
        for _ in range(max(1, round(seconds / SLICE))):
            black_spy.run(SLICE)
            for loop in hearts:
                loop.run(SLICE)
        rate = black_spy.deals / black_spy.elapsed
        print(
            f"round {r}: Black Spy {rate:,.0f} deals/s "
            f"({black_spy.deals} deals, 4 players, random legal actions)"
        )
        if not hearts:
            continue
        rates = {loop.sampler: loop.games / loop.elapsed for loop in hearts}
        for sampler in samplers:
            ratios[sampler].append(rate / rates[sampler])
        print(f"  OpenSpiel Hearts {rates['legal_actions']:,.0f} games/s (legal_actions at chance nodes)")
        print(f"  OpenSpiel Hearts {rates['chance_outcomes']:,.0f} games/s (chance_outcomes at chance nodes)")
        print(f"  OpenSpiel Hearts {rates['child']:,.0f} games/s (state.child: a new state per step)")
        print(f"  ratio Black Spy / Hearts: {rate / rates['legal_actions']:.2f}x", end="")
        print(
            f" (chance_outcomes loop: {rate / rates['chance_outcomes']:.2f}x, "
            f"child loop: {rate / rates['child']:.2f}x)"
        )
    if ratios["legal_actions"]:
        main, median = ratios["legal_actions"], statistics.median
        print(
            f"median ratio Black Spy / Hearts over {len(main)} rounds: {median(main):.2f}x "
            f"(min {min(main):.2f}x, max {max(main):.2f}x); against the chance_outcomes loop "
            f"{median(ratios['chance_outcomes']):.2f}x, against the child loop {median(ratios['child']):.2f}x"
        )


def bots(games: int, players: int = 4) -> None:
    """The heuristic bot in one seat (rotating) against random bots in the others."""
    heuristic, random_bot = BOTS["heuristic"], BOTS["random"]
    rng = random.Random(7)
    h_points = r_points = 0
    h_deals = r_deals = 0
    h_final = r_final = 0
    h_wins = 0.0
    began = time.perf_counter()
    for game in range(games):
        me = game % players
        state = ENGINE.start(players, 10_000 + game, {})
        while True:
            acting = ENGINE.to_act(state)
            if not acting:
                break
            seat = min(acting)
            bot = heuristic if seat == me else random_bot
            action = bot.choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rng)
            state = ENGINE.apply(state, seat, action)
        result = ENGINE.outcome(state)
        assert result is not None
        for line in result.detail["deal_points"]:
            for seat, pts in enumerate(line):
                if seat == me:
                    h_points += pts
                    h_deals += 1
                else:
                    r_points += pts
                    r_deals += 1
        for seat, score in enumerate(result.scores):
            if seat == me:
                h_final += int(score)
            else:
                r_final += int(score)
        if result.places[me] == 1:
            h_wins += 1 / list(result.places).count(1)
    others = players - 1
    took = time.perf_counter() - began
    print(f"{games} games, {players} players, heuristic bot against {others} random bots ({took:.0f}s)")
    print(f"  average points per deal: heuristic {h_points / h_deals:.2f}, random {r_points / r_deals:.2f}")
    h_game, r_game = h_final / games, r_final / (games * others)
    print(f"  average final score per game: heuristic {h_game:.1f}, random {r_game:.1f}")
    print(f"  games won by the heuristic bot: {100 * h_wins / games:.1f}%", end="")
    print(f" (a random seat would win {100 / players:.0f}%)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="time for each measurement")
    parser.add_argument("--rounds", type=int, default=5, help="measurements of each rate")
    parser.add_argument("--bots", type=int, default=0, metavar="GAMES", help="play the bots instead")
    args = parser.parse_args()
    if args.bots:
        bots(args.bots)
    else:
        speed(args.seconds, args.rounds)


if __name__ == "__main__":
    main()
