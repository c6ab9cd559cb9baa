"""Django's PostgreSQL backend, with a pool that notices a database that went away or came back.

psycopg's pool, left to itself, meets a stopped database badly: every request waits the pool's
whole timeout for a connection that cannot come (and the checks of the dead connections left in
the pool sleep between them), and once the database is back a pool that kept failing may wait
tens of seconds before its next try. Here, for a pool (``OPTIONS["pool"]``), whether the
database answers is known (``core.database.Availability``: a fresh connection beside the pool,
tried at most every ``PROBE_SECONDS``), and:

- While the database is away, no request waits for the pool: each is answered at once
  (``DatabaseAway``, a 503 in words), and one every ``PROBE_SECONDS`` tries a fresh connection.
  When that is made, the pool serves again, making new connections as requests ask for them
  (the settings keep its ``reconnect_timeout`` short, so that it is not stuck retrying old ones).
- It is tried when a process first asks for a connection, when a connection taken from the pool
  is found dead (an empty query, as psycopg's own check makes; the pool then checks all its idle
  connections at once: after a restart they all are), when the pool could not give a connection
  in time, and when a query fails because its connection was cut.
- A busy pool (every connection in use) makes a request wait up to its timeout
  (``DATABASE_POOL_TIMEOUT``): ``PoolTimeout``, answered 503 too, "busy".

The settings set the pool's ``check`` to None: the check is made here.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from django.db.utils import DatabaseErrorWrapper
from django.utils.asyncio import async_unsafe
from django.utils.functional import cached_property
from psycopg_pool import ConnectionPool, PoolTimeout

from . import Availability, Trouble, trouble

log = logging.getLogger(__name__)

_AVAILABILITY: dict[str, Availability] = {}
_LOCK = threading.Lock()


class DatabaseAway(psycopg.OperationalError):
    """No connection to the database can be made just now (a fresh one was refused)."""


REFUSED = "The database does not answer: a fresh connection was refused."


def availability(alias: str) -> Availability:
    """What is known in this process of whether the database called ``alias`` answers."""
    with _LOCK:
        return _AVAILABILITY.setdefault(alias, Availability())


class _NoticingErrors(DatabaseErrorWrapper):
    """Django's translation of the driver's errors; a query whose connection was cut also asks
    whether the database is away, so that the next requests know at once."""

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        noticed = exc_value is not None and not isinstance(exc_value, DatabaseAway | PoolTimeout)
        if noticed and trouble(exc_value) is Trouble.AWAY:
            self.wrapper.database_answers()  # type: ignore[attr-defined]  # (stubs omit it)
        super().__exit__(exc_type, exc_value, traceback)


def _check(connection: psycopg.Connection[Any]) -> None:
    """Whether a connection taken from the pool is alive (an empty query, which raises when it is
    not), leaving it as it was found: idle, outside any transaction.

    A connection comes back to the pool with its ``autocommit`` as its last holder left it: off,
    when Django closed it inside an atomic block (a request's end under a test's transaction, a
    connection given up mid-transaction). The query must then not open a transaction of its own:
    Django's ``connect()`` turns ``autocommit`` on next, which psycopg refuses in a transaction
    ("can't change 'autocommit' now"). psycopg_pool's own check runs the query in autocommit;
    a connection that is somehow still in a transaction is rolled back first."""
    if connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        connection.rollback()
    ConnectionPool.check_connection(connection)


class DatabaseWrapper(base.DatabaseWrapper):
    @cached_property
    def wrap_database_errors(self) -> DatabaseErrorWrapper:
        return _NoticingErrors(self)

    def database_answers(self) -> bool:
        """Whether the database answers, as last found (see ``Availability.answers``)."""
        if self.pool is None:
            return True
        return availability(self.alias).answers(lambda: self._probe(self.get_connection_params()))

    @async_unsafe
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        pool = self.pool
        if pool is None:
            return super().get_new_connection(conn_params)
        state = availability(self.alias)
        if (state.away or not state.known) and not self.database_answers():
            raise DatabaseAway(REFUSED)
        for tried in range(3):
            try:
                connection = super().get_new_connection(conn_params)
            except PoolTimeout:
                if not self.database_answers():  # it was not busy: it went away meanwhile
                    raise DatabaseAway(REFUSED) from None
                raise
            try:
                _check(connection)
            except psycopg.Error:
                # Dead in the pool (the server restarted, or went away): give it back to be
                # replaced, with every idle one that died with it, and see whether a fresh
                # connection can be made at all.
                pool.putconn(connection)
                pool.check()
                if tried == 0 and not self.database_answers():
                    log.warning("The database %r does not answer", self.alias)
                    raise DatabaseAway(REFUSED) from None
                continue
            return connection
        raise DatabaseAway("The database does not answer: every connection from the pool was dead.")

    def _probe(self, conn_params: dict[str, Any]) -> None:
        """Make one fresh connection beside the pool and close it (raises when it cannot)."""
        params = {k: v for k, v in conn_params.items() if k not in ("cursor_factory", "context")}
        psycopg.connect(**params, autocommit=True).close()
