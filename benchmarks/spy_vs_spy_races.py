"""Spy vs Spy through the engine protocol: random full games, races and moves per second.

Every move goes through ``to_act``, ``legal`` and ``apply`` (and ``view`` with
``--views``, as a web client or a bot would ask for it), and games are played to
the end (``outcome``). Usage, from the repository root:

    .venv/bin/python benchmarks/spy_vs_spy_races.py [--games 200] [--seats 4] [--bot random] [--views]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.spy_vs_spy import ENGINE
from games.spy_vs_spy.bots import BOTS


def run(games: int, seats: int, bot_name: str, views: bool, half_decks: bool) -> dict[str, float]:
    bot = BOTS[bot_name]
    options = {"half_decks": half_decks}
    races = moves = 0
    began = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = ENGINE.start(seats, seed, options)
        while ENGINE.outcome(state) is None:
            seat = rng.choice(sorted(ENGINE.to_act(state)))
            legal = ENGINE.legal(state, seat)
            view = ENGINE.view(state, seat) if views else {}
            action = bot.choose(view, legal, rng) if views or bot_name == "random" else legal[0]
            state = ENGINE.apply(state, seat, action)
            moves += 1
        races += len(state.history)
    seconds = time.perf_counter() - began
    return {
        "seconds": seconds,
        "games": games,
        "races": races,
        "moves": moves,
        "games_per_second": games / seconds,
        "races_per_second": races / seconds,
        "moves_per_second": moves / seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--bot", choices=sorted(BOTS), default="random")
    parser.add_argument("--views", action="store_true", help="also build the acting seat's view every move")
    parser.add_argument("--half-decks", action="store_true")
    args = parser.parse_args()
    if args.bot != "random" and not args.views:
        parser.error("the heuristic bot needs --views")
    result = run(args.games, args.seats, args.bot, args.views, args.half_decks)
    print(
        f"Spy vs Spy, {args.seats} players, {args.bot} bots{', with views' if args.views else ''}: "
        f"{result['games']:.0f} games, {result['races']:.0f} races, {result['moves']:.0f} moves "
        f"in {result['seconds']:.2f} s"
    )
    print(
        f"  {result['games_per_second']:.1f} games/s, {result['races_per_second']:.0f} races/s, "
        f"{result['moves_per_second']:.0f} moves/s"
    )


if __name__ == "__main__":
    main()
