"""Benchmark: random full games of Spies! per second, through the engine protocol.

    .venv/bin/python benchmarks/spies_games.py                 # 5 players, 50 games
    .venv/bin/python benchmarks/spies_games.py --games 20 --seats 2
    .venv/bin/python benchmarks/spies_games.py --winrate 20    # heuristic vs random bots

Each game: ``start``, then ``to_act`` / ``legal`` / a random bot's choice / ``apply`` until
``to_act`` is empty (after Britain's 1939 turn), then ``outcome``. The second figure also builds
the acting seat's ``view`` before each choice, as a bot playing on the site does.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.core import RandomBot, chance
from games.spies import ENGINE
from games.spies.bots import BOTS, play_game


def random_games(games: int, seats: int, with_view: bool) -> tuple[float, int]:
    """Play ``games`` random games; return (seconds, moves)."""
    bot = RandomBot()
    moves = 0
    began = time.perf_counter()
    for seed in range(games):
        rng = chance(seed, "benchmark")
        state = ENGINE.start(seats, seed, {})
        while True:
            to_act = ENGINE.to_act(state)
            if not to_act:
                break
            seat = min(to_act)
            legal = ENGINE.legal(state, seat)
            view = ENGINE.view(state, seat) if with_view else {}
            state = ENGINE.apply(state, seat, bot.choose(view, legal, rng))
            moves += 1
        outcome = ENGINE.outcome(state)
        assert outcome is not None and state.year == 1939
    return time.perf_counter() - began, moves


def win_rate(games: int, seats: int) -> float:
    """The heuristic bot's share of wins (ties split) against random bots, rotating its seat."""
    wins = 0.0
    for seed in range(games):
        seat = seed % seats
        bots = [BOTS["random"]] * seats
        bots[seat] = BOTS["heuristic"]
        state, _ = play_game(bots, seed)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument(
        "--winrate", type=int, default=0, help="also play this many heuristic-vs-random games"
    )
    args = parser.parse_args()

    seconds, moves = random_games(args.games, args.seats, with_view=False)
    print(
        f"{args.games} random {args.seats}-player games: {args.games / seconds:,.1f} games/s "
        f"({moves / args.games:,.0f} moves a game, {moves / seconds:,.0f} moves/s)"
    )
    seconds, moves = random_games(args.games, args.seats, with_view=True)
    print(f"  with a view before every move: {args.games / seconds:,.1f} games/s")
    if args.winrate:
        for seats in range(2, 6):
            rate = win_rate(args.winrate, seats)
            print(f"heuristic vs random, {seats} players: wins {rate:.1%} (one random seat: {1 / seats:.1%})")


if __name__ == "__main__":
    main()
