"""Backup and restore as the README says them (scripts/backup, scripts/restore): a database with
results, standings and ratings is backed up, restored into a new database, and every row of every
table is found there as it was.

PostgreSQL: a database of the test's own on the server at 127.0.0.1:5432 (``FAULTS_POSTGRES``
overrides it, as for the fault tests), dumped with pg_dump and restored with pg_restore into
another new one; skipped where no server answers, and failed in CI, which has one. SQLite: the
file is backed up while a connection of the "site" holds writes that are still only in its
write-ahead log (a plain copy of the file would miss them), then restored over another file.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
POSTGRES = os.environ.get("FAULTS_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres")
REQUIRED = os.environ.get("CI") == "true" or bool(os.environ.get("SPYLEAGUE_REQUIRE_SERVICES"))
# The rows a restore must give back, each table non-empty in the demo data.
MUST_HOLD = (
    "scores_result",
    "scores_resultline",
    "tournaments_standing",
    "ratings_rating",
    "ratings_ratingpoint",
)


def site_env(**extra: str) -> dict[str, str]:
    keep = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL"}
    }
    return {**keep, "DJANGO_SETTINGS_MODULE": "spyleague.settings", "DJANGO_DEBUG": "1", **extra}


# The databases here are the test's own, made through the scripts: the suite's second pass in CI
# (the same tests on PostgreSQL, DATABASE_URL set) would only run them again.
pytestmark = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")), reason="makes databases of its own; run once, in the first pass"
)


def run(args: list[str], env: dict[str, str], *, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    if ok:
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def a_site_with_results(env: dict[str, str]) -> None:
    """Migrated, with the demo club's finished and running events: results, standings, ratings."""
    run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], env)
    run([sys.executable, "manage.py", "demo_data"], env)


# --- PostgreSQL ---------------------------------------------------------------------------------


def _server(name: str) -> str:
    return POSTGRES.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture
def two_databases() -> Iterator[tuple[str, str]]:
    psycopg = pytest.importorskip("psycopg")
    try:
        admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=2)
    except Exception as exc:
        if REQUIRED:
            pytest.fail(f"PostgreSQL does not answer at {POSTGRES}: CI runs the backup test on it ({exc}).")
        pytest.skip(f"PostgreSQL does not answer at {POSTGRES}")
    names = [f"spyleague_backup_{uuid.uuid4().hex[:8]}_{side}" for side in ("from", "into")]
    with admin:
        for name in names:
            admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield _server(names[0]), _server(names[1])
        finally:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def pg_rows(url: str) -> dict[str, Any]:
    """Every row of every table (in key order) and every sequence's position."""
    import psycopg

    with psycopg.connect(url) as conn:
        tables = [
            t
            for (t,) in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
        ]
        out: dict[str, Any] = {t: conn.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall() for t in tables}
        for (seq,) in conn.execute("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"):
            out[f"sequence {seq}"] = conn.execute(f'SELECT last_value, is_called FROM "{seq}"').fetchone()
    return out


def test_a_postgresql_dump_restored_into_a_new_database_holds_every_row(
    two_databases: tuple[str, str], tmp_path: Path
) -> None:
    source, target = two_databases
    a_site_with_results(site_env(DATABASE_URL=source))
    dump = tmp_path / "site.dump"
    run(["scripts/backup", str(dump)], site_env(DATABASE_URL=source))
    run(["scripts/restore", str(dump)], site_env(DATABASE_URL=target))
    before, after = pg_rows(source), pg_rows(target)
    for table in MUST_HOLD:
        assert before[table], f"the demo data has no {table} rows: the test would prove nothing"
    assert after.keys() == before.keys()
    assert [t for t in before if before[t] != after[t]] == []
    # The restored database is the site's, at its latest migration: nothing left to apply.
    run([sys.executable, "manage.py", "migrate", "--check"], site_env(DATABASE_URL=target))
    # A second restore over it is refused unless asked for, and leaves it as it is.
    refused = run(["scripts/restore", str(dump)], site_env(DATABASE_URL=target), ok=False)
    assert refused.returncode != 0 and "--replace" in refused.stderr
    run(["scripts/restore", "--replace", str(dump)], site_env(DATABASE_URL=target))
    assert pg_rows(target) == before


# --- SQLite -------------------------------------------------------------------------------------


def sqlite_rows(path: Path) -> dict[str, list[Any]]:
    with sqlite3.connect(path) as conn:
        tables = [
            t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")
        ]
        return {t: conn.execute(f'SELECT * FROM "{t}" ORDER BY rowid').fetchall() for t in tables}


def test_a_sqlite_backup_taken_while_the_site_writes_restores_every_row(tmp_path: Path) -> None:
    live, backup, restored = tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3", tmp_path / "new.sqlite3"
    a_site_with_results(site_env(SQLITE_PATH=str(live)))
    # The site, still running: a write committed to the write-ahead log and not yet copied into
    # the database file (the connection stays open, so nothing folds the log in).
    site = sqlite3.connect(live)
    site.execute("PRAGMA wal_autocheckpoint=0")
    with site:
        site.execute("UPDATE clubs_player SET name = 'Written during the backup' WHERE id = 1")
    assert Path(f"{live}-wal").stat().st_size > 0
    try:
        run(["scripts/backup", str(backup)], site_env(SQLITE_PATH=str(live)))
        before = sqlite_rows(live)
    finally:
        site.close()
    run(["scripts/restore", str(backup)], site_env(SQLITE_PATH=str(restored)))
    after = sqlite_rows(restored)
    for table in MUST_HOLD:
        assert before[table], f"the demo data has no {table} rows: the test would prove nothing"
    assert ("Written during the backup",) in [(row[1],) for row in after["clubs_player"]]
    assert [t for t in before if before[t] != after.get(t)] == []
    refused = run(["scripts/restore", str(backup)], site_env(SQLITE_PATH=str(restored)), ok=False)
    assert refused.returncode != 0 and "--replace" in refused.stderr
