"""The fault tests run wherever ``redis-server`` is installed, and must run in CI, where they run on
PostgreSQL: a database pool emptied by event streams (the fault the Redis outage test stops) exists
only there, so on SQLite they would prove less than they say."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .procs import POSTGRES, Postgres, Site, have_redis_server, postgres_answers, postgres_bin, site

REQUIRED = os.environ.get("CI") == "true" or bool(os.environ.get("SPYLEAGUE_REQUIRE_SERVICES"))


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Site]:
    """A database, a Redis and the site's processes of this test's own (started by the test)."""
    if not have_redis_server():
        if REQUIRED:
            pytest.fail("redis-server is not installed: CI must run the fault tests.")
        pytest.skip("redis-server is not installed (apt-get install redis-server).")
    if REQUIRED and not postgres_answers():
        pytest.fail(f"PostgreSQL does not answer at {POSTGRES}: CI runs the fault tests on it.")
    with site(tmp_path) as s:
        yield s


@pytest.fixture
def deployment_with_its_own_postgres(tmp_path: Path) -> Iterator[Site]:
    """As ``deployment``, on a PostgreSQL cluster of the test's own, which it can stop and start."""
    if not have_redis_server():
        if REQUIRED:
            pytest.fail("redis-server is not installed: CI must run the fault tests.")
        pytest.skip("redis-server is not installed (apt-get install redis-server).")
    if postgres_bin() is None:
        if REQUIRED:
            pytest.fail("PostgreSQL's server programs (initdb, pg_ctl) are not installed: CI runs this test.")
        pytest.skip("PostgreSQL's server programs are not installed (apt-get install postgresql).")
    with site(tmp_path, Postgres()) as s:
        yield s
