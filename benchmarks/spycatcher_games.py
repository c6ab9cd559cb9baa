"""Benchmark: random full games of Spycatcher per second, through the engine protocol.

    .venv/bin/python benchmarks/spycatcher_games.py            # 4 players, 200 games
    .venv/bin/python benchmarks/spycatcher_games.py --games 50 --seats 6
    .venv/bin/python benchmarks/spycatcher_games.py --winrate 100   # heuristic vs random bots

Each game: ``start``, then ``to_act`` / ``legal`` / a random bot's choice / ``apply`` until
``to_act`` is empty, then ``outcome``. Random games almost never win (see ruling 20), so they
run to the turn limit (150 rounds by default; ``--turn-limit`` changes it). The second figure
also builds the acting seat's ``view`` before each choice, as a bot playing on the site does;
the third plays heuristic bots, whose games end at the centre.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playout import random_games, win_rate

from games.spycatcher import ENGINE
from games.spycatcher.bots import BOTS, play_game


def heuristic_games(games: int, seats: int) -> tuple[float, int, float]:
    """Play ``games`` games of heuristic bots; return (seconds, moves, mean rounds)."""
    moves = rounds = 0
    began = time.perf_counter()
    for seed in range(games):
        state, log = play_game([BOTS["heuristic"]] * seats, seed)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        moves += len(log)
        rounds += outcome.detail["rounds"]
    return time.perf_counter() - began, moves, rounds / games


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--turn-limit", type=int, default=None, help="rounds (default: the engine's 150)")
    parser.add_argument(
        "--winrate", type=int, default=0, help="also play this many heuristic-vs-random games per table size"
    )
    args = parser.parse_args()
    options = {} if args.turn_limit is None else {"turn_limit": args.turn_limit}

    seconds, moves, _ = random_games(ENGINE, args.games, args.seats, with_view=False, options=options)
    print(
        f"{args.games} random {args.seats}-player games: {args.games / seconds:,.1f} games/s "
        f"({moves / args.games:,.0f} moves a game, {moves / seconds:,.0f} moves/s)"
    )
    seconds, moves, _last = random_games(ENGINE, args.games, args.seats, with_view=True, options=options)
    print(
        f"  with a view before every move: {args.games / seconds:,.1f} games/s "
        f"({moves / seconds:,.0f} moves/s)"
    )
    seconds, moves, rounds = heuristic_games(args.games, args.seats)
    print(
        f"{args.games} heuristic {args.seats}-player games: {args.games / seconds:,.1f} games/s "
        f"({moves / args.games:,.0f} moves and {rounds:.0f} rounds a game)"
    )
    if args.winrate:
        for seats in range(2, 7):
            rate = win_rate(ENGINE, BOTS, play_game, args.winrate, seats)
            print(f"heuristic vs random, {seats} players: wins {rate:.1%} (one random seat: {1 / seats:.1%})")


if __name__ == "__main__":
    main()
