"""The race pages' live updates: one feed per watched match in each web process.

Every open race page holds a socket (``race_socket``) or, where sockets do not get through, an
event stream (``views.race_events``). Giving each of them a Redis connection of its own, or a
look at the database four times a second, costs per page what one look per process does for
all of them. So each web process (each event loop) keeps one feed per match that any of its
pages watch, and the pages only wait on their feed:

- with Redis, one pub/sub connection for the whole process, subscribed to the channels of the
  watched matches: each move's version (``live.publish``) and the race's update, built once
  by the process that made the move (``race_view.publish_update``);
- without Redis, one look at the versions of all watched matches every ``POLL_SECONDS``; on a
  change the process builds the update itself, once for all its pages of the match.

Either way a slower look at the database (every ``SAFETY_SECONDS`` with Redis) catches a notice
that was lost, and a feed keeps only the newest version and update: a page that fell behind
skips to the newest. While Redis is away (the subscription failed or was dropped) a process works
as without it, looking often and building the updates itself, and subscribes again every
``RECONNECT_SECONDS`` until Redis is back; no page fails for it.

Nothing here decides anything about the game: it only passes on versions, and the race as a
spectator sees it (all public).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from .live import (
    SUBSCRIBE_SECONDS,
    Heartbeat,
    channel,
    close_pubsub,
    race_channel,
    redis_options,
)

log = logging.getLogger(__name__)

POLL_SECONDS = 0.1  # without Redis: how often a process looks at the versions of its watched matches
SAFETY_SECONDS = 5.0  # with Redis: how often it looks anyway, for a lost notice
RECONNECT_SECONDS = 1.0  # while Redis is away: how often the listener subscribes again


@dataclass
class Feed:
    """What the pages of one match in this process need: its newest version and update."""

    match_id: int
    version: int | None = None  # None until the first look at the database
    update: tuple[int, str] | None = None  # (version, the update message: ``race_view.update_message``)
    over: bool = False  # the newest update says the match is no longer playing
    gone: bool = False  # the match no longer exists
    wanted: bool = False  # a page saw a version without its update: build it at the next look
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # subscribed and looked up
    moving: asyncio.Lock = field(default_factory=asyncio.Lock)  # this process's moves, one at a time
    watchers: set[asyncio.Event] = field(default_factory=set)
    nudge: Callable[[], None] | None = None  # wakes the process's looks (``Feeds._look``)

    def moved_to(self, version: int) -> bool:
        if self.version is not None and version <= self.version:
            return False
        self.version = version
        self.wake()
        return True

    def updated(self, version: int, message: str, *, over: bool | None = None) -> None:
        """The update of ``version`` (newer than the feed's, or it is dropped)."""
        if self.update is not None and version <= self.update[0]:
            return
        self.update = (version, message)
        self.over = ('"status": "playing"' not in message) if over is None else over
        if self.version is None or version > self.version:
            self.version = version
        self.wake()

    def behind(self) -> bool:
        """The feed knows a newer version than its update."""
        return self.version is not None and (self.update is None or self.update[0] < self.version)

    def want_update(self) -> None:
        self.wanted = True
        if self.nudge is not None:
            self.nudge()

    def wake(self) -> None:
        for event in self.watchers:
            event.set()


class Feeds:
    """The feeds of one event loop: in a web process, of all its race streams."""

    def __init__(self) -> None:
        self.feeds: dict[int, Feed] = {}
        self.redis = bool(settings.REDIS_URL)
        self.away = False  # Redis is configured but the subscription is not working: poll instead
        self.look_soon = False  # look at the database at the next chance (subscribed again)
        self.nudged = asyncio.Event()  # with Redis, the looks wait for this (or SAFETY_SECONDS)
        self.pubsub: Any = None
        self.client: Any = None
        self.lock = asyncio.Lock()  # subscribing and unsubscribing, in order
        self.tasks: list[asyncio.Task[None]] = []
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="race-feeds")

    # --- for the streams ---------------------------------------------------------------------

    @asynccontextmanager
    async def watch(self, match_id: int) -> AsyncIterator[tuple[Feed, asyncio.Event]]:
        """Watch a match: its feed, and an event set whenever the feed has news."""
        feed = self.feeds.get(match_id)
        new = feed is None
        if feed is None:
            feed = self.feeds[match_id] = Feed(match_id, nudge=self.nudged.set)
        event = asyncio.Event()
        feed.watchers.add(event)
        try:
            if new:
                await self._start(feed)
            else:
                await feed.ready.wait()
            yield feed, event
        finally:
            feed.watchers.discard(event)
            if not feed.watchers and self.feeds.get(match_id) is feed:
                del self.feeds[match_id]
                if self.redis:
                    asyncio.get_running_loop().create_task(self._unsubscribe(match_id))
                if not self.feeds:
                    self._stop()

    # --- keeping the feeds fed ---------------------------------------------------------------

    async def _start(self, feed: Feed) -> None:
        """A newly watched match: subscribe to it, look up its version, keep the feeds fed."""
        try:
            if self.redis and not self.away:  # (while Redis is away the listener subscribes once it is back)
                try:
                    await self._subscribe(feed.match_id)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # the listener connects again; the database looks carry on
                    self.away = True
                    self.nudged.set()
                    log.warning("Could not subscribe to match %s (%s)", feed.match_id, exc)
            # After subscribing: a move made meanwhile is either in this look or in a notice.
            found = await self.run(versions_of, [feed.match_id])
            if feed.match_id in found:
                feed.moved_to(found[feed.match_id])
            else:
                feed.gone = True
        except asyncio.CancelledError:
            raise
        except Exception:  # the database is away for a moment: the next look finds the version
            log.warning("Could not look up match %s", feed.match_id, exc_info=True)
        finally:
            feed.ready.set()
        if not self.tasks:
            loop = asyncio.get_running_loop()
            self.tasks.append(loop.create_task(self._look()))
            if self.redis:
                self.tasks.append(loop.create_task(self._listen()))

    def _stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        self.tasks = []
        pubsub, self.pubsub, client, self.client = self.pubsub, None, self.client, None
        if pubsub is not None:
            asyncio.get_running_loop().create_task(close_pubsub(pubsub, client))

    async def run[R](self, fn: Callable[..., R], *args: Any) -> R:
        """Database work in this process's feed thread (one connection, given back after each use)."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, _in_thread, fn, *args)

    async def _subscribe(self, match_id: int) -> None:

        async with self.lock:
            if self.pubsub is None:
                import redis.asyncio as aioredis

                self.client = aioredis.Redis.from_url(settings.REDIS_URL, **redis_options())
                self.pubsub = self.client.pubsub()
            await asyncio.wait_for(
                self.pubsub.subscribe(channel(match_id), race_channel(match_id)), SUBSCRIBE_SECONDS
            )

    async def _unsubscribe(self, match_id: int) -> None:

        async with self.lock:
            if match_id in self.feeds or self.pubsub is None:
                return  # watched again meanwhile, or all closed
            try:
                await self.pubsub.unsubscribe(channel(match_id), race_channel(match_id))
            except Exception:  # the listener reconnects and subscribes to what is watched
                log.warning("Could not unsubscribe from match %s", match_id, exc_info=True)

    async def _listen(self) -> None:
        """With Redis: pass each message on to its match's feed. While Redis is away the looks
        at the database stand in for it (``away``), and this subscribes again now and then."""
        beat = Heartbeat()  # a Redis that stopped answering looks merely quiet: it is pinged
        while True:
            pubsub = self.pubsub
            try:
                if pubsub is None or not pubsub.subscribed:
                    raise ConnectionError("not subscribed")
                message = await beat.next_message(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not self.away:
                    log.warning("Lost the live updates' Redis connection (%s); looking at the database", exc)
                self.away = True
                self.nudged.set()
                await asyncio.sleep(RECONNECT_SECONDS)
                await self._reconnect(pubsub)
                beat = Heartbeat()
                continue
            if self.away:
                log.info("Live updates come from Redis again")
                self.away = False
                self.look_soon = True  # for a move made before the subscription was back
                self.nudged.set()
            if message is not None:
                self._dispatch(message)

    async def _reconnect(self, broken: Any) -> None:

        async with self.lock:
            if self.pubsub is not broken:
                return
            if broken is not None:
                await close_pubsub(broken, self.client)
            import redis.asyncio as aioredis

            self.client = aioredis.Redis.from_url(settings.REDIS_URL, **redis_options())
            self.pubsub = self.client.pubsub()
            names = [name for m in self.feeds for name in (channel(m), race_channel(m))]
            try:
                if names:
                    await asyncio.wait_for(self.pubsub.subscribe(*names), SUBSCRIBE_SECONDS)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.debug("Redis is still away (%s); the database looks carry on", exc)

    def _dispatch(self, message: dict[str, Any]) -> None:
        name = message.get("channel")
        name = name.decode() if isinstance(name, bytes) else str(name)
        data = message.get("data")
        data = data.decode() if isinstance(data, bytes) else str(data)
        number = name.rpartition(":")[2]
        feed = self.feeds.get(int(number)) if number.isdigit() else None
        if feed is None:
            return
        if name == race_channel(feed.match_id):  # the race's update: {"t": "u", "v": version, ...}
            data, _, extra = data.partition("\n")  # and the move that made it, for the state cache
            try:
                update = json.loads(data)
                version = int(update["v"])
            except (TypeError, ValueError, KeyError):
                return
            feed.updated(version, data, over=update.get("status") != "playing")
            if extra:
                self._advance(version, extra)
        else:
            try:
                feed.moved_to(int(data))
            except ValueError:
                return

    @staticmethod
    def _advance(version: int, extra: str) -> None:
        """Bring this process's cached state of the race forward with another process's move."""
        from .state import advance_state

        try:
            move = json.loads(extra)
            key = (int(move["key"][0]), float(move["key"][1]))
            advance_state(key, version, move["game"], move["seat"], move["action"])
        except Exception:  # only a shortcut: the next move reads the log instead
            log.warning("Could not bring the state forward with move %s", version, exc_info=True)

    async def _look(self) -> None:
        """Look at the versions of the watched matches: often without Redis (or while it is away),
        now and then with it; and build the updates nobody pushed."""
        last = time.monotonic()
        while True:
            if self.redis and not self.away:  # nothing to do until asked, or the safety look is due
                with suppress(TimeoutError):
                    await asyncio.wait_for(
                        self.nudged.wait(), max(0.0, last + SAFETY_SECONDS - time.monotonic())
                    )
                self.nudged.clear()
            else:
                await asyncio.sleep(POLL_SECONDS)
            polling = not self.redis or self.away
            wanted = [feed for feed in self.feeds.values() if feed.wanted]
            if not (polling or wanted or self.look_soon or time.monotonic() - last >= SAFETY_SECONDS):
                continue
            self.look_soon = False
            last = time.monotonic()
            watched = list(self.feeds)
            if not watched:
                continue
            try:
                found = await self.run(versions_of, watched)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is away for a moment: look again next time
                log.warning("Could not look at the matches' versions", exc_info=True)
                continue
            behind = []
            for match_id in watched:
                feed = self.feeds.get(match_id)
                if feed is None:
                    continue
                if match_id not in found:
                    feed.gone = True
                    feed.wake()
                    continue
                moved = feed.moved_to(found[match_id])
                # Nobody pushed the update (no Redis, or it was lost): build it once here. With
                # Redis a move's update may still be on its way: build it only when a page asks.
                if feed.behind() and ((moved and polling) or feed.wanted):
                    behind.append(feed)
                feed.wanted = False
            for feed in behind:
                try:
                    built = await self.run(update_of, feed.match_id)
                except asyncio.CancelledError:
                    raise
                except Exception:  # the next look tries again
                    log.warning("Could not build the update of match %s", feed.match_id, exc_info=True)
                    continue
                if built is not None:
                    feed.updated(built[0], built[1], over=built[2])


# --- database work, in the feed thread -------------------------------------------------------


def _in_thread[R](fn: Callable[..., R], *args: Any) -> R:
    from django.db import connection

    try:
        return fn(*args)
    finally:
        if connection.vendor != "sqlite":
            # Back to the pool: a feed holds no server connection while it waits (persistent
            # connections, without the pool, are kept as long as DATABASE_CONN_MAX_AGE says).
            connection.close_if_unusable_or_obsolete()


def versions_of(match_ids: list[int]) -> dict[int, int]:
    from .models import Match

    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


def update_of(match_id: int) -> tuple[int, str, bool] | None:
    """The race's update as a move's process publishes it: (version, message, over)."""
    from .models import Match
    from .race_view import update_of as build

    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    version, message = build(match)
    return version, message, match.status != Match.Status.PLAYING


_FEEDS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Feeds] = weakref.WeakKeyDictionary()


def feeds() -> Feeds:
    """The feeds of the running event loop (one per web process under uvicorn)."""
    loop = asyncio.get_running_loop()
    found = _FEEDS.get(loop)
    if found is None:
        found = _FEEDS[loop] = Feeds()
    return found
