"""Benchmark: random full games of Mister Spy per second, through the engine protocol.

    .venv/bin/python benchmarks/mister_spy_games.py            # 4 players, 2000 games
    .venv/bin/python benchmarks/mister_spy_games.py --games 500 --seats 6
    .venv/bin/python benchmarks/mister_spy_games.py --winrate 400   # heuristic vs random bots

Each game: ``start``, then ``to_act`` / ``legal`` / a random bot's choice / ``apply`` until
``to_act`` is empty, then ``outcome``. The second figure also builds the acting seat's
``view`` before each choice, as a bot playing on the site does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playout import random_games, win_rate

from games.mister_spy import ENGINE
from games.mister_spy.bots import BOTS, play_game


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument(
        "--winrate", type=int, default=0, help="also play this many heuristic-vs-random games"
    )
    args = parser.parse_args()

    seconds, moves, _ = random_games(ENGINE, args.games, args.seats, with_view=False)
    print(
        f"{args.games} random {args.seats}-player games: {args.games / seconds:,.0f} games/s "
        f"({moves / args.games:.1f} moves a game, {moves / seconds:,.0f} moves/s)"
    )
    seconds, moves, _last = random_games(ENGINE, args.games, args.seats, with_view=True)
    print(f"  with a view before every move: {args.games / seconds:,.0f} games/s")
    if args.winrate:
        for seats in range(2, 7):
            rate = win_rate(ENGINE, BOTS, play_game, args.winrate, seats)
            print(f"heuristic vs random, {seats} players: wins {rate:.1%} (one random seat: {1 / seats:.1%})")


if __name__ == "__main__":
    main()
