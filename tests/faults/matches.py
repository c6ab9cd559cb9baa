"""Playing matches on a fault test's site from outside, as browsers and API scripts do.

``Client`` speaks to the site over HTTP and times every answer; ``EventStream`` holds a match
page's event stream open in a thread of its own; ``replayed`` rebuilds a match from its move
log through the engine, in the site's own Django, to hold against what the site serves.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from .procs import Site


@contextmanager
def logs_on_failure(site: Site) -> Iterator[None]:
    """On a failure, print the tail of every process's log (pytest shows it with the failure)."""
    try:
        yield
    except BaseException:
        print(site.logs())
        raise


@dataclass
class Answer:
    status: int  # 0: no answer (refused, reset, timed out)
    body: Any
    seconds: float

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


class Client:
    """One user's API token (or none) against the site; each call is timed."""

    def __init__(self, site: Site, token: str = "") -> None:
        self.site, self.token = site, token

    def call(self, method: str, path: str, body: Any = None, *, timeout: float = 10.0) -> Answer:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.site.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read()
        except (OSError, http.client.HTTPException) as exc:  # refused, reset, timed out
            return Answer(0, repr(exc), time.monotonic() - started)
        seconds = time.monotonic() - started
        try:
            payload: Any = json.loads(raw)
        except ValueError:
            payload = raw.decode(errors="replace")
        return Answer(status, payload, seconds)

    def get(self, path: str, **kwargs: Any) -> Answer:
        return self.call("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Answer:
        return self.call("POST", path, body if body is not None else {}, **kwargs)


def sign_up(site: Site, username: str) -> Client:
    answer = Client(site).post(
        "/api/signup/", {"username": username, "name": username.title(), "password": "faults-pass-8271"}
    )
    assert answer.status == 201, answer
    return Client(site, answer.body["token"])


def new_match(client: Client, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/matches/", body)
    assert answer.status == 201, answer
    return dict(answer.body)


@dataclass
class Event:
    name: str
    data: str
    at: float  # time.monotonic() when it arrived


@dataclass
class EventStream:
    """A match page's event stream (``/play/matches/<id>/events/``), read in a thread."""

    site: Site
    path: str
    events: list[Event] = field(default_factory=list)
    error: str = ""
    ended: bool = False
    status: int = 0

    def __post_init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", self.site.port, timeout=30)
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            self.conn.request("GET", self.path, headers={"Accept": "text/event-stream"})
            response = self.conn.getresponse()
            self.status = response.status
            self.opened.set()
            name, data = "message", ""
            while True:
                line = response.readline()
                if not line:
                    break
                text = line.decode().rstrip("\r\n")
                if text.startswith("event:"):
                    name = text[6:].strip()
                elif text.startswith("data:"):
                    data = text[5:].strip()
                elif text == "" and data:
                    self.events.append(Event(name, data, time.monotonic()))
                    name, data = "message", ""
        except Exception as exc:  # closed by the test, or by the server going away
            self.error = repr(exc)
        finally:
            self.ended = True
            self.opened.set()

    def updates(self) -> list[str]:
        return [event.data for event in self.events if event.name == "update"]

    def saw_version(self, version: int) -> bool:
        """An ``update`` for that version (a match key ``version-status-time``, or a race's version)."""
        return any(key.split("-", 1)[0] == str(version) for key in self.updates())

    def saw_progress(self, version: int) -> bool:
        """A race's ``progress`` event for that version."""
        return any(json.loads(e.data)["v"] == version for e in self.events if e.name == "progress")

    def close(self) -> None:
        sock = self.conn.sock
        if sock is not None:
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()
        self.thread.join(5)


def match_events(site: Site, match_id: int) -> EventStream:
    return EventStream(site, f"/play/matches/{match_id}/events/")


def race_events(site: Site, match_id: int) -> EventStream:
    """A race page's stream (Spy vs Spy): versions, and the racers' progress."""
    return EventStream(site, f"/play/matches/{match_id}/race/events/")


@dataclass
class RaceSocket:
    """A race page's WebSocket (``/play/matches/<id>/race/ws/``) on a web process group's port,
    read in a thread: the versions of the race updates it receives. Not logged in: a spectator's
    page, which hears every move as the racers' pages do."""

    site: Site
    match_id: int
    port: int
    versions: list[int] = field(default_factory=list)
    error: str = ""
    ended: bool = False

    def __post_init__(self) -> None:
        from websockets.sync.client import connect
        from websockets.typing import Origin

        url = f"ws://127.0.0.1:{self.port}/play/matches/{self.match_id}/race/ws/"
        self.socket = connect(url, origin=Origin(f"http://127.0.0.1:{self.port}"), open_timeout=10)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for text in self.socket:
                frame = json.loads(text)
                if frame.get("t") == "u":
                    self.versions.append(int(frame["v"]))
        except Exception as exc:  # the server closed it (a restart), or the test did
            self.error = repr(exc)
        finally:
            self.ended = True

    def saw(self, version: int) -> bool:
        return any(v >= version for v in self.versions)

    def close(self) -> None:
        with suppress(Exception):
            self.socket.close()


def session_cookie(site: Site, username: str, password: str = "faults-pass-8271") -> str:
    """Log in through the login page, as a browser does: the session cookie (``sessionid=...``)."""
    page = http.client.HTTPConnection("127.0.0.1", site.port, timeout=10)
    page.request("GET", "/accounts/login/")
    answer = page.getresponse()
    form = answer.read().decode()
    csrf = (answer.getheader("Set-Cookie") or "").split("csrftoken=", 1)[1].split(";", 1)[0]
    token = form.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    body = f"csrfmiddlewaretoken={token}&username={username}&password={password}"
    page.request(
        "POST",
        "/accounts/login/",
        body=body,
        headers={
            "Cookie": f"csrftoken={csrf}",
            "Content-Type": "application/x-www-form-urlencoded",
            "Referer": f"{site.url}/accounts/login/",
        },
    )
    logged_in = page.getresponse()
    logged_in.read()
    page.close()
    for header, value in logged_in.getheaders():
        if header.lower() == "set-cookie" and value.startswith("sessionid="):
            return value.split(";", 1)[0]
    raise AssertionError(f"no session for {username}: {logged_in.status}")


@dataclass
class SocketMove:
    version: int  # the version the racer saw; an applied move made version + 1
    action: dict[str, Any]
    answer: str  # "ack", "no", or "" (the socket closed first)
    made: int = 0  # an ack's version


class SocketRacer:
    """A racer on the race page's socket, in a thread: it places its cards one at a time as the
    page does (each move names the card it saw), and opens the socket again whenever it closes
    (a restart), as the page does."""

    def __init__(self, site: Site, client: Client, cookie: str, match_id: int) -> None:
        self.site, self.client, self.cookie, self.match_id = site, client, cookie, match_id
        self.moves: list[SocketMove] = []
        self.reconnects = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._race, daemon=True)
        self.thread.start()

    def _race(self) -> None:
        from websockets.sync.client import connect
        from websockets.typing import Origin

        url = f"ws://127.0.0.1:{self.site.port}/play/matches/{self.match_id}/race/ws/"
        while not self.stop.is_set():
            try:
                socket_ = connect(
                    url,
                    origin=Origin(self.site.url),
                    additional_headers={"Cookie": self.cookie},
                    open_timeout=5,
                )
            except Exception:  # the server is away: try again, as the page does
                time.sleep(0.2)
                continue
            try:
                while not self.stop.is_set():
                    mine = self.client.get(f"/api/matches/{self.match_id}/", timeout=5)
                    if not mine.ok:
                        raise ConnectionError(mine)  # the server is away
                    if not mine.body["legal"]:
                        return  # its race is over
                    action = mine.body["legal"][0]
                    seat = mine.body["seat"]
                    card = mine.body["view"]["players"][seat]["card"]
                    move = SocketMove(mine.body["version"], action, "")
                    self.moves.append(move)
                    socket_.send(
                        json.dumps({"t": "move", "id": len(self.moves), "action": action, "card": card})
                    )
                    while True:
                        answer = json.loads(socket_.recv(timeout=10))
                        if answer.get("t") in ("ack", "no") and answer.get("id") == len(self.moves):
                            move.answer, move.made = answer["t"], int(answer.get("v", 0))
                            break
                    time.sleep(0.05)
            except Exception:  # closed by the restart: open it again
                self.reconnects += 1
            finally:
                with suppress(Exception):
                    socket_.close()

    def acked(self) -> int:
        return sum(1 for move in self.moves if move.answer == "ack")

    def finish(self) -> None:
        self.stop.set()
        self.thread.join(30)


REPLAY = """
import json
from django.db import transaction
from games import get_engine
from spyleague.play.models import Match, Move

with transaction.atomic():  # under the match's lock, as moves are made: its log and version agree
    match = Match.objects.select_for_update().get(pk={match_id})
    moves = list(Move.objects.filter(match=match).order_by("number").values_list("number", "seat", "action"))
engine = get_engine(match.game)
problems = []
if [n for n, _, _ in moves] != list(range(1, len(moves) + 1)):
    problems.append(f"move numbers {{[n for n, _, _ in moves]}} are not 1..{{len(moves)}}")
if match.version != len(moves):
    problems.append(f"version {{match.version}} but {{len(moves)}} moves")
state = engine.start(match.seats, match.seed, match.options)


def picture(state):
    return {{"view": engine.view(state, {seat}), "to_act": sorted(engine.to_act(state))}}


at = picture(state) if {upto} == 0 else {{}}
for number, seat, action in moves:
    if seat not in engine.to_act(state):
        problems.append(f"move {{number}}: seat {{seat}} was not to act")
    state = engine.apply(state, seat, action)  # an illegal (doubled) move raises here
    if number == {upto}:
        at = picture(state)
outcome = engine.outcome(state)
finished = outcome is not None
if finished != (match.status == Match.Status.FINISHED):
    problems.append(f"status {{match.status}} but the replay is {{'over' if finished else 'going on'}}")
if finished and outcome.as_dict()["places"] != (match.outcome or {{}}).get("places"):
    problems.append("the stored outcome is not the replay's")
print("REPLAY" + json.dumps({{
    "version": match.version,
    "moves": [[n, s, a] for n, s, a in moves],
    "problems": problems,
    "at": at,
}}, default=list))
"""


def replayed(site: Site, match_id: int, *, upto: int, seat: int = 0) -> dict[str, Any]:
    """The match's move log replayed through the engine in the site's Django: the stored version,
    the log, what does not add up (``problems``), and the seat's view after ``upto`` moves."""
    printed = site.shell(REPLAY.format(match_id=match_id, upto=upto, seat=seat))
    line = next(line for line in printed.splitlines() if line.startswith("REPLAY"))
    return dict(json.loads(line[len("REPLAY") :]))


def check_served_state(site: Site, client: Client, match_id: int, seat: int = 0) -> dict[str, Any]:
    """The log replays without a fault, and what the API serves is the replay's state."""
    served = client.get(f"/api/matches/{match_id}/")
    assert served.ok, served
    replay = replayed(site, match_id, upto=served.body["version"], seat=seat)
    assert replay["problems"] == [], replay["problems"]
    assert replay["version"] >= served.body["version"]
    expected = json.loads(json.dumps(replay["at"]))
    assert served.body["to_act"] == expected["to_act"]
    assert served.body["view"] == expected["view"]
    return replay
