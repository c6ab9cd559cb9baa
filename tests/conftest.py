"""Shared fixtures: people, clubs and API clients."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spyleague.settings")
# Each pytest-xdist worker publishes on Redis channels of its own: its matches have the same
# ids as the other worker's, and Redis's publish and subscribe know no database numbers.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["REDIS_PREFIX"] = f"spyleague-test-{os.environ['PYTEST_XDIST_WORKER']}"


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    """Passwords in tests are hashed with a cheap hasher: the site's own (PBKDF2 with over a
    million rounds) takes one to two seconds a user on a shared machine, and the tests make
    hundreds of users. Logging in through the pages works the same way with either. (Django's
    setting_changed receiver clears the cached hashers when the override starts and ends.)"""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True, scope="session")
def redis_names_of_this_worker() -> Iterator[None]:
    """The settings say this worker's Redis prefix even if they were read before the line above."""
    from django.test import override_settings

    with override_settings(REDIS_PREFIX=os.environ.get("REDIS_PREFIX", "spyleague")):
        yield


# The rates of the sign-up, login and token throttles in tests: high enough that the tests that
# sign up or log in by the dozen (the fuzzers) are never throttled by accident. The throttle's own
# tests set the rates they test (tests/web/core/test_throttles.py).
TEST_RATES = {"signup": "100000/h", "password": "100000/h", "token": "100000/h"}


@pytest.fixture(autouse=True, scope="session")
def throttles_out_of_the_way() -> Iterator[None]:
    """The rates above, and the counts in this process's memory even where the site's Redis is
    configured (CI): clearing them between tests must not empty a Redis database that others
    use. The throttle's test on Redis (tests/faults/test_throttle_outage.py) runs the site."""
    from django.conf import settings
    from django.test import override_settings

    local = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle-tests"}
    with override_settings(SPYLEAGUE_RATES=TEST_RATES, CACHES={**settings.CACHES, "throttle": local}):
        yield


@pytest.fixture(autouse=True, scope="session")
def page_cache_in_memory() -> Iterator[None]:
    """The pages' cache (spyleague.core.cache) in this process's memory even where the site's
    Redis is configured (CI), for the reason above; cleared before each test."""
    from django.conf import settings
    from django.test import override_settings

    local = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "page-tests"}
    with override_settings(CACHES={**settings.CACHES, "default": local}):
        yield


@pytest.fixture(autouse=True)
def page_cache_cleared() -> Iterator[None]:
    from django.core.cache import caches

    caches["default"].clear()
    yield


@pytest.fixture(autouse=True)
def throttle_counts_cleared() -> Iterator[None]:
    """Each test counts from zero: what one test sent never throttles the next."""
    from django.core.cache import caches

    from spyleague.core.throttles import CACHE, THROTTLE_REDIS

    caches[CACHE].clear()
    THROTTLE_REDIS.over()
    yield


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    from tests.factories import UserFactory

    def make(**kwargs: Any) -> Any:
        return UserFactory(**kwargs)

    return make


@pytest.fixture
def organiser(make_user: Callable[..., Any]) -> Any:
    return make_user(username="olga", player_name="Olga Organiser")


@pytest.fixture
def club(organiser: Any) -> Any:
    from spyleague.clubs.services import club_create

    return club_create(user=organiser, name="Test Club", city="Bath")


@pytest.fixture
def api_client() -> Any:
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture(autouse=True)
def celery_inline_unless_services(request: Any) -> Any:
    """Tasks run inline in every test but the ones about the live services.

    Against the real services (.ci/run) the broker is Redis and a worker runs, but most tests
    hold their data in a transaction the worker cannot see; they keep Celery inline, as the
    site does by default. Tests marked ``services`` use the broker and the live worker.
    """
    from spyleague.celery import app

    if request.node.get_closest_marker("services"):
        yield
        return
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    # The site asks its settings whether Celery is eager (to run a task here and now, not in a
    # thread beside the request that would not see this test's transaction): both say the same.
    settings = request.getfixturevalue("settings")
    settings.CELERY_TASK_ALWAYS_EAGER = True
    yield
    app.conf.task_always_eager = before
