"""Sessions kept in the database and read from the pages' cache: Django's ``cached_db``, made
to fail open the way the rest of the site's Redis does.

Every signed-in request reads its session; from PostgreSQL that is a query (a millisecond of the
web process's CPU under load, and a connection), from Redis a key. The database stays the
truth: a session is written there first, then to the cache, and read from the database when the
cache does not have it (Django's ``cached_db``). Where Django's would fail the request when the
cache is away, this one goes to the database (``core.cache``'s outage rules: a Redis that timed
out is left alone for a few seconds), and a session is kept in the cache for
``CACHE_SECONDS`` at most, so that a logout whose deletion could not reach the cache (Redis away
at that moment) leaves a copy there for a few minutes at most, which the next reach of the
cache deletes first (``_forget``). Without the pages' cache (the local default, one process),
it is Django's ``db`` store.
"""

from __future__ import annotations

import threading
from typing import Any

from django.contrib.sessions.backends import cached_db, db

from . import cache

CACHE_SECONDS = 300  # a session read from the cache was read from the database at most this long ago

_unforgotten: set[str] = set()  # deletions that could not reach the cache yet
_lock = threading.Lock()


def _forget(keys: list[str]) -> bool:
    from django.core.cache import caches

    def call() -> bool:
        with _lock:
            todo = list(_unforgotten)
            _unforgotten.clear()
        try:
            caches[cache.CACHE].delete_many([*keys, *todo])
        except Exception:
            with _lock:
                _unforgotten.update(todo)
            raise
        return True

    return cache._reach(call, False)


class SessionStore(cached_db.SessionStore):
    # (Django's stubs leave out the stores' own attributes: ``_cache``, ``_session``...)
    def load(self) -> dict[str, Any]:
        if not cache.enabled():
            return db.SessionStore.load(self)
        this: Any = self
        key = self.cache_key
        if _unforgotten:
            _forget([])
        data = cache._reach(lambda: this._cache.get(key), None)
        if data is not None:
            return data  # type: ignore[no-any-return]
        found = this._get_session_from_db()
        if not found:
            return {}
        data = self.decode(found.session_data)
        seconds = min(CACHE_SECONDS, self.get_expiry_age(expiry=found.expire_date))
        cache._reach(lambda: this._cache.set(key, data, seconds), None)
        return data

    def exists(self, session_key: str) -> bool:
        return db.SessionStore.exists(self, session_key)  # the database, which is the truth

    def save(self, must_create: bool = False) -> None:
        db.SessionStore.save(self, must_create)
        if not cache.enabled():
            return
        if _unforgotten:
            _forget([])
        this: Any = self
        key, data = self.cache_key, this._session
        seconds = min(CACHE_SECONDS, self.get_expiry_age())

        def store() -> bool:
            this._cache.set(key, data, seconds)
            return True

        if not cache._reach(store, False):
            # A copy of an older state may be there: it must not outlive this save.
            with _lock:
                _unforgotten.add(key)

    def delete(self, session_key: str | None = None) -> None:
        db.SessionStore.delete(self, session_key)
        if session_key is None:
            if self.session_key is None:
                return
            session_key = self.session_key
        if cache.enabled() and not _forget([self.cache_key_prefix + session_key]):
            with _lock:
                _unforgotten.add(self.cache_key_prefix + session_key)

    @classmethod
    def clear_expired(cls) -> None:
        db.SessionStore.clear_expired()
