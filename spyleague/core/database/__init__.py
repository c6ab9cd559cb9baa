"""When the database cannot answer: how the site tells, and what it says.

Two kinds of trouble are answered 503 with ``Retry-After`` (``core.middleware.DatabaseUnavailable``),
never 500, and a job cut off by either is run again (``core.jobs.run_job``):

- ``BUSY``: the database is there but could not serve this request in time: every connection of
  the process's pool was in use for ``DATABASE_POOL_TIMEOUT`` seconds (psycopg_pool's
  ``PoolTimeout``), the server has no connection left, or a transaction lost a deadlock even after
  ``core.locks.atomic_retrying`` ran it again. Trying again in a moment works.
- ``AWAY``: the database cannot be reached at all: stopped, restarting, its host or network gone
  (no connection can be made, or the one in use was cut). The site's PostgreSQL backend
  (``base.DatabaseWrapper``) then answers every request of the process at once for as long as a
  fresh connection is refused, and tries again at most every ``PROBE_SECONDS``.

Anything else the database refuses (a constraint, a value out of range) is not trouble of this
kind: it is a defect or a refusal of its own, answered as before.

``base`` is the backend itself: settings name ``spyleague.core.database`` as the ENGINE of a
PostgreSQL database.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from enum import StrEnum


class Trouble(StrEnum):
    BUSY = "busy"
    AWAY = "away"


# What a page, a fragment and the API say, in words, and when to ask again (seconds).
TITLES = {Trouble.BUSY: "The site is very busy", Trouble.AWAY: "The site cannot reach its database"}
REASONS = {
    Trouble.BUSY: "The site is too busy to answer at the moment, so nothing was read or saved. "
    "Try again in a few seconds.",
    Trouble.AWAY: "The site cannot reach its database at the moment, so nothing was read or saved. "
    "It is usually back within a minute: try again shortly.",
}
RETRY_AFTER = {Trouble.BUSY: 2, Trouble.AWAY: 5}

# PostgreSQL's codes (SQLSTATE) of each kind. Class 08 is "connection exception"; 57P01-57P03 a
# server shutting down or starting; 57P05 an idle session the server closed. 53300: too many
# connections; 40001, 40P01: a serialization failure, a deadlock; 55P03: a lock not available in
# time; 57014: a statement cancelled (a statement timeout).
_AWAY_CODES = frozenset({"57P01", "57P02", "57P03", "57P05"})
_BUSY_CODES = frozenset({"53300", "40001", "40P01", "55P03", "57014"})
# SQLite's: its lock waited for longer than its timeout; its file could not be opened.
_SQLITE = {"database is locked": Trouble.BUSY, "database table is locked": Trouble.BUSY}
_SQLITE_AWAY = ("unable to open database file", "disk i/o error")


def trouble(exc: BaseException | None) -> Trouble | None:
    """Which trouble ``exc`` is (or what it was raised from): ``BUSY``, ``AWAY``, or None."""
    import psycopg
    from psycopg_pool import PoolTimeout, TooManyRequests

    seen = 0
    while exc is not None and seen < 8:
        seen += 1
        if isinstance(exc, PoolTimeout | TooManyRequests):
            return Trouble.BUSY
        if isinstance(exc, psycopg.Error):
            code = exc.sqlstate
            if code in _BUSY_CODES:
                return Trouble.BUSY
            if code in _AWAY_CODES or (code or "").startswith("08"):
                return Trouble.AWAY
            if code is None and isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
                return Trouble.AWAY  # no answer from a server at all: refused, cut off, closed
            return None
        if isinstance(exc, sqlite3.OperationalError):
            message = str(exc).lower()
            if message in _SQLITE:
                return _SQLITE[message]
            return Trouble.AWAY if message.startswith(_SQLITE_AWAY) else None
        exc = exc.__cause__
    return None


PROBE_SECONDS = 0.5  # how often, at most, one request of a process tries a fresh connection


class Availability:
    """Whether one database (one process's pool of connections to it) answers, as last found.

    A fresh connection beside the pool (``answers``) says it, made at most once every
    ``PROBE_SECONDS``: in between, and while one is being made, callers get what the last one
    found at once. Found away, every request of the process is answered at once without waiting
    for the pool, and the next try (one request, ``PROBE_SECONDS`` later) finds it back.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._away = False
        self._known = False  # whether a try was made at all
        self._tried = 0.0  # clock() when the last try ended
        self._trying = False

    @property
    def away(self) -> bool:
        return self._away

    @property
    def known(self) -> bool:
        return self._known

    def answers(self, probe: Callable[[], None]) -> bool:
        """Whether the database answers: ``probe()`` (which raises when no connection can be made),
        unless it was tried less than ``PROBE_SECONDS`` ago or is being tried right now: then what
        the last try found."""
        with self._lock:
            if self._trying or (self._known and self._clock() - self._tried < PROBE_SECONDS):
                return not self._away
            self._trying = True
        away = False
        try:
            probe()
        except Exception:
            away = True
        finally:
            with self._lock:
                self._away, self._known, self._trying, self._tried = away, True, False, self._clock()
        return not away
