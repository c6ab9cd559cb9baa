"""Seeded chance. Engines never touch global random state.

Every random event draws from a generator derived from the match seed and a label
for that event (``chance(seed, "deal", 3)``), so the same seed and the same actions
always give the same game, and one event's draws never shift another's.
"""

from __future__ import annotations

import hashlib
import random


def chance(seed: int, *label: object) -> random.Random:
    """A generator for one random event of a game."""
    key = ":".join([str(seed), *map(str, label)]).encode()
    return random.Random(int.from_bytes(hashlib.blake2b(key, digest_size=16).digest(), "big"))


def shuffled[T](items: list[T] | tuple[T, ...], seed: int, *label: object) -> list[T]:
    """A shuffled copy of ``items`` for the event named by ``label``."""
    out = list(items)
    chance(seed, *label).shuffle(out)
    return out
