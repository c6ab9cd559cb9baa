"""The web server's worker: gunicorn runs uvicorn workers of this class (see the Dockerfile).

A graceful restart (SIGTERM, a deploy) lets every request in flight finish, then stops. Uvicorn
waits for every open connection, and a match's live-update stream (or a race page's socket)
stays open as long as the page does: without a limit, a restart waited for gunicorn's
``--graceful-timeout`` (30 s by default) whenever a match page was open, and the new server
could not start sooner. Here the worker waits ``STREAM_GRACE`` seconds, then closes what is
left. Only streams and sockets are left by then (a move takes milliseconds), and a browser's
event stream or race socket reconnects by itself to the new server and is told the current
position at once.
"""

from __future__ import annotations

from typing import Any

from uvicorn_worker import UvicornWorker

from spyleague.core import memory

STREAM_GRACE = 3  # seconds a graceful stop waits for open connections before closing them


class Worker(UvicornWorker):  # type: ignore[misc]  # uvicorn-worker has no type hints
    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        "timeout_graceful_shutdown": STREAM_GRACE,
        "ws": "websockets-sansio",  # the race pages' sockets (spyleague.asgi)
        # Their frames are a few hundred bytes: compressing each costs the server more than it saves.
        "ws_per_message_deflate": False,
    }

    def init_process(self) -> None:
        memory.start_trimming()  # freed memory given back to the system (see core.memory)
        memory.start_memo_report()  # with SPYLEAGUE_MEMO_REPORT_SECONDS: how full each memo is
        super().init_process()
