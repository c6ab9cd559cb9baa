"""Pure rules engines for the five games. Nothing here imports Django."""

from .core import IllegalAction, InvalidOptions, Outcome, UnknownGame
from .registry import GameInfo, engines, game_info, games, get_bots, get_engine, most_seats_online

__all__ = [
    "GameInfo",
    "IllegalAction",
    "InvalidOptions",
    "Outcome",
    "UnknownGame",
    "engines",
    "game_info",
    "games",
    "get_bots",
    "get_engine",
    "most_seats_online",
]
