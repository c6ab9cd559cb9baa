"""A race page's WebSocket (Django Channels): a racer's cards in, every racer's progress out.

A race page opens ``/play/matches/<pk>/race/ws/`` once. The socket is authenticated when it
opens (the session cookie, through Channels' ``AuthMiddlewareStack``; the ``Origin`` is checked
against ``ALLOWED_HOSTS`` in ``asgi.py``, which is what the CSRF token does for a POST), so a card
is one small frame and costs no HTTP request, no middleware, no session or user lookup and no
template. Frames in (JSON objects):

- ``{"t": "move", "id": n, "action": {...}, "card": "7H"}``: a move (``card`` the flipped card the
  page showed, as for the race page's POST); answered with ``ack`` or ``no``, each naming ``id``.
- ``{"t": "tick"}``: while bots race, the page asks for their due moves a few times a second.

Frames out (JSON objects, ``t`` says which):

- ``you``: on opening, the page's own part (its seat, the piles its card fits on, its pick);
- ``u``: the race (``race_view.update_message``), on opening and after every move, once per
  version, never an older one after a newer;
- ``ack``: a move of this page applied: its version and the page's own part;
- ``no``: a move refused, with its ``status`` (400, 403, 404, 409, as the POST would answer) and
  the ``reason`` in words; nothing was changed;
- ``board``: the match is no longer a race in progress (over, abandoned): fetch the board.

A move is applied the short way where it can (``race_moves.race_move``), else the general way
(``race_moves.race_move_submit``), in a thread of the process's move pool; the moves of one
match made through this process go one at a time (the feed's ``moving`` lock), so they never
race each other for the version. The race's updates reach every page through the process's
feed of the match (``feeds``): the mover's process hands its update to its own feed at once
and publishes it to the others through Redis; without Redis, or while it is away, each
process looks at the database and builds the update itself. A page that loses its socket (a
restart, a network change) opens it again and is told where the race is.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from . import bots, race_moves
from .feeds import Feed, feeds

log = logging.getLogger(__name__)

MOVE_THREADS = 4  # moves of different matches run side by side in this many threads per process
MAX_FRAME = 2000  # characters: a move is about 60
FRAMES_PER_SECOND = 30  # a racer's fastest hands place a few cards a second: more is refused (429)
FRAME_BURST = 60
TICK_SECONDS = 0.1  # a page ticks every 0.25 s while bots race: closer ticks are ignored
TICK = '{"t":"tick"}'  # as the page sends it

_MOVES = ThreadPoolExecutor(max_workers=MOVE_THREADS, thread_name_prefix="race-moves")


def _in_thread(fn: Any, *args: Any, **kwargs: Any) -> Any:
    from django.db import connection

    try:
        return fn(*args, **kwargs)
    finally:
        if connection.vendor != "sqlite":
            # Back to the pool: a socket holds no server connection between its moves.
            connection.close_if_unusable_or_obsolete()


async def in_move_thread(fn: Any, *args: Any, **kwargs: Any) -> Any:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_MOVES, lambda: _in_thread(fn, *args, **kwargs))


def _refusal(move_id: Any, status: int, reason: str) -> str:
    return json.dumps({"t": "no", "id": move_id, "status": status, "reason": reason})


class Budget:
    """A socket's frames: ``rate`` a second on average, ``burst`` at once (a token bucket)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class RaceSocket(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels has no type hints
    racer: race_moves.Racer | None = None
    follower: asyncio.Task[None] | None = None
    sent = -1  # the version of the last update sent
    feed: Feed | None = None
    ticked = 0.0  # when this page last had the bots asked

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["pk"])
        self.user = self.scope.get("user")
        try:
            self.racer = await in_move_thread(race_moves.racer_for, match_id=self.match_id, user=self.user)
        except Exception:
            log.warning("Could not open the race socket of match %s", self.match_id, exc_info=True)
            await self.close(code=1011)  # the database is away: the page tries again
            return
        if self.racer is None:
            await self.close(code=4404)
            return
        self.budget = Budget(FRAMES_PER_SECOND, FRAME_BURST)
        await self.accept()
        ready = asyncio.Event()
        self.follower = asyncio.get_running_loop().create_task(self._follow(ready))
        await ready.wait()

    async def disconnect(self, code: int) -> None:
        if self.follower is not None:
            self.follower.cancel()

    async def _follow(self, ready: asyncio.Event) -> None:
        """Pass each newer update of the match's feed to the page, after the opening ones."""
        assert self.racer is not None
        try:
            async with feeds().watch(self.match_id) as (feed, news):
                self.feed = feed
                try:
                    you, update = await in_move_thread(race_moves.opening_messages, racer=self.racer)
                except Exception:
                    log.warning("Could not open the race of match %s", self.match_id, exc_info=True)
                    await self.close(code=1011)
                    return
                finally:
                    ready.set()
                await self.send(text_data=you)
                self._sent(update)
                await self.send(text_data=update)
                while not feed.gone:
                    news.clear()
                    found = feed.update
                    if found is not None and found[0] > self.sent:
                        self.sent = found[0]
                        await self.send(text_data=found[1])
                        if '"status": "playing"' not in found[1]:
                            await self.send(text_data='{"t": "board"}')
                    elif feed.version is not None and feed.version > self.sent:
                        feed.want_update()  # a version whose update went missing: the feed builds it
                    if not news.is_set():
                        await news.wait()
                await self.close(code=4404)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("The race socket of match %s stopped following it", self.match_id, exc_info=True)
            await self.close(code=1011)

    def _sent(self, update: str) -> None:
        self.sent = max(self.sent, int(json.loads(update)["v"]))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data == TICK:
            await self._tick()  # (ticks closer than TICK_SECONDS are ignored there)
            return
        if not self.budget.take():
            await self.send(text_data=_refusal(None, 429, "Too many frames at once: slow down a little."))
            return
        try:
            if text_data is None or len(text_data) > MAX_FRAME:
                raise ValueError
            frame = json.loads(text_data)
            if not isinstance(frame, dict):
                raise ValueError
        except ValueError:
            await self.send(text_data=_refusal(None, 400, "That is not a move: send a JSON object."))
            return
        kind = frame.get("t")
        if kind == "move":
            await self._move(frame)
        elif kind == "tick":
            await self._tick()
        else:
            await self.send(
                text_data=_refusal(frame.get("id"), 400, 'Send {"t": "move", ...} or {"t": "tick"}.')
            )

    async def _move(self, frame: dict[str, Any]) -> None:
        from .services import MoveRejected

        assert self.racer is not None
        move_id = frame.get("id")
        if not isinstance(move_id, int | str | None) or isinstance(move_id, bool):
            move_id = None
        card = frame.get("card") or None
        if card is not None and not isinstance(card, str):
            await self.send(text_data=_refusal(move_id, 400, "The card is a card's code, such as 7H."))
            return
        feed = self.feed
        lock = feed.moving if feed is not None else asyncio.Lock()
        try:
            async with lock:
                moved = await in_move_thread(
                    race_moves.answer_move,
                    racer=self.racer,
                    user=self.user,
                    action=frame.get("action"),
                    card=card,
                )
        except MoveRejected as exc:
            await self.send(text_data=_refusal(move_id, exc.status, exc.reason))
            return
        except Exception:
            log.exception("A race move of match %s failed", self.match_id)
            await self.send(text_data=_refusal(move_id, 503, "The move did not go through: try again."))
            return
        ack = moved.ack[:-1] + f', "id": {json.dumps(move_id)}}}'
        await self.send(text_data=ack)
        if moved.version > self.sent:
            self.sent = moved.version
            await self.send(text_data=moved.update)
        if feed is not None:
            feed.updated(moved.version, moved.update)  # the other pages of this process, at once

    async def _tick(self) -> None:
        if time.monotonic() - self.ticked < TICK_SECONDS:
            return
        self.ticked = time.monotonic()
        try:
            await in_move_thread(bots.race_tick, match_id=self.match_id)
        except Exception:  # the next tick, or the bots' follow-up run, makes the moves
            log.warning("A race tick of match %s failed", self.match_id, exc_info=True)


class NoSuchSocket(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels has no type hints
    """A socket opened at an address that takes none: refused at the handshake (403)."""

    async def connect(self) -> None:
        await self.close(code=4404)
