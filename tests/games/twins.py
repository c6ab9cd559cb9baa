"""Twin states: the check that no view leaks, whatever the game.

A twin of a state, for one viewer (a seat, or ``None`` for a spectator), is the same table
with everything that viewer may not see changed: hidden hands redealt, decks reordered,
face-down cards swapped with others of the same back, answers not yet shown redrawn, the
seed of the chance still to come replaced. The viewer must see exactly the same view of
both (``tests.games.protocol.check_views_hide``). Each game's ``twins.py`` builds its twins;
its ``test_twins.py`` checks every view at every step of random games.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

#: How long each game's twin test plays random games, in seconds (at least ``LEAST`` games).
BUDGET = 3.0
LEAST = 4


def timed_seeds(seconds: float = BUDGET, least: int = LEAST) -> Iterator[int]:
    """Seeds 0, 1, 2 ... for random games, until ``seconds`` have passed and ``least`` were given."""
    began = time.monotonic()
    seed = 0
    while seed < least or time.monotonic() - began < seconds:
        yield seed
        seed += 1
