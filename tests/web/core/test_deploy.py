"""The Docker deployment's settings and health check, proved on this machine without Docker.

The web container runs the Dockerfile's command with the environment of docker-compose.yml
(``.env``, copied from ``.env.example``, and the service's own variables). Here the same server
is started the same way on a free local port with that environment, and the exact command of
the compose health check is run against it. The compose file's PostgreSQL and Redis hosts are
not reachable here: the server uses the tests' database and broker when they are configured
(``.ci/run``), else a SQLite file and tasks run in the web process.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]
# The environment the tests run in must not leak into the container's.
OURS = ("DATABASE", "CELERY", "REDIS", "DJANGO", "SECURE", "SECRET", "ALLOWED", "CSRF", "SQLITE", "AXES")


def env_example() -> dict[str, str]:
    values = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def web_service() -> dict[str, Any]:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    service: dict[str, Any] = compose["services"]["web"]
    return service


def production_env() -> dict[str, str]:
    """The tests' environment less the site's own settings, plus .env.example and compose's."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(OURS)}
    web = web_service()
    assert web["env_file"] == ".env"
    return {**clean, **env_example(), **{k: str(v) for k, v in web["environment"].items()}}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_env_example_settings_pass_check_deploy() -> None:
    env = production_env()
    assert env["DJANGO_DEBUG"] == "0"
    done = run_manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def dockerfile_command() -> list[str]:
    lines = [line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD ")]
    command: list[str] = json.loads(lines[-1].removeprefix("CMD "))
    return command


@pytest.fixture
def server(request: Any, tmp_path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """The Dockerfile's server (gunicorn, uvicorn workers) on a free port, with compose's environment."""
    env = production_env()
    for name in ("CELERY_BROKER_URL", "REDIS_URL"):
        if os.environ.get(name):  # the tests' Redis (.ci/run) stands in for compose's
            env[name] = os.environ[name]
        else:
            env.pop(name)  # tasks run in the web process
    if os.environ.get("DATABASE_URL"):  # the tests' PostgreSQL, in its test database
        request.getfixturevalue("django_db_setup")
        from django.db import connection

        url = urlsplit(os.environ["DATABASE_URL"])
        env["DATABASE_URL"] = urlunsplit(url._replace(path="/" + connection.settings_dict["NAME"]))
    else:
        env.pop("DATABASE_URL")
        env["SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    # The image collects the static files when it is built (the pages' error answers use them).
    env["STATIC_ROOT"] = str(tmp_path / "static")
    build = {**env, "SECRET_KEY": "collectstatic-only", "ALLOWED_HOSTS": "localhost"}
    collected = run_manage("collectstatic", "--noinput", "-v", "0", env=build)
    assert collected.returncode == 0, collected.stderr
    port = free_port()
    command = dockerfile_command()
    assert command[:2] == ["gunicorn", "spyleague.asgi:application"]
    assert "spyleague.server.Worker" in command  # uvicorn workers that end open streams on a restart
    # Here: this machine's loopback only, and one worker process rather than three.
    command[command.index("-b") + 1] = f"127.0.0.1:{port}"
    command[command.index("-w") + 1] = "1"
    log = tmp_path / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", *command], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 90
        while True:  # until the server answers: gunicorn listens before its worker has loaded the site
            assert process.poll() is None, "the server stopped:\n" + log.read_text()
            try:
                probe = http.client.HTTPConnection(
                    "127.0.0.1", port, timeout=max(1.0, deadline - time.monotonic())
                )
                probe.request("GET", "/health/")
                probe.getresponse().read()
                probe.close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start:\n" + log.read_text()
                time.sleep(0.2)
        yield port, env
    finally:
        process.terminate()
        process.wait(timeout=30)


def get(port: int, headers: dict[str, str]) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/health/", headers=headers)
    return connection.getresponse()


@pytest.mark.django_db  # so that the test database exists (with PostgreSQL the server uses it)
def test_the_compose_health_check_answers_200_from_the_dockerfile_server(server: Any) -> None:
    port, env = server
    test = web_service()["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"]
    code = test[3]
    assert code.count("127.0.0.1:8000") == 1 and "/health/" in code
    done = subprocess.run(
        [sys.executable, "-c", code.replace("127.0.0.1:8000", f"127.0.0.1:{port}")],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stdout + done.stderr

    # What it asks, as the HTTPS proxy would: the site's host over https.
    host = env["ALLOWED_HOSTS"].split(",")[0]
    answer = get(port, {"Host": host, "X-Forwarded-Proto": "https"})
    assert answer.status == 200
    report = json.loads(answer.read())
    assert report["ok"] and report["database"]["ok"] and report["broker"]["ok"], report
    assert report["database"]["vendor"] == ("postgresql" if "DATABASE_URL" in env else "sqlite")
    assert report["broker"]["mode"] == ("broker" if "CELERY_BROKER_URL" in env else "eager")
    assert "Strict-Transport-Security" in answer.headers and "Content-Security-Policy" in answer.headers

    # The deployment stays as strict for everyone else: a host it does not serve is refused,
    # and plain HTTP is sent to HTTPS.
    assert get(port, {"Host": f"127.0.0.1:{port}"}).status == 400
    assert get(port, {"Host": f"127.0.0.1:{port}", "X-Forwarded-Proto": "https"}).status == 400
    plain = get(port, {"Host": host})
    assert plain.status == 301 and plain.headers["Location"] == f"https://{host}/health/"


def test_every_service_running_the_code_starts_after_the_migrations() -> None:
    """The web server, the worker and beat wait for ``migrate`` to finish: new code on the old
    schema fails (found by hand: a worker restarted before the migration ran failed every bot
    sweep on a column the database did not have yet)."""
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    running = [
        name for name, s in services.items() if s.get("image") == "spyleague:latest" and name != "migrate"
    ]
    assert sorted(running) == ["beat", "web", "worker"]
    for name in running:
        after = services[name].get("depends_on", {})
        assert after.get("migrate") == {"condition": "service_completed_successfully"}, name
        assert {"db", "redis"} <= set(after), name
