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
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import get_engine
from games.black_spy.bots import BOTS

ENGINE = get_engine("black-spy")


def black_spy_deals_per_second(seconds: float, players: int = 4, seed: int = 1) -> tuple[float, int]:
    rnd = random.Random(seed).random
    start, to_act, legal, apply, outcome = (
        ENGINE.start,
        ENGINE.to_act,
        ENGINE.legal,
        ENGINE.apply,
        ENGINE.outcome,
    )
    deals = 0
    game = 0
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
    return deals / (time.perf_counter() - began), deals


def hearts_games_per_second(seconds: float, sampler: str, seed: int = 1) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rnd = random.Random(seed).random
    games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if sampler == "chance_outcomes" and state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rnd() * len(actions))])
        games += 1
    return games / (time.perf_counter() - began)


def speed(seconds: float, rounds: int) -> None:
    for r in range(1, rounds + 1):
        rate, deals = black_spy_deals_per_second(seconds)
        hearts = hearts_games_per_second(seconds, "legal_actions")
        hearts_co = hearts_games_per_second(seconds, "chance_outcomes")
        print(f"round {r}: Black Spy {rate:,.0f} deals/s ({deals} deals, 4 players, random legal actions)")
        if hearts is None or hearts_co is None:
            print("  OpenSpiel is not installed (pip install open-spiel==2.0.2): no Hearts figure.")
            continue
        print(f"  OpenSpiel Hearts {hearts:,.0f} games/s (legal_actions at chance nodes)")
        print(f"  OpenSpiel Hearts {hearts_co:,.0f} games/s (chance_outcomes at chance nodes)")
        print(f"  ratio Black Spy / Hearts: {rate / hearts:.2f}x", end="")
        print(f" (against the chance_outcomes loop: {rate / hearts_co:.2f}x)")


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
    parser.add_argument("--seconds", type=float, default=5.0, help="time for each measurement")
    parser.add_argument("--rounds", type=int, default=2, help="measurements of each rate")
    parser.add_argument("--bots", type=int, default=0, metavar="GAMES", help="play the bots instead")
    args = parser.parse_args()
    if args.bots:
        bots(args.bots)
    else:
        speed(args.seconds, args.rounds)


if __name__ == "__main__":
    main()
