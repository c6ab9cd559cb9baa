"""The race page's WebSocket (``race_socket``): who may open it, moves in, the race out.

The site's ASGI application (``spyleague.asgi``) is served by uvicorn in a thread on the test
database (``tests.asgi_server``); the test's sockets are opened by the ``websockets`` client with a
browser's headers (the session cookie, the ``Origin``), in an event loop of their own.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.test import Client, override_settings
from websockets.asyncio.client import ClientConnection, connect

from games import get_engine
from spyleague.play import services
from spyleague.play.models import Match, Move
from spyleague.play.state import match_state
from tests.asgi_server import AsgiServer, asgi_server

from .races import race_of_people

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = get_engine("spy-vs-spy")
ORIGIN = "http://testserver"


def in_a_loop_of_its_own(make: Callable[[], Awaitable[Any]]) -> Any:
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result(timeout=60)  # type: ignore[arg-type]


def session_of(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@pytest.fixture
def server() -> Any:
    with asgi_server() as served:
        yield served


def socket(server: AsgiServer, match_id: int, cookie: str | None = None, *, origin: str | None = None) -> Any:
    """Open a race page's socket (``cookie``: a session's, from ``session_of``)."""
    headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
    return connect(
        f"{server.ws_url}/play/matches/{match_id}/race/ws/",
        origin=origin or server.url,  # type: ignore[arg-type]
        additional_headers=headers,
        open_timeout=10,
    )


async def receive(ws: ClientConnection, kind: str, seconds: float = 10) -> dict[str, Any]:
    """The next frame of that kind (frames of other kinds on the way are skipped)."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), seconds))
        if frame["t"] == kind:
            return frame


def a_fitting_pile(race: dict[str, Any], seat: int, fits: list[int]) -> dict[str, Any]:
    return {
        "t": "move",
        "id": 1,
        "action": {"type": "place", "pile": fits[0]},
        "card": race["players"][seat]["card"],
    }


@override_settings(REDIS_URL="")
def test_a_racer_moves_and_every_page_sees_the_race_move_on(server: AsgiServer, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob)
    cookies = session_of(ann), session_of(bob)

    async def play() -> dict[str, Any]:
        async with (
            socket(server, match.pk, cookies[0]) as a,
            socket(server, match.pk, cookies[1]) as b,
            socket(server, match.pk) as watcher,
        ):
            opened = {
                name: (await receive(ws, "you"), await receive(ws, "u"))
                for name, ws in (("ann", a), ("bob", b), ("watcher", watcher))
            }
            you, race = opened["ann"]
            await a.send(json.dumps(a_fitting_pile(race["race"], 0, you["you"]["fits"])))
            return {
                "opened": opened,
                "ack": await receive(a, "ack"),
                "ann": await receive(a, "u"),
                "bob": await receive(b, "u"),
                "watcher": await receive(watcher, "u"),
            }

    got = in_a_loop_of_its_own(play)
    seats = {name: you["you"]["seat"] for name, (you, _) in got["opened"].items()}
    assert seats == {"ann": 0, "bob": 1, "watcher": None}
    assert {race["v"] for _, race in got["opened"].values()} == {0}
    assert got["ack"]["v"] == 1 and got["ack"]["id"] == 1
    assert got["ann"] == got["bob"] == got["watcher"] and got["ann"]["v"] == 1
    match.refresh_from_db()
    assert match.version == 1 and Move.objects.filter(match=match).count() == 1
    public = ENGINE.view(match_state(match), None)["players"][0]
    shown = got["ann"]["race"]["players"][0]
    assert (shown["hand"], shown["card"], [top for top, _ in shown["piles"]]) == (
        public["hand"],
        public["card"],
        [pile[-1] for pile in public["piles"]],
    )


def test_a_page_of_another_site_cannot_open_a_racers_socket(server: AsgiServer, make_user: Any) -> None:
    """The socket carries the visitor's cookies like a form post would: its Origin must be this
    site's (a cross-site page is refused at the handshake, as a POST without the CSRF token)."""
    from websockets.exceptions import InvalidStatus

    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob)
    cookie = session_of(ann)

    async def open_from(origin: str) -> int:
        try:
            async with socket(server, match.pk, cookie, origin=origin) as ws:
                await receive(ws, "you")
                return 101
        except InvalidStatus as exc:
            return int(exc.response.status_code)

    assert in_a_loop_of_its_own(lambda: open_from("https://evil.example")) == 403
    assert in_a_loop_of_its_own(lambda: open_from(server.url)) == 101


def test_no_race_no_socket(server: AsgiServer, make_user: Any) -> None:
    from websockets.exceptions import InvalidStatus

    ann = make_user(username="ann")
    turns = services.match_create(user=ann, game="black-spy", seats=3, seed=1)
    cookie = session_of(ann)

    async def open_at(match_id: int) -> int:
        try:
            async with socket(server, match_id, cookie) as ws:
                await receive(ws, "you")
                return 101
        except InvalidStatus as exc:
            return int(exc.response.status_code)

    assert in_a_loop_of_its_own(lambda: open_at(turns.pk)) == 403  # a game of turns: no race socket
    assert in_a_loop_of_its_own(lambda: open_at(99999)) == 403
    assert in_a_loop_of_its_own(lambda: open_at(10**30)) == 403  # no route: an id beyond any


@override_settings(REDIS_URL="")
def test_who_may_move_and_bad_frames_change_nothing(server: AsgiServer, make_user: Any) -> None:
    ann, bob, eve = make_user(username="ann"), make_user(username="bob"), make_user(username="eve")
    match = race_of_people(ann, bob)
    first = match_state(match)
    place = {"type": "place", "pile": ENGINE.legal(first, 0)[0]["pile"]}
    cookies = {"ann": session_of(ann), "eve": session_of(eve)}

    async def try_all() -> dict[str, Any]:
        got: dict[str, Any] = {}
        async with (
            socket(server, match.pk) as anonymous,
            socket(server, match.pk, cookies["eve"]) as stranger,
        ):
            for name, ws in (("anonymous", anonymous), ("stranger", stranger)):
                got[name + " sees"] = (await receive(ws, "you"))["you"]["seat"]
                await receive(ws, "u")
                await ws.send(
                    json.dumps({"t": "move", "id": 7, "action": place, "card": first.spies[0].card})
                )
                got[name + " moves"] = await receive(ws, "no")
        async with socket(server, match.pk, cookies["ann"]) as a:
            await receive(a, "u")
            frames = [
                "not json",
                "[1, 2]",
                json.dumps({"t": "move", "id": 1}),  # no action
                json.dumps({"t": "move", "id": 2, "action": "place"}),
                json.dumps({"t": "move", "id": 3, "action": {"type": "place", "pile": 99}}),
                json.dumps({"t": "move", "id": 4, "action": place, "card": ["7H"]}),
                json.dumps(
                    {
                        "t": "move",
                        "id": 5,
                        "action": place,
                        "card": "2C" if first.spies[0].card != "2C" else "3C",
                    }
                ),
                json.dumps({"t": "move", "id": 6, "action": {"type": "finish"}}),
                json.dumps({"t": "dance"}),
                "x" * 5000,
            ]
            got["bad"] = []
            for frame in frames:
                await a.send(frame)
                got["bad"].append(await receive(a, "no"))
            await a.send(json.dumps({"t": "move", "id": 8, "action": place, "card": first.spies[0].card}))
            got["good"] = await receive(a, "ack")
        return got

    got = in_a_loop_of_its_own(try_all)
    assert got["anonymous sees"] is None and got["stranger sees"] is None  # a race is public to watch
    assert got["anonymous moves"]["status"] == 403 and got["stranger moves"]["status"] == 403
    assert got["stranger moves"]["id"] == 7 and "do not have a seat" in got["stranger moves"]["reason"]
    statuses = [frame["status"] for frame in got["bad"]]
    assert statuses == [400, 400, 400, 400, 400, 400, 409, 400, 400, 400], got["bad"]
    assert [frame["id"] for frame in got["bad"]][2:8] == [1, 2, 3, 4, 5, 6]
    assert all(frame["reason"] for frame in got["bad"])
    assert "already down" in got["bad"][6]["reason"] and "must go on a pile first" in got["bad"][7]["reason"]
    assert got["good"]["v"] == 1 and got["good"]["id"] == 8  # the socket stayed open through all that
    assert Match.objects.get(pk=match.pk).version == 1


@override_settings(REDIS_URL="")
def test_the_last_move_ends_the_game_and_every_page_fetches_the_board(
    server: AsgiServer, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spyleague.play import race_socket

    monkeypatch.setattr(race_socket, "FRAMES_PER_SECOND", 10_000)  # this racer has no hands to tire
    wes = make_user(username="wes")
    match = services.match_create(user=wes, game="spy-vs-spy", seats=1, seed=67)
    services.match_start(user=wes, match_id=match.pk)
    cookie = session_of(wes)

    async def race_to_the_end() -> list[dict[str, Any]]:
        seen: list[dict[str, Any]] = []
        async with socket(server, match.pk, cookie) as ws, socket(server, match.pk) as watcher:
            await receive(watcher, "u")
            st = ENGINE.start(1, 67, {})  # the racer's own reckoning, move by move
            for n in range(2000):
                legal = ENGINE.legal(st, 0)
                if not legal:
                    break
                card = st.spies[0].card if legal[0]["type"] == "place" else None
                await ws.send(json.dumps({"t": "move", "id": n, "action": legal[0], "card": card}))
                frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                while frame["t"] not in ("ack", "no"):
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert frame["t"] == "ack", frame
                st = ENGINE.apply(st, 0, legal[0])
            while True:  # the watcher's frames until it is told to fetch the board
                frame = await receive(watcher, "u") if not seen or seen[-1].get("t") != "board" else None
                if frame is None:
                    break
                seen.append(frame)
                if frame["status"] != "playing":
                    seen.append(json.loads(await asyncio.wait_for(watcher.recv(), 10)))
        return seen

    seen = in_a_loop_of_its_own(race_to_the_end)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert seen[-2]["status"] == "finished" and seen[-2]["v"] == match.version
    assert seen[-1] == {"t": "board"}
    assert [f["v"] for f in seen[:-1]] == sorted({f["v"] for f in seen[:-1]})  # never an older after a newer


@override_settings(REDIS_URL="")
def test_a_flood_of_frames_is_refused_and_the_socket_carries_on(server: AsgiServer, make_user: Any) -> None:
    from spyleague.play.race_socket import FRAME_BURST

    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob)
    first = match_state(match)
    cookie = session_of(ann)

    async def flood() -> tuple[list[int], dict[str, Any]]:
        async with socket(server, match.pk, cookie) as ws:
            await receive(ws, "u")
            for _ in range(3 * FRAME_BURST):
                await ws.send('{"t": "dance"}')
            statuses = [(await receive(ws, "no"))["status"] for _ in range(3 * FRAME_BURST)]
            while True:  # the bucket fills again: a move goes through
                move = {
                    "t": "move",
                    "id": 1,
                    "action": ENGINE.legal(first, 0)[0],
                    "card": first.spies[0].card,
                }
                await ws.send(json.dumps(move))
                frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                while frame["t"] not in ("ack", "no"):
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if frame["t"] == "ack" or frame["status"] != 429:
                    return statuses, frame
                await asyncio.sleep(0.05)

    statuses, answer = in_a_loop_of_its_own(flood)
    assert set(statuses) == {400, 429} and statuses.count(429) >= FRAME_BURST // 2
    assert statuses[: FRAME_BURST - 1] == [400] * (FRAME_BURST - 1)  # a burst is fine, then it is too many
    assert answer["t"] == "ack" and answer["v"] == 1
