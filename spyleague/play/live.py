"""Live updates of matches across web processes.

When Redis is configured, each accepted move publishes the match's new version on a
channel; every web process's event stream listens there. Without Redis (the local
default) the stream reads the version from the database, which every process shares.
Nothing goes through one process's memory.

Redis is a shortcut, never a dependency: a notice that cannot be published is logged and
dropped (the streams look at the database now and then anyway), and a stream whose
subscription fails, or that Redis drops, looks at the database often until it can subscribe
again. Every connection gives up quickly (``CONNECT_SECONDS``), a publish is waited for
``queue.DEADLINE_SECONDS`` at most, and after a try that timed out (a Redis that does not answer
at all) a process skips publishing for a few seconds (``PUBLISHING``), so nothing waits on a
Redis that is away.
"""

from __future__ import annotations

import asyncio
import logging
import time
from contextlib import suppress
from functools import cache
from typing import Any

from django.conf import settings

from ..core.queue import REDIS, within_deadline

log = logging.getLogger(__name__)

CONNECT_SECONDS = 1.0  # connecting to Redis gives up after this
COMMAND_SECONDS = 2.0  # and a command on a connection that stopped answering
RESUBSCRIBE_SECONDS = 3.0  # while Redis is away, how often a stream tries to subscribe again
POLL_SECONDS = 0.5  # and how often it looks at the database meanwhile
SUBSCRIBE_SECONDS = 1.0  # subscribing gives up after this (a Redis that answers does in milliseconds)
PING_SECONDS = 1.0  # a subscription that heard nothing for this long pings Redis
PONG_SECONDS = 1.0  # and is taken for lost when no pong comes back within this

PUBLISHING = REDIS  # this process's publishing to Redis, here and in ``realtime`` (one for all Redis)


def channel(match_id: int) -> str:
    """The Redis channel of a match's versions (``publish``)."""
    return f"{settings.REDIS_PREFIX}:match:{match_id}"


def race_channel(match_id: int) -> str:
    """The Redis channel of a race's updates (``race_view.publish_update``)."""
    return f"{settings.REDIS_PREFIX}:race:{match_id}"


def redis_options() -> dict[str, Any]:
    """Timeouts for every Redis client of the live updates."""
    return {"socket_connect_timeout": CONNECT_SECONDS, "socket_timeout": COMMAND_SECONDS}


@cache
def _redis() -> Any:
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, **redis_options())


def publish(match_id: int, version: int) -> None:
    if not settings.REDIS_URL or PUBLISHING.ongoing():
        return
    try:
        within_deadline(PUBLISHING, lambda: _redis().publish(channel(match_id), str(version)))
    except Exception:  # a lost notice is caught up by the stream's own version check
        log.warning("Could not publish match %s version %s to Redis", match_id, version, exc_info=True)
    else:
        PUBLISHING.over()


class Heartbeat:
    """Whether a quiet subscription's Redis still answers.

    A Redis whose host or network is gone, or whose process is stopped, leaves the connection
    open and answers nothing: a subscription then looks merely quiet, and its pages would hear
    of moves only at their slow looks at the database. So after ``PING_SECONDS`` with nothing
    heard the subscription pings; any message (the pong included) is a sign of life, and none
    within ``PONG_SECONDS`` of the ping makes ``check`` raise, as a dropped connection would.
    """

    def __init__(self) -> None:
        self.heard = time.monotonic()
        self.pinged = 0.0

    def heard_from(self) -> None:
        self.heard, self.pinged = time.monotonic(), 0.0

    async def next_message(self, pubsub: Any, timeout: float | None = None) -> Any:
        """Wait on the subscription ``timeout`` seconds at most (and ``PING_SECONDS / 2`` at most, so
        that a Redis that stopped answering is noticed): its next message, or None when nothing
        but a pong came. Raises when Redis stopped answering, as a dropped connection would."""
        slice_ = PING_SECONDS / 2 if timeout is None else min(timeout, PING_SECONDS / 2)
        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=slice_)
        if message is None:
            await self.check(pubsub)
            return None
        self.heard_from()
        return None if message.get("type") == "pong" else message

    async def check(self, pubsub: Any) -> None:
        now = time.monotonic()
        if self.pinged:
            if now - self.pinged > PONG_SECONDS:
                raise TimeoutError(f"Redis did not answer a ping within {PONG_SECONDS} s")
        elif now - self.heard > PING_SECONDS:
            await asyncio.wait_for(pubsub.ping(), COMMAND_SECONDS)
            self.pinged = now


class Subscription:
    """An event stream's subscription to some channels, under ASGI, that survives Redis going away.

    ``wait`` returns when a message arrives or ``timeout`` passes. While there is no working
    subscription (Redis is away, or dropped it) it returns after ``POLL_SECONDS`` instead, so the
    stream looks at the database often, and every ``RESUBSCRIBE_SECONDS`` it subscribes again.
    ``close`` gives back the connection, whatever state it is in.
    """

    def __init__(self, *channels: str) -> None:
        self.channels = channels
        self.client: Any = None
        self.pubsub: Any = None
        self.retry_at = 0.0
        self.beat = Heartbeat()

    async def open(self) -> bool:
        """Subscribe (before the stream's first look, so no move falls between); True if it did."""
        import redis.asyncio as aioredis

        self.retry_at = time.monotonic() + RESUBSCRIBE_SECONDS
        client = aioredis.Redis.from_url(settings.REDIS_URL, **redis_options())
        pubsub = client.pubsub()
        try:
            await asyncio.wait_for(pubsub.subscribe(*self.channels), SUBSCRIBE_SECONDS)
        except asyncio.CancelledError:
            await close_pubsub(pubsub, client)
            raise
        except Exception as exc:
            await close_pubsub(pubsub, client)
            log.info("No live updates from Redis for now (%s): looking at the database", exc)
            return False
        self.client, self.pubsub = client, pubsub
        self.beat = Heartbeat()
        return True

    async def wait(self, timeout: float) -> Any:
        """The next message (or None) within ``timeout``; without a subscription, None soon."""
        if self.pubsub is None and time.monotonic() >= self.retry_at:
            await self.open()
        if self.pubsub is None:
            await asyncio.sleep(POLL_SECONDS)
            return None
        end = time.monotonic() + timeout
        try:
            while True:  # in slices, so that a Redis that stopped answering is noticed (``Heartbeat``)
                message = await self.beat.next_message(self.pubsub, max(0.0, end - time.monotonic()))
                if message is not None:
                    return message
                if time.monotonic() >= end:
                    return None
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # Redis went away: look at the database until it is back
            log.info("Lost the live updates' Redis connection (%s): looking at the database", exc)
            await self.close()
            self.retry_at = time.monotonic() + RESUBSCRIBE_SECONDS
            return None

    async def close(self) -> None:
        pubsub, client, self.pubsub, self.client = self.pubsub, self.client, None, None
        if pubsub is not None:
            await close_pubsub(pubsub, client)


async def close_pubsub(pubsub: Any, client: Any) -> None:
    """Close a pub/sub and its client; closing drops the subscriptions (no need to unsubscribe)."""
    with suppress(Exception):
        await asyncio.wait_for(pubsub.aclose(), COMMAND_SECONDS)
    if client is not None:
        with suppress(Exception):
            await asyncio.wait_for(client.aclose(), COMMAND_SECONDS)
