"""The pages' cache (spyleague.core.cache): its connections, its versions, its rows."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.test import override_settings

from spyleague.core import cache

ROOT = Path(__file__).resolve().parents[3]
REDIS = {
    "BACKEND": "spyleague.core.cache.RedisCache",
    "LOCATION": "redis://127.0.0.1:1/0",  # never connected to: a pool makes its connections lazily
    "OPTIONS": {"socket_timeout": 0.5},
}


def test_every_thread_of_a_process_takes_its_redis_connections_from_one_pool() -> None:
    """Django keeps a cache object per thread, and under ASGI every request has a thread: with
    Django's own client each request opened a connection of its own."""
    from django.conf import settings

    pools: list[Any] = []

    def look() -> None:
        pools.append(caches["pages-test"]._cache._get_connection_pool(True))

    with override_settings(CACHES={**settings.CACHES, "pages-test": REDIS}):
        threads = [threading.Thread(target=look) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert len(pools) == 4 and all(pool is pools[0] for pool in pools)


def test_every_cache_on_redis_pools_its_connections() -> None:
    code = (
        "import django,json,os;os.environ['DJANGO_SETTINGS_MODULE']='spyleague.settings';django.setup();"
        "from django.conf import settings as s;"
        "print(json.dumps({k: v['BACKEND'] for k, v in s.CACHES.items()}), s.SPYLEAGUE_PAGE_CACHE)"
    )
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:6379/9"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    backends, page_cache = out.stdout.rsplit(" ", 1)
    assert set(json.loads(backends).values()) == {"spyleague.core.cache.RedisCache"}, out.stderr
    assert page_cache.strip() == "True"  # a shared cache: the pages are kept


def test_without_a_shared_cache_the_pages_are_not_kept() -> None:
    """Each process would keep versions of its own, which another process's writes do not move."""
    code = (
        "import django,os;os.environ['DJANGO_SETTINGS_MODULE']='spyleague.settings';django.setup();"
        "from django.conf import settings as s; print(s.SPYLEAGUE_PAGE_CACHE)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REDIS", "CELERY", "SPYLEAGUE_PAGE"))}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_a_row_is_rendered_once_whoever_asks_and_only_from_its_values(monkeypatch: Any) -> None:
    monkeypatch.setattr(cache, "_ROWS", type(cache._ROWS)())
    rendered: list[Any] = []
    template = "tournaments/event.html#table_row"
    real = cache.get_template

    def counting(name: str) -> Any:
        rendered.append(name)
        return real(name)

    monkeypatch.setattr(cache, "get_template", counting)
    row = (1, 2, 3, False, "waiting", (("Ann <b>", 1, 3.5), ("Ben", None, None)))
    first = cache.row(template, row)
    assert cache.row(template, row) is first and len(rendered) == 1
    assert "Ann &lt;b&gt;" in first and "/events/1/tables/2/" in first  # escaped as the page would
    other = cache.row(template, (*row[:4], "confirmed", row[5]))
    assert other != first and len(rendered) == 2


def test_the_rows_kept_are_bounded(monkeypatch: Any) -> None:
    monkeypatch.setattr(cache, "_ROWS", type(cache._ROWS)())
    monkeypatch.setattr(cache, "ROWS_KEPT", 10)
    for n in range(25):
        cache.row("tournaments/event.html#table_row", (1, n, n, False, "waiting", ()))
    assert len(cache._ROWS) == 10


_CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"')


def _home(client: Any, *, kept: bool) -> str:
    with override_settings(SPYLEAGUE_PAGE_CACHE=kept):  # (the writes are made with the cache on)
        response = client.get("/")
    assert response.status_code == 200
    return _CSRF.sub(r'\1""', re.sub(r'nonce="[^"]*"', "", response.content.decode()))


@pytest.mark.django_db
@override_settings(SPYLEAGUE_PAGE_CACHE=True)
def test_the_home_page_kept_is_the_home_page_for_everyone_and_moves_with_the_events(
    club: Any, organiser: Any, make_user: Any
) -> None:
    from django.test import Client

    from spyleague.clubs.services import club_create
    from spyleague.tournaments import services

    cache.PAGES.over()
    staff = make_user(username="staff", is_staff=True)
    viewers = {"visitor": Client(), "organiser": Client(), "staff": Client()}
    viewers["organiser"].force_login(organiser)
    viewers["staff"].force_login(staff)

    def check() -> dict[str, str]:
        seen = {}
        for name, client in viewers.items():
            expected = _home(client, kept=False)
            assert _home(client, kept=True) == expected == _home(client, kept=True), name
            seen[name] = expected
        return seen

    check()
    event = services.event_create(club=club, user=organiser, name="The Spring Open", game="black-spy")
    assert "The Spring Open" in check()["visitor"]
    services.event_update(user=organiser, event=event, name="The Summer Open")
    assert "The Summer Open" in check()["visitor"]
    club_create(user=organiser, name="Second Club", city="Leeds")
    assert ">2</div><small>clubs" in check()["visitor"].replace("\n", "")


def test_every_cache_object_of_a_process_shares_one_client() -> None:
    """Django makes a cache object per thread and request; building a client for each read
    redis-py's version from its package's metadata every time."""
    from django.conf import settings

    clients: list[Any] = []

    def look() -> None:
        clients.append(caches["pages-test"]._cache)

    with override_settings(CACHES={**settings.CACHES, "pages-test": REDIS}):
        threads = [threading.Thread(target=look) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        look()
        other = cache.RedisCache(REDIS["LOCATION"], {"OPTIONS": {"socket_timeout": 1.0}})
    assert len(clients) == 5 and all(client is clients[0] for client in clients)
    assert other._cache is not clients[0]  # other options: a client of their own


def _rendering_elsewhere(key: str) -> tuple[threading.Thread, threading.Event, list[Any]]:
    """A reader in another thread rendering the part kept under ``key``, held in its render
    until the event it returns is set; the list gets what that reader was given."""
    started, release, got = threading.Event(), threading.Event(), []

    def slow() -> str:
        started.set()
        assert release.wait(10)
        return "rendered by the first"

    thread = threading.Thread(target=lambda: got.append(cache.parts({"part": key}, {"part": slow})))
    thread.start()
    assert started.wait(10)
    return thread, release, got


def _never() -> str:
    raise AssertionError("rendered again while another reader renders it")


@override_settings(SPYLEAGUE_PAGE_CACHE=True)
def test_a_part_one_reader_renders_is_not_rendered_again_by_those_who_ask_meanwhile(
    monkeypatch: Any,
) -> None:
    """A version moved on while many are on the page: one renders the part, the others wait for it
    (within ``MAKING_WAIT``) or are given its rendering before (``latest``)."""
    cache.PAGES.over()
    run = uuid.uuid4().hex  # keys of this test's own (the cache may be a shared Redis)
    monkeypatch.setattr(cache, "MAKING_WAIT", 30)  # long enough: the waiter is given the first's part
    polled = threading.Event()

    class Clock:  # the waiter's sleeps between its looks say that it waits
        monotonic = staticmethod(time.monotonic)

        @staticmethod
        def sleep(seconds: float) -> None:
            polled.set()
            time.sleep(seconds)

    monkeypatch.setattr(cache, "time", Clock)
    thread, release, got = _rendering_elsewhere(f"{run}:v2:a")
    waiter: list[Any] = []
    second = threading.Thread(
        target=lambda: waiter.append(cache.parts({"part": f"{run}:v2:a"}, {"part": _never}))
    )
    second.start()
    assert polled.wait(10)  # the second reader waits for the first's part...
    release.set()  # ...which it is given once rendered
    thread.join(10)
    second.join(10)
    assert got == waiter == [{"part": "rendered by the first"}]

    monkeypatch.setattr(cache, "MAKING_WAIT", 0)  # no wait: the part as it was last rendered
    first = cache.parts({"part": f"{run}:v3:b"}, {"part": lambda: "b at v3"}, {"part": f"{run}:b"})
    assert first == {"part": "b at v3"}
    thread, release, got = _rendering_elsewhere(f"{run}:v4:b")
    assert cache.parts({"part": f"{run}:v4:b"}, {"part": _never}, {"part": f"{run}:b"}) == {"part": "b at v3"}
    release.set()
    thread.join(10)
    assert cache.parts({"part": f"{run}:v4:b"}, {"part": _never}, {"part": f"{run}:b"}) == {
        "part": "rendered by the first"
    }
    # Nothing rendered before, nobody waited for: the reader renders it too rather than wait.
    thread, release, got = _rendering_elsewhere(f"{run}:v5:c")
    assert cache.parts({"part": f"{run}:v5:c"}, {"part": lambda: "c here"}, {"part": f"{run}:c"}) == {
        "part": "c here"
    }
    release.set()
    thread.join(10)


@override_settings(SPYLEAGUE_PAGE_CACHE=True)
def test_a_part_whose_render_failed_is_rendered_by_the_next_reader() -> None:
    cache.PAGES.over()
    run = uuid.uuid4().hex

    def failing() -> str:
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        cache.parts({"part": f"{run}:v1:d"}, {"part": failing})
    assert cache.parts({"part": f"{run}:v1:d"}, {"part": lambda: "d"}) == {"part": "d"}
