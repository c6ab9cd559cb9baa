"""The race pages' event streams under ASGI: one feed per match in each web process.

Without Redis a process looks at the versions of all its watched matches at once and builds
the race's update once for all its pages of a match; the streams pass both on. (With Redis
the same streams pass on what the mover's process published: tests/services.)
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.test import override_settings

from games import get_engine
from spyleague.play import feeds, services
from spyleague.play.models import Match
from spyleague.play.state import match_state
from spyleague.play.views import _race_async_stream

from .races import race_of_people

# The streams read the database from their own thread: the rows must be committed.
pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = get_engine("spy-vs-spy")


def in_a_loop_of_its_own(make: Callable[[], Awaitable[Any]]) -> Any:
    """Run a coroutine in a thread with its own event loop, as a web process runs the streams
    (the browser tests' Playwright may keep an event loop in this thread)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result(timeout=30)  # type: ignore[arg-type]


def events(chunks: list[str]) -> list[tuple[str, str]]:
    """The events in what a stream sent (a chunk may carry more than one)."""
    out = []
    for event in "".join(chunks).split("\n\n"):
        if event.startswith("event: "):
            kind, data = event.split("\n")[:2]
            out.append((kind.removeprefix("event: "), data.removeprefix("data: ")))
    return out


async def read_until(stream: Any, want: Callable[[list[tuple[str, str]]], bool], seconds: float) -> list[str]:
    chunks: list[str] = []
    end = time.monotonic() + seconds
    while not want(events(chunks)):
        chunks.append(await asyncio.wait_for(anext(stream), timeout=max(0.01, end - time.monotonic())))
    return chunks


@override_settings(REDIS_URL="")
def test_without_redis_one_look_and_one_update_serve_every_page_of_a_match(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob)
    looks: list[list[int]] = []
    renders: list[int] = []
    real_versions, real_update = feeds.versions_of, feeds.update_of
    monkeypatch.setattr(feeds, "versions_of", lambda ids: looks.append(list(ids)) or real_versions(ids))
    monkeypatch.setattr(feeds, "update_of", lambda pk: renders.append(pk) or real_update(pk))
    moved = threading.Event()

    async def three_pages() -> tuple[list[list[tuple[str, str]]], int]:
        streams = [_race_async_stream(match.pk, 0) for _ in range(3)]
        try:
            for stream in streams:
                assert (await anext(stream)).startswith("retry:")
            # Each page is current (version 0): nothing to say until a racer moves.
            waiting = [asyncio.ensure_future(anext(stream)) for stream in streams]
            await asyncio.sleep(0.3)
            assert not any(w.done() for w in waiting)
            watched = len(feeds.feeds().feeds)
            moved.set()
            firsts = [await asyncio.wait_for(w, timeout=5) for w in waiting]
            seen = []
            for first, stream in zip(firsts, streams, strict=True):
                rest = await read_until(stream, lambda ev: any(k == "progress" for k, _ in ev), 5)
                seen.append(events([first, *rest]))
            return seen, watched
        finally:
            for stream in streams:
                await stream.aclose()  # type: ignore[attr-defined]

    mover = threading.Thread(
        target=lambda: (
            moved.wait(10)
            and services.match_move_submit(
                match_id=match.pk, user=bob, action=ENGINE.legal(match_state(match), 1)[0]
            )
        )
    )
    mover.start()
    seen, watched = in_a_loop_of_its_own(three_pages)
    mover.join()
    assert watched == 1  # three pages, one feed
    for page in seen:
        assert page[0] == ("update", "1")  # the version first, at once
        kind, data = page[-1]
        pushed = json.loads(data)
        assert kind == "progress" and pushed["t"] == "u" and pushed["v"] == 1
        # As a spectator sees it: every racer (each page leaves out its own).
        assert [p["seat"] for p in pushed["race"]["players"]] == [0, 1]
    assert renders == [match.pk]  # built once for the three pages
    assert all(ids == [match.pk] for ids in looks)  # one look covers every page of the process


@override_settings(REDIS_URL="")
def test_a_stream_ends_when_its_match_is_gone_and_a_closed_feed_holds_nothing(make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob)
    gone = threading.Event()

    async def page() -> tuple[list[str], int, int]:
        stream = _race_async_stream(match.pk, None)
        chunks = await read_until(stream, lambda ev: ev == [("update", "0")], 5)  # not current: told at once
        gone.set()
        async for chunk in stream:  # the stream ends by itself once the match is deleted
            chunks.append(chunk)
        hub = feeds.feeds()
        return chunks, len(hub.feeds), len(hub.tasks)

    deleter = threading.Thread(target=lambda: gone.wait(10) and Match.objects.filter(pk=match.pk).delete())
    deleter.start()
    chunks, watched, tasks = in_a_loop_of_its_own(page)
    deleter.join()
    assert events(chunks) == [("update", "0")]
    assert watched == 0 and tasks == 0  # nobody watches: no look, no task left behind


def test_another_processs_move_brings_this_processs_state_forward_and_never_reaches_a_page(
    make_user: Any,
) -> None:
    """A race update from Redis carries the move that made it: the feed passes on the update
    alone, and the process's cached state takes the move, so its racers' next moves need not
    read the log."""
    from spyleague.play import live, race_view, state

    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob)
    before = match_state(match)  # this process's cache: version 0
    action = ENGINE.legal(before, 1)[0]
    after = ENGINE.apply(before, 1, action)
    update = race_view.update_message(ENGINE, after, 1, "playing")
    key = [match.pk, match.created.timestamp()]
    move = json.dumps({"key": key, "game": "spy-vs-spy", "seat": 1, "action": action})
    hub = feeds.Feeds()
    feed = hub.feeds[match.pk] = feeds.Feed(match.pk)
    hub._dispatch({"channel": live.race_channel(match.pk).encode(), "data": f"{update}\n{move}".encode()})
    assert feed.update == (1, update) and feed.version == 1 and not feed.over
    assert state.cached_state((match.pk, match.created.timestamp())) == (1, after)
    # A move for a version the cache is not just before is left to the log.
    hub._dispatch(
        {"channel": live.race_channel(match.pk), "data": f"{update.replace('"v": 1', '"v": 3')}\n{move}"}
    )
    assert state.cached_state((match.pk, match.created.timestamp())) == (1, after)
    assert feed.update is not None and feed.update[0] == 3 and "\n" not in feed.update[1]


@override_settings(REDIS_URL="")
def test_a_quiet_match_stream_says_it_is_still_there(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A match page's stream with nothing new to say sends a comment now and then, so that a
    proxy in front of the site does not close it for want of traffic."""
    from spyleague.play import views

    monkeypatch.setattr(views, "KEEPALIVE_SECONDS", 0.3)
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob)

    async def listen() -> list[str]:
        stream = views._async_stream(match.pk, None)
        try:
            return [await asyncio.wait_for(anext(stream), 5) for _ in range(4)]
        finally:
            await stream.aclose()  # type: ignore[attr-defined]

    chunks = in_a_loop_of_its_own(listen)
    assert chunks[0].startswith("retry:") and chunks[1].startswith("event: update")
    assert chunks[2:] == [": still here\n\n"] * 2


def test_with_redis_a_page_that_missed_an_update_has_it_built_at_once(make_user: Any) -> None:
    """With Redis the feeds' looks wait (a safety look every few seconds): a page that sees a
    version without its update asks, and the update is built then, not at the next safety look."""
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob)
    state = match_state(match)
    services.match_move_submit(match_id=match.pk, user=bob, action=ENGINE.legal(state, 1)[0])

    async def ask() -> tuple[Any, float]:
        hub = feeds.Feeds()
        hub.redis = True  # as with Redis, without its listener: the notice came, its update did not
        feed = hub.feeds[match.pk] = feeds.Feed(match.pk, nudge=hub.nudged.set)
        looking = asyncio.get_running_loop().create_task(hub._look())
        try:
            feed.moved_to(1)
            asked = time.monotonic()
            feed.want_update()
            while feed.update is None and time.monotonic() - asked < feeds.SAFETY_SECONDS:
                await asyncio.sleep(0.01)
            return feed.update, time.monotonic() - asked
        finally:
            looking.cancel()
            hub.executor.shutdown(wait=False)

    update, took = in_a_loop_of_its_own(ask)
    assert update is not None and update[0] == 1 and json.loads(update[1])["v"] == 1
    assert took < 1.0, took
