"""The web server restarts (gracefully, or killed) while moves are in flight.

Three people play three matches as fast as the API lets them, each move sent twice at once (a
double click), while the test restarts the web server under them. Afterwards: every move the
site accepted is in the log exactly where it was made, every log replays through the engine to
what the site serves, a double click applied once, a stale move gets 409, and the pages, the
API and the event streams pick up where the matches are.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from typing import Any

import pytest

from spyleague.server import STREAM_GRACE

from .matches import (
    Client,
    SocketRacer,
    check_served_state,
    logs_on_failure,
    match_events,
    new_match,
    session_cookie,
    sign_up,
)
from .procs import Site, wait_until

pytestmark = pytest.mark.xdist_group("faults")

MATCHES = 3


@dataclass
class Attempt:
    match: int
    seat: int
    version: int
    action: dict[str, Any]
    statuses: list[int]  # the two sends of the double click (0: no answer)
    sent: float  # time.monotonic() when the clicks were sent, and when both were answered
    answered: float


class Players:
    """Plays the matches from threads: whoever is to act sends their first legal action, twice at once."""

    def __init__(self, clients: list[Client], matches: list[int]) -> None:
        self.clients, self.matches = clients, matches
        self.attempts: list[Attempt] = []
        self.sending = 0  # double clicks sent and not yet answered
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self.play, args=(m,), daemon=True) for m in matches]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(30)

    def accepted(self, match: int) -> int:
        with self.lock:
            return sum(1 for a in self.attempts if a.match == match and 200 in a.statuses)

    def click(self, match: int, seat: int, body: dict[str, Any], statuses: list[int], i: int) -> None:
        statuses[i] = self.clients[seat].post(f"/api/matches/{match}/act/", body, timeout=30).status

    def play(self, match: int) -> None:
        while not self.stop.is_set():
            seen = self.clients[0].get(f"/api/matches/{match}/", timeout=5)
            if not seen.ok:  # the server is away: try again
                time.sleep(0.05)
                continue
            if seen.body["status"] != "playing":
                return
            seat = min(seen.body["to_act"])
            mine = self.clients[seat].get(f"/api/matches/{match}/", timeout=5)
            if not mine.ok or mine.body["version"] != seen.body["version"]:
                continue
            action = mine.body["legal"][0]
            body = {"action": action, "version": mine.body["version"]}
            statuses = [0, 0]
            clicks = [
                threading.Thread(target=self.click, args=(match, seat, body, statuses, i)) for i in range(2)
            ]
            with self.lock:
                self.sending += 1
            sent = time.monotonic()
            for click in clicks:
                click.start()
            for click in clicks:
                click.join()
            attempt = Attempt(match, seat, mine.body["version"], action, statuses, sent, time.monotonic())
            with self.lock:
                self.sending -= 1
                self.attempts.append(attempt)


def board_key(page: str) -> str:
    found = re.search(r'id="board" class="board" data-key="([^"]+)"', page)
    assert found is not None, page[:500]
    return found.group(1)


@pytest.mark.parametrize("kill", [False, True], ids=["graceful", "killed"])
def test_a_web_restart_mid_move_applies_each_move_once_or_not_at_all(deployment: Site, kill: bool) -> None:
    with logs_on_failure(deployment):
        restart_mid_move(deployment, kill=kill)


def restart_mid_move(site: Site, *, kill: bool) -> None:
    web = site.web()
    web.start()
    site.wait_web()
    clients = [sign_up(site, name) for name in ("ann", "bob", "cat")]
    matches = []
    for _ in range(MATCHES):
        match = new_match(clients[0], game="black-spy", seats=3)["id"]
        for client in clients[1:]:
            assert client.post(f"/api/matches/{match}/join/").ok
        assert clients[0].post(f"/api/matches/{match}/start/").ok
        matches.append(match)
    stream = match_events(site, matches[0])
    wait_until(lambda: stream.updates(), timeout=10, what="the event stream to open")
    # And a race of two on the race page's sockets, racing through the restart.
    race = new_match(clients[0], game="spy-vs-spy", seats=2)["id"]
    assert clients[1].post(f"/api/matches/{race}/join/").ok
    assert clients[0].post(f"/api/matches/{race}/start/").ok
    racers = [
        SocketRacer(site, clients[i], session_cookie(site, name), race)
        for i, name in ((0, "ann"), (1, "bob"))
    ]

    players = Players(clients, matches)
    players.start()
    try:
        wait_until(
            lambda: all(players.accepted(m) >= 3 for m in matches),
            timeout=20,
            what="moves before the restart",
        )
        # Restart with moves in flight: the players keep sending while the server is away.
        before = {m: players.accepted(m) for m in matches}
        wait_until(lambda: players.sending, timeout=5, what="a move in flight", every=0.001)
        stopped = time.monotonic()
        web.stop(kill=kill)
        down = time.monotonic()
        web.start()
        site.wait_web()
        up = time.monotonic()
        wait_until(
            lambda: all(players.accepted(m) >= before[m] + 3 for m in matches),
            timeout=20,
            what="moves after the restart",
        )
        raced = [sum(1 for m in r.moves if m.answer == "ack") for r in racers]
        wait_until(
            lambda: all(
                sum(1 for m in r.moves if m.answer == "ack") >= n + 3
                for r, n in zip(racers, raced, strict=True)
            ),
            timeout=20,
            what="the racers' sockets to open again and their moves to go on",
        )
    finally:
        players.finish()
        for racer in racers:
            racer.finish()
    assert any(a.sent <= stopped <= a.answered for a in players.attempts), "no move was in flight"

    # The old stream ended with the server; a new one (as the browser reconnects) is current.
    wait_until(lambda: stream.ended, timeout=5, what="the old event stream to end")
    if not kill:
        # An open stream does not hold a graceful stop until gunicorn's --graceful-timeout (10 s
        # here): the worker closes what is left after STREAM_GRACE seconds.
        assert down - stopped < STREAM_GRACE + 5 < 10, f"a graceful stop took {down - stopped:.1f} s"
    for match in matches:
        replay = check_served_state(site, clients[0], match)  # the log replays to what the API serves
        log = {number: (seat, action) for number, seat, action in replay["moves"]}
        version = replay["version"]
        for attempt in (a for a in players.attempts if a.match == match):
            if 200 in attempt.statuses:  # accepted: in the log, where it was made
                assert log[attempt.version + 1] == (attempt.seat, attempt.action), attempt
            if 0 not in attempt.statuses:  # both clicks answered: one applied, the other was stale
                assert sorted(attempt.statuses) == [200, 409], attempt
        # A stale move is refused.
        current = clients[0].get(f"/api/matches/{match}/").body
        assert current["version"] == version
        seat = min(current["to_act"])
        mover = clients[seat].get(f"/api/matches/{match}/").body
        stale = clients[seat].post(
            f"/api/matches/{match}/act/", {"action": mover["legal"][0], "version": version - 1}
        )
        assert stale.status == 409, stale
        # The page shows the current position, and a reconnecting stream announces it.
        page = clients[0].get(f"/play/matches/{match}/")
        assert page.status == 200
        key = board_key(page.body)
        assert key.startswith(f"{version}-playing-")
        again = match_events(site, match)
        wait_until(lambda: again.updates(), timeout=10, what="a reconnected event stream")  # noqa: B023
        assert again.updates()[0] == key
        again.close()
    stream.close()
    # The race: every move its socket acknowledged is in the log where it was made; a move whose
    # socket closed first is there once or not at all (the next card names the card it saw).
    replay = check_served_state(site, clients[0], race)
    log = {number: (seat, action) for number, seat, action in replay["moves"]}
    for seat, racer in enumerate(racers):
        assert racer.reconnects >= 1, "a racer's socket did not close with the restart"
        for move in racer.moves:
            if move.answer == "ack":
                assert log[move.made] == (seat, move.action), move
        acked = racer.acked()
        unanswered = sum(1 for m in racer.moves if m.answer == "")
        placed = sum(1 for s, _ in log.values() if s == seat)
        assert acked <= placed <= acked + unanswered, (seat, acked, unanswered, placed)
    statuses = [status for a in players.attempts for status in a.statuses]
    print(
        f"\nWeb restart ({'killed' if kill else 'graceful'}): stopped in {down - stopped:.2f} s, "
        f"answering again {up - down:.2f} s later; {len(players.attempts)} double clicks, answers "
        f"{ {status: statuses.count(status) for status in sorted(set(statuses))} }; race sockets: "
        + ", ".join(f"{r.acked()} moves acknowledged, {r.reconnects} reopened" for r in racers)
    )
