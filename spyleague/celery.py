"""The Celery app. Tasks live in each app's ``tasks.py`` and stay thin: they take ids,
call a service, and are safe to run twice."""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spyleague.settings")


def redis_channels_close_after_a_lost_connection() -> None:
    """Let a worker ride out a Redis outage: close a Redis channel whose connection was lost.

    Without this, a worker that holds a message it has not acknowledged when Redis goes away
    exits for good ("Unrecoverable error: AttributeError: 'NoneType' object has no attribute
    'hostname'"). It holds one whenever a task waits for its countdown (the Spy vs Spy bots'
    follow-up runs), and in a prefork pool whenever one process runs a late-acknowledged task
    while the worker waits for the next message. This is what happens (kombu 5.7's Redis
    transport):

    1. The worker sees the connection drop and closes its connection. Closing the task channel
       first reads the reply of the BRPOP it is waiting on, so that a message Redis popped for
       it is not lost. With Redis gone that read raises a connection error, which leaves the
       channel half closed: not marked closed, its unacknowledged messages still on it. The
       connection's close swallows the error and goes on to close the transport, which forgets
       the connection's settings (``transport.client = None``).
    2. Celery then closes the channel again. Now the close gets to putting the unacknowledged
       messages back in the queue, which needs a new Redis client built from those settings:
       ``None.hostname`` raises AttributeError, which is not a connection error, so it goes
       up through the consumer to the worker, which stops.

    The fix: when that read fails with a connection error, finish the close at once, while the
    transport still knows where Redis is. Putting the messages back then fails with a connection
    error too (Redis is away), which the close's callers expect and ignore; the messages stay in
    Redis's table of unacknowledged messages, and a worker puts them back in the queue after the
    visibility timeout (CELERY_BROKER_TRANSPORT_OPTIONS). tests/faults/test_worker_faults.py
    stops Redis under a worker holding such a message.
    """
    from kombu.transport import redis as kombu_redis

    close = kombu_redis.Channel.close
    if getattr(close, "finishes_after_a_lost_connection", False):
        return

    def close_channel(self: Any) -> None:
        try:
            close(self)
        except self.connection_errors:
            if self.closed:
                raise
            close(self)  # the BRPOP's reply is gone (its read cleared _in_poll): close the rest

    close_channel.finishes_after_a_lost_connection = True  # type: ignore[attr-defined]
    kombu_redis.Channel.close = close_channel  # type: ignore[method-assign]


redis_channels_close_after_a_lost_connection()


def database_pools_kept_between_tasks() -> None:
    """Keep each worker process's pool of database connections from one task to the next.

    Celery's Django fixup (5.7) closes every connection before and after each task and, in a
    prefork worker with Django's connection pool on, closes the *pool* as well
    (``DjangoWorkerFixup._close_database``: https://github.com/celery/celery/issues/10554, the
    fix proposed in https://github.com/celery/celery/pull/10555). The next task then builds a new
    pool: ``DATABASE_POOL_MIN_SIZE`` fresh connections, each a new PostgreSQL backend process,
    its set-up queries and the pool's threads, for every bot's move and every confirmation's
    effects. Measured under ``benchmarks/load.py`` (py-spy over the worker): connecting was a
    large share of the worker's time, and PostgreSQL forked a backend for each.

    The pool is closed where it must be: in ``on_worker_process_init``, after the fork (an
    inherited pool's connections and threads are the parent's), which calls ``_close_database``
    itself and is left as it is. At a task's edges only the connections are closed, which hands
    each back to the pool (and checks it next time, ``core.database``). Once Celery keeps pools
    between tasks itself, ``tests/web/test_celery_patches.py`` fails: then remove this.
    """
    from celery.fixups.django import DjangoWorkerFixup  # type: ignore[attr-defined]  # (the stubs lack it)

    if getattr(DjangoWorkerFixup.close_database, "keeps_pools", False):
        return

    def close_database(self: Any, **kwargs: Any) -> None:
        for conn in self._db.connections.all(initialized_only=True):
            try:
                conn.close()  # back to the pool (with the pool on), else closed
            except self.interface_errors:
                pass
            except self.DatabaseError as exc:  # as Celery's own: a connection already closed
                if "closed" not in str(exc) and "not connected" not in str(exc):
                    raise

    close_database.keeps_pools = True  # type: ignore[attr-defined]
    DjangoWorkerFixup.close_database = close_database


database_pools_kept_between_tasks()

RECONNECT_SECONDS = 2.0


def _steady_consumer() -> type:
    """The worker's consumer, trying to reconnect to a lost broker every ``RECONNECT_SECONDS``.

    Celery's consumer leaves the pace to kombu's defaults: 2 s after the loss, then 2 s more
    after each failed try, up to 30 s. After an outage of half a minute the worker would thus
    sleep up to another 10 to 30 s after the broker is back, and jobs and bots wait that long.
    A try costs one refused connection, so trying every couple of seconds costs nothing.
    """
    from celery.worker.consumer import Consumer

    class SteadyConsumer(Consumer):
        def ensure_connected(self, conn: Any) -> Any:
            ensure = conn.ensure_connection

            def steadily(*args: Any, **kwargs: Any) -> Any:
                kwargs.setdefault("interval_start", 0)
                kwargs.setdefault("interval_step", RECONNECT_SECONDS)
                kwargs.setdefault("interval_max", RECONNECT_SECONDS)
                return ensure(*args, **kwargs)

            conn.ensure_connection = steadily
            return super().ensure_connected(conn)

    return SteadyConsumer


SteadyConsumer = _steady_consumer()

app = Celery("spyleague")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _trim_memory(**_: Any) -> None:
    """Each of the worker's processes gives freed memory back to the system (``core.memory``)."""
    from spyleague.core import memory

    memory.start_trimming()
    memory.start_memo_report()
