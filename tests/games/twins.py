"""Twin states: the check that no view leaks, whatever the game.

A twin of a state, for one viewer (a seat, or ``None`` for a spectator), is the same table
with everything that viewer may not see changed: hidden hands redealt, decks reordered,
face-down cards swapped with others of the same back, answers not yet shown redrawn, the
seed of the chance still to come replaced. The viewer must see exactly the same view of
both, and a seat must be offered exactly the same legal actions (``check_twins``). Each game's
``twins.py`` builds its twins; its ``test_twins.py`` checks every view at every step of random
games.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterable, Iterator

from games.core.protocol import Engine, State
from tests.games.protocol import Scramble

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


def check_twins(
    engine: Engine,
    state: State,
    viewers: Iterable[int | None],
    twin: Scramble,
    rng: random.Random,
    where: object = None,
) -> None:
    """Each viewer sees the same view of ``state`` and of a twin made for it, and a seat is offered
    the same legal actions in both (a legal list must not tell what the view hides)."""
    for viewer in viewers:
        other = twin(state, viewer, rng)
        view = json.dumps(engine.view(state, viewer))
        assert json.dumps(engine.view(other, viewer)) == view, ("the view shows what it hides", viewer, where)
        if viewer is not None:
            legal = engine.legal(state, viewer)
            assert engine.legal(other, viewer) == legal, ("the legal actions show it", viewer, where)
