"""``core.locks``: a transaction that lost a deadlock runs again; a Conflict is a 409 everywhere."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import OperationalError, connection, transaction

from spyleague.clubs.models import Club
from spyleague.core.locks import ATTEMPTS, Conflict, atomic_retrying, retryable


class _Driver(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def _wrapped(sqlstate: str) -> OperationalError:
    """An error as Django raises it: its own class, the driver's error as the cause."""
    try:
        try:
            raise _Driver(sqlstate)
        except _Driver as driver:
            raise OperationalError(str(driver)) from driver
    except OperationalError as exc:
        return exc


def test_a_deadlock_and_a_serialization_failure_are_worth_running_again() -> None:
    assert retryable(_wrapped("40P01")) and retryable(_wrapped("40001"))
    assert not retryable(_wrapped("23505")) and not retryable(ValueError("no"))


@pytest.mark.django_db(transaction=True)
def test_a_service_runs_again_after_losing_a_race_and_gives_up_after_a_few(monkeypatch: Any) -> None:
    monkeypatch.setattr("spyleague.core.locks.time.sleep", lambda seconds: None)
    calls: list[int] = []

    @atomic_retrying
    def flaky(fail: int) -> int:
        calls.append(1)
        if len(calls) <= fail:
            raise _wrapped("40P01")
        return len(calls)

    assert flaky(2) == 3
    calls.clear()
    with pytest.raises(OperationalError):
        flaky(ATTEMPTS)
    assert len(calls) == ATTEMPTS
    calls.clear()
    with transaction.atomic(), pytest.raises(OperationalError):
        flaky(1)  # inside someone else's transaction: the outermost caller's to run again
    assert len(calls) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="a real deadlock needs PostgreSQL's row locks")
def test_a_real_deadlock_on_postgresql_is_run_again_and_both_transactions_commit() -> None:
    """Two transactions lock two clubs in opposite orders. PostgreSQL aborts the one with the
    short deadlock timeout; ``atomic_retrying`` runs it again and it commits after the other."""
    a = Club.objects.create(name="Alpha", slug="alpha")
    b = Club.objects.create(name="Beta", slug="beta")
    first_has_a, second_has_b = threading.Event(), threading.Event()
    attempts: list[int] = []
    errors: list[BaseException] = []

    def lock(club: Club) -> None:
        Club.objects.select_for_update().get(pk=club.pk)

    def patient() -> None:
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL deadlock_timeout = '20s'")
                lock(a)
                first_has_a.set()
                second_has_b.wait(10)
                lock(b)
                Club.objects.filter(pk=a.pk).update(city="patient")
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    @atomic_retrying
    def hasty() -> None:
        attempts.append(1)
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL deadlock_timeout = '50ms'")
        lock(b)
        second_has_b.set()
        first_has_a.wait(10)
        lock(a)
        Club.objects.filter(pk=b.pk).update(city="hasty")

    def run_hasty() -> None:
        try:
            hasty()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=patient), threading.Thread(target=run_hasty)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    assert len(attempts) == 2  # lost the deadlock once, then ran again
    assert {c.name: c.city for c in Club.objects.filter(pk__in=[a.pk, b.pk])} == {
        "Alpha": "patient",
        "Beta": "hasty",
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's lock_timeout")
def test_a_lock_held_elsewhere_is_waited_for_a_bounded_time_then_the_site_is_busy() -> None:
    """A transaction holds a club's row; another that needs it waits ``DATABASE_LOCK_TIMEOUT``
    (the connection's ``lock_timeout``), then fails as BUSY (a 503 with Retry-After for a
    request, another try for a job), never longer."""
    import time

    from django.conf import settings

    from spyleague.core.database import Trouble, trouble

    club = Club.objects.create(name="Alpha", slug="alpha")
    held, done = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                Club.objects.select_for_update().get(pk=club.pk)
                held.set()
                done.wait(60)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        with connection.cursor() as cursor:
            cursor.execute("SELECT setting FROM pg_settings WHERE name = 'lock_timeout'")  # in ms
            assert int(cursor.fetchone()[0]) == int(settings.DATABASE_LOCK_TIMEOUT * 1000)
        started = time.monotonic()
        with pytest.raises(OperationalError) as raised, transaction.atomic():
            Club.objects.select_for_update().get(pk=club.pk)
        waited = time.monotonic() - started
    finally:
        done.set()
        holder.join(30)
    assert trouble(raised.value) is Trouble.BUSY
    assert settings.DATABASE_LOCK_TIMEOUT * 0.9 <= waited < settings.DATABASE_LOCK_TIMEOUT + 5


@pytest.mark.django_db
def test_a_conflict_no_view_answered_is_a_409_page_and_json(rf: Any) -> None:
    from spyleague.core.middleware import BadInput

    middleware = BadInput(lambda request: None)  # type: ignore[arg-type,return-value]
    page = middleware.process_exception(rf.get("/events/1/"), Conflict("The draft was discarded meanwhile."))
    api = middleware.process_exception(
        rf.get("/api/events/1/"), Conflict("The draft was discarded meanwhile.")
    )
    assert page is not None and page.status_code == 409 and b"discarded meanwhile" in page.content
    assert api is not None and api.status_code == 409 and b"discarded meanwhile" in api.content
