"""Pages that many read and few change, kept rendered under keys that carry version numbers.

On the day of a big event a thousand phones reload its page, and the page changes only when a
result is confirmed, a round is published or a player enters or drops. So the heavy parts of
such pages (an event's standings, its round's tables, its entrants) are rendered once per
version and kept in the ``default`` cache (Redis, shared by every web process), and the page
puts them together with what is the viewer's own (their table, their line, their forms).

Versions. Each event has a version number in the cache (``event:<id>``), and the site has one
(``site``) for what every page may show of another thing (a player's or a club's name). A write
adds one to the version of what it changed (``event_changed``, ``site_changed``); a key of a
rendered part holds the versions it was rendered at, so a write never looks for what to
invalidate: the next reader asks for a key nobody has rendered yet, and the parts of older
versions are never asked for again and expire (``PART_SECONDS``). Every service that changes an
event's state, its rounds, tables, entrants or standings takes the event's lock first
(``core.locks.lock_event``), and the lock says the event changed, so no write is forgotten.

A version is bumped at once *and* when the transaction commits: the bump at commit is the one
that matters (a reader who renders between the two renders what was committed before, under the
version in between, which nobody asks for after the commit); the bump at once makes the change
visible to the rest of the same transaction (and to tests, whose transactions never commit).

What a part may hold. A part is rendered from the thing's state and the viewer's *kind* (a
visitor, one of the club's organisers...), never from the request: no session, no user, no
CSRF token, no nonce. Where a part holds a form, its CSRF token is a mark (``CSRF_MARK``) that
``with_csrf`` replaces with the viewer's own token; what is the viewer's own is rendered by the
page around the part, every time.

Fails open, like the throttle: a cache that is away or slow (half a second at most, then left
alone for a few seconds, ``queue.Outage``) means the parts are rendered for each reader, as
without a cache; a bump that could not be made is made by the next call that reaches the cache
(and the parts expire anyway). Without Redis (one process, the local default) the pages are not
cached unless ``SPYLEAGUE_PAGE_CACHE`` says so: each process would keep versions of its own.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends import redis as django_redis
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import get_template
from django.utils.functional import cached_property
from django.utils.safestring import SafeString, mark_safe

from .queue import REDIS

log = logging.getLogger(__name__)

CACHE = "default"
PART_SECONDS = 60  # a rendered part is kept this long (its version moves on long before, usually)
VERSION_SECONDS = 7 * 24 * 3600  # a version number is kept this long (then starts afresh)
PAGES = REDIS  # a cache that timed out is left alone for a while, as is the rest of Redis
# Stands for the viewer's CSRF token in a rendered part (``with_csrf`` puts the token in).
CSRF_MARK = "csrf-token-of-the-viewer"

_pending: set[str] = set()  # bumps that could not reach the cache yet
_pending_lock = threading.Lock()


def enabled() -> bool:
    return bool(getattr(settings, "SPYLEAGUE_PAGE_CACHE", False))


def _fresh() -> int:
    """A first version number no earlier version of the same name can have held: the time in
    nanoseconds (a version found missing, evicted or never set, starts again from here)."""
    return time.time_ns()


def _version_key(name: str) -> str:
    return f"v:{name}"


def _reach[T](call: Callable[[], T], default: T) -> T:
    """``call()`` on the cache, or ``default`` when it is away (logged; a slow failure leaves the
    cache alone for a while). Bumps that failed before are made first."""
    if PAGES.ongoing():
        return default
    started = time.monotonic()
    try:
        if _pending:
            _flush_pending()
        return call()
    except Exception as exc:  # never fail a page for its cache: render it instead
        log.warning("The page cache could not be reached (%s); pages are rendered for each reader.", exc)
        PAGES.failed(started=started)
        return default


def first_in(key: str, seconds: float) -> bool:
    """Whether this is the first call for ``key`` in the last ``seconds`` (whole seconds, at
    least one), in every process sharing the cache: an entry added only when absent. True when
    the cache is away: then each caller is the first."""
    timeout = max(1, math.ceil(seconds))
    return bool(_reach(lambda: caches[CACHE].add(f"first:{key}", 1, timeout), True))


def forget_first(key: str) -> None:
    """The next call of ``first_in(key, ...)`` is a first again."""
    _reach(lambda: caches[CACHE].delete(f"first:{key}"), None)


def _flush_pending() -> None:
    with _pending_lock:
        names = list(_pending)
        _pending.clear()
    try:
        _bump(names)
    except Exception:
        with _pending_lock:
            _pending.update(names)
        raise


def _bump(names: Iterable[str]) -> None:
    cache = caches[CACHE]
    for name in names:
        key = _version_key(name)
        try:
            cache.incr(key)
        except ValueError:  # not there (never set, or expired): a version no earlier one had
            cache.set(key, _fresh(), VERSION_SECONDS)


def _bump_reaching(names: Iterable[str]) -> None:
    """Bump now if the cache can be reached; else as soon as a later call reaches it."""
    names = list(names)

    def call() -> bool:
        _bump(names)
        return True

    if not _reach(call, False):
        with _pending_lock:
            _pending.update(names)


class _AtCommit:
    """The bump a transaction makes when it commits (one per savepoint and name)."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(names)

    def __call__(self) -> None:
        _bump_reaching(self.names)


def changed(*names: str) -> None:
    """The things called ``names`` changed: add one to their versions, now and at commit.

    Now, every time: a page read later in the same transaction (a test's, whose transaction is
    the whole test, or a service that writes, reads and writes again) must not find a part
    rendered before this change under the version it reads. At commit, once a transaction (one
    savepoint of it) however many rows change: the bumps it will make at commit are read from
    the transaction's own list."""
    if not enabled():
        return
    _bump_reaching(names)
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return
    here = set(connection.savepoint_ids)
    already: set[str] = set()
    for savepoints, call, _robust in connection.run_on_commit:
        if isinstance(call, _AtCommit) and savepoints == here:
            already |= call.names
    todo = [name for name in names if name not in already]
    if todo:
        transaction.on_commit(_AtCommit(todo))


def event_changed(event_id: int) -> None:
    """The event's state changed: itself, its rounds, pairings or entrants."""
    changed(f"event:{event_id}")


def results_changed(event_id: int) -> None:
    """A result of the event changed its tables (a confirmation, a correction): what its
    entrants' list and its stored standings show did not change."""
    changed(f"results:{event_id}")


def standings_changed(event_id: int) -> None:
    """The event's stored standings changed (written after results, or recomputed): its
    tables and entrants did not. A confirmation thus moves the tables on when it is recorded
    and the standings when its effects are applied (``scores.effects``), each part once."""
    changed(f"standings:{event_id}")


def site_changed() -> None:
    """Something every page may show changed (a player's or a club's name)."""
    changed("site")


def versions(*names: str) -> dict[str, str] | None:
    """The current versions of ``names`` (one call to the cache); None when pages are not cached
    now (the cache is off, or away)."""
    if not enabled():
        return None

    def call() -> dict[str, str]:
        cache = caches[CACHE]
        keys = {_version_key(name): name for name in names}
        found = cache.get_many(list(keys))
        missing = [key for key in keys if key not in found]
        if missing:
            for key in missing:
                cache.add(key, _fresh(), VERSION_SECONDS)
            found.update(cache.get_many(missing))  # ours, or another process's that came first
        return {name: str(found[key]) for key, name in keys.items()}

    return _reach(call, None)


def stamp(*names: str) -> str | None:
    """The current versions of ``names`` as one string for a key (see ``versions``)."""
    found = versions(*names)
    return None if found is None else ".".join(found[name] for name in names)


# A part missing at its version is rendered by one reader (every process), not by each who asks
# for it at once: the first takes a mark for ``MAKING_SECONDS`` and renders it; the others wait
# for it up to ``MAKING_WAIT`` seconds (asking again every ``MAKING_POLL``), then are given the
# part as it was last rendered (one version before: what the page showed a moment ago) when
# the caller names where that is kept (``latest``), and only failing that render it too. Under
# the load benchmark a result is confirmed every few tenths of a second, and each confirmation
# moved the versions of a big event's standings and tables on while a dozen readers were on the
# page: each of them rendered the same parts again.
MAKING_SECONDS = 5
MAKING_WAIT = 0.2
MAKING_POLL = 0.02


def parts(
    keys: Mapping[str, str] | None,
    render: Mapping[str, Callable[[], Any]],
    latest: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Each part of a page: ``render[name]()``, kept under ``keys[name]`` (a key that holds the
    versions the part depends on). All of them are read in one call to the cache, and only the
    missing ones are rendered and stored, each by one reader at a time (see ``MAKING_WAIT``;
    ``latest[name]``: a key without versions where the part's last rendering is kept too).
    ``keys`` None: render them all (pages not cached now)."""
    if keys is None:
        return {name: make() for name, make in render.items()}
    wanted = {f"part:{keys[name]}": name for name in render}
    found = _reach(lambda: caches[CACHE].get_many(list(wanted)), None)
    if found is None:
        return {name: make() for name, make in render.items()}
    out: dict[str, Any] = {}
    missing: dict[str, str] = {}
    for key, name in wanted.items():
        if key in found:
            out[name] = found[key]
        else:
            missing[key] = name
    if missing:
        out.update(_made_once(missing, render, latest or {}))
    return out


def _made_once(
    missing: Mapping[str, str], render: Mapping[str, Callable[[], Any]], latest: Mapping[str, str]
) -> dict[str, Any]:
    """The ``missing`` parts (key: name), each rendered here if no other reader is rendering it
    now, else that reader's (or, past ``MAKING_WAIT``, the last rendering kept at ``latest``)."""
    cache = caches[CACHE]
    out: dict[str, Any] = {}
    fresh: dict[str, Any] = {}
    waiting: dict[str, str] = {}
    for key, name in missing.items():
        if _reach(functools.partial(cache.add, f"making:{key}", 1, MAKING_SECONDS), True):
            try:
                out[name] = fresh[key] = render[name]()
            except BaseException:
                _reach(functools.partial(cache.delete, f"making:{key}"), None)
                raise
            if name in latest:
                fresh[f"latest:{latest[name]}"] = out[name]
        else:
            waiting[key] = name
    if fresh:
        _reach(lambda: cache.set_many(fresh, PART_SECONDS), None)
    if waiting:
        deadline = time.monotonic() + MAKING_WAIT
        while waiting and time.monotonic() < deadline:
            time.sleep(MAKING_POLL)
            found: dict[str, Any] = _reach(lambda: cache.get_many(list(waiting)), {})
            for key in list(waiting):
                if key in found:
                    out[waiting.pop(key)] = found[key]
        last = {f"latest:{latest[name]}": name for name in waiting.values() if name in latest}
        if last:
            kept: dict[str, Any] = _reach(lambda: cache.get_many(list(last)), {})
            for key, value in kept.items():
                out[last[key]] = value
        for name in waiting.values():
            if name not in out:  # the other reader is slow, or failed: rendered here too
                out[name] = render[name]()
    return out


def kept(names: str | tuple[str, ...], key: str, make: Callable[[], Any], seconds: int = PART_SECONDS) -> Any:
    """``make()`` kept under ``key`` at the current versions of ``names``: one call to the cache
    reads the versions and the value together, and a value kept at older versions is made
    again. The versions are read before ``make()`` reads the database, so a value made while a
    change commits is kept at the versions before it, which the change has already moved on:
    it is never served. ``make()`` each time when pages are not cached now."""
    if not enabled():
        return make()
    names = (names,) if isinstance(names, str) else names
    version_keys = [_version_key(name) for name in names]
    value_key = f"kept:{key}"
    found = _reach(lambda: caches[CACHE].get_many([*version_keys, value_key]), None)
    if found is None:
        return make()
    missing = [k for k in version_keys if k not in found]
    for k in missing:  # never set, or expired: a version no earlier one had
        fresh = _fresh()
        if not _reach(functools.partial(caches[CACHE].add, k, fresh, VERSION_SECONDS), False):
            return make()  # another process set it first: make it now, keep it next time
        found[k] = fresh
    versions = tuple(found[k] for k in version_keys)
    value = found.get(value_key)
    if not missing and value is not None and value[0] == versions:
        return value[1]
    made = make()
    _reach(lambda: caches[CACHE].set(value_key, (versions, made), seconds), None)
    return made


# --- rows rendered once: a memo whose key is everything the row shows -------------------------

# Rows a process keeps rendered (the least recently shown go first): about 0.7 KB each, so some
# 3 MB when full. A page shows 40 to 50 rows, and a big day's pages in use at once (the
# standings' pages, the current round's tables, the entrants) hold about 2,000.
ROWS_KEPT = 4_000
_ROWS: OrderedDict[tuple[str, tuple[Any, ...]], SafeString] = OrderedDict()
_ROWS_LOCK = threading.Lock()


def row(
    template: str, values: tuple[Any, ...], render: Callable[[tuple[Any, ...]], SafeString] | None = None
) -> SafeString:
    """``template`` (a row of a list: a line of the standings, a table of a round) rendered with
    ``{"row": values}`` and nothing else (a form's CSRF token is ``CSRF_MARK``, see
    ``with_csrf``): the values are the whole of its input, so they are its
    key, and a row rendered once is never wrong later. Kept in this process's memory, the
    ``ROWS_KEPT`` most recently shown; a part's rows are thus rendered only when they change,
    whichever version of the part asks."""
    key = (template, values)
    with _ROWS_LOCK:
        html = _ROWS.get(key)
        if html is not None:
            _ROWS.move_to_end(key)
            return html
    if render is not None:  # the template's own way, written out in Python for speed
        html = render(values)
    else:
        context = {"row": values, "csrf_token": CSRF_MARK}  # a form's token: the viewer's, put in later
        html = mark_safe(get_template(template).render(context))  # (the template escapes)
    with _ROWS_LOCK:
        _ROWS[key] = html
        while len(_ROWS) > ROWS_KEPT:
            _ROWS.popitem(last=False)
    return html


def with_csrf(html: str, request: HttpRequest) -> str:
    """A rendered part with the viewer's own CSRF token where it has ``CSRF_MARK``."""
    if CSRF_MARK not in html:
        return html
    return html.replace(CSRF_MARK, get_token(request))


# --- one pool of Redis connections a process -------------------------------------------------


_POOLS: dict[tuple[str, str], Any] = {}
_POOLS_LOCK = threading.Lock()
_REDIS_OF_POOL: dict[int, Any] = {}  # id(pool) -> its redis.Redis


class _PooledClient(django_redis.RedisCacheClient):
    """Django's Redis cache client, whose connections come from one pool per server and options
    in the process. Django keeps a cache object per thread, and under ASGI every request runs in
    a thread of its own: with Django's own client each request opened a connection of its own
    (a TCP connection, HELLO and SELECT before its first command) and left it to the garbage
    collector.

    And one ``redis.Redis`` per pool: Django's makes one for every command, and redis-py's
    builds its table of some 170 response callbacks each time, a third of a millisecond of CPU
    per read of the cache. A ``redis.Redis`` is safe to share between threads (its connections
    come from the pool, one per command at a time)."""

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        client: Any = self
        pool = self._get_connection_pool(write)
        found = _REDIS_OF_POOL.get(id(pool))
        if found is None or found.connection_pool is not pool:
            with _POOLS_LOCK:
                found = _REDIS_OF_POOL[id(pool)] = client._client(connection_pool=pool)
        return found

    def _get_connection_pool(self, write: bool) -> Any:
        client: Any = self  # (Django's client has no type hints)
        server = client._servers[client._get_connection_pool_index(write)]
        options = client._pool_options
        key = (server, repr(sorted(options.items(), key=lambda kv: kv[0])))
        with _POOLS_LOCK:
            pool = _POOLS.get(key)
            if pool is None:
                pool = _POOLS[key] = client._pool_class.from_url(server, **options)
        return pool


_CLIENTS: dict[tuple[str, str], _PooledClient] = {}


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache``, its connections pooled per process (the
    site's ``CACHES`` on Redis use it), and its client made once per process.

    Django makes a cache object per thread and per request (under ASGI, each request's context
    has its own), and Django's makes a client for each: building one reads redis-py's version
    from the installed package's metadata, about a millisecond of CPU, once a request and cache
    under load. The client holds nothing of a request (its connections come from the pool), so
    every cache object of the same server and options shares one."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _PooledClient

    @cached_property
    def _cache(self) -> _PooledClient:
        this: Any = self  # (Django's cache has no type hints)
        key = (repr(this._servers), repr(sorted(this._options.items(), key=lambda kv: kv[0])))
        with _POOLS_LOCK:
            client = _CLIENTS.get(key)
            if client is None:
                client = _CLIENTS[key] = _PooledClient(this._servers, **this._options)
        return client


# --- whole pages for visitors -----------------------------------------------------------------

PAGE_PATH_CHARS = 300  # an address longer than this (made up, or a crawler's) is not kept


def _visitor(request: HttpRequest) -> bool:
    """A visitor whose page is everyone's: signed out (no session at all, so no message
    waiting for them in it), no message in a cookie, asking a GET."""
    cookies = request.COOKIES
    return (
        request.method == "GET"
        and settings.SESSION_COOKIE_NAME not in cookies
        and "messages" not in cookies
        and len(request.get_full_path()) <= PAGE_PATH_CHARS
    )


def _csrf_marked(html: str, request: HttpRequest) -> str | None:
    """The page with each of the request's CSRF tokens as ``CSRF_MARK`` (every page carries
    one for htmx), or None when something else in it is the request's own (a CSP nonce)."""
    from django.middleware.csrf import (  # type: ignore[attr-defined]  # (the stubs omit the last)
        CSRF_ALLOWED_CHARS,
        CSRF_TOKEN_LENGTH,
        _unmask_cipher_token,
    )

    if 'nonce="' in html:
        return None
    secret = request.META.get("CSRF_COOKIE")
    if not secret:
        return html
    candidates = re.findall(f"[{re.escape(CSRF_ALLOWED_CHARS)}]{{{CSRF_TOKEN_LENGTH}}}", html)
    for token in set(candidates):
        if _unmask_cipher_token(token) == secret:
            html = html.replace(token, CSRF_MARK)
    return html


def kept_for_visitors(names: Callable[..., Iterable[str]]) -> Callable[[Any], Any]:
    """A page that every visitor sees alike, kept whole once per version of what it shows.

    ``names(*args, **kwargs)`` (the view's arguments) are the versions it depends on (those its
    parts' keys hold). For a visitor (``_visitor``) the page kept at the current versions, for
    the same address (and htmx's header) is answered without the view, with the visitor's own
    CSRF token put in (``with_csrf``); a page not kept yet is the view's, kept when it is a 200
    that set no cookie of its own. Anyone signed in, or with a message waiting, gets the view."""

    def decorate(view: Any) -> Any:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            if not enabled() or not _visitor(request):
                return view(request, *args, **kwargs)
            found = stamp(*names(*args, **kwargs))
            if found is None:
                return view(request, *args, **kwargs)
            asked = f"{request.get_full_path()}|{request.headers.get('HX-Request', '')}"
            key = f"page:{view.__module__}.{view.__name__}:{found}:{hashlib.sha1(asked.encode()).hexdigest()}"
            kept = _reach(lambda: caches[CACHE].get(key), None)
            if kept is not None:
                content_type, html = kept
                return HttpResponse(with_csrf(html, request), content_type=content_type)
            response = view(request, *args, **kwargs)
            if response.status_code == 200 and not response.streaming and not response.cookies:
                marked = _csrf_marked(response.content.decode(response.charset), request)
                if marked is not None:
                    value = (response["Content-Type"], marked)
                    _reach(lambda: caches[CACHE].set(key, value, PART_SECONDS), None)
            return response

        return wrapped

    return decorate
