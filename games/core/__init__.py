"""Shared pieces of the rules engines: the protocol, errors, seeded chance, options, bots."""

from .bots import Bot, RandomBot
from .chance import chance, shuffled
from .errors import IllegalAction, InvalidOptions, UnknownGame
from .options import Option, describe_options, validate_options
from .protocol import Action, Engine, Outcome, State, places_from_scores, replay

__all__ = [
    "Action",
    "Bot",
    "Engine",
    "IllegalAction",
    "InvalidOptions",
    "Option",
    "Outcome",
    "RandomBot",
    "State",
    "UnknownGame",
    "chance",
    "describe_options",
    "places_from_scores",
    "replay",
    "shuffled",
    "validate_options",
]
