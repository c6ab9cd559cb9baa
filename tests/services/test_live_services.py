"""The suite's checks against the real services: PostgreSQL, Redis and a live Celery worker.

These run when ``CELERY_BROKER_URL`` is set (``.ci/run`` sets it and starts a worker).
With ``SPYLEAGUE_REQUIRE_SERVICES=1`` a missing service fails the run instead of skipping.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

REQUIRED = bool(os.environ.get("SPYLEAGUE_REQUIRE_SERVICES"))
pytestmark = [pytest.mark.services, pytest.mark.xdist_group("services")]


def need(condition: bool, why: str) -> None:
    if condition:
        return
    if REQUIRED:
        pytest.fail(why)
    pytest.skip(why)


@pytest.mark.django_db
def test_the_database_is_postgresql_when_required() -> None:
    need(bool(os.environ.get("DATABASE_URL")), "DATABASE_URL is not set: running on SQLite.")
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        version = cursor.fetchone()[0]
    print(f"PostgreSQL {version}")


def test_a_celery_worker_answers() -> None:
    need(not settings.CELERY_TASK_ALWAYS_EAGER, "No broker configured: Celery runs eagerly.")
    from spyleague.celery import app

    replies = app.control.ping(timeout=5.0)
    assert replies, "no Celery worker answered the ping"
    print(f"Celery workers: {replies}")


@pytest.mark.django_db(transaction=True)
def test_the_demo_job_runs_on_the_live_worker_with_progress(client: Any) -> None:
    need(not settings.CELERY_TASK_ALWAYS_EAGER, "No broker configured: Celery runs eagerly.")
    from django.urls import reverse

    from spyleague.clubs.models import Club
    from spyleague.core.models import Job

    response = client.post(reverse("demo-load"), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    job = Job.objects.get(kind="demo-data")
    seen: set[str] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        seen.add(job.status)
        if not job.is_active:
            break
        time.sleep(0.2)
    assert job.status == Job.Status.DONE, f"{job.status}: {job.message}"
    assert job.progress == 100
    assert Club.objects.filter(name="Baker Street Games Club").exists()
    # The page's fragment reports it as done.
    assert "100%" in client.get(reverse("job", args=[job.pk])).content.decode()
    # The demo's results queued standings and ratings jobs: they run on the worker too. Let them
    # finish before the test's database is emptied under them.
    deadline = time.monotonic() + 60
    while Job.objects.filter(status__in=[Job.Status.QUEUED, Job.Status.RUNNING]).exists():
        assert time.monotonic() < deadline, "the worker did not finish the follow-up jobs"
        time.sleep(0.2)
    assert not Job.objects.filter(status=Job.Status.FAILED).exists()


def test_health_reports_the_broker(client: Any, db: Any) -> None:
    need(not settings.CELERY_TASK_ALWAYS_EAGER, "No broker configured: Celery runs eagerly.")
    data = client.get("/health/").json()
    assert data["broker"] == {"ok": True, "mode": "broker", "transport": data["broker"]["transport"]}
    assert data["database"]["ok"] is True


@pytest.mark.django_db(transaction=True)
def test_live_updates_wake_through_redis_pubsub() -> None:
    """A move published on Redis wakes every web process's event stream at once.

    The stream also re-reads the database every 5 seconds; getting the update well inside that
    shows the Redis notice, not the fallback, delivered it.
    """
    need(bool(settings.REDIS_URL), "REDIS_URL is not set: live updates read the database.")
    import asyncio

    from asgiref.sync import sync_to_async

    from spyleague.play import live
    from spyleague.play.models import Match
    from spyleague.play.views import _async_stream

    match = Match.objects.create(game="black-spy", seats=4, seed=1)

    def move() -> None:
        Match.objects.filter(pk=match.pk).update(version=1)
        live.publish(match.pk, 1)

    async def watch() -> float:
        stream = _async_stream(match.pk, None)
        try:
            assert (await anext(stream)).startswith("retry")
            assert (await anext(stream)).startswith("event: update\ndata: 0-")
            waiting = asyncio.ensure_future(anext(stream))
            await asyncio.sleep(0.3)  # the stream is now waiting on Redis
            started = time.monotonic()
            await sync_to_async(move)()
            update = await asyncio.wait_for(waiting, timeout=4)
            assert update.startswith("event: update\ndata: 1-")
            return time.monotonic() - started
        finally:
            await stream.aclose()  # type: ignore[attr-defined]

    # A thread of its own: the browser tests' Playwright may keep an event loop in this one.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        elapsed = pool.submit(lambda: asyncio.run(watch())).result(timeout=30)
    assert elapsed < 2.0, f"the update took {elapsed:.2f} s"
    print(f"live update through Redis in {elapsed * 1000:.0f} ms")


@pytest.mark.django_db(transaction=True)
def test_a_race_move_reaches_the_other_racers_streams_with_its_progress_through_redis(
    client: Any, make_user: Any
) -> None:
    """A racer's move: the other pages' streams (one Redis subscription per process) get its
    version and then the race's update, built once by the process that made the move, well
    before the feed's own look at the database (every 5 seconds) could have found it."""
    need(bool(settings.REDIS_URL), "REDIS_URL is not set: live updates read the database.")
    import asyncio
    import json
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from django.urls import reverse

    from games import get_engine
    from spyleague.play import race_view, services
    from spyleague.play.state import match_state
    from spyleague.play.views import _race_async_stream

    engine = get_engine("spy-vs-spy")
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = services.match_create(user=ann, game="spy-vs-spy", seats=2, seed=3)
    services.match_join(user=bob, match_id=match.pk)
    services.match_start(user=ann, match_id=match.pk)
    match.refresh_from_db()
    state = match_state(match)
    action = engine.legal(state, 1)[0]
    listening = threading.Event()

    async def watch() -> tuple[list[list[str]], float]:
        streams = [_race_async_stream(match.pk, 0) for _ in range(2)]
        try:
            for stream in streams:
                assert (await anext(stream)).startswith("retry")
            waiting = [asyncio.ensure_future(anext(stream)) for stream in streams]
            await asyncio.sleep(0.3)  # both wait on their feed
            listening.set()
            started = time.monotonic()
            pages = [[await asyncio.wait_for(w, timeout=4)] for w in waiting]
            for sent, stream in zip(pages, streams, strict=True):
                while "event: progress" not in "".join(sent):  # it may come with the update
                    sent.append(await asyncio.wait_for(anext(stream), timeout=4))
            return pages, time.monotonic() - started
        finally:
            for stream in streams:
                await stream.aclose()  # type: ignore[attr-defined]

    with ThreadPoolExecutor(max_workers=1) as pool:
        watching = pool.submit(lambda: asyncio.run(watch()))
        assert listening.wait(10)
        client.force_login(bob)
        data = {"action": json.dumps(action), "card": state.spies[1].card}
        assert client.post(reverse("play:race-act", args=[match.pk]), data).status_code == 200
        pages, elapsed = watching.result(timeout=30)
    for sent in pages:
        update, progress = [e for e in "".join(sent).split("\n\n") if e]
        assert update == "event: update\ndata: 1"  # the version first
        kind, data_line = progress.split("\n")
        pushed = json.loads(data_line.removeprefix("data: "))
        assert kind == "event: progress" and pushed["t"] == "u" and pushed["v"] == 1
        assert pushed["status"] == "playing"
        # The race as a spectator sees it, with the move in it (each page leaves out its own racer).
        assert pushed["race"] == race_view.race_picture(engine, engine.apply(state, 1, action))
    assert elapsed < 2.0, f"the move took {elapsed:.2f} s to reach the streams"


@pytest.mark.django_db(transaction=True)
def test_a_race_split_over_two_web_servers_is_live_on_both_through_redis(make_user: Any) -> None:
    """Two web servers (each its own event loop and feeds, as two machines), one race's racers
    spread over them: every update reaches every racer, through Redis."""
    need(bool(settings.REDIS_URL), "REDIS_URL is not set: live updates look at the database.")
    import asyncio
    import json

    from django.test import Client
    from websockets.asyncio.client import connect

    from games import get_engine
    from spyleague.play import services
    from spyleague.play.state import match_state
    from tests.asgi_server import asgi_server

    engine = get_engine("spy-vs-spy")
    users = [make_user(username=f"split{i}") for i in range(3)]
    match = services.match_create(user=users[0], game="spy-vs-spy", seats=3, seed=21)
    for user in users[1:]:
        services.match_join(user=user, match_id=match.pk)
    services.match_start(user=users[0], match_id=match.pk)
    cookies = []
    for user in users:
        client = Client()
        client.force_login(user)
        cookies.append(client.cookies["sessionid"].value)
    first = match_state(match)

    with asgi_server() as one, asgi_server() as two:
        servers = [one, one, two]  # racers 0 and 1 on the first, racer 2 on the second

        async def race() -> dict[int, list[int]]:
            sockets = [
                await connect(
                    f"{s.ws_url}/play/matches/{match.pk}/race/ws/",
                    origin=s.url,  # type: ignore[arg-type]
                    additional_headers={"Cookie": f"sessionid={c}"},
                )
                for s, c in zip(servers, cookies, strict=True)
            ]
            seen: dict[int, list[int]] = {0: [], 1: [], 2: []}
            state = first
            try:
                for n in range(12):  # racers 2 and 0 in turn, one card each
                    seat = 2 if n % 2 == 0 else 0
                    action = engine.legal(state, seat)[0]
                    frame = {"t": "move", "id": n, "action": action, "card": state.spies[seat].card}
                    await sockets[seat].send(json.dumps(frame))
                    state = engine.apply(state, seat, action)
                    version = n + 1
                    for s, ws in enumerate(sockets):  # every racer has it, at once
                        while not seen[s] or seen[s][-1] < version:
                            try:
                                message = json.loads(await asyncio.wait_for(ws.recv(), 5))
                            except TimeoutError:
                                raise AssertionError(f"racer {s} waits for {version}: {seen}") from None
                            if message["t"] == "u":
                                seen[s].append(message["v"])
                            assert message["t"] != "no", message
            finally:
                for ws in sockets:
                    await ws.close()
            return seen

        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=1) as pool:
            seen = pool.submit(lambda: asyncio.run(race())).result(timeout=120)
    for s in range(3):
        assert seen[s][-1] == 12 and seen[s] == sorted(seen[s])
