"""Errors raised by the rules engines."""


class IllegalAction(ValueError):
    """An action that the rules do not allow in this state.

    ``reason`` is a sentence a person can read; the web layer shows it as it is.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidOptions(ValueError):
    """Options for ``Engine.start`` that the engine does not know or cannot accept."""


class UnknownGame(LookupError):
    """No game, or no engine yet, under that slug."""
