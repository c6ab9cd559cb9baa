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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playout import random_games, win_rate

from games.spies import ENGINE
from games.spies.bots import BOTS, play_game


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

    seconds, moves, last = random_games(ENGINE, args.games, args.seats, with_view=False)
    assert last.year == 1939, "a game ended before 1939"
    print(
        f"{args.games} random {args.seats}-player games: {args.games / seconds:,.1f} games/s "
        f"({moves / args.games:,.0f} moves a game, {moves / seconds:,.0f} moves/s)"
    )
    seconds, moves, last = random_games(ENGINE, args.games, args.seats, with_view=True)
    print(f"  with a view before every move: {args.games / seconds:,.1f} games/s")
    if args.winrate:
        for seats in range(2, 6):
            rate = win_rate(ENGINE, BOTS, play_game, args.winrate, seats)
            print(f"heuristic vs random, {seats} players: wins {rate:.1%} (one random seat: {1 / seats:.1%})")


if __name__ == "__main__":
    main()
