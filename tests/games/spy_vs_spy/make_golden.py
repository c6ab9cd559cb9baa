"""Write the Spy vs Spy golden replays in ``golden/``.

Regenerate only after a deliberate change to the rules, and check the new files by
hand against shared/rules/spy-vs-spy.md before committing them:

    .venv/bin/python -m tests.games.spy_vs_spy.make_golden
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.spy_vs_spy import ENGINE
from games.spy_vs_spy.bots import BOTS

from .helpers import play

GOLDEN = Path(__file__).parent / "golden"

# name, seats, seed, options, bots, what the game shows
GAMES: list[tuple[str, int, int, dict[str, Any], list[str], str]] = [
    (
        "two_players_half_decks",
        2,
        4,
        {"half_decks": True},
        ["heuristic", "random"],
        "Two players sharing one deck, half each: three races, the -10 bonus.",
    ),
    (
        "single_player",
        1,
        8,
        {},
        ["heuristic"],
        "One player with 10 starting points and -5 at the end of every race.",
    ),
    (
        "three_players_tie_break",
        3,
        6,
        {},
        ["heuristic", "random", "heuristic"],
        "Three players with full decks; two tie for the win and race again alone.",
    ),
]


def _snapshots(seats: int, seed: int, options: dict[str, Any], moves: list[Any]) -> list[dict[str, Any]]:
    """Views at the start, at the first take phase, at the first tie-break race, and at the end."""
    wanted: dict[int, list[int | None]] = {0: [0, None], len(moves): [None]}
    state = ENGINE.start(seats, seed, options)
    took = tie = False
    for index, (seat, action) in enumerate(moves, start=1):
        state = ENGINE.apply(state, seat, action)
        if state.phase == "take" and not took:
            took = True
            wanted.setdefault(index, []).append(seats - 1)
        if state.standing.tie_break and not tie:
            tie = True
            wanted.setdefault(index, []).extend([0, None])
    out = []
    state = ENGINE.start(seats, seed, options)
    for index in range(len(moves) + 1):
        if index:
            seat, action = moves[index - 1]
            state = ENGINE.apply(state, seat, action)
        for viewer in wanted.get(index, []):
            out.append({"after_moves": index, "seat": viewer, "view": ENGINE.view(state, viewer)})
    return out


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, seats, seed, options, bots, about in GAMES:
        state, moves = play(seats, seed, options, bots=[BOTS[bot] for bot in bots])
        outcome = ENGINE.outcome(state)
        assert outcome is not None, name
        record = {
            "about": about,
            "regenerate": "python -m tests.games.spy_vs_spy.make_golden",
            "game": ENGINE.slug,
            "seats": seats,
            "seed": seed,
            "options": options,
            "bots": bots,
            "outcome": outcome.as_dict(),
            "views": _snapshots(seats, seed, options, moves),
        }
        head = json.dumps(record, indent=1)[: -len("\n}")]
        lines = ",\n".join("  " + json.dumps([seat, action]) for seat, action in moves)
        path = GOLDEN / f"{name}.json"
        path.write_text(f'{head},\n "moves": [\n{lines}\n ]\n}}\n')
        print(f"{path}: {len(moves)} moves, {outcome.detail['races']} races")


if __name__ == "__main__":
    main()
