"""Settings come from the environment; production settings pass ``check --deploy``."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "CELERY", "DJANGO", "SECURE"))
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True
    )


def test_production_settings_pass_check_deploy() -> None:
    env = {
        "DJANGO_DEBUG": "0",
        "SECRET_KEY": "k" * 20 + "-a-long-and-random-enough-production-secret-value-1234567890",
        "ALLOWED_HOSTS": "spyleague.example.org",
        "SECURE_SSL_REDIRECT": "1",
        "SECURE_HSTS_SECONDS": "31536000",
        "SECURE_PROXY_SSL_HEADER": "1",
    }
    done = run_manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    done = run_manage("check", env={"DJANGO_DEBUG": "0", "ALLOWED_HOSTS": "x.org"})
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


def test_defaults_are_sqlite_and_eager_celery() -> None:
    code = (
        "import django,os;os.environ['DJANGO_SETTINGS_MODULE']='spyleague.settings';django.setup();"
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "CELERY"))}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True)
    assert out.stdout.split() == ["django.db.backends.sqlite3", "True"], out.stderr


def test_database_url_switches_to_postgresql_through_psycopg3() -> None:
    code = (
        "import django,os;os.environ['DJANGO_SETTINGS_MODULE']='spyleague.settings';django.setup();"
        "from django.conf import settings as s; import psycopg;"
        "print(s.DATABASES['default']['ENGINE'], s.DATABASES['default']['NAME'], s.CELERY_TASK_ALWAYS_EAGER,"
        " psycopg.__version__[0])"
    )
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://u@db.example:5432/league",
        "CELERY_BROKER_URL": "redis://r:6379/0",
    }
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    # Django's PostgreSQL backend, with the site's handling of a database that goes away.
    assert out.stdout.split() == ["spyleague.core.database", "league", "False", "3"], out.stderr


def database_settings(**env: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import django,json,os;os.environ['DJANGO_SETTINGS_MODULE']='spyleague.settings';django.setup();"
        "from django.conf import settings as s; d=s.DATABASES['default'];"
        "print(json.dumps({'age': d['CONN_MAX_AGE'], 'pool': d.get('OPTIONS', {}).get('pool')}))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "CELERY"))}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True
    )


def test_postgresql_connections_come_from_a_pool_sized_by_the_environment() -> None:
    import json

    url = "postgres://u@db.example:5432/league"
    default = database_settings(DATABASE_URL=url)
    # A request waits 3 s at most for a connection (then a 503); a lost connection is retried
    # for 2 s, then made again when asked for; each connection is checked by the site's backend.
    fixed = {"reconnect_timeout": 2.0, "check": None}
    assert json.loads(default.stdout) == {
        "age": 0,
        "pool": {"min_size": 2, "max_size": 10, "timeout": 3.0, **fixed},
    }
    sized = database_settings(
        DATABASE_URL=url,
        DATABASE_POOL_MIN_SIZE="1",
        DATABASE_POOL_MAX_SIZE="4",
        DATABASE_POOL_TIMEOUT="5",
        DATABASE_CONN_MAX_AGE="0",  # what .ci/run sets: fine with the pool
    )
    assert json.loads(sized.stdout) == {
        "age": 0,
        "pool": {"min_size": 1, "max_size": 4, "timeout": 5.0, **fixed},
    }
    # Without the pool, persistent connections as before.
    off = database_settings(DATABASE_URL=url, DATABASE_POOL="0", DATABASE_CONN_MAX_AGE="30")
    assert json.loads(off.stdout) == {"age": 30, "pool": None}
    # Django refuses persistent connections with a pool: say so at once, in words.
    both = database_settings(DATABASE_URL=url, DATABASE_CONN_MAX_AGE="60")
    assert both.returncode != 0 and "DATABASE_CONN_MAX_AGE must be 0" in both.stderr
    # SQLite has no pool.
    assert json.loads(database_settings().stdout)["pool"] is None
