"""Real services of the fault tests' own: a Redis on another port, a site served as the README
deploys it (gunicorn with uvicorn workers), a Celery worker and beat, each a process that a test
can stop, kill and start again.

Each test gets a database of its own: a fresh PostgreSQL database when the server on
127.0.0.1:5432 answers (``FAULTS_POSTGRES`` overrides the address), else a SQLite file; or, for a
test that stops the database itself, a PostgreSQL cluster of its own (``Postgres``: initdb'd in a
directory of its own, on a port of its own, trust authentication), which it can stop and start
again. Nothing here waits on time for its own sake: every start waits until the service answers.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
POSTGRES = os.environ.get("FAULTS_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(check: Callable[[], Any], *, timeout: float, what: str, every: float = 0.05) -> Any:
    """Call ``check`` until it returns something true (or ``timeout`` seconds pass: fail)."""
    deadline = time.monotonic() + timeout
    last: BaseException | None = None
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception as exc:  # not there yet
            last = exc
        else:
            if value:
                return value
        time.sleep(every)
    raise AssertionError(f"{what}: not within {timeout} s" + (f" (last: {last!r})" if last else ""))


def have_redis_server() -> bool:
    return shutil.which("redis-server") is not None


def postgres_bin() -> Path | None:
    """The directory of PostgreSQL's server programs (initdb, pg_ctl): Debian's, the newest."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name or 0))
    for candidate in [*reversed(found), *(str(Path(w).parent) for w in [shutil.which("pg_ctl")] if w)]:
        if (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    return None


def postgres_answers() -> bool:
    try:
        import psycopg

        with psycopg.connect(POSTGRES, connect_timeout=2):
            return True
    except Exception:
        return False


class Process:
    """A child process in a process group of its own (so a kill takes its children too)."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.args, self.env, self.log = name, args, env, log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            self.args, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        out.close()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int) -> None:
        if self.running:
            assert self.proc is not None
            with suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)

    def stop(self, *, kill: bool = False, timeout: float = 20.0) -> None:
        """SIGTERM (a graceful stop) or SIGKILL, then wait for the whole group to end."""
        if self.proc is None:
            return
        self.signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.proc.wait(10)
        with suppress(ProcessLookupError):  # what is left of the group (a worker's children)
            os.killpg(self.proc.pid, signal.SIGKILL)

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class Redis(Process):
    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        args = [
            "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        super().__init__("redis", args, dict(os.environ), tmp / "redis.log")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> None:
        super().start()
        wait_until(self.ping, timeout=15, what="Redis to answer")

    def pause(self) -> None:
        """Stop the process without closing anything (SIGSTOP): connections and new connects are
        accepted by the system but never answered, as when Redis's host or network is gone."""
        self.signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.signal(signal.SIGCONT)
        wait_until(self.ping, timeout=15, what="Redis to answer again")

    def ping(self) -> bool:
        with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")


class Postgres:
    """A PostgreSQL cluster of a test's own, which the test can stop and start again (a real
    outage: ``pg_ctl stop -m fast`` ends every connection, and the port then refuses new ones).

    PostgreSQL will not run as root: as root, its programs run as the ``postgres`` user, in a
    directory that user owns (pytest's own temporary directory is root's alone).
    """

    def __init__(self) -> None:
        bin_dir = postgres_bin()
        assert bin_dir is not None, "PostgreSQL's server programs are not installed"
        self.bin = bin_dir
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="spyleague-faults-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self.user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            self.user = pwd.getpwnam("postgres")
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)

    def _run(self, *args: str, timeout: float = 60) -> None:
        extra: dict[str, Any] = {}
        if self.user is not None:
            extra = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        done = subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            cwd=self.dir,
            capture_output=True,
            text=True,
            timeout=timeout,
            env={k: v for k, v in os.environ.items() if not k.startswith("PG")},
            **extra,
        )
        assert done.returncode == 0, f"{' '.join(args)}: {done.stdout}{done.stderr}"

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.dir} -c fsync=off"
        )
        data, log = str(self.data), str(self.log)
        self._run("pg_ctl", "-D", data, "-l", log, "-o", options, "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: "fast" ends every session at once, as a restart or a crash of the
        database's host does for its clients; returns when it has stopped."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    @property
    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def remove(self) -> None:
        if self.running:
            with suppress(AssertionError, subprocess.TimeoutExpired):
                self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class Site:
    """A database, a Redis, and the processes of a deployment around them."""

    def __init__(self, tmp: Path, postgres: Postgres | None = None) -> None:
        self.tmp = tmp
        self.postgres = postgres
        self.redis = Redis(tmp)
        self.database = ""
        self.pg_name = ""
        self.port = free_port()
        self.env: dict[str, str] = {}
        self.processes: list[Process] = []

    def set_up(self) -> None:
        self.redis.start()
        if self.postgres is not None:
            import psycopg

            self.postgres.init()
            self.postgres.start()
            with psycopg.connect(self.postgres.url(), autocommit=True) as conn:
                conn.execute('CREATE DATABASE "spyleague"')
            self.database = self.postgres.url("spyleague")
        elif postgres_answers():
            import psycopg

            self.pg_name = f"spyleague_faults_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(POSTGRES, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.pg_name}"')
            self.database = POSTGRES.rsplit("/", 1)[0] + f"/{self.pg_name}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "CELERY_", "REDIS_"))}
        env.update(
            {
                "DJANGO_DEBUG": "1",
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "CELERY_BROKER_URL": f"{self.redis.url}/0",
                "REDIS_URL": f"{self.redis.url}/1",
                "SQLITE_PATH": str(self.tmp / "site.sqlite3"),
                "PYTHONUNBUFFERED": "1",
            }
        )
        if self.database:
            env["DATABASE_URL"] = self.database
        self.env = env
        self.manage("migrate", "--noinput")

    def manage(self, *args: str, timeout: float = 300) -> str:
        done = subprocess.run(
            [str(BIN / "python"), "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def shell(self, code: str, timeout: float = 120) -> str:
        """Run Python in the site's Django (``manage.py shell -c``); returns what it printed."""
        return self.manage("shell", "-c", code, timeout=timeout)

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """Run one SQL statement on the site's database from here (fast: no Django start-up), as
        a query's rows. Placeholders are ``%s``."""
        if self.database:
            import psycopg

            with psycopg.connect(self.database, autocommit=True) as conn:
                cursor = conn.execute(query, params or None)  # type: ignore[arg-type]
                return list(cursor.fetchall()) if cursor.description else []
        import sqlite3

        conn = sqlite3.connect(self.env["SQLITE_PATH"], timeout=20)
        try:
            cursor = conn.execute(query.replace("%s", "?"), params)
            rows = list(cursor.fetchall())
            conn.commit()
            return rows
        finally:
            conn.close()

    def pool_worker(self, name: str = "worker", concurrency: int = 2) -> Process:
        """A worker as the README and docker-compose run it: a prefork pool of processes."""
        args = [
            str(BIN / "celery"),
            "-A",
            "spyleague",
            "worker",
            f"--concurrency={concurrency}",
            "--loglevel=INFO",
            "--hostname",
            f"{name}-{uuid.uuid4().hex[:6]}@%h",
        ]
        return self._process(name, args)

    def _process(self, name: str, args: list[str]) -> Process:
        process = Process(name, args, self.env, self.tmp / f"{name}.log")
        self.processes.append(process)
        return process

    def web(self, workers: int = 2, port: int | None = None, name: str = "web") -> Process:
        """gunicorn with uvicorn workers, as the Dockerfile serves the site (on the site's port,
        or on ``port``: a second group of web processes, as a second machine would run)."""
        args = [
            str(BIN / "gunicorn"),
            "spyleague.asgi:application",
            "-k",
            "spyleague.server.Worker",
            "-b",
            f"127.0.0.1:{port or self.port}",
            "-w",
            str(workers),
            "--graceful-timeout",
            "10",
        ]
        return self._process(name, args)

    def worker(self, name: str = "worker") -> Process:
        args = [
            str(BIN / "celery"),
            "-A",
            "spyleague",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--hostname",
            f"{name}-{uuid.uuid4().hex[:6]}@%h",
        ]
        return self._process(name, args)

    def beat(self) -> Process:
        args = [
            str(BIN / "celery"),
            "-A",
            "spyleague",
            "beat",
            "--loglevel=INFO",
            "--schedule",
            str(self.tmp / "celerybeat-schedule"),
        ]
        return self._process("beat", args)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_web(self, timeout: float = 60, port: int | None = None) -> None:
        import urllib.request

        url = f"http://127.0.0.1:{port}" if port else self.url

        def up() -> bool:
            with urllib.request.urlopen(f"{url}/health/", timeout=2) as response:
                return bool(response.status == 200)

        wait_until(up, timeout=timeout, what="the web server to answer")

    def tear_down(self) -> None:
        for process in reversed(self.processes):
            process.stop(kill=True)
        self.redis.stop(kill=True)
        if self.postgres is not None:
            self.postgres.remove()
        if self.pg_name:
            import psycopg

            with psycopg.connect(POSTGRES, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')

    def logs(self) -> str:
        parts = [f"--- {p.name} ---\n{p.output()[-4000:]}" for p in [*self.processes, self.redis]]
        if self.postgres is not None:
            parts.append(f"--- postgres ---\n{self.postgres.output()[-4000:]}")
        return "\n".join(parts)


@contextmanager
def site(tmp: Path, postgres: Postgres | None = None) -> Iterator[Site]:
    s = Site(tmp, postgres)
    try:
        s.set_up()
        yield s
    except BaseException:
        print(s.logs())
        raise
    finally:
        s.tear_down()
