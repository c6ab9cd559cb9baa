"""The big day: 200 people on their phones against the deployment the README documents.

Starts the site as ``docker-compose.yml`` runs it, on this machine: gunicorn with 3 uvicorn
workers (``spyleague.server.Worker``, as in the Dockerfile) on a free port of 127.0.0.1, a
Celery worker (``--concurrency=2``) and Celery beat, PostgreSQL in a fresh database of its own
(created on the server of ``--postgres`` and dropped at the end), Redis databases of its own
(``--redis-db`` and ``--broker-db``, which must be empty, flushed at the end) under a prefix of its
own, ``DJANGO_DEBUG=0`` and the static files collected. It builds a tournament day of
``--players`` (1,000) players: the main event of ``--main`` (400) players at tables of 4, three
rounds played and the fourth published with its 100 tables waiting for results, beside smaller
events, then drives ``--users`` (200) simulated people for ``--seconds`` (60; ``--minutes`` for a
soak), each acting every 0.5 to 1.5 s (after the answer to their last request):

* 62% browse: the main event's page (as a visitor, as one of its players, as its organiser; its
  pages of standings, rounds and entrants), the other events' pages, the lobby, match pages,
  the home page and the standings API;
* 25% play their own Black Spy match against two bots through the API (``/api/matches/``):
  look at it, move when it is their turn (the bots answer through the worker), start another
  when it is over;
* 13% are the scorers' desk: enter and confirm the results of the main event's waiting tables
  through the API (``POST /api/tables/<id>/result/`` then ``/confirm/``); with nothing left to
  enter they read a table's result. When a round's last table is confirmed the organiser (one
  more client) pairs the next round through the API, waits for the job and publishes it, and
  the desk enters that one.

Beside them a probe fetches a static file (the stylesheet, as WhiteNoise serves it) twice a
second: the same server's figure for the cheapest answer it can give, the ceiling to compare
the pages with. Every request goes to 127.0.0.1 only, and every loop stops by itself at the
end of the run; a request that gets no answer in ``--timeout`` seconds counts as an error.

It prints, per kind of request: how many, the errors (an answer of 500 or more, a refusal that
the kind never expects, a timeout, a dropped connection), the median, p95 and p99 in ms; the
requests a second in all; the load average before, during and after; the CPU each part used
(the web workers, the Celery worker, beat, PostgreSQL, Redis, and this driver, which runs in
a process of its own and must not be the bottleneck); and the memory (RSS) of the web and
worker processes when the load starts, after the warm-up and at the end (every minute in
between for a soak). Goal on this machine: 0 errors, p50 under 100 ms, p95 under 500 ms and at
least 150 requests a second.

Then ``--profile`` shows where the time goes, per kind of request: the same requests run in a
process of their own, with the same settings and database, under cProfile (the top functions
by their own time, and the queries and milliseconds per request).

Usage, from the repository root (``.venv/bin/pip install -e '.[bench]'`` first):

    .venv/bin/python benchmarks/load.py                    # 60 s of load after a 15 s warm-up
    .venv/bin/python benchmarks/load.py --minutes 10       # the soak: memory after warm-up
    .venv/bin/python benchmarks/load.py --profile          # and where each kind's time goes
    .venv/bin/python benchmarks/load.py --no-page-cache    # the same, the pages' cache off

Figures measured on this project's machine are kept in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import heapq
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"  # the only address this script sends anything to
GAME = "black-spy"  # the events' game, and the matches'
# The day began this morning: its rounds so far were played before the results the desk enters
# now (a day set in the future would make every confirmation an earlier result than its
# players' last ones, each asking the game's ratings to be replayed, which no real day does).
T0 = (datetime.now(UTC) - timedelta(hours=6)).replace(minute=0, second=0, microsecond=0)

# What the browsing people look at, and how often (of the browsing).
BROWSE = {
    "event-main": 0.34,
    "event-other": 0.14,
    "lobby": 0.12,
    "match-page": 0.14,
    "home": 0.12,
    "standings-api": 0.14,
}
SLOWEST = 5  # the slowest requests of the run are listed, with when they were sent
# What each kind of request may answer besides a 2xx (anything else is an error).
EXPECTED = {"match-move": {409}}  # a stale version, when a bot moved between the look and the move


# --- setting up: database, Redis, the day's events, the servers -------------------------------


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def create_database(url: str, name: str) -> str:
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return with_database(url, name)


def drop_database(url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def analyze(url: str) -> str:
    """ANALYZE the day's database, as PostgreSQL's autovacuum does on a deployment (the compose
    file's server has it on) soon after a day's tables are written: without its statistics the
    planner guesses at every table's size. Returns the server's autovacuum setting (a server of
    a machine's own may have it off)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ANALYZE")
        row = conn.execute("SHOW autovacuum").fetchone()
    return str(row[0]) if row else "?"


def redis_call(url: str, *command: str) -> Any:
    import redis

    client = redis.Redis.from_url(url)
    try:
        return client.execute_command(*command)
    finally:
        client.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def site_env(
    tmp: Path, database: str, redis: str, broker: str, prefix: str, page_cache: bool,
    trim: float | None = None,
) -> dict[str, str]:  # fmt: skip
    """The environment of every process of the site, as ``.env`` would give it in production."""
    keep = ("DATABASE_", "REDIS_", "CELERY_", "DJANGO_", "SPYLEAGUE_", "SQLITE_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(keep)}
    env.update(
        DJANGO_SETTINGS_MODULE="spyleague.settings",
        DJANGO_DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(40),
        ALLOWED_HOSTS=f"{HOST},testserver",  # testserver: the in-process profile's client
        DATABASE_URL=database,
        CELERY_BROKER_URL=broker,
        REDIS_URL=redis,
        REDIS_PREFIX=prefix,
        STATIC_ROOT=str(tmp / "static"),
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
        SPYLEAGUE_QUOTA_CLUBS="100",
    )
    if not page_cache:
        env["SPYLEAGUE_PAGE_CACHE"] = "0"
    if trim is not None:
        env["SPYLEAGUE_MALLOC_TRIM_SECONDS"] = f"{trim:g}"
    env["SPYLEAGUE_MEMO_REPORT_SECONDS"] = "60"  # how full each process's memos are (core.memory)
    return env


def build_day(players: int, main: int, users: int, seed: int, browse: float, play: float) -> dict[str, Any]:
    """The tournament day, in bulk (the timed part is the load, not this); what the driver needs
    to know of it, as plain data. Runs in a child process with the site's settings."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.templatetags.static import static
    from rest_framework.authtoken.models import Token

    from spyleague.clubs.models import Club, Membership, Player, Role
    from spyleague.ratings.services import ratings_recompute
    from spyleague.tournaments.models import Entrant, Event, Round, Seat, Table
    from spyleague.tournaments.services import standings_recompute

    rng = random.Random(seed)
    organiser = User.objects.create_user(username="organiser", password=None)
    organiser_player = Player.objects.get(user=organiser)  # every account has its player
    organiser_player.name = "Olivia Organiser"
    organiser_player.save(update_fields=["name"])
    club = Club.objects.create(name="Spy League Open", slug="spy-league-open")
    Membership.objects.create(club=club, player=organiser_player, role=Role.ORGANISER)
    people_users = User.objects.bulk_create(
        [User(username=f"player{i:04d}", password="!") for i in range(players)], batch_size=1000
    )
    people = Player.objects.bulk_create(
        [Player(name=f"Player {i:04d} {rng.choice(NAMES)}", user=u) for i, u in enumerate(people_users)],
        batch_size=1000,
    )
    Membership.objects.bulk_create([Membership(club=club, player=p, role=Role.PLAYER) for p in people])
    browse_count = round(users * browse)
    play_count = round(users * play)
    desk_count = max(0, users - browse_count - play_count)
    desk_users = User.objects.bulk_create(
        [User(username=f"scorer{i:02d}", password="!") for i in range(desk_count)]
    )
    desk = Player.objects.bulk_create(
        [Player(name=f"Scorer {i:02d}", user=u) for i, u in enumerate(desk_users)]
    )
    Membership.objects.bulk_create([Membership(club=club, player=p, role=Role.SCORER) for p in desk])

    # The main event and the others: the rest of the day's players, in events of 300, 200, ...
    sizes = [main]
    left = players - main
    for size in (300, 200, 60, 40):
        if left >= size:
            sizes.append(size)
            left -= size
    if left > 0:
        sizes.append(left)
    shuffled = people[:]
    rng.shuffle(shuffled)
    events = []
    at = 0
    for index, size in enumerate(sizes):
        group = shuffled[at : at + size]
        at += size
        if index == 0:
            group = [organiser_player, *group[:-1]]  # the organiser plays in the main event too
        played = 3 if index == 0 else [4, 5, 2, 1, 3][index % 5]
        waiting = index == 0  # the main event's next round is published, its tables waiting
        events.append(
            _build_event(
                club, organiser, name="The Open" if index == 0 else f"Side event {index}",
                players=group, rounds_played=played, waiting=waiting, rng=rng,
                finished=index == 2, rounds=30 if index == 0 else played + 1,
            )
        )  # fmt: skip
    # A long run pairs all 30 rounds of the main event: the organiser then goes on with its second
    # flight, the same players in an event of its own, from its first round.
    flight = Event.objects.create(
        club=club, name="The Open, second flight", game=GAME, format=Event.Format.SWISS, rounds=30,
        table_size=4, points_by_place=[4.0, 2.0, 1.0, 0.0], status=Event.Status.REGISTRATION,
        created_by=organiser,
    )  # fmt: skip
    main_players = Entrant.objects.filter(event=events[0]).values_list("player_id", flat=True)
    Entrant.objects.bulk_create([Entrant(event=flight, player_id=p, checked_in=True) for p in main_players])
    for event in events:
        standings_recompute(event=event)
    ratings_recompute(game=GAME)
    main_event = events[0]
    current = Round.objects.filter(event=main_event).order_by("-number").first()
    assert current is not None
    tables = list(
        Table.objects.filter(round=current, is_bye=False).order_by("number").values_list("pk", flat=True)
    )
    seats = defaultdict(list)
    for table, player in Seat.objects.filter(table__round=current).values_list(
        "table_id", "entrant__player_id"
    ):
        seats[table].append(player)

    def session_for(user: Any) -> str:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "spyleague.core.auth.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"

    entrant_users = list(
        User.objects.filter(player__entries__event=main_event, username__startswith="player").order_by("pk")
    )
    rng.shuffle(entrant_users)
    plan_users: list[dict[str, Any]] = []
    for i in range(browse_count):
        if i < 2:
            plan_users.append({"role": "browse", "viewer": "organiser", "cookie": session_for(organiser)})
        elif i % 2:
            user = entrant_users.pop()
            plan_users.append({"role": "browse", "viewer": "entrant", "cookie": session_for(user)})
        else:
            plan_users.append({"role": "browse", "viewer": "anonymous", "cookie": ""})
    others = User.objects.filter(username__startswith="player").exclude(player__entries__event=main_event)
    for user in others.order_by("pk")[:play_count]:
        token = Token.objects.create(user=user)
        plan_users.append({"role": "play", "token": token.key, "cookie": session_for(user)})
    for user in desk_users:
        plan_users.append({"role": "desk", "token": Token.objects.create(user=user).key})
    return {
        "main": main_event.pk,
        "others": [e.pk for e in events[1:]],
        "reserve": flight.pk,
        "rounds": main_event.rounds,
        "round": current.number,
        "tables": [{"id": t, "players": seats[t]} for t in tables],
        "organiser_token": Token.objects.create(user=organiser).key,
        "users": plan_users,
        "static": static("css/site.css"),
        "entrants": Entrant.objects.filter(event=main_event).count(),
        "players": Player.objects.count(),
    }


NAMES = ["Ames", "Blunt", "Cairncross", "Fuchs", "Hiss", "Kim", "Maclean", "Philby", "Sorge", "Walker"]


def _build_event(
    club: Any,
    organiser: Any,
    *,
    name: str,
    players: list[Any],
    rounds_played: int,
    waiting: bool,
    rng: random.Random,
    finished: bool,
    rounds: int,
) -> Any:
    """A Swiss event at tables of 4: ``rounds_played`` complete rounds, then (``waiting``) one
    published round whose tables wait for their results."""
    from spyleague.scores.models import Result, ResultLine
    from spyleague.tournaments.models import Entrant, Event, Round, Seat, Table

    event = Event.objects.create(
        club=club,
        name=name,
        game=GAME,
        format=Event.Format.SWISS,
        rounds=rounds,
        table_size=4,
        points_by_place=[4.0, 2.0, 1.0, 0.0],
        status=Event.Status.FINISHED if finished else Event.Status.RUNNING,
        created_by=organiser,
    )
    entrants = Entrant.objects.bulk_create(
        [Entrant(event=event, player=p, joined_round=1, checked_in=True) for p in players]
    )
    points = {e.pk: 0.0 for e in entrants}
    player_of = {e.pk: e.player_id for e in entrants}
    scale = [4.0, 2.0, 1.0, 0.0]
    when = T0
    for number in range(1, rounds_played + 1 + waiting):
        last = number == rounds_played + 1
        rnd = Round.objects.create(
            event=event,
            number=number,
            status=Round.Status.PUBLISHED if last else Round.Status.COMPLETE,
            published=when,
        )
        order = sorted(points, key=lambda e: (-points[e], rng.random()))
        groups = [order[i : i + 4] for i in range(0, len(order), 4)]
        tables = Table.objects.bulk_create(
            [
                Table(
                    round=rnd,
                    number=n,
                    is_bye=len(group) == 1,
                    status=Table.Status.WAITING if last else Table.Status.CONFIRMED,
                    source="" if last else Table.Source.SHEET,
                )
                for n, group in enumerate(groups, start=1)
            ]
        )
        seats, results, lines_of = [], [], []
        for table, group in zip(tables, groups, strict=True):
            places = rng.sample(range(1, len(group) + 1), len(group))
            for position, (entrant, place) in enumerate(zip(group, places, strict=True)):
                if last:
                    seats.append(Seat(table=table, entrant_id=entrant, position=position))
                    continue
                seats.append(
                    Seat(table=table, entrant_id=entrant, position=position, place=place,
                         points=scale[place - 1])
                )  # fmt: skip
                points[entrant] += scale[place - 1]
            if last:
                continue
            when += timedelta(seconds=7)
            results.append(
                Result(game=GAME, club=club, table=table, source=Result.Source.SHEET,
                       status=Result.Status.CONFIRMED, data={}, played=when,
                       entered_by=organiser, confirmed_by=organiser)
            )  # fmt: skip
            lines_of.append(list(zip(group, places, strict=True)))
        Seat.objects.bulk_create(seats, batch_size=2000)
        results = Result.objects.bulk_create(results, batch_size=2000)
        ResultLine.objects.bulk_create(
            [
                ResultLine(result=result, player_id=player_of[e], position=i, place=place)
                for result, lines in zip(results, lines_of, strict=True)
                for i, (e, place) in enumerate(lines)
            ],
            batch_size=2000,
        )
        when += timedelta(hours=1)
    return event


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    out = log.open("ab")
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip


def wait_for_site(port: int, procs: list[subprocess.Popen[bytes]], logs: Path, timeout: float = 90) -> None:
    """Until /health/ says 200 (the database and the broker answer)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for proc in procs:
            if proc.poll() is not None:
                raise SystemExit(f"a server stopped while starting; see the logs in {logs}.")
        try:
            with socket.create_connection((HOST, port), timeout=2) as s:
                s.sendall(f"GET /health/ HTTP/1.0\r\nHost: {HOST}\r\n\r\n".encode())
                if s.recv(12).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"the site did not answer /health/ in time; see the logs in {logs}.")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


# --- what the processes use: CPU and memory, from /proc -----------------------------------------


def _stat(pid: int | str) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def group_pids(pgid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(entry)) is not None and int(fields[2]) == pgid:
            out.append(int(entry))
    return sorted(out)


def pids_named(word: str) -> list[int]:
    """Processes whose command line holds ``word`` (PostgreSQL's backends of our database, Redis)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = (
                Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            )
        except OSError:
            continue
        if word in cmdline:
            out.append(int(entry))
    return out


def cpu_seconds(pids: list[int]) -> float:
    ticks = 0
    for pid in pids:
        if (fields := _stat(pid)) is not None:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def pg_sessions(url: str) -> float:
    """How many connections have been made to the database of ``url`` (PostgreSQL's count)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    return float(row[0]) - 1 if row else 0.0  # (this one not counted)


def postgres_cpu_seconds() -> float:
    """The PostgreSQL server's CPU: every one of its processes, and the backends that have ended
    (counted in the postmaster's children's time once it has reaped them). A connection made
    and closed for each task or request is a backend that starts and ends, whose CPU the
    backends alive at the end would not show."""
    ticks = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            comm = Path(f"/proc/{entry}/comm").read_text().strip()
        except OSError:
            continue
        if comm != "postgres" or (fields := _stat(entry)) is None:
            continue
        ticks += int(fields[11]) + int(fields[12])
        if (
            int(fields[1]) == 1
            or not Path(f"/proc/{fields[1]}/comm").exists()
            or (Path(f"/proc/{fields[1]}/comm").read_text().strip() != "postgres")
        ):  # the postmaster: its reaped children's time too
            ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def loadavg() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


# --- the people ------------------------------------------------------------------------------------


@dataclass
class Figures:
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    statuses: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    samples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    slowest: list[tuple[float, float, str]] = field(default_factory=list)  # (ms, at s, request), a heap
    notes: list[tuple[float, str]] = field(default_factory=list)  # (at s, what happened)
    counting: bool = False
    started: float = 0.0
    ended: float = 0.0


class Driver:
    """The simulated people, sharing one HTTP client (each with its own cookies or token)."""

    def __init__(self, plan: dict[str, Any], port: int, timeout: float, seed: int) -> None:
        self.plan = plan
        self.base = f"http://{HOST}:{port}"
        assert urlsplit(self.base).hostname == HOST  # never anywhere else
        self.timeout = timeout
        self.rng = random.Random(seed)
        self.figures = Figures()
        self.stop_at = 0.0
        self.measured_from = 0.0  # when the warm-up ends (the notes' times count from there)
        self.matches: dict[int, int] = {}  # player index -> their current match
        self.round = plan["round"]
        self.main = plan["main"]  # the event the desk enters results in, and the browsing's
        self.tables: list[dict[str, Any]] = [dict(t, state="waiting") for t in plan["tables"]]
        self.round_done = asyncio.Event()
        self.pairing = False
        self.rounds_played = 0
        self.session: Any = None

    async def request(
        self, kind: str, method: str, path: str, *, headers: dict[str, str] | None = None,
        body: Any = None, expect: frozenset[int] = frozenset(),
    ) -> tuple[int, Any]:  # fmt: skip
        import aiohttp

        started = time.perf_counter()
        status, data, problem = 0, None, ""
        try:
            async with self.session.request(
                method, self.base + path, headers=headers or {}, json=body, allow_redirects=False,
                timeout=aiohttp.ClientTimeout(total=self.timeout),
            ) as response:  # fmt: skip
                status = response.status
                raw = await response.read()
                if response.content_type == "application/json":
                    data = json.loads(raw or b"null")
                elif status >= 400:
                    data = raw[:300].decode(errors="replace")
        except TimeoutError:
            problem = f"no answer in {self.timeout:g} s"
        except aiohttp.ClientError as exc:
            problem = f"{type(exc).__name__}: {exc}"
        took = (time.perf_counter() - started) * 1000
        f = self.figures
        if f.counting and time.monotonic() < self.stop_at:
            f.times[kind].append(took)
            f.statuses[kind][str(status or problem[:40])] += 1
            slow = (took, time.monotonic() - f.started, f"{method} {path} -> {status or problem}")
            (heapq.heappush if len(f.slowest) < SLOWEST else heapq.heappushpop)(f.slowest, slow)
            bad = (
                problem
                or status >= 500
                or (status >= 400 and status not in expect | EXPECTED.get(kind, set()))
            )
            if bad:
                f.errors[kind] += 1
                if len(f.samples[kind]) < 3:
                    f.samples[kind].append(f"{method} {path} -> {status or problem}: {str(data)[:200]}")
        return status, data

    async def think(self) -> None:
        await asyncio.sleep(self.rng.uniform(0.5, 1.5))

    def running(self) -> bool:
        return time.monotonic() < self.stop_at

    def note(self, what: str) -> None:
        """Something that happened during the run, listed with when (beside the slowest requests)."""
        self.figures.notes.append((time.monotonic() - self.measured_from, what))

    # - browsing -

    async def browse(self, user: dict[str, Any]) -> None:
        headers = {"Cookie": user["cookie"]} if user["cookie"] else {}
        kinds, weights = list(BROWSE), list(BROWSE.values())
        others = self.plan["others"]
        pages = max(1, self.plan["entrants"] // 50)
        while self.running():
            main = self.main
            kind = self.rng.choices(kinds, weights)[0]
            if kind == "event-main":
                what = self.rng.random()
                if what < 0.6:
                    path = f"/events/{main}/"
                elif what < 0.75:  # another page of the standings, with htmx as the pager asks
                    path = f"/events/{main}/standings/?page={self.rng.randint(1, pages)}"
                    await self.request(kind, "GET", path, headers={**headers, "HX-Request": "true"})
                    await self.think()
                    continue
                elif what < 0.85:  # (a long run's reserve event has no round yet at first)
                    path = f"/events/{main}/?round={self.rng.randint(1, max(1, self.round))}"
                elif what < 0.93:
                    path = f"/events/{main}/?page={self.rng.randint(1, pages)}"
                else:
                    path = f"/events/{main}/?entrants={self.rng.randint(1, pages)}"
            elif kind == "event-other":
                path = f"/events/{self.rng.choice(others)}/"
            elif kind == "lobby":
                path = "/play/"
            elif kind == "match-page":
                if not self.matches:
                    path = "/play/"
                else:
                    path = f"/play/matches/{self.rng.choice(list(self.matches.values()))}/"
            elif kind == "home":
                path = "/"
            else:
                path = f"/api/events/{main}/standings/?limit=50&offset={50 * self.rng.randrange(pages)}"
            await self.request(kind, "GET", path, headers=headers)
            await self.think()

    # - playing against bots -

    async def play(self, index: int, user: dict[str, Any]) -> None:
        headers = {"Authorization": f"Token {user['token']}"}
        while self.running():
            match = self.matches.get(index)
            if match is None:
                status, data = await self.request(
                    "match-new", "POST", "/api/matches/", headers=headers,
                    body={"game": GAME, "seats": 3, "start": True, "fill_with": "heuristic"},
                )  # fmt: skip
                if status == 201 and isinstance(data, dict):
                    self.matches[index] = data["id"]
                await self.think()
                continue
            status, data = await self.request("match-api", "GET", f"/api/matches/{match}/", headers=headers)
            if status == 200 and isinstance(data, dict):
                if data["status"] != "playing":
                    self.matches.pop(index, None)
                elif data["seat"] in data["to_act"] and data["legal"]:
                    await self.think()
                    if not self.running():
                        break
                    action = self.rng.choice(data["legal"])
                    await self.request(
                        "match-move", "POST", f"/api/matches/{match}/act/", headers=headers,
                        body={"action": action, "version": data["version"]},
                    )  # fmt: skip
            await self.think()

    # - the scorers' desk, and the organiser who pairs the next round -

    async def desk(self, index: int, count: int, user: dict[str, Any]) -> None:
        headers = {"Authorization": f"Token {user['token']}"}
        while self.running():
            mine = [t for i, t in enumerate(self.tables) if i % count == index]
            todo = next((t for t in mine if t["state"] != "confirmed" and not t.get("busy")), None)
            if todo is None:
                if mine:  # nothing to enter: read a table's result, as a player checks theirs
                    table = self.rng.choice(mine)
                    await self.request(
                        "result-read", "GET", f"/api/tables/{table['id']}/result/", headers=headers
                    )
                else:
                    await asyncio.sleep(0.2)
                await self.think()
                continue
            todo["busy"] = True
            if todo["state"] == "waiting":
                places = self.rng.sample(range(1, len(todo["players"]) + 1), len(todo["players"]))
                lines = [{"player": p, "place": n} for p, n in zip(todo["players"], places, strict=True)]
                status, _ = await self.request(
                    "result-enter", "POST", f"/api/tables/{todo['id']}/result/", headers=headers,
                    body={"lines": lines},
                )  # fmt: skip
                if status == 201:
                    todo["state"] = "reported"
            else:
                status, _ = await self.request(
                    "result-confirm", "POST", f"/api/tables/{todo['id']}/confirm/", headers=headers
                )
                if status == 200:
                    todo["state"] = "confirmed"
                    if all(t["state"] == "confirmed" for t in self.tables):
                        self.note(f"round {self.round} complete (table {todo['id']} confirmed last)")
                        self.round_done.set()
            todo["busy"] = False
            await self.think()

    async def organiser(self) -> None:
        """Once the round's last table is confirmed: pair the next round, wait for the job,
        publish it, and hand its tables to the desk (the main event's 30 rounds played, the
        second flight's first round)."""
        headers = {"Authorization": f"Token {self.plan['organiser_token']}"}
        while self.running():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self.round_done.wait(), timeout=max(0.1, self.stop_at - time.monotonic())
                )
            if not self.round_done.is_set() or not self.running():
                continue
            if self.round >= self.plan["rounds"] and self.main != self.plan["reserve"]:
                self.main, self.round = self.plan["reserve"], 0
            pair = f"/api/events/{self.main}/pair/"
            status, job = await self.request("organiser", "POST", pair, headers=headers)
            if status != 202:
                await asyncio.sleep(1)  # and again
                continue
            self.round_done.clear()
            job_path = f"/api/jobs/{job['id']}/"  # (a poll answered "busy" has no job in it)
            while self.running():
                await asyncio.sleep(0.5)
                status, job = await self.request("organiser", "GET", job_path, headers=headers)
                if status == 200 and job["status"] in ("done", "failed"):
                    break
            number = self.round + 1
            publish = f"/api/events/{self.main}/rounds/{number}/publish/"
            status, _ = await self.request("organiser", "POST", publish, headers=headers)
            if status != 200:
                self.round_done.set()  # try the pairing again
                await asyncio.sleep(1)
                continue
            # Its tables, a page at a time (as the API gives them).
            tables: list[dict[str, Any]] = []
            page: str | None = f"/api/events/{self.main}/rounds/{number}/tables/?limit=500"
            while page and self.running():
                status, listed = await self.request("organiser", "GET", page, headers=headers)
                if status != 200 or not isinstance(listed, dict):
                    await asyncio.sleep(0.5)  # and that page again
                    continue
                tables += listed["results"]
                after = listed.get("next")
                page = urlunsplit(urlsplit(after)._replace(scheme="", netloc="")) if after else None
            self.round = number
            self.rounds_played += 1
            self.note(f"round {number} published")
            self.tables = [
                {"id": t["id"], "players": [s["player_id"] for s in t["seats"]], "state": "waiting"}
                for t in tables
                if not t["is_bye"]
            ]

    async def static_probe(self) -> None:
        while self.running():
            await self.request("static-file", "GET", self.plan["static"])
            await asyncio.sleep(0.5)

    async def run(self, seconds: float, warmup: float, marks: list[tuple[float, Any]]) -> None:
        """Everyone for ``warmup`` + ``seconds``; the figures count from the end of the warm-up.
        ``marks``: (seconds into the counted part, callback) to call on the way (memory, CPU)."""
        import aiohttp

        connector = aiohttp.TCPConnector(limit=0, force_close=False)
        async with aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar()) as session:
            self.session = session
            self.stop_at = time.monotonic() + warmup + seconds
            self.measured_from = time.monotonic() + warmup
            users = self.plan["users"]
            desk = [u for u in users if u["role"] == "desk"]
            tasks = []
            for i, user in enumerate(users):
                await asyncio.sleep(0.005)  # they arrive over a second, not all in one instant
                if user["role"] == "browse":
                    tasks.append(asyncio.create_task(self.browse(user)))
                elif user["role"] == "play":
                    tasks.append(asyncio.create_task(self.play(i, user)))
                else:
                    tasks.append(asyncio.create_task(self.desk(desk.index(user), len(desk), user)))
            tasks.append(asyncio.create_task(self.organiser()))
            tasks.append(asyncio.create_task(self.static_probe()))
            await asyncio.sleep(warmup)
            self.figures.counting = True
            self.figures.started = time.monotonic()
            begun = time.monotonic()
            for at, call in marks:
                await asyncio.sleep(max(0.0, begun + at - time.monotonic()))
                call()
            await asyncio.gather(*tasks)
            self.figures.ended = min(time.monotonic(), self.stop_at)


async def ceiling(port: int, path: str, users: int, seconds: float) -> tuple[int, float, list[float]]:
    """The static file as fast as ``users`` clients can fetch it, one after another each."""
    import aiohttp

    times: list[float] = []
    errors = 0
    stop_at = time.monotonic() + seconds

    async def one(session: Any) -> None:
        nonlocal errors
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            try:
                async with session.get(f"http://{HOST}:{port}{path}") as response:
                    await response.read()
                    if response.status != 200:
                        errors += 1
            except aiohttp.ClientError:
                errors += 1
            times.append((time.perf_counter() - started) * 1000)

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        began = time.monotonic()
        await asyncio.gather(*(one(session) for _ in range(users)))
        took = time.monotonic() - began
    return errors, len(times) / took, times


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- where the time goes: the same requests in a process of their own, under cProfile -----------


def profile_kinds(plan: dict[str, Any], repeat: int, top: int) -> None:
    """Each kind of request ``repeat`` times through Django's test client, with the site's
    settings (DEBUG off, PostgreSQL, Redis): its time a request without a profiler, then under
    cProfile its top functions by their own time, its queries and its size. The results are
    entered and confirmed on tables of the round still waiting (one table a request)."""
    import cProfile
    import pstats

    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from spyleague.play.models import Match
    from spyleague.tournaments.models import Table

    main = plan["main"]
    users = plan["users"]
    entrant = next(u for u in users if u.get("viewer") == "entrant")
    organiser = next(u for u in users if u.get("viewer") == "organiser")
    player = next(u for u in users if u["role"] == "play")
    desk = next(u for u in users if u["role"] == "desk")
    desk_auth = {"HTTP_AUTHORIZATION": f"Token {desk['token']}"}
    match = Match.objects.filter(status="playing").order_by("-pk").values_list("pk", flat=True).first()
    waiting = [t for t in plan["tables"] if Table.objects.filter(pk=t["id"], status="waiting").exists()]
    table = plan["tables"][0]["id"]

    def cookie(user: dict[str, Any]) -> dict[str, str]:
        name, _, value = user["cookie"].partition("=")
        return {name: value}

    def page(path: str, **extra: Any) -> Any:
        return lambda client, i: client.get(path, **extra)

    def enter(client: Any, i: int) -> Any:
        t = waiting[i % len(waiting)]
        lines = [{"player": p, "place": n} for n, p in enumerate(t["players"], start=1)]
        return client.post(
            f"/api/tables/{t['id']}/result/", {"lines": lines}, content_type="application/json", **desk_auth
        )

    def confirm(client: Any, i: int) -> Any:
        return client.post(f"/api/tables/{waiting[i % len(waiting)]['id']}/confirm/", **desk_auth)

    cases: list[tuple[str, dict[str, str], Any]] = [
        ("event-main, anonymous", {}, page(f"/events/{main}/")),
        ("event-main, entrant", cookie(entrant), page(f"/events/{main}/")),
        ("event-main, organiser", cookie(organiser), page(f"/events/{main}/")),
        (
            "event-main standings fragment",
            {},
            page(f"/events/{main}/standings/?page=3", HTTP_HX_REQUEST="true"),
        ),
        ("event-other", {}, page(f"/events/{plan['others'][0]}/")),
        ("lobby, a player", cookie(player), page("/play/")),
        ("lobby, anonymous", {}, page("/play/")),
        ("home, anonymous", {}, page("/")),
        ("home, an entrant", cookie(entrant), page("/")),
        ("standings-api", {}, page(f"/api/events/{main}/standings/?limit=50&offset=100")),
        ("result-read", {}, page(f"/api/tables/{table}/result/", **desk_auth)),
        ("static-file", {}, page(plan["static"])),
    ]
    if match:
        cases.insert(7, ("match-page, spectator", {}, page(f"/play/matches/{match}/")))
        auth = {"HTTP_AUTHORIZATION": f"Token {player['token']}"}
        cases.append(("match-api", {}, page(f"/api/matches/{match}/", **auth)))
    if len(waiting) > 2 * repeat + 2:  # each request its own table: enter them all, then confirm them
        cases += [("result-enter", {}, enter), ("result-confirm", {}, confirm)]
    print(f"\nWhere the time goes: each kind {repeat} times in one process, the site's settings")
    for name, cookies, make in cases:
        client = Client()
        client.cookies.load(cookies)
        first = name.startswith("result-")
        if not first:
            make(client, 0)  # warm: templates compiled, caches filled
        plain = []
        for i in range(repeat):  # without the profiler first: what a request costs
            began = time.perf_counter()
            make(client, i)
            plain.append((time.perf_counter() - began) * 1000)
        profiler = cProfile.Profile()
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            profiler.enable()
            for i in range(repeat, 2 * repeat):
                response = make(client, i)
            profiler.disable()
            took = (time.perf_counter() - started) * 1000 / repeat
        size = len(response.content) if not response.streaming else 0
        print(
            f"\n== {name} -> {response.status_code}, {statistics.median(plain):.1f} ms a request "
            f"({took:.1f} under the profiler), {len(queries) / repeat:.1f} queries, {size / 1024:.0f} KB"
        )
        stats = pstats.Stats(profiler)
        rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:top]  # type: ignore[attr-defined]
        for (file, line, func), (_cc, calls, tottime, cumtime, _callers) in rows:
            where = file.replace(str(ROOT) + "/", "").replace(sys.prefix + "/", "")
            print(
                f"   {1000 * tottime / repeat:6.2f} ms own {1000 * cumtime / repeat:7.2f} ms in all "
                f"{calls // repeat:6d}x  {where}:{line} {func}"
            )


def spy_summary(folder: Path, top: int = 25) -> None:
    """What py-spy saw in the web workers: the share of the samples by view, and by the
    function on top of the stack (its own time), idle threads left out; and in the Celery
    worker's processes, by task."""
    _spy_web(folder, top)
    _spy_worker(folder, top)


def _spy_samples(folder: Path, which: str) -> Iterator[tuple[list[str], int]]:
    """Each stack py-spy recorded in the ``which`` processes (``web`` or ``worker``), its frames
    (the thread's left out) and how many samples it had."""
    for file in folder.glob(f"{which}-*.txt"):
        for line in file.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if count.isdigit():
                yield stack.split(";")[1:], int(count)


def _spy_worker(folder: Path, top: int) -> None:
    tasks: Counter[str] = Counter()
    inside: Counter[str] = Counter()
    total = 0
    for stack, n in _spy_samples(folder, "worker"):
        frames = [f for f in stack if "/site-packages/" not in f and "<frozen" not in f]
        total += n
        task = next((f for f in frames if "tasks.py" in f and "spyleague" in f), None)
        tasks[task.split(" (")[0] if task else "(outside the site's tasks)"] += n
        site = [f for f in frames if "spyleague/" in f or "games/" in f or "pairing/" in f]
        if site:
            inside[" > ".join(f.split(" (")[0] for f in site[-2:])] += n
    if not total:
        return
    _shares(f"Where the Celery worker's time went (py-spy, {total} samples while busy)", tasks, total, top)
    _shares("the site's deepest frames", inside, total, top)


def _shares(title: str, counted: Counter[str], total: int, top: int) -> None:
    print(f"\n{title}:" if title[0].isupper() else f"  {title}:")
    for name, n in counted.most_common(top):
        print(f"  {100 * n / total:5.1f}%  {name}")


def _spy_web(folder: Path, top: int) -> None:
    views: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for frames, n in _spy_samples(folder, "web"):
        total += n
        leaf = frames[-1] if frames else "?"
        own[leaf.split(" (")[0] + " (" + leaf.split(" (")[-1].split("/site-packages/")[-1]] += n
        view = next(
            (f for f in frames if ("views.py" in f or "event_parts.py" in f) and "/site-packages/" not in f),
            None,
        )
        views[view.split(" (")[0] + " " + view.split("/")[-1] if view else "(outside the site's views)"] += n
    if not total:
        print("py-spy saw nothing (is it installed? see the bench extra)")
        return
    _shares(f"Where the web workers' time went (py-spy, {total} samples while busy)", views, total, top)
    _shares("the functions on top of the stack", own, total, top)


# --- the run ------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured part (after the warm-up)")
    parser.add_argument(
        "--minutes", type=float, help="a soak: the measured part in minutes (instead of --seconds)"
    )
    parser.add_argument("--warmup", type=float, default=15.0)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--main", type=int, default=400, help="players in the main event")
    parser.add_argument(
        "--workers", type=int, default=3, help="gunicorn's uvicorn workers (the Dockerfile: 3)"
    )
    parser.add_argument("--worker-concurrency", type=int, default=2, help="the Celery worker's (compose: 2)")
    parser.add_argument(
        "--serving", type=int, help="requests a web process serves at once (SPYLEAGUE_SERVING; default 8)"
    )
    parser.add_argument(
        "--postgres", default=os.environ.get("LOAD_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379", help="the Redis server (no database)")
    parser.add_argument("--redis-db", type=int, default=11, help="live updates and caches (must be empty)")
    parser.add_argument("--broker-db", type=int, default=12, help="Celery's broker (must be empty)")
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="a request with no answer by then is an error"
    )
    parser.add_argument(
        "--ceiling-seconds", type=float, default=5.0, help="the static file alone at full speed"
    )
    parser.add_argument(
        "--no-page-cache", action="store_true", help="the pages' cache off (SPYLEAGUE_PAGE_CACHE=0)"
    )
    parser.add_argument(
        "--malloc-trim", type=float, default=None, metavar="SECONDS",
        help="SPYLEAGUE_MALLOC_TRIM_SECONDS for the processes (0: freed memory kept; see core.memory)",
    )  # fmt: skip
    parser.add_argument(
        "--profile", action="store_true", help="then cProfile each kind of request in-process"
    )
    parser.add_argument("--profile-repeat", type=int, default=30)
    parser.add_argument("--profile-only", action="store_true", help="build the day and profile, no load")
    parser.add_argument(
        "--py-spy",
        type=Path,
        help="sample the web workers with py-spy over the measured part, into this folder",
    )
    parser.add_argument(
        "--trace-memory",
        type=Path,
        help="run the web and worker processes under tracemalloc (slower), a snapshot each 30 s into "
        "this folder, and print what grew (benchmarks/memory_trace.py)",
    )
    parser.add_argument(
        "--mix",
        default="62,25,13",
        help="percent of the people who browse, play and enter results (default 62,25,13)",
    )
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--keep", action="store_true", help="keep the database, Redis and the logs")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "build":
        browse, play, _desk = (float(share) / 100 for share in args.mix.split(","))
        plan = build_day(args.players, args.main, args.users, args.seed, browse, play)
        Path(os.environ["LOAD_PLAN"]).write_text(json.dumps(plan))
        return
    if args.child == "profile":
        profile_kinds(json.loads(Path(os.environ["LOAD_PLAN"]).read_text()), args.profile_repeat, 14)
        return
    seconds = args.minutes * 60 if args.minutes else args.seconds
    redis_url = f"{args.redis}/{args.redis_db}"
    broker_url = f"{args.redis}/{args.broker_db}"
    for url in (redis_url, broker_url):
        if urlsplit(url).hostname not in (HOST, "localhost"):
            raise SystemExit("Redis must be on this machine (127.0.0.1).")
        if redis_call(url, "DBSIZE"):
            raise SystemExit(f"{url} is not empty: choose an empty one with --redis-db or --broker-db.")
    if urlsplit(args.postgres).hostname not in (HOST, "localhost"):
        raise SystemExit("PostgreSQL must be on this machine (127.0.0.1).")

    tmp = Path(tempfile.mkdtemp(prefix="spyleague-load-"))
    name = f"spyleague_load_{os.getpid()}"
    database = create_database(args.postgres, name)
    env = site_env(
        tmp,
        database,
        redis_url,
        broker_url,
        f"spyleague-load-{os.getpid()}",
        not args.no_page_cache,
        args.malloc_trim,
    )
    if args.serving:
        env["SPYLEAGUE_SERVING"] = str(args.serving)
    procs: dict[str, subprocess.Popen[bytes]] = {}
    try:
        print(f"Setting up in {tmp} (load average {loadavg()})", flush=True)
        python = sys.executable
        subprocess.run(
            [python, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        subprocess.run(
            [python, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        plan_file = tmp / "plan.json"
        build = [python, __file__, "--child", "build", "--players", str(args.players),
                 "--main", str(args.main), "--users", str(args.users), "--seed", str(args.seed),
                 "--mix", args.mix]  # fmt: skip
        started = time.monotonic()
        subprocess.run(build, cwd=ROOT, env={**env, "LOAD_PLAN": str(plan_file)}, check=True)
        plan = json.loads(plan_file.read_text())
        print(
            f"Built the day in {time.monotonic() - started:.0f} s: {plan['players']} players, the main event "
            f"{plan['entrants']} entrants with round {plan['round']}'s {len(plan['tables'])} tables waiting, "
            f"{len(plan['others'])} other events.",
            flush=True,
        )
        print(f"The day's tables analyzed (the server's autovacuum: {analyze(database)})", flush=True)
        if args.profile_only:
            profile = [python, __file__, "--child", "profile", "--profile-repeat", str(args.profile_repeat)]
            subprocess.run(profile, cwd=ROOT, env={**env, "LOAD_PLAN": str(plan_file)}, check=True)
            return
        port = free_port()
        logs = tmp
        traced: list[str] = []  # the web and worker processes under tracemalloc, if asked
        if args.trace_memory:
            traced = [str(ROOT / "benchmarks" / "memory_trace.py"), str(args.trace_memory), "30"]
        procs["web"] = start(
            [python, *traced, "-m", "gunicorn", "spyleague.asgi:application", "-k", "spyleague.server.Worker",
             "-b", f"{HOST}:{port}", "-w", str(args.workers), "--access-logfile", str(tmp / "access.log")],
            env, tmp / "web.log",
        )  # fmt: skip
        procs["worker"] = start(
            [python, *traced, "-m", "celery", "-A", "spyleague", "worker", "--loglevel=WARNING",
             f"--concurrency={args.worker_concurrency}"],
            env, tmp / "worker.log",
        )  # fmt: skip
        procs["beat"] = start(
            [python, "-m", "celery", "-A", "spyleague", "beat", "--loglevel=WARNING",
             "--schedule", str(tmp / "celerybeat-schedule")],
            env, tmp / "beat.log",
        )  # fmt: skip
        wait_for_site(port, list(procs.values()), logs)

        def group(which: str) -> list[int]:
            return group_pids(procs[which].pid)

        def memory() -> dict[str, list[float]]:
            out: dict[str, list[float]] = {}
            for which in ("web", "worker"):
                pids = group(which)
                out[which] = [round(rss_mb(p), 1) for p in pids]
            return out

        def cpu() -> dict[str, float]:
            return {
                "web": cpu_seconds(group("web")),
                "worker": cpu_seconds(group("worker")),
                "beat": cpu_seconds(group("beat")),
                "postgres": postgres_cpu_seconds(),  # the whole server's, ended backends too
                "redis": cpu_seconds(pids_named("redis-server")),
                "driver": time.process_time(),
                "sessions": pg_sessions(database),  # (not CPU: connections made to the database)
            }

        load_before = loadavg()
        rss: list[tuple[str, dict[str, list[float]]]] = [("start", memory())]
        cpu_marks: list[dict[str, float]] = []
        loads: list[str] = []

        spies: list[subprocess.Popen[bytes]] = []

        def at_start() -> None:
            rss.append(("after warm-up", memory()))
            cpu_marks.append(cpu())
            loads.append(loadavg())
            if args.py_spy:  # each web worker and each of the Celery worker's processes sampled
                args.py_spy.mkdir(parents=True, exist_ok=True)
                sampled = [("web", pid) for pid in group("web")[1:]]
                sampled += [("worker", pid) for pid in group("worker")[1:]]
                for which, pid in sampled:
                    spies.append(subprocess.Popen(
                        [str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(pid),
                         "--rate", "100", "--gil", "--duration", str(int(seconds)), "--format", "raw",
                         "--nonblocking",
                         "--output", str(args.py_spy / f"{which}-{pid}.txt")],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    ))  # fmt: skip

        marks: list[tuple[float, Any]] = [(0.0, at_start)]
        if args.minutes:
            for minute in range(1, int(args.minutes)):
                marks.append((60.0 * minute, lambda m=minute: rss.append((f"minute {m}", memory()))))
        driver = Driver(plan, port, args.timeout, args.seed)
        print(
            f"Driving {args.users} people for {args.warmup:g} s of warm-up and {seconds:g} s measured "
            f"(load average {load_before})...",
            flush=True,
        )
        asyncio.run(driver.run(seconds, args.warmup, marks))
        for spy in spies:
            spy.wait(timeout=60)
        cpu_marks.append(cpu())
        loads.append(loadavg())
        rss.append(("end", memory()))
        took = driver.figures.ended - driver.figures.started
        ceiling_figures = []
        if args.ceiling_seconds:  # the static file, then an API answer that reads no database
            for path in (plan["static"], "/api/games/"):
                before = cpu_seconds(group("web"))
                errors, rate, times = asyncio.run(ceiling(port, path, args.users, args.ceiling_seconds))
                used = cpu_seconds(group("web")) - before
                ceiling_figures.append((path, errors, rate, times, 1000 * used / max(1, len(times))))
        report(args, driver, took, plan, cpu_marks, rss, load_before, loads, ceiling_figures)
        slow_requests(tmp / "web.log")
        memo_reports([tmp / "web.log", tmp / "worker.log"])
        if args.py_spy:
            spy_summary(args.py_spy)
        if args.trace_memory:
            trace = str(ROOT / "benchmarks" / "memory_trace.py")
            compare = [python, trace, "--compare", str(args.trace_memory)]
            subprocess.run(compare, check=False)
        if args.profile:
            for proc in procs.values():
                stop(proc)
            subprocess.run(
                [python, __file__, "--child", "profile", "--profile-repeat", str(args.profile_repeat)],
                cwd=ROOT, env={**env, "LOAD_PLAN": str(plan_file)}, check=True,
            )  # fmt: skip
    finally:
        for proc in procs.values():
            stop(proc)
        if not args.keep:
            drop_database(args.postgres, name)
            redis_call(redis_url, "FLUSHDB")
            redis_call(broker_url, "FLUSHDB")
            for path in sorted(tmp.rglob("*"), reverse=True):
                path.rmdir() if path.is_dir() else path.unlink()
            tmp.rmdir()
        else:
            print(f"Kept: database {name}, Redis {redis_url} and {broker_url}, logs in {tmp}")


def memo_reports(logs: list[Path]) -> None:
    """Each process's last report of its memos (``core.memory.memos``: entries / bound)."""
    last: dict[str, str] = {}
    for log in logs:
        try:
            text = log.read_text(errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            if "Memos of process " in line:
                report = line.split("Memos of process ", 1)[1]
                last[report.split(" ", 1)[0]] = report
    if last:
        print("The memos of each process, as it last reported them (entries / bound):")
        for report in last.values():
            print(f"  {report[:400]}")


def slow_requests(log: Path, shown: int = 8) -> None:
    """The web workers' own account of their slowest answers (``core.middleware.SlowRequests``)."""
    try:
        lines = [line for line in log.read_text(errors="replace").splitlines() if "Slow request: " in line]
    except OSError:
        return
    if not lines:
        print("The web workers logged no slow request.")
        return

    def seconds(line: str) -> float:
        try:
            return float(line.split(" in ", 1)[1].split(" s ", 1)[0])
        except (IndexError, ValueError):
            return 0.0

    print(f"The web workers logged {len(lines)} slow requests; the slowest:")
    for line in sorted(lines, key=seconds, reverse=True)[:shown]:
        print("  " + line.split("Slow request: ", 1)[1][:400])


def report(
    args: Any,
    driver: Driver,
    took: float,
    plan: dict[str, Any],
    cpu_marks: list[dict[str, float]],
    rss: list[tuple[str, dict[str, list[float]]]],
    load_before: str,
    loads: list[str],
    ceiling_figures: list[tuple[str, int, float, list[float], float]],
) -> None:
    f = driver.figures
    print(
        f"\n{args.users} people, {took:.0f} s measured after {args.warmup:g} s of warm-up; gunicorn with "
        f"{args.workers} uvicorn workers, Celery worker (concurrency {args.worker_concurrency}) and beat, "
        f"PostgreSQL, Redis, DEBUG off, the pages' cache {'off' if args.no_page_cache else 'on'}; "
        f"{plan['players']} players, the main event {plan['entrants']}; "
        f"{driver.rounds_played} more rounds of it paired and published during the run.\n"
    )
    print(f"{'kind':<16} {'count':>7} {'errors':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}  answers")
    order = [*BROWSE, "match-new", "match-api", "match-move", "result-enter", "result-confirm",
             "result-read", "organiser", "static-file"]  # fmt: skip
    total = errors = 0
    everything: list[float] = []
    rows = {}
    for kind in order:
        times = f.times.get(kind, [])
        if not times:
            continue
        total += len(times)
        errors += f.errors[kind]
        everything += times
        rows[kind] = {
            "count": len(times),
            "errors": f.errors[kind],
            "p50": quantile(times, 0.5),
            "p95": quantile(times, 0.95),
            "p99": quantile(times, 0.99),
            "answers": dict(f.statuses[kind]),
        }
        answers = ", ".join(f"{k}: {v}" for k, v in f.statuses[kind].most_common())
        print(
            f"{kind:<16} {len(times):>7} {f.errors[kind]:>6} {quantile(times, 0.5):>8.1f} "
            f"{quantile(times, 0.95):>8.1f} {quantile(times, 0.99):>8.1f}  {answers}"
        )
    print(
        f"{'all':<16} {total:>7} {errors:>6} {quantile(everything, 0.5):>8.1f} "
        f"{quantile(everything, 0.95):>8.1f} {quantile(everything, 0.99):>8.1f}"
    )
    rate = total / took if took else 0.0
    print(
        f"\nRequests a second in all: {rate:.1f} (goal: at least 150; 0 errors, p50 < 100 ms, p95 < 500 ms)"
    )
    for kind, samples in f.samples.items():
        for sample in samples:
            print(f"  error, {kind}: {sample}")
    print("The slowest requests (ms, sent at s of the measured part):")
    for ms, at, what in sorted(f.slowest, reverse=True):
        print(f"  {ms:9.1f}  {at:6.1f}  {what}")
    for at, what in f.notes:
        print(f"  at {at:6.1f} s of the measured part: {what}")
    for path, c_errors, c_rate, c_times, c_cpu in ceiling_figures:
        print(
            f"Ceiling: {path} alone, {args.users} clients without pause for {args.ceiling_seconds:g} s: "
            f"{c_rate:.0f} requests a second, p50 {quantile(c_times, 0.5):.1f} ms, "
            f"p95 {quantile(c_times, 0.95):.1f} ms, {c_errors} errors, "
            f"{c_cpu:.2f} ms of the web workers' CPU a request"
        )
    if len(cpu_marks) == 2:
        used = {k: cpu_marks[1][k] - cpu_marks[0][k] for k in cpu_marks[0]}
        sessions = used.pop("sessions")
        print(
            "CPU over the measured part, in cores: "
            + ", ".join(f"{k} {v / took:.2f}" for k, v in used.items())
            + f" (of {os.cpu_count()}); the web workers' CPU a request: "
            + f"{1000 * used['web'] / max(1, total):.1f} ms"
        )
        print(
            f"Connections made to the database over the measured part: {sessions:.0f} "
            f"({sessions / took:.1f} a second)"
        )
    print(f"Load average (1, 5, 15 min): {load_before} before, {' then '.join(loads)} during and at the end")
    print("Memory (RSS, MB) of the web processes (gunicorn's master first) and the Celery worker's:")
    for label, groups in rss:
        print(f"  {label:<14} web {groups['web']}  worker {groups['worker']}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {"rows": rows, "rate": rate, "seconds": took, "load_before": load_before, "loads": loads,
                 "rss": rss, "page_cache": not args.no_page_cache},
                indent=2,
            )
        )  # fmt: skip


if __name__ == "__main__":
    main()
