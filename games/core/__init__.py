"""Shared pieces of the rules engines: the protocol, errors, seeded chance, options, bots."""

from .actions import is_listed, same_json
from .bots import Bot, RandomBot, play_out
from .chance import chance, shuffled
from .errors import IllegalAction, InvalidOptions, UnknownGame
from .log import LogEntry, log_events
from .options import Option, describe_options, validate_options
from .protocol import Action, Engine, Outcome, State, places_from_scores, replay

__all__ = [
    "Action",
    "Bot",
    "Engine",
    "IllegalAction",
    "InvalidOptions",
    "LogEntry",
    "Option",
    "Outcome",
    "RandomBot",
    "State",
    "UnknownGame",
    "chance",
    "describe_options",
    "is_listed",
    "log_events",
    "places_from_scores",
    "play_out",
    "replay",
    "same_json",
    "shuffled",
    "validate_options",
]
