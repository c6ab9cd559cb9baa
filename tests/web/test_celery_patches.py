"""The worker's patches of Celery (``spyleague.celery``): each does what it says, and each fails
here once the upstream behaviour it works around changes, so that it can be removed."""

from __future__ import annotations

from typing import Any

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.db import DatabaseError, InterfaceError

import spyleague.celery as site_celery


class _Connection:
    """A stand-in for one of Django's connections with the pool on: what was done to it."""

    def __init__(self, alias: str = "default") -> None:
        self.alias = alias
        self.connection = None  # (no driver's connection to close without a word after a fork)
        self.done: list[str] = []

    def close(self) -> None:
        self.done.append("close")

    def close_pool(self) -> None:
        self.done.append("close_pool")


class _Connections:
    def __init__(self, *connections: _Connection) -> None:
        self._all = connections

    def all(self, initialized_only: bool = False) -> tuple[_Connection, ...]:
        return self._all


class _Worker:
    pool_cls = "celery.concurrency.prefork:TaskPool"


def _fixup(connection: _Connection, settings: Any) -> DjangoWorkerFixup:
    fixup = DjangoWorkerFixup.__new__(DjangoWorkerFixup)
    fixup.db_reuse_max = None
    fixup._db = type("DB", (), {"connections": _Connections(connection)})()  # type: ignore[assignment]
    fixup._settings = settings
    fixup.interface_errors = (InterfaceError,)
    fixup.DatabaseError = DatabaseError
    fixup.worker = _Worker()  # type: ignore[assignment]
    return fixup


@pytest.fixture
def pooled_settings() -> Any:
    return type("Settings", (), {"DATABASES": {"default": {"OPTIONS": {"pool": {"min_size": 2}}}}})()


def test_celery_still_closes_the_pool_after_each_task(pooled_settings: Any) -> None:
    """Celery's own clean-up closes a prefork worker's pool (celery/celery#10554). When this fails,
    Celery keeps pools between tasks itself: remove ``database_pools_kept_between_tasks``."""
    connection = _Connection()
    _fixup(connection, pooled_settings)._close_database()
    assert connection.done == ["close", "close_pool"]


def test_the_pool_is_kept_at_a_tasks_edges(pooled_settings: Any) -> None:
    assert getattr(DjangoWorkerFixup.close_database, "keeps_pools", False)
    connection = _Connection()
    fixup = _fixup(connection, pooled_settings)
    fixup.on_task_prerun(sender=type("Task", (), {"request": object()})())
    fixup.on_task_postrun(sender=type("Task", (), {"request": object()})())
    assert connection.done == ["close", "close"]  # each handed back to the pool, which stays


def test_the_pool_is_still_closed_after_the_fork(pooled_settings: Any) -> None:
    """A worker process starts without its parent's pool (its connections and threads)."""
    connection = _Connection()
    fixup = _fixup(connection, pooled_settings)
    fixup.close_cache = lambda: None  # type: ignore[method-assign]
    fixup.on_worker_process_init()
    assert connection.done == ["close", "close_pool"]


def test_a_connection_already_closed_is_no_error(pooled_settings: Any) -> None:
    class Closed(_Connection):
        def close(self) -> None:
            raise DatabaseError("the connection is closed")

    fixup = _fixup(Closed(), pooled_settings)
    fixup.close_database()  # as Celery's own, ignored

    class Broken(_Connection):
        def close(self) -> None:
            raise DatabaseError("something else")

    with pytest.raises(DatabaseError):
        _fixup(Broken(), pooled_settings).close_database()


def test_patching_twice_changes_nothing() -> None:
    patched = DjangoWorkerFixup.close_database
    site_celery.database_pools_kept_between_tasks()
    assert DjangoWorkerFixup.close_database is patched
