"""Spy vs Spy live-update latency: from a racer's move reaching the server to the other racers.

Starts the site under uvicorn on 127.0.0.1 (a free port, ``--workers`` processes, by default
one per core) with a temporary SQLite database, or, when ``DATABASE_URL`` is set, a fresh
PostgreSQL database on that server (created here and dropped at the end; connections from the
site's pool, ``DATABASE_POOL_*``). Live updates go through Redis when ``REDIS_URL`` is set, else
each web process looks at the versions of its pages' matches in the database (``feeds``).

Every racer is a scripted client with its own session, doing what the race page does: it
opens the page, then (``--transport ws``, the default) opens the race's WebSocket
(``race/ws/``), places its cards on it at ``--pace`` cards a second (jittered), choosing piles
like the heuristic bot, and draws the others from the updates the socket pushes, as
``static/js/race.js`` does. ``--transport http`` is the page's fallback: moves as POSTs to
``race/act/``, the race's event stream (``race/events/``; ``--stream match`` for the generic
match stream), and after an update a fetch of the others' progress (``race/progress/``) unless
the stream pushed it. The server stamps the moment each move reaches it (an ``X-Arrived``
header or the socket's acknowledgement, added by a thin ASGI wrapper around the site, below);
each client stamps the moment an update arrives. For every accepted move, and every other
racer in its race, the latency is the time from the move's arrival to the first update to
that racer carrying the move's version or a later one. Both clocks are this machine's. Also
printed: each mover's own round trip, the server's CPU per move, and how many page fetches a
move caused. With ``--groups N`` the site runs as N groups of web processes on ports of their
own (as N machines would, sharing the database and Redis); the racers of each race are spread
over the groups by seat, and the deliveries from one group to another are counted apart.

Two phases in one run, on the same server: a baseline (one race alone on an idle server, at
``--baseline-pace``), then the load (``--races`` races at once). Figures: per delivery (one
move to one other racer) and per move (until the last of the other racers has it). Loopback
traffic only; the run stops by itself (each phase has a hard time limit). Usage, from the
repository root:

    .venv/bin/python benchmarks/race_latency.py [--races 50] [--seats 3] [--pace 1.0] [--seconds 25]
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python benchmarks/race_latency.py --pace 0.25

Figures measured on this project's machine are kept in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"
PUSH_WAIT = 0.15  # race.js: how long an update waits for its pushed progress before fetching it
DB_NAME = f"spyleague_race_bench_{os.getpid()}"


# --- the server side: the site, with the arrival of each POST stamped -------------------------


class StampedSite:
    """The Django ASGI site; a POST's response carries ``X-Arrived``: when the request reached it."""

    def __init__(self) -> None:
        self.site: Any = None

    profiling = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        arrived = time.time()
        if os.environ.get("RACE_PROFILE") and not StampedSite.profiling:
            StampedSite.profiling = True
            _profile_loop()
        if self.site is None:
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spyleague.settings")
            from spyleague.asgi import application

            self.site = application
        if scope["type"] == "websocket":  # each move frame's arrival, added to its answer ("at")
            await self.site(scope, *_stamped_socket(receive, send))
            return
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.site(scope, receive, send)
            return

        async def stamped(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), (b"x-arrived", repr(arrived).encode())]
                message = {**message, "headers": headers}
            await send(message)

        await self.site(scope, receive, stamped)


app = StampedSite()  # uvicorn race_latency:app --app-dir benchmarks


def _profile_loop() -> None:
    """RACE_PROFILE=dir: profile this worker's event-loop thread, dumped every few seconds."""
    import asyncio
    import cProfile

    prof = cProfile.Profile()
    out = Path(os.environ["RACE_PROFILE"]) / f"loop-{os.getpid()}.prof"

    def dump() -> None:
        prof.disable()
        prof.dump_stats(out)
        prof.enable()
        asyncio.get_running_loop().call_later(3.0, dump)

    prof.enable()
    asyncio.get_running_loop().call_later(3.0, dump)


if os.environ.get("RACE_LATENCY_SERVER"):  # in a uvicorn worker: load the site now, not on a request
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spyleague.settings")
    from spyleague.asgi import application

    app.site = application


def _stamped_socket(receive: Any, send: Any) -> tuple[Any, Any]:
    """A WebSocket's receive and send: each answer to a move (``ack`` or ``no``) gets ``"at"``,
    when that move's frame reached the site (answers come in the order of the moves)."""
    from collections import deque

    arrivals: deque[float] = deque()

    async def stamped_receive() -> dict[str, Any]:
        message: dict[str, Any] = await receive()
        if message["type"] == "websocket.receive":
            arrivals.append(time.time())
        return message

    async def stamped_send(message: dict[str, Any]) -> None:
        text = message.get("text") if message["type"] == "websocket.send" else None
        if text and text.startswith(('{"t": "ack"', '{"t": "no"')) and arrivals:
            message = {**message, "text": f'{{"at": {arrivals.popleft()!r}, {text[1:]}'}
        await send(message)

    return stamped_receive, stamped_send


# --- a small HTTP/1.0 client over asyncio streams (loopback only, no dependency) ---------------


@dataclass
class Racer:
    match: int
    seat: int
    seats: int
    seed: int
    cookie: str
    csrf: str
    stream: list[tuple[float, int]] = field(default_factory=list)  # (received at, version)
    posts: list[tuple[float, float, int]] = field(default_factory=list)  # (arrived, round trip, status)
    fetches: int = 0  # progress or board fetches after updates, as the page makes them
    shown: int = 0  # the newest version of the others' progress this racer has
    acked: int = 0  # the version its newest accepted move made
    pushed: bool = False  # the server pushes the progress: an update waits for it a moment


async def request(
    port: int, method: str, path: str, racer: Racer, body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    reader, writer = await asyncio.open_connection(HOST, port)
    head = [
        f"{method} {path} HTTP/1.0",
        f"Host: {HOST}:{port}",
        f"Cookie: {racer.cookie}",
        f"X-CSRFToken: {racer.csrf}",
        f"Referer: http://{HOST}:{port}/",
        "HX-Request: true",
    ]
    if body:
        head += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
    await writer.drain()
    raw = await reader.read()  # HTTP/1.0: the server closes when the answer is complete
    writer.close()
    header_bytes, _, payload = raw.partition(b"\r\n\r\n")
    lines = header_bytes.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    if headers.get("transfer-encoding") == "chunked":
        payload = Unchunk().feed(payload)
    return status, headers, payload


class Unchunk:
    """Undo chunked transfer encoding, as the bytes come (uvicorn's httptools server answers an
    HTTP/1.0 request with chunks when the length is not known: streams, and some fragments)."""

    def __init__(self) -> None:
        self.pending = b""

    def feed(self, data: bytes) -> bytes:
        self.pending += data
        out = []
        while True:
            line_end = self.pending.find(b"\r\n")
            if line_end < 0:
                break
            size = int(self.pending[:line_end].split(b";")[0] or b"0", 16)
            start = line_end + 2
            if len(self.pending) < start + size + 2:
                break
            out.append(self.pending[start : start + size])
            self.pending = self.pending[start + size + 2 :]
            if size == 0:
                break
        return b"".join(out)


async def follow(port: int, racer: Racer, stop: asyncio.Event, dirty: asyncio.Event, what: str) -> None:
    """What the race page does on each update: fetch the others' progress (or the board), one at a time."""
    if what == "none":
        return
    path = f"/play/matches/{racer.match}/{'race/progress' if what == 'progress' else 'board'}/"
    key = ""
    while not stop.is_set():
        try:
            await asyncio.wait_for(dirty.wait(), timeout=0.5)
        except TimeoutError:
            continue
        dirty.clear()
        status, _, body = await request(port, "GET", f"{path}?v={key}", racer)
        pattern = rb'"v": (\d+)' if what == "progress" else rb'data-key="(\d+)-'
        found = re.search(pattern, body) if status == 200 else None
        if found:
            key = found.group(1).decode()
            racer.shown = max(racer.shown, int(key))
        racer.fetches += 1


async def listen(port: int, racer: Racer, stop: asyncio.Event, stream: str, what: str) -> None:
    """Hold the racer's event stream open and note when each update arrives."""
    dirty = asyncio.Event()
    follower = asyncio.create_task(follow(port, racer, stop, dirty, what))
    loop = asyncio.get_running_loop()

    def want(version: int) -> None:
        if racer.shown < version:
            dirty.set()

    reader, writer = await asyncio.open_connection(HOST, port)
    path = f"/play/matches/{racer.match}/{'race/events' if stream == 'race' else 'events'}/"
    writer.write(
        (
            f"GET {path} HTTP/1.0\r\nHost: {HOST}:{port}\r\n"
            f"Cookie: {racer.cookie}\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    buffer = b""
    head: bytes | None = None  # the answer's header block, once it is in
    unchunk: Unchunk | None = None
    try:
        while not stop.is_set():
            try:
                chunk = await asyncio.wait_for(reader.read(4096), timeout=0.5)
            except TimeoutError:
                continue
            if not chunk:
                return
            now = time.time()
            if head is None:
                buffer += chunk
                if b"\r\n\r\n" not in buffer:
                    continue
                head, _, chunk = buffer.partition(b"\r\n\r\n")
                buffer = b""
                if b"transfer-encoding: chunked" in head.lower():
                    unchunk = Unchunk()
            buffer += unchunk.feed(chunk) if unchunk is not None else chunk
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                text = event.decode("utf-8", "replace")
                if text.startswith("event: progress"):  # the others' progress itself, pushed
                    pushed = re.search(r'^data: \{"t": "u", "v": (\d+)', text, re.M)
                    if pushed:
                        racer.stream.append((now, int(pushed.group(1))))
                        racer.pushed = True
                        racer.shown = max(racer.shown, int(pushed.group(1)))
                elif text.startswith("event: update"):
                    data = re.search(r"^data: (\d+)", text, re.M)
                    if data:
                        version = int(data.group(1))
                        racer.stream.append((now, version))
                        # As the page does: fetch what was not pushed (at once if nothing ever was).
                        loop.call_later(PUSH_WAIT if racer.pushed else 0, want, version)
    finally:
        writer.close()
        await follower


async def play_cards(racer: Racer, pace: float, until: float, send: Any) -> None:
    """Place this racer's cards at ``pace`` cards a second (jittered, on its own clock: a slow
    answer does not slow what it offers) until its race or the phase is over, one move at a time
    as the race page sends them. ``send(action, card)`` sends one move and gives back (when it
    reached the server, its status, the version it made)."""
    from games.spy_vs_spy import ENGINE
    from games.spy_vs_spy.bots import HeuristicBot

    bot, rng = HeuristicBot(), random.Random(racer.match * 10 + racer.seat)
    state = ENGINE.start(racer.seats, racer.seed, {})
    due = time.monotonic() + rng.uniform(0.2, 1.0) / pace
    await asyncio.sleep(due - time.monotonic())
    while time.time() < until:
        legal = ENGINE.legal(state, racer.seat)
        if not legal:
            return
        action = bot.choose(ENGINE.view(state, racer.seat), legal, rng)
        card = state.spies[racer.seat].card if action["type"] == "place" else None
        sent = time.time()
        arrived, status, version = await send(action, card)
        racer.posts.append((arrived, time.time() - sent, status))
        if status != 200:
            return
        racer.acked = max(racer.acked, version)
        state = ENGINE.apply(state, racer.seat, action)
        if action["type"] == "finish":
            return
        due += rng.uniform(0.5, 1.5) / pace
        if due - time.monotonic() > until - time.time():
            return  # the phase ends before the next card
        await asyncio.sleep(max(0.0, due - time.monotonic()))


async def race(port: int, racer: Racer, pace: float, until: float) -> None:
    """A racer whose moves are POSTs to ``race/act/`` (the race page's fallback)."""

    async def post(action: dict[str, Any], card: str | None) -> tuple[float, int, int]:
        fields = {"action": json.dumps(action), **({"card": card} if card else {})}
        status, headers, body = await request(
            port, "POST", f"/play/matches/{racer.match}/race/act/", racer, urlencode(fields).encode()
        )
        version = int(json.loads(body)["v"]) if status == 200 else 0
        return float(headers.get("x-arrived", "nan")), status, version

    await play_cards(racer, pace, until, post)


async def ws_racer(
    port: int, racer: Racer, pace: float, go: dict[str, Any], done: asyncio.Event, stop: asyncio.Event
) -> None:
    """The WebSocket race page (``--transport ws``): one socket for the racer's moves and everyone's
    updates. A move waits for its answer (``ack`` or ``no``) before the next card, as with POSTs."""
    from websockets.asyncio.client import connect

    answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    try:
        async with connect(
            f"ws://{HOST}:{port}/play/matches/{racer.match}/race/ws/",
            additional_headers={"Cookie": racer.cookie, "Origin": f"http://{HOST}:{port}"},
            max_size=None,
            open_timeout=60,  # and offering compression, as a browser does (the site declines it)
        ) as socket_:

            async def read() -> None:
                async for text in socket_:
                    now = time.time()
                    message = json.loads(text)
                    if message["t"] == "u":
                        racer.stream.append((now, int(message["v"])))
                    elif message["t"] in ("ack", "no"):
                        answers.put_nowait(message)

            reader = asyncio.create_task(read())
            await go["ready"].wait()

            async def frame(action: dict[str, Any], card: str | None) -> tuple[float, int, int]:
                move: dict[str, Any] = {"t": "move", "id": len(racer.posts), "action": action}
                if card:
                    move["card"] = card
                await socket_.send(json.dumps(move))
                answer = await answers.get()
                status = 200 if answer["t"] == "ack" else int(answer.get("status", 500))
                return float(answer.get("at", "nan")), status, int(answer.get("v", 0))

            await play_cards(racer, pace, go["until"], frame)
            done.set()
            await stop.wait()  # keep listening until the phase is over
            reader.cancel()
    finally:
        done.set()


async def ws_phase(port: int, groups: list[list[Racer]], pace: float, seconds: float) -> float:
    go: dict[str, Any] = {"ready": asyncio.Event()}
    stop = asyncio.Event()
    racers = [r for g in groups for r in g]
    for r in racers:  # each racer opens the race page first, as a person does
        await request(at(r, port), "GET", f"/play/matches/{r.match}/", r)
    dones = [asyncio.Event() for _ in racers]
    tasks = [
        asyncio.create_task(ws_racer(at(r, port), r, pace, go, d, stop))
        for r, d in zip(racers, dones, strict=True)
    ]
    await asyncio.sleep(1.0)  # every socket is open and has had the opening picture
    began = time.time()
    at_go()
    go["until"] = began + seconds
    go["ready"].set()
    await asyncio.gather(*(d.wait() for d in dones))
    took = time.time() - began
    await settle(racers)  # the last updates reach the sockets
    stop.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            print("a racer's socket failed:", repr(result)[:200])
    return took


GO: list[Any] = []  # called as the racing begins (pages open, streams or sockets connected)


def at_go() -> None:
    for hook in GO:
        hook()


PORTS: list[int] = []  # --groups: the ports of the groups of web processes; racers of a race spread over them


def at(racer: Racer, port: int) -> int:
    """The port this racer's pages talk to: its seat picks one of the groups."""
    return PORTS[racer.seat % len(PORTS)] if PORTS else port


# --- setting up: database, users, matches, server ---------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def server_env(tmp: Path, database_url: str, redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "REDIS_", "CELERY_"))}
    env.update(DJANGO_SETTINGS_MODULE="spyleague.settings", DJANGO_DEBUG="1", LOG_LEVEL="WARNING")
    env["RACE_LATENCY_SERVER"] = "1"
    # Under ASGI every request runs in a thread of its own: PostgreSQL connections come from the
    # site's pool (DATABASE_POOL_*), which needs persistent connections off.
    env.setdefault("DATABASE_CONN_MAX_AGE", "0")
    env["PYTHONPATH"] = str(ROOT)
    if database_url:
        env["DATABASE_URL"] = database_url
    else:
        env["SQLITE_PATH"] = str(tmp / "race.sqlite3")
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def create_database(url: str) -> str:
    """A fresh database on the server of ``url`` (through its ``postgres`` database); its URL."""
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    return with_database(url, DB_NAME)


def drop_database(url: str) -> None:
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def set_up_races(env: dict[str, str], groups: list[int], seats: int) -> list[list[Racer]]:
    """Users with sessions, and started matches of ``seats`` people each, in this process."""
    os.environ.update({k: v for k, v in env.items() if k != "RACE_LATENCY_SERVER"})
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import connections

    from spyleague.play import services

    out: list[list[Racer]] = []
    number = 0
    for count in groups:
        for _ in range(count):
            users = []
            for _ in range(seats):
                number += 1
                users.append(User.objects.create_user(username=f"racer{number}", password=None))
            seed = number
            match = services.match_create(user=users[0], game="spy-vs-spy", seats=seats, seed=seed)
            for user in users[1:]:
                services.match_join(user=user, match_id=match.pk)
            services.match_start(user=users[0], match_id=match.pk)
            racers = []
            for seat, user in enumerate(users):
                session = SessionStore()
                session[SESSION_KEY] = str(user.pk)
                session[BACKEND_SESSION_KEY] = "spyleague.core.auth.ModelBackend"
                session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                session.create()
                csrf = secrets.token_hex(16)  # 32 characters: a CSRF secret, sent as cookie and header
                cookie = (
                    f"{settings.SESSION_COOKIE_NAME}={session.session_key}; "
                    f"{settings.CSRF_COOKIE_NAME}={csrf}"
                )
                racers.append(Racer(match.pk, seat, seats, seed, cookie, csrf))
            out.append(racers)
    connections.close_all()
    return out


def move_versions(racers: list[Racer]) -> list[tuple[int, float, Racer, list[Racer]]]:
    """Each accepted move's version, from the log: (version, arrived, its racer, the other racers)."""
    from spyleague.play.models import Move

    by_match: dict[int, list[Racer]] = {}
    for r in racers:
        by_match.setdefault(r.match, []).append(r)
    out = []
    for match, group in by_match.items():
        numbers: dict[int, list[int]] = {}
        for number, seat in (
            Move.objects.filter(match_id=match).order_by("number").values_list("number", "seat")
        ):
            numbers.setdefault(seat, []).append(number)
        for r in group:
            accepted = [arrived for arrived, _, status in r.posts if status == 200]
            for arrived, version in zip(accepted, numbers.get(r.seat, []), strict=False):
                out.append((version, arrived, r, [o for o in group if o is not r]))
    return out


@dataclass
class Figures:
    moves: int
    deliveries: list[float]
    per_move: list[float]
    missed: int
    posts: list[float]
    errors: int
    seconds: float
    statuses: dict[str, int]
    cpu: float = 0.0  # server CPU seconds during the phase
    fetches: int = 0  # progress (or board) fetches the pages made
    sent: int = 0  # moves the racers sent (accepted or not)
    steady: float = 0.0  # moves a second the server took in the middle of the phase
    across: list[float] = field(default_factory=list)  # --groups: deliveries from one group to another
    across_missed: int = 0


def measure(racers: list[Racer], seconds: float, cpu: float) -> Figures:
    deliveries: list[float] = []
    per_move: list[float] = []
    missed = 0
    across: list[float] = []
    across_missed = 0
    moves = move_versions(racers)
    for version, arrived, mover, others in moves:
        worst = 0.0
        for other in others:
            crossing = at(other, 0) != at(mover, 0)  # served by another group of web processes
            seen = next((t for t, v in other.stream if v >= version), None)
            if seen is None:
                missed += 1
                across_missed += crossing
                continue
            deliveries.append(seen - arrived)
            if crossing:
                across.append(seen - arrived)
            worst = max(worst, seen - arrived)
        per_move.append(worst)
    posts = [rtt for r in racers for _, rtt, status in r.posts if status == 200]
    statuses: dict[str, int] = {}
    for r in racers:
        for _, _, status in r.posts:
            statuses[str(status)] = statuses.get(str(status), 0) + 1
    errors = sum(n for status, n in statuses.items() if status != "200")
    fetches = sum(r.fetches for r in racers)
    sent = sum(len(r.posts) for r in racers)
    # The steady rate: moves the server received in the middle of the phase, away from the
    # racers' staggered start and end (2 s at each end), per second.
    stamps = sorted(a for r in racers for a, _, status in r.posts if status == 200 and a == a)
    steady = 0.0
    if stamps and stamps[-1] - stamps[0] > 6:
        first, last = stamps[0] + 2, stamps[-1] - 2
        steady = sum(1 for a in stamps if first <= a <= last) / (last - first)
    return Figures(
        len(moves),
        deliveries,
        per_move,
        missed,
        posts,
        errors,
        seconds,
        statuses,
        cpu,
        fetches,
        sent,
        steady,
        across,
        across_missed,
    )


SETTLE_SECONDS = 10.0  # after the racing, how long the last updates may take before they count as missed


async def settle(racers: list[Racer]) -> None:
    """Wait until every racer has been told of its race's newest move (or SETTLE_SECONDS pass):
    an update still on its way at the end is late, not missed."""
    newest: dict[int, int] = {}
    for r in racers:
        newest[r.match] = max(newest.get(r.match, 0), r.acked)
    end = time.monotonic() + SETTLE_SECONDS
    while time.monotonic() < end:
        if all(max((v for _, v in r.stream), default=0) >= newest[r.match] for r in racers):
            return
        await asyncio.sleep(0.05)


async def phase(
    port: int, groups: list[list[Racer]], pace: float, seconds: float, stream: str, what: str
) -> float:
    stop = asyncio.Event()
    racers = [r for g in groups for r in g]
    for r in racers:  # each racer opens the race page first, as a person does
        await request(at(r, port), "GET", f"/play/matches/{r.match}/", r)
    listeners = [asyncio.create_task(listen(at(r, port), r, stop, stream, what)) for r in racers]
    await asyncio.sleep(1.0)  # every stream is open and has had its first event
    began = time.time()
    at_go()
    await asyncio.gather(*(race(at(r, port), r, pace, began + seconds) for r in racers))
    took = time.time() - began
    await settle(racers)  # the last updates reach the streams
    stop.set()
    await asyncio.gather(*listeners, return_exceptions=True)
    return took


def server_cpu(pgid: int) -> float:
    """CPU seconds used so far by the server's processes (uvicorn and its workers)."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields[2] is the process group
            total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def thread_cpu(pgid: int) -> dict[str, float]:
    """CPU seconds so far by thread kind (event loop, request threads, feed threads) of the server."""
    out: dict[str, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:
                continue
            tasks = os.listdir(f"/proc/{entry}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                raw = Path(f"/proc/{entry}/task/{tid}/stat").read_text()
            except OSError:
                continue
            name = raw[raw.index("(") + 1 : raw.rindex(")")]
            f = raw.rsplit(")", 1)[1].split()
            kind = "event loop" if tid == entry else re.sub(r"[-_]?\d+(_\d+)?$", "", name)
            out[kind] = out.get(kind, 0.0) + (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    return out


def merged(splits: Any) -> dict[str, float]:
    out: dict[str, float] = {}
    for split in splits:
        for k, v in split.items():
            out[k] = out.get(k, 0.0) + v
    return out


def wait_for_server(port: int, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit("uvicorn stopped while starting; see its output above.")
        try:
            with socket.create_connection((HOST, port), timeout=0.5) as s:
                s.sendall(f"GET /health/ HTTP/1.0\r\nHost: {HOST}\r\n\r\n".encode())
                if s.recv(12).startswith(b"HTTP/1."):
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("uvicorn did not answer in time.")


def ms(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(name: str, f: Figures) -> dict[str, Any]:
    row = {
        "phase": name,
        "moves": f.moves,
        "moves_per_second": round(f.moves / f.seconds, 1),
        "offered_per_second": round(f.sent / f.seconds, 1),
        "steady_moves_per_second": round(f.steady, 1),
        "deliveries": len(f.deliveries),
        "delivery_median_ms": round(1000 * statistics.median(f.deliveries), 1) if f.deliveries else None,
        "delivery_p95_ms": round(ms(f.deliveries, 0.95), 1),
        "all_racers_median_ms": round(1000 * statistics.median(f.per_move), 1) if f.per_move else None,
        "all_racers_p95_ms": round(ms(f.per_move, 0.95), 1),
        "post_round_trip_median_ms": round(1000 * statistics.median(f.posts), 1) if f.posts else None,
        "post_round_trip_p95_ms": round(ms(f.posts, 0.95), 1),
        "missed": f.missed,
        "refused_or_failed_posts": f.errors,
        "statuses": f.statuses,
        "server_cpu_ms_per_move": round(1000 * f.cpu / f.moves, 1) if f.moves else None,
        "server_cpu_share": round(f.cpu / f.seconds, 2),
        "page_fetches_per_move": round(f.fetches / f.moves, 2) if f.moves else None,
    }
    print(
        f"{name:<22} {row['moves']:>6} {row['moves_per_second']:>7} {row['deliveries']:>7} "
        f"{row['delivery_median_ms']!s:>9} {row['delivery_p95_ms']!s:>8} "
        f"{row['all_racers_median_ms']!s:>9} {row['all_racers_p95_ms']!s:>8} "
        f"{row['post_round_trip_median_ms']!s:>9} {row['post_round_trip_p95_ms']!s:>8} "
        f"{row['missed']:>6} {row['refused_or_failed_posts']:>6}"
    )
    print(
        f"{'':<22} offered {f.sent} moves ({row['offered_per_second']} a second), served {f.moves}; "
        f"{row['steady_moves_per_second']} a second in the middle of the phase; "
        f"server CPU: {row['server_cpu_ms_per_move']} ms a move, "
        f"{row['server_cpu_share']} cores on average; {row['page_fetches_per_move']} page fetches a move"
        + (f"; answers by status: {f.statuses}" if f.errors else "")
    )
    if PORTS:
        row["across_groups"] = len(f.across)
        row["across_groups_missed"] = f.across_missed
        row["across_groups_p95_ms"] = round(ms(f.across, 0.95), 1)
        print(
            f"{'':<22} from one group of web processes to another: {len(f.across)} deliveries, "
            f"{f.across_missed} missed, median "
            f"{round(1000 * statistics.median(f.across), 1) if f.across else None} ms, "
            f"p95 {row['across_groups_p95_ms']} ms"
        )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--races", type=int, default=50)
    parser.add_argument("--seats", type=int, default=3, choices=range(2, 7))
    parser.add_argument("--pace", type=float, default=1.0, help="cards a second per racer (default 1.0)")
    parser.add_argument("--seconds", type=float, default=25.0, help="length of the load phase")
    parser.add_argument("--baseline-seconds", type=float, default=12.0)
    parser.add_argument(
        "--baseline-pace", type=float, default=1.0, help="cards a second per racer in the idle race"
    )
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 2, help="uvicorn processes (default: one a core)"
    )
    parser.add_argument(
        "--stream",
        choices=["race", "match"],
        default="race",
        help="the race page's event stream (default) or the generic match page's",
    )
    parser.add_argument(
        "--fetch",
        choices=["progress", "board", "none"],
        default="progress",
        help="what each racer fetches on an update, as the race page does (default: the progress fragment)",
    )
    parser.add_argument(
        "--groups",
        type=int,
        default=1,
        help="groups of web processes on ports of their own, each of --workers; "
        "a race's racers spread over them",
    )
    parser.add_argument(
        "--transport",
        choices=["ws", "http"],
        default="ws",
        help="moves and updates over one WebSocket per racer, as the race page does (default), or "
        "moves as POSTs and updates on the race's event stream (the page's fallback)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    tmp = Path(tempfile.mkdtemp(prefix="race-latency-"))
    bench_db = ""
    proc: subprocess.Popen[bytes] | None = None
    others: list[subprocess.Popen[bytes]] = []
    try:
        if database_url:
            bench_db = create_database(database_url)
        env = server_env(tmp, bench_db, redis_url)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        groups = set_up_races(env, [1, args.races], args.seats)
        baseline, load = groups[:1], groups[1:]
        procs: list[subprocess.Popen[bytes]] = []
        for _ in range(args.groups - 1):  # the other groups of web processes, each on a port of its own
            other = free_port()
            PORTS.append(other)
            procs.append(subprocess.Popen(
                [
                    sys.executable, "-m", "uvicorn", "race_latency:app",
                    "--app-dir", str(ROOT / "benchmarks"),
                    "--host", HOST, "--port", str(other), "--workers", str(args.workers),
                    "--lifespan", "off", "--no-access-log", "--log-level", "warning",
                    "--ws", "websockets-sansio", "--ws-per-message-deflate", "false",
                ],
                cwd=ROOT, env=env, start_new_session=True,
            ))  # fmt: skip
            wait_for_server(other, procs[-1])
            others.extend(procs)
        port = free_port()
        if PORTS:
            PORTS.insert(0, port)
        proc = subprocess.Popen(
            [
                sys.executable, "-m", "uvicorn", "race_latency:app", "--app-dir", str(ROOT / "benchmarks"),
                "--host", HOST, "--port", str(port), "--workers", str(args.workers),
                "--lifespan", "off", "--no-access-log", "--log-level", "warning",
                "--ws", "websockets-sansio", "--ws-per-message-deflate", "false",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )  # fmt: skip
        wait_for_server(port, proc)

        def run(phase_groups: list[list[Racer]], seconds: float, pace: float) -> tuple[float, float]:
            racing = (
                ws_phase(port, phase_groups, pace, seconds)
                if args.transport == "ws"
                else phase(port, phase_groups, pace, seconds, args.stream, args.fetch)
            )
            pgids = [server.pid, *(p.pid for p in others)]
            opened = sum(server_cpu(g) for g in pgids)
            marks: dict[str, Any] = {}

            def go() -> None:  # the server's CPU from here on is the racing's (the pages are open)
                marks["cpu"] = sum(server_cpu(g) for g in pgids)
                marks["threads"] = merged(thread_cpu(g) for g in pgids)
                marks["mine"] = time.process_time()

            GO[:] = [go]
            took = asyncio.run(asyncio.wait_for(racing, timeout=seconds + 60))
            clients.append(time.process_time() - marks["mine"])
            after = merged(thread_cpu(g) for g in pgids)
            split = {k: round(v - marks["threads"].get(k, 0.0), 2) for k, v in after.items()}
            used = sum(server_cpu(g) for g in pgids) - marks["cpu"]
            split["threads that ended (requests)"] = round(used - sum(split.values()), 2)
            thread_split.append(split)
            opening.append((marks["cpu"] - opened) / max(1, sum(len(g) for g in phase_groups)))
            return took, used

        server = proc
        clients: list[float] = []
        thread_split: list[dict[str, float]] = []
        opening: list[float] = []  # server CPU seconds per racer to open its page and stream or socket
        load_before = os.getloadavg()[0]
        base_took, base_cpu = run(baseline, args.baseline_seconds, args.baseline_pace)
        load_took, load_cpu = run(load, args.seconds, args.pace)

        from spyleague.play.feeds import POLL_SECONDS

        poll = f"{POLL_SECONDS:g} s by each process" if args.stream == "race" else "0.5 s by each stream"
        live = "Redis pub/sub" if redis_url else f"the database, looked at every {poll} (no Redis)"
        database = "PostgreSQL" if database_url else "SQLite"
        print(
            f"\nSpy vs Spy race latency: {args.races} races x {args.seats} racers "
            f"at {args.pace} cards/s each (the idle race at {args.baseline_pace}), "
            f"uvicorn with {args.workers} workers"
            + (f" in each of {args.groups} groups on ports of their own" if args.groups > 1 else "")
            + f", {database}, live updates between processes through {live}, "
            + (
                "each racer's moves and updates over one WebSocket, as the race page does.\n"
                "Latency: from a move's frame reaching the server to another racer's socket receiving "
                "its update.\n"
                if args.transport == "ws"
                else f"moves as POSTs, the {args.stream} page's event stream, each update followed by a "
                f"{args.fetch} fetch (the race page's fallback).\n"
                "Latency: from a move's POST reaching the server to another racer's event stream "
                "receiving it.\n"
            )
        )
        print(
            f"{'phase':<22} {'moves':>6} {'moves/s':>7} {'deliv.':>7} {'median':>9} {'p95':>8} "
            f"{'all-med':>9} {'all-p95':>8} {'post-med':>9} {'post-p95':>8} {'missed':>6} {'errors':>6}"
        )
        rows = [
            report("baseline (1 race)", measure([r for g in baseline for r in g], base_took, base_cpu)),
            report(f"load ({args.races} races)", measure([r for g in load for r in g], load_took, load_cpu)),
        ]
        for name, split, f in zip(("baseline", "load"), thread_split, rows, strict=False):
            moves = f["moves"] or 1
            shares = sorted(split.items(), key=lambda kv: -kv[1])
            print(
                f"  server CPU by thread, {name}: "
                + ", ".join(f"{k} {1000 * v / moves:.1f} ms/move" for k, v in shares if v)
            )
            f["thread_cpu_ms_per_move"] = {k: round(1000 * v / moves, 2) for k, v in split.items()}
        for name, cost in zip(("baseline", "load"), opening, strict=False):
            print(
                f"  opening a racer's page and its {args.transport} connection, {name}: "
                f"{1000 * cost:.1f} ms of server CPU"
            )
        print(
            "\nmedian/p95 in ms per delivery (one move to one other racer); all-med/all-p95 until every "
            "other racer of the race has it; post: the mover's own round trip."
        )
        print(
            f"This machine: {os.cpu_count()} cores, load average {load_before:.1f} before the run and "
            f"{os.getloadavg()[0]:.1f} after it (other work shares the cores); the scripted racers "
            f"used {clients[-1] / load_took:.2f} cores during the load."
        )
        if args.json:
            setup = {
                "database": database,
                "live": live,
                "stream": args.stream,
                "pace": args.pace,
                "fetch": args.fetch,
                "load_average_before": load_before,
            }
            args.json.write_text(json.dumps({**setup, "rows": rows}, indent=2))
    finally:
        for p in [proc, *others]:
            if p is not None and p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                try:
                    p.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        if bench_db:
            drop_database(bench_db)
        for path in sorted(tmp.glob("*"), reverse=True):
            path.unlink()
        tmp.rmdir()


if __name__ == "__main__":
    main()
