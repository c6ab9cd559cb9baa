"""How strong each bot level is: level against level, for every game, with intervals.

For each game and each pairing (a candidate level against an opponent level, by default every
level above ``heuristic`` against it, and ``heuristic`` against ``random`` as the baseline run in
the same process), it plays games at 2 seats (where the game has them) and at 4: one candidate
and the opponent in every other seat, the candidate's seat rotated over the seats game by game,
each game from its own fixed seed (the same games whatever the order or the processes). It
prints the candidate's win share (a shared first place split between those who share it) with
its 95% Wilson interval, the share an equal bot would have, the candidate's average place, and
its time per decision (median and p95, measured around each of its ``choose`` calls), beside
the opponent's. The load average is printed before and after: a figure taken on a busy machine
says so.

Spy vs Spy is a race: its levels differ in pace and judgement, so its games are played on a
simulated clock (``games.spy_vs_spy.bots.paced_game``), each seat at its level's pace.

Goals (issue 26): the expert beats the heuristic with a share of at least 0.65 at 2 seats and
0.45 at 4 in Black Spy, Mister Spy, Spycatcher and Spies!, at p95 under 1 s a decision; the
interval at 2 seats narrower than 0.1 (some 400 games).

Usage, from the repository root:

    .venv/bin/python benchmarks/bot_strength.py                       # everything (hours)
    .venv/bin/python benchmarks/bot_strength.py --game mister-spy --games 40
    .venv/bin/python benchmarks/bot_strength.py --game black-spy --pair expert:heuristic --seats 4
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import engines, get_bots, get_engine
from games.core.chance import chance

MAX_MOVES = 20_000  # a game that has not ended by then counts as a draw for every seat


@dataclass
class Tally:
    games: int = 0
    share: float = 0.0  # the candidate's wins, a shared first place split
    places: float = 0.0
    unfinished: int = 0
    times: list[float] = field(default_factory=list)  # the candidate's decisions, seconds
    other_times: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.share += other.share
        self.places += other.places
        self.unfinished += other.unfinished
        self.times += other.times
        self.other_times += other.other_times


class Timed:
    """A bot whose every decision is timed (the seat's own clock, not the game's)."""

    def __init__(self, bot: Any, into: list[float]) -> None:
        self.bot, self.into = bot, into
        self.cards_per_minute = getattr(bot, "cards_per_minute", 60)

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Any) -> Any:
        started = time.perf_counter()
        try:
            return self.bot.choose(view, legal, rng)
        finally:
            self.into.append(time.perf_counter() - started)


def _places(game: str, bots: list[Any], seed: int) -> tuple[int, ...] | None:
    if game == "spy-vs-spy":
        from games.spy_vs_spy.bots import paced_game

        outcome = paced_game(bots, seed)
        return tuple(outcome.places) if outcome is not None else None
    engine = get_engine(game)
    state = engine.start(len(bots), seed, {})
    rngs = [chance(seed, "strength", seat) for seat in range(len(bots))]
    for _ in range(MAX_MOVES):
        outcome = engine.outcome(state)
        if outcome is not None:
            return tuple(outcome.places)
        seat = min(engine.to_act(state))  # seats asked at once answer in seat order
        action = bots[seat].choose(engine.view(state, seat), engine.legal(state, seat), rngs[seat])
        state = engine.apply(state, seat, action)
    return None


def play(game: str, candidate: str, opponent: str, seats: int, numbers: list[int]) -> Tally:
    """The games ``numbers`` of a pairing (game ``i`` seats the candidate at ``i % seats``)."""
    levels = get_bots(game)
    tally = Tally()
    for number in numbers:
        at = number % seats
        bots: list[Any] = [
            Timed(levels[candidate], tally.times) if s == at else Timed(levels[opponent], tally.other_times)
            for s in range(seats)
        ]
        places = _places(game, bots, seed=10_000 * seats + number)
        tally.games += 1
        if places is None:
            tally.unfinished += 1
            tally.share += 1 / seats
            tally.places += (seats + 1) / 2
            continue
        if places[at] == 1:
            tally.share += 1 / sum(1 for p in places if p == 1)
        tied = sum(1 for p in places if p == places[at])
        tally.places += places[at] + (tied - 1) / 2
    return tally


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _ms(times: list[float], q: float) -> str:
    if not times:
        return "-"
    ordered = sorted(times)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.1f}"


def _pairings(game: str, asked: list[str]) -> list[tuple[str, str]]:
    names = list(get_bots(game))
    if asked:
        split = [p.partition(":") for p in asked]
        return [(a, b) for a, _, b in split if a in names and b in names]
    pairs = [("heuristic", "random")] if {"heuristic", "random"} <= set(names) else []
    beyond = [n for n in names if n not in ("random", "heuristic")]
    return pairs + [(n, "heuristic") for n in beyond]


def _columns(
    slug: str, candidate: str, opponent: str, seats: int, chunks: list[list[int]]
) -> list[list[Any]]:
    """``play``'s arguments for each chunk of games, as ``Executor.map`` takes them (by column)."""
    return [
        [slug] * len(chunks),
        [candidate] * len(chunks),
        [opponent] * len(chunks),
        [seats] * len(chunks),
        chunks,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", action="append", default=[], help="a game's slug (default: every game)")
    parser.add_argument("--pair", action="append", default=[], help="candidate:opponent (default: see above)")
    parser.add_argument("--seats", type=int, action="append", default=[], help="seat counts (default 2, 4)")
    parser.add_argument("--games", type=int, default=400, help="games a pairing at 2 seats (at 4: half)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes playing at once")
    args = parser.parse_args()
    slugs = args.game or [e.slug for e in engines()]
    print(f"Load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.jobs} processes")
    header = (
        f"{'game':12} {'seats':>5} {'candidate':>12} {'vs':>10} {'games':>5} {'share':>6} {'95% CI':>13} "
        f"{'equal':>5} {'place':>5} {'ms p50':>7} {'ms p95':>7} {'opp p50':>7}"
    )
    print(header)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for slug in slugs:
            engine = get_engine(slug)
            counts = [s for s in (args.seats or [2, 4]) if s in engine.seats]
            for candidate, opponent in _pairings(slug, args.pair):
                for seats in counts:
                    n = args.games if seats == 2 else max(1, args.games // 2)
                    chunks = [list(range(i, n, args.jobs * 4)) for i in range(min(n, args.jobs * 4))]
                    tally = Tally()
                    for part in pool.map(play, *_columns(slug, candidate, opponent, seats, chunks)):
                        tally.add(part)
                    low, high = wilson(tally.share, tally.games)
                    print(
                        f"{slug:12} {seats:5} {candidate:>12} {opponent:>10} {tally.games:5} "
                        f"{tally.share / tally.games:6.3f} {f'{low:.3f}-{high:.3f}':>13} {1 / seats:5.2f} "
                        f"{tally.places / tally.games:5.2f} {_ms(tally.times, 0.5):>7} "
                        f"{_ms(tally.times, 0.95):>7} "
                        f"{_ms(tally.other_times, 0.5):>7}"
                        + (f"  ({tally.unfinished} unfinished)" if tally.unfinished else ""),
                        flush=True,
                    )
    print(f"Load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
