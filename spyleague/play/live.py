"""Live updates of matches across web processes.

When Redis is configured, each accepted move publishes the match's new version on a
channel; every web process's event stream listens there. Without Redis (the local
default) the stream reads the version from the database, which every process shares.
Nothing goes through one process's memory.
"""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)


def channel(match_id: int) -> str:
    return f"spyleague:match:{match_id}"


@cache
def _redis() -> Any:
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


def publish(match_id: int, version: int) -> None:
    if not settings.REDIS_URL:
        return
    try:
        _redis().publish(channel(match_id), str(version))
    except Exception:  # a lost notice is caught up by the stream's own version check
        log.warning("Could not publish match %s version %s to Redis", match_id, version, exc_info=True)
