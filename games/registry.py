"""The registry: the only way the rest of the site finds a game.

Every game the club plays is listed here with its seats and how it is won, so
tournaments and score sheets work for a game before its engine exists. ``get_engine``
returns the rules engine for a slug once it is written.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from .core import Bot, Engine, RandomBot, UnknownGame

# A game listed for this many players or more is played by "any number" (pages print the range).
ANY_NUMBER = 99


@dataclass(frozen=True)
class GameInfo:
    slug: str
    title: str
    seats: range
    lowest_wins: bool
    module: str  # the engine's package; it exposes ``ENGINE``
    blurb: str

    @property
    def players(self) -> str:
        """The range of players in words: "3 to 6 players", "any number of players"."""
        if self.seats.stop - 1 >= ANY_NUMBER:
            return "any number of players" if self.seats.start <= 1 else f"{self.seats.start} or more players"
        return f"{self.seats.start} to {self.seats.stop - 1} players"

    @property
    def has_engine(self) -> bool:
        try:
            get_engine(self.slug)
        except UnknownGame:
            return False
        return True


GAMES: dict[str, GameInfo] = {
    info.slug: info
    for info in (
        GameInfo(
            "black-spy",
            "Black Spy",
            range(3, 7),
            True,
            "games.black_spy",
            "Trick taking for 3-6: avoid the black cards, lowest score wins.",
        ),
        GameInfo(
            "mister-spy",
            "Before I Kill You, Mister Spy",
            range(2, 7),
            False,
            "games.mister_spy",
            "Build lairs, capture spies, taunt them and foil your rivals' taunts.",
        ),
        GameInfo(
            "spy-vs-spy",
            "Spy vs Spy",
            # "unlimited amount of players": any table, as the score sheet and tournaments see it
            # (pages print the range, so 99 stands for "as many as you like"); an online race
            # takes fewer (the engine's ``seats``, see its ruling "players").
            range(1, 100),
            True,
            "games.spy_vs_spy",
            "A real-time race through your own deck; first to zero wins.",
        ),
        GameInfo(
            "spycatcher",
            "Spycatcher",
            range(2, 7),
            False,
            "games.spycatcher",
            "Roll and move to gather four permissions and publish your book.",
        ),
        GameInfo(
            "spies",
            "Spies!",
            range(2, 6),
            False,
            "games.spies",
            "Five secret services steal each other's secrets, 1933-1939.",
        ),
    )
}


def games() -> list[GameInfo]:
    """Every game the club plays, with or without an engine."""
    return list(GAMES.values())


def game_info(slug: str) -> GameInfo:
    try:
        return GAMES[slug]
    except KeyError:
        raise UnknownGame(f"No game is called {slug!r}.") from None


@cache
def get_engine(slug: str) -> Engine:
    info = game_info(slug)
    try:
        module = importlib.import_module(info.module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and info.module.startswith(exc.name):
            raise UnknownGame(f"{info.title} has no rules engine yet.") from None
        raise
    engine = getattr(module, "ENGINE", None)
    if engine is None:
        raise UnknownGame(f"{info.title} has no rules engine yet.")
    return engine  # type: ignore[no-any-return]


def engines() -> list[Engine]:
    """The engines that exist, in the registry's order."""
    out = []
    for info in GAMES.values():
        try:
            out.append(get_engine(info.slug))
        except UnknownGame:
            continue
    return out


def most_seats_online() -> int:
    """The most seats any engine takes in a match played online (a form's upper bound)."""
    return max(e.seats.stop - 1 for e in engines())


def get_bots(slug: str) -> dict[str, Bot]:
    """The bots that can fill a seat of this game: the engine's own, else a random bot."""
    info = game_info(slug)
    try:
        module = importlib.import_module(f"{info.module}.bots")
    except ModuleNotFoundError:
        return {"random": RandomBot()}
    bots: dict[str, Bot] = dict(getattr(module, "BOTS", {}))
    return bots or {"random": RandomBot()}
