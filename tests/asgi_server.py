"""The site's ASGI application (``spyleague.asgi``: pages, API and the race sockets) served by
uvicorn in a thread of the test process, on the test database: for tests that need what only
an ASGI server does (WebSockets), where pytest-django's ``live_server`` serves WSGI.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class AsgiServer:
    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{self.host}:{self.port}"


@contextmanager
def asgi_server() -> Iterator[AsgiServer]:
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from spyleague.asgi import application as site

    application = ASGIStaticFilesHandler(site)  # the static files from the finders, as live_server does
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    config = uvicorn.Config(
        application, lifespan="off", log_level="warning", ws="websockets-sansio", ws_per_message_deflate=False
    )
    server = uvicorn.Server(config)
    failed: list[BaseException] = []

    def serve() -> None:
        try:
            server.run(sockets=[listening])
        except BaseException as exc:  # reported by the waiting test, not lost in the thread
            failed.append(exc)

    thread = threading.Thread(target=serve, name="asgi-server", daemon=True)
    thread.start()
    started = threading.Event()

    def until_started() -> None:
        while not (server.started or failed or not thread.is_alive()):
            started.wait(0.01)

    until_started()
    if failed or not server.started:
        raise RuntimeError(f"The ASGI server did not start: {failed}")
    try:
        yield AsgiServer("127.0.0.1", port)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listening.close()
