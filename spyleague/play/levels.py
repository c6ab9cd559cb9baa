"""The bots' levels in words: what a player chooses in the lobby and sees on a match's seats.

A game's bots are named in its ``BOTS`` (``random``, ``heuristic`` and, where the game has them,
stronger ones); a bot may say its own level (a ``label`` attribute: "Expert"), else the name's
usual word is used. Levels are listed weakest first, as lichess lists its engine's levels.
"""

from __future__ import annotations

from functools import cache

from games import engines, get_bots

# The usual word of each bot name, weakest first; a name not here comes after, by its own word.
WORDS: dict[str, str] = {
    "random": "Novice",
    "heuristic": "Beginner",
    "intermediate": "Intermediate",
    "expert": "Expert",
}


def _rank(name: str) -> tuple[int, str]:
    order = list(WORDS)
    return (order.index(name), name) if name in order else (len(order), name)


@cache
def level_of(game: str, name: str) -> str:
    """The level of the game's bot ``name`` in words ("Beginner"); the name itself, in words, for a
    bot the game does not have (a seat kept from an older version of the game)."""
    bot = get_bots(game).get(name)
    label = getattr(bot, "label", None)
    if isinstance(label, str) and label:
        return label
    return _word(name)


def _word(name: str) -> str:
    return WORDS.get(name) or name.replace("_", " ").capitalize()


@cache
def levels(game: str) -> tuple[tuple[str, str], ...]:
    """The game's bots as (name, level), weakest first."""
    return tuple((name, level_of(game, name)) for name in sorted(get_bots(game), key=_rank))


@cache
def all_levels() -> tuple[tuple[str, str], ...]:
    """Every bot name any game has, with its usual level in words, weakest first (the lobby's
    choice; a game without that level refuses it in words)."""
    names = {name for engine in engines() for name in get_bots(engine.slug)}
    return tuple((name, _word(name)) for name in sorted(names, key=_rank))


def bot_seat_name(game: str, bot: str, number: int) -> str:
    """A bot's seat as the pages name it: its level and its seat ("Expert bot 2")."""
    return f"{level_of(game, bot)} bot {number + 1}"
