"""The site's PostgreSQL backend: a database that is away is answered at once, a busy pool after its
timeout, dead connections are noticed, and which errors are which kind of trouble.

The pools here are of their own (an alias of each test's): one to a port where nothing listens
(a stopped server refuses at once), and, where a PostgreSQL answers on 127.0.0.1:5432 (CI, this
machine), one to it. The real outage, a server stopped and started again under the running site,
is tests/faults/test_database_outage.py.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import DatabaseError, IntegrityError, OperationalError
from django.db.utils import ConnectionHandler
from psycopg import errors
from psycopg_pool import PoolTimeout, TooManyRequests

from spyleague.core import database
from spyleague.core.database import Availability, Trouble, trouble
from spyleague.core.database.base import _AVAILABILITY, DatabaseAway, DatabaseWrapper
from tests.faults.procs import free_port

POSTGRES_PORT = 5432


def wrapped(cause: BaseException, as_: type[DatabaseError] = OperationalError) -> DatabaseError:
    error = as_(*cause.args)
    error.__cause__ = cause
    return error


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (PoolTimeout("couldn't get a connection after 3.00 sec"), Trouble.BUSY),
        (TooManyRequests("the pool 'pool-1' has already 20 requests waiting"), Trouble.BUSY),
        (errors.TooManyConnections("sorry, too many clients already"), Trouble.BUSY),
        (errors.DeadlockDetected("deadlock detected"), Trouble.BUSY),
        (errors.SerializationFailure("could not serialize access"), Trouble.BUSY),
        (errors.QueryCanceled("canceling statement due to statement timeout"), Trouble.BUSY),
        (errors.LockNotAvailable("could not obtain lock"), Trouble.BUSY),
        (psycopg.OperationalError("connection failed: Connection refused"), Trouble.AWAY),
        (psycopg.OperationalError("server closed the connection unexpectedly"), Trouble.AWAY),
        (psycopg.InterfaceError("the connection is closed"), Trouble.AWAY),
        (errors.AdminShutdown("terminating connection due to administrator command"), Trouble.AWAY),
        (errors.CannotConnectNow("the database system is starting up"), Trouble.AWAY),
        (errors.ConnectionFailure("connection failure"), Trouble.AWAY),
        (DatabaseAway("The database does not answer"), Trouble.AWAY),
        (sqlite3.OperationalError("database is locked"), Trouble.BUSY),
        (sqlite3.OperationalError("unable to open database file"), Trouble.AWAY),
        # Not trouble of this kind: refusals and defects, answered as before.
        (errors.UniqueViolation("duplicate key value"), None),
        (errors.ProgramLimitExceeded("index row size exceeds maximum"), None),
        (errors.UndefinedTable('relation "x" does not exist'), None),
        (errors.InFailedSqlTransaction("current transaction is aborted"), None),
        (sqlite3.OperationalError("no such table: x"), None),
        (ValueError("not a database error"), None),
    ],
)
def test_which_errors_are_trouble(error: BaseException, kind: Trouble | None) -> None:
    assert trouble(error) is kind
    as_ = IntegrityError if isinstance(error, errors.IntegrityError) else OperationalError
    assert trouble(wrapped(error, as_)) is kind  # as Django raises it: from the driver's


def test_a_database_found_away_is_tried_again_at_most_every_probe_seconds() -> None:
    now = [100.0]
    state, tries = Availability(clock=lambda: now[0]), []

    def refused() -> None:
        tries.append(now[0])
        raise OSError("refused")

    assert not state.known
    assert state.answers(refused) is False and state.away and len(tries) == 1
    now[0] += database.PROBE_SECONDS / 2
    assert state.answers(refused) is False and len(tries) == 1  # what the last try found
    now[0] += database.PROBE_SECONDS
    assert state.answers(lambda: tries.append(now[0])) is True and not state.away and len(tries) == 2
    now[0] += database.PROBE_SECONDS / 2
    assert state.answers(refused) is True and len(tries) == 2


def test_while_one_thread_tries_the_database_the_others_are_answered_at_once() -> None:
    now = [100.0]
    state = Availability(clock=lambda: now[0])

    def refused() -> None:
        raise OSError("refused")

    state.answers(refused)  # found away
    now[0] += database.PROBE_SECONDS  # and due to be tried again
    trying, release = threading.Event(), threading.Event()

    def slow() -> None:
        trying.set()
        release.wait(10)

    first = threading.Thread(target=state.answers, args=(slow,))
    first.start()
    assert trying.wait(10)
    started = time.monotonic()
    assert state.answers(slow) is False  # not a second try: the last finding, at once
    assert time.monotonic() - started < 0.5
    release.set()
    first.join(10)
    assert not state.away


POOL = {"min_size": 1, "max_size": 2, "timeout": 3, "reconnect_timeout": 2, "check": None}
ADMIN = f"postgresql://postgres@127.0.0.1:{POSTGRES_PORT}/postgres"


def wrapper(alias: str, port: int, **pool: Any) -> DatabaseWrapper:
    from django.conf import settings

    handler = ConnectionHandler(
        {
            "default": settings.DATABASES["default"],
            alias: {
                "ENGINE": "spyleague.core.database",
                "NAME": "postgres",
                "USER": "postgres",
                "HOST": "127.0.0.1",
                "PORT": str(port),
                "OPTIONS": {
                    "connect_timeout": 2,
                    "pool": {
                        "min_size": 1,
                        "max_size": 2,
                        "timeout": 3,
                        "reconnect_timeout": 2,
                        "check": None,
                    }
                    | pool,
                },
            },
        }
    )
    return handler[alias]  # type: ignore[return-value]


@pytest.fixture
def alias(django_db_blocker: Any) -> Iterator[str]:
    name = f"probe-{uuid.uuid4().hex[:8]}"
    with django_db_blocker.unblock():
        yield name
    pool = DatabaseWrapper._connection_pools.pop(name, None)  # type: ignore[attr-defined]
    if pool is not None:
        pool.close()
    _AVAILABILITY.pop(name, None)


def test_a_database_that_refuses_connections_is_answered_at_once_not_after_the_pool_timeout(
    alias: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = wrapper(alias, free_port())  # nothing listens there: a stopped server
    probes: list[int] = []
    real_probe = DatabaseWrapper._probe

    def probe(self: DatabaseWrapper, params: dict[str, Any]) -> None:
        probes.append(1)
        real_probe(self, params)

    monkeypatch.setattr(DatabaseWrapper, "_probe", probe)
    for _ in range(5):
        started = time.monotonic()
        with pytest.raises(OperationalError) as raised:
            db.ensure_connection()
        assert time.monotonic() - started < 1.0, "waited for the pool"
        assert trouble(raised.value) is Trouble.AWAY
        db.close()
    assert len(probes) < 5  # tried again at most every PROBE_SECONDS, not on each request


def postgres_answers() -> bool:
    try:
        psycopg.connect(
            f"postgresql://postgres@127.0.0.1:{POSTGRES_PORT}/postgres", connect_timeout=2
        ).close()
    except psycopg.Error:
        return False
    return True


needs_postgres = pytest.mark.skipif(not postgres_answers(), reason="no PostgreSQL on 127.0.0.1:5432")


@needs_postgres
def test_connections_that_died_in_the_pool_are_noticed_and_made_again(alias: str) -> None:
    db = wrapper(alias, POSTGRES_PORT, max_size=3)
    db.ensure_connection()  # opens the pool
    db.close()
    assert db.pool is not None
    taken = [db.pool.getconn() for _ in range(3)]
    pids = {conn.info.backend_pid for conn in taken}
    for conn in taken:
        db.pool.putconn(conn)
    with psycopg.connect(
        f"postgresql://postgres@127.0.0.1:{POSTGRES_PORT}/postgres", autocommit=True
    ) as admin:
        # As a restart of the server leaves them: every connection of the pool is dead.
        admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [list(pids)])
    started = time.monotonic()
    with db.cursor() as cursor:  # not an error: the pool's dead connections are replaced
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] not in pids
    db.close()
    assert time.monotonic() - started < 2.0
    stats = db.pool.get_stats()
    assert stats.get("returns_bad", 0) + stats.get("connections_lost", 0) >= len(pids)


@needs_postgres
def test_a_busy_pool_makes_a_request_wait_its_timeout_then_says_busy(alias: str) -> None:
    db = wrapper(alias, POSTGRES_PORT, min_size=1, max_size=1, timeout=0.3)
    db.ensure_connection()  # opens the pool
    db.close()
    assert db.pool is not None
    held = db.pool.getconn()  # the pool's one connection, in use
    try:
        started = time.monotonic()
        with pytest.raises(OperationalError) as raised:
            db.ensure_connection()
        waited = time.monotonic() - started
    finally:
        db.pool.putconn(held)
    assert 0.3 <= waited < 1.5
    assert trouble(raised.value) is Trouble.BUSY  # the database answers: it is not away


@needs_postgres
def test_a_connection_given_back_inside_a_transaction_is_handed_out_idle_and_usable(alias: str) -> None:
    # Django closes a connection inside a transaction as it closes any other (a request's end
    # under a test's transaction, a connection given up mid-way): it goes back to the pool with
    # autocommit off. Whoever takes it next must get it idle, and able to turn autocommit on.
    db = wrapper(alias, POSTGRES_PORT, min_size=1, max_size=1)
    db.ensure_connection()
    db.set_autocommit(False)  # as an atomic block begins
    with db.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    db.close()  # back to the pool, in its transaction, autocommit off
    assert db.pool is not None
    for _ in range(2):  # the pool's one connection, taken again
        db.ensure_connection()
        assert db.connection.info.backend_pid == pid
        assert db.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        assert db.get_autocommit()
        with db.cursor() as cursor:
            cursor.execute("SELECT 1")
            assert cursor.fetchone() == (1,)
        db.close()
