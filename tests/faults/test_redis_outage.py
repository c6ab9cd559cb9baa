"""Redis goes away mid-match and comes back: the site answers throughout and heals by itself.

The site is served as deployed (gunicorn with uvicorn workers) with a Celery worker and beat, all
on a Redis of the test's own, which the test stops and starts again on the same port. Each web
process gets a small database pool (fewer connections than the event streams held open), so a
stream that kept its connection would starve the pages at once.
"""

from __future__ import annotations

import http.client
import time
from typing import Any

import pytest

from .matches import (
    Client,
    EventStream,
    RaceSocket,
    check_served_state,
    logs_on_failure,
    match_events,
    new_match,
    race_events,
    sign_up,
)
from .procs import Site, free_port, wait_until

pytestmark = pytest.mark.xdist_group("faults")

PAGE_SECONDS = 2.0  # every page answers within this while Redis is away
HEAL_SECONDS = 10.0  # and the site is whole again this soon after it is back
POOL = 3  # database connections per web process
SWEEP_SECONDS = 2  # how long a match waits on its bots before the bot sweep asks them again
STREAMS = 8  # event streams opened before the outage, and as many again during it
RACE_STREAMS = 4  # race pages' streams (they share one feed per web process)
# A Redis that does not answer looks merely quiet: a match page's stream pings it after a second
# of quiet, takes it for lost a second later, and looks at the database (before: every 5 s).
HUNG_NOTICE_SECONDS = 4.0


def redis_client(site: Site) -> Any:
    import redis

    return redis.Redis(port=site.redis.port, socket_connect_timeout=1, socket_timeout=2)


def subscribers(site: Site, match_id: int) -> int:
    """How many connections listen on the match's live channel (``live.channel``)."""
    name = f"spyleague:match:{match_id}"
    return int(dict(redis_client(site).pubsub_numsub(name))[name.encode()])


def my_turn(client: Client, match_id: int) -> dict[str, Any] | None:
    """The match once the bots are done and only seat 0 (the test's) is to act."""
    answer = client.get(f"/api/matches/{match_id}/")
    return answer.body if answer.ok and answer.body["to_act"] == [0] else None


def move_until_a_bot_is_due(client: Client, match_id: int) -> tuple[list[Any], dict[str, Any]]:
    """Seat 0's moves, each answered within ``PAGE_SECONDS``, until a bot is to act (or has acted).

    The moves made as (version before, action, seconds to answer), and the match as the last
    answer showed it.
    """
    made: list[Any] = []
    turn = client.get(f"/api/matches/{match_id}/").body
    while len(made) < 20:
        version, action = turn["version"], turn["legal"][0]
        answer = client.post(f"/api/matches/{match_id}/act/", {"action": action, "version": version})
        assert answer.status == 200, answer
        assert answer.seconds < PAGE_SECONDS, answer.seconds
        made.append((version, action, round(answer.seconds, 3)))
        turn = answer.body
        if turn["to_act"] != [0] or turn["version"] > version + 1:
            return made, turn
    raise AssertionError(f"no bot was due after {len(made)} moves")


def race_move(client: Client, match_id: int) -> int:
    """A racer's move, answered within ``PAGE_SECONDS``; the version it made."""
    turn = client.get(f"/api/matches/{match_id}/").body
    answer = client.post(f"/api/matches/{match_id}/act/", {"action": turn["legal"][0]})
    assert answer.status == 200 and answer.seconds < PAGE_SECONDS, answer
    return int(answer.body["version"])


def entrants(organiser: Client, club: str, event: int, count: int) -> None:
    """``count`` guests of the club registered for the event and checked in."""
    for i in range(count):
        guest = organiser.post(f"/api/clubs/{club}/guests/", {"name": f"Guest {i}"})
        assert guest.status == 201, guest
        entrant = organiser.post(f"/api/events/{event}/register/", {"player": guest.body["player"]["id"]})
        assert entrant.status == 201, entrant
        checked = organiser.post(f"/api/events/{event}/entrants/{entrant.body['id']}/check-in/")
        assert checked.ok, checked


def pages(client: Client, paths: dict[str, str]) -> dict[str, float]:
    """Fetch each page; each must answer 200 within ``PAGE_SECONDS``. Their times, by name."""
    times = {}
    for name, path in paths.items():
        answer = client.get(path)
        assert answer.status == 200, (name, answer)
        assert answer.seconds < PAGE_SECONDS, (name, answer.seconds)
        times[name] = round(answer.seconds, 3)
    return times


def served_on_two_groups(site: Site) -> tuple[Any, int, Any, Any]:
    """The site as deployed, with a second group of web processes on a port of its own (as a
    second machine would run), a worker and beat: (the first group, the second's port, worker, beat)."""
    web, worker, beat = site.web(), site.worker(), site.beat()
    second = free_port()
    for process in (web, site.web(workers=1, port=second, name="web-2"), worker, beat):
        process.start()
    site.wait_web()
    site.wait_web(port=second)
    return web, second, worker, beat


def all_opened(streams: list[EventStream]) -> bool:
    return all(s.status == 200 and s.updates() for s in streams)


def test_the_site_answers_through_a_redis_outage_and_heals_by_itself(deployment: Site) -> None:
    with logs_on_failure(deployment):
        outage(deployment)


def outage(site: Site) -> None:
    site.env.update(
        {
            "DATABASE_POOL_MAX_SIZE": str(POOL),
            "DATABASE_POOL_MIN_SIZE": "1",
            "SPYLEAGUE_SWEEP_SECONDS": str(SWEEP_SECONDS),
        }
    )
    web, second, worker, beat = served_on_two_groups(site)

    ann = sign_up(site, "ann")
    club = ann.post("/api/clubs/", {"name": "Outage Club"})
    assert club.status == 201, club
    event = ann.post("/api/events/", {"club": club.body["slug"], "name": "Outage Open", "game": "black-spy"})
    assert event.status == 201, event
    entrants(ann, club.body["slug"], event.body["id"], 4)  # a table of four, paired while Redis is away
    # Two matches against bots; the worker plays the bots' first moves.
    a = new_match(ann, game="black-spy", seats=3, start=True, fill_with="random")["id"]
    b = new_match(ann, game="black-spy", seats=3, start=True, fill_with="random")["id"]
    wait_until(lambda: my_turn(ann, a), timeout=20, what="the bots of match A to play")
    wait_until(lambda: my_turn(ann, b), timeout=20, what="the bots of match B to play")
    # And a race (Spy vs Spy) of one: its pages' streams share a feed in each web process.
    race = new_match(ann, game="spy-vs-spy", seats=1, start=True)["id"]

    streams = [match_events(site, a) for _ in range(STREAMS)]
    wait_until(lambda: all_opened(streams), timeout=10, what="the event streams to open")
    wait_until(lambda: subscribers(site, a) == STREAMS, timeout=10, what="the streams to subscribe")
    racing = [race_events(site, race) for _ in range(RACE_STREAMS)]
    wait_until(lambda: all_opened(racing), timeout=10, what="the race streams to open")
    wait_until(lambda: subscribers(site, race) >= 1, timeout=10, what="the race feeds to subscribe")
    # And race pages on their sockets, on both groups: a move made through one group reaches the
    # other through Redis, or while Redis is away through the database.
    sockets = [RaceSocket(site, race, port) for port in (site.port, site.port, second, second)]
    wait_until(lambda: all(s.saw(0) for s in sockets), timeout=10, what="the race sockets to open")

    # --- Redis goes away --------------------------------------------------------------------
    site.redis.stop()
    down = time.monotonic()
    paths = {
        "home": "/",
        "event": f"/events/{event.body['id']}/",
        "lobby": "/play/",
        "match": f"/play/matches/{a}/",
        "api": f"/api/matches/{a}/",
    }
    times = {"outage": pages(ann, paths)}
    health = ann.get("/health/")
    assert health.status == 503 and health.body["broker"]["ok"] is False, health
    assert health.body["database"]["ok"] is True and health.seconds < PAGE_SECONDS, health
    times["health"] = {"down": round(health.seconds, 3)}

    # Pages reconnecting during the outage: more streams than the pools have connections.
    streams += [match_events(site, a) for _ in range(STREAMS)]
    wait_until(lambda: all_opened(streams), timeout=10, what="the event streams to open without Redis")
    assert not any(s.ended for s in streams), [s.error for s in streams if s.ended]
    times["with streams"] = pages(ann, paths)

    # Moves: applied and answered at once, though their notices and the bots' turn that the
    # last one makes due cannot be sent (the bot sweep asks the bots again once Redis is back).
    made, after = move_until_a_bot_is_due(ann, a)
    assert after["version"] == made[-1][0] + 1  # the bots could not move
    times["moves"] = {"answers": [seconds for _, _, seconds in made]}
    # The streams see them by looking at the database.
    wait_until(
        lambda: all(s.saw_version(after["version"]) for s in streams),
        timeout=5,
        what="every stream to announce the moves made without Redis",
    )
    # A racer's move: its pages' feeds look at the database and render the progress themselves.
    raced = race_move(ann, race)
    wait_until(
        lambda: all(s.saw_version(raced) and s.saw_progress(raced) for s in racing),
        timeout=5,
        what="every race stream to announce the race move made without Redis, with its progress",
    )
    wait_until(
        lambda: all(s.saw(raced) for s in sockets),
        timeout=PAGE_SECONDS,
        what="every race socket, on both groups, to hear of the race move made without Redis",
    )
    times["after the move"] = pages(ann, paths)
    # A job queued meanwhile (pairing the first round): answered at once, and its page says that
    # the job queue could not be reached.
    pairing = ann.post(f"/api/events/{event.body['id']}/pair/")
    assert pairing.status == 202 and pairing.seconds < PAGE_SECONDS, pairing
    job = pairing.body["id"]
    waiting = ann.get(f"/api/jobs/{job}/")
    assert waiting.body["status"] == "queued" and "could not be reached" in waiting.body["note"], waiting
    # The streams keep trying to subscribe while Redis stays away (a page left open through a
    # long outage): let each of them try and fail twice more, looking at the database meanwhile.
    wait_until(
        lambda: web.output().count("No live updates from Redis for now") >= 5 * STREAMS,
        timeout=20,
        what="the streams to try Redis again",
    )
    assert not any(s.ended for s in streams + racing), [s.error for s in streams + racing if s.ended]
    times["after the streams tried again"] = pages(ann, paths)

    # --- Redis comes back, on the same port ---------------------------------------------------
    site.redis.start()
    back = time.monotonic()
    times["outage"]["lasted"] = round(back - down, 3)

    def healthy() -> bool:
        answer = ann.get("/health/")
        return answer.status == 200 and answer.body["broker"]["ok"] is True

    wait_until(healthy, timeout=HEAL_SECONDS, what="/health/ to report the broker again")
    times["health"]["healed after"] = round(time.monotonic() - back, 3)
    wait_until(
        lambda: subscribers(site, a) == len(streams),
        timeout=HEAL_SECONDS - (time.monotonic() - back),
        what="every stream to subscribe again",
    )
    times["streams"] = {"subscribed again after": round(time.monotonic() - back, 3)}
    # A move now queues its bots' turn again, and the worker plays it.
    made_b, _ = move_until_a_bot_is_due(ann, b)
    wait_until(
        lambda: ann.get(f"/api/matches/{b}/").body["version"] > made_b[-1][0] + 1,
        timeout=HEAL_SECONDS - (time.monotonic() - back),
        what="the bots of match B to move after Redis came back",
    )
    times["bots"] = {"B moved after": round(time.monotonic() - back, 3)}
    # The bots' turn lost with Redis: the bot sweep asks them again.
    wait_until(
        lambda: ann.get(f"/api/matches/{a}/").body["version"] > after["version"],
        timeout=HEAL_SECONDS - (time.monotonic() - back),
        what="the bots of match A, whose turn was lost with Redis, to move",
    )
    times["bots"]["A moved after"] = round(time.monotonic() - back, 3)
    # The job queued without Redis runs now, not once the job sweep gives its message up for lost
    # (JOB_LOST_SECONDS, two minutes).
    ran = wait_until(
        lambda: (answer := ann.get(f"/api/jobs/{job}/").body)["status"] in ("done", "failed") and answer,
        timeout=HEAL_SECONDS - (time.monotonic() - back),
        what="the job queued without Redis to run",
    )
    assert ran["status"] == "done", ran
    times["job"] = {"done after": round(time.monotonic() - back, 3)}
    wait_until(lambda: subscribers(site, race) >= 1, timeout=5, what="the race feeds to subscribe again")
    raced = race_move(ann, race)
    wait_until(lambda: all(s.saw_version(raced) for s in racing), timeout=5, what="the race streams to go on")
    wait_until(lambda: all(s.saw(raced) for s in sockets), timeout=PAGE_SECONDS, what="the race sockets")
    times["back"] = pages(ann, paths)
    assert all(not s.ended for s in streams + racing), [s.error for s in streams + racing if s.ended]
    assert not any(s.ended for s in sockets), [s.error for s in sockets if s.ended]
    for race_socket in sockets:
        race_socket.close()

    # Closed streams give back their subscriptions.
    for stream in streams + racing:
        stream.close()
    wait_until(lambda: subscribers(site, a) == 0, timeout=10, what="the closed streams to unsubscribe")
    wait_until(lambda: subscribers(site, race) == 0, timeout=10, what="the race feeds to unsubscribe")

    # Nothing lost or doubled: the logs replay to what the site serves, with each move made
    # without Redis in its place.
    replay = check_served_state(site, ann, a)
    for version, action, _ in made:
        assert replay["moves"][version] == [version + 1, 0, action]
    check_served_state(site, ann, b)
    check_served_state(site, ann, race)
    assert worker.running, worker.output()[-3000:]
    assert beat.running, beat.output()[-3000:]
    print(f"\nRedis outage, seconds: {times}")


def test_a_redis_that_does_not_answer_holds_up_no_move_and_no_page(deployment: Site) -> None:
    """Redis stopped with SIGSTOP: connections open but nothing answers, as when its host or the
    network is gone. Every call then waits for its timeouts (a move answered after 8 to 11 s, found
    by hand); each may hold a request up for ``queue.DEADLINE_SECONDS`` at most, once per quiet
    period of each web process."""
    with logs_on_failure(deployment):
        hung(deployment)


def race_tick(site: Site, match_id: int) -> float:
    """A race page's tick (the page asks a few times a second while bots race); its seconds."""
    page = http.client.HTTPConnection("127.0.0.1", site.port, timeout=10)
    page.request("GET", f"/play/matches/{match_id}/")
    answer = page.getresponse()
    answer.read()
    cookie = answer.getheader("Set-Cookie") or ""
    token = cookie.split("csrftoken=", 1)[1].split(";", 1)[0]
    started = time.monotonic()
    page.request(
        "POST",
        f"/play/matches/{match_id}/race/tick/",
        body="v=0",
        headers={
            "Cookie": f"csrftoken={token}",
            "X-CSRFToken": token,
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    tick = page.getresponse()
    tick.read()
    page.close()
    assert tick.status in (200, 204), tick.status
    return time.monotonic() - started


def hung(site: Site) -> None:
    from spyleague.core.queue import QUIET_SECONDS

    site.env["SPYLEAGUE_SWEEP_SECONDS"] = str(SWEEP_SECONDS)
    _, second, worker, beat = served_on_two_groups(site)
    ann = sign_up(site, "ann")
    # Three matches against bots (each move makes a bot's turn due: one per quiet period), and a
    # race against a slow bot whose page ticks.
    matches = [
        new_match(ann, game="black-spy", seats=3, start=True, fill_with="random")["id"] for _ in range(3)
    ]
    for match in matches:
        wait_until(lambda: my_turn(ann, match), timeout=20, what="the bots to play")  # noqa: B023
    race = new_match(
        ann,
        game="spy-vs-spy",
        seats=2,
        start=True,
        fill_with="heuristic",
        options={"bot_cards_per_minute": 60},
    )["id"]
    streams = [match_events(site, matches[0]) for _ in range(2)]
    wait_until(lambda: all_opened(streams), timeout=10, what="the event streams to open")
    sockets = [RaceSocket(site, race, port) for port in (site.port, site.port, second, second)]
    wait_until(lambda: all(s.saw(0) for s in sockets), timeout=10, what="the race sockets to open")
    paths = {
        "home": "/",
        "lobby": "/play/",
        "match": f"/play/matches/{matches[0]}/",
        "api": f"/api/matches/{race}/",
    }

    site.redis.pause()
    paused = time.monotonic()
    times: dict[str, Any] = {"moves": [], "race": 0, "ticks": []}
    made: dict[int, list[Any]] = {}
    # Longer than a quiet period after each match's move, so that each web process tries Redis
    # again, more than once: the race moves and ticks, and the pages, meanwhile.
    for match in matches:
        made[match], _ = move_until_a_bot_is_due(ann, match)
        times["moves"] += [seconds for _, _, seconds in made[match]]
        if match == matches[0]:
            # The pages hear of the moves though Redis looks merely quiet: each process notices
            # that it does not answer (a ping) and looks at the database instead.
            version, moved = made[match][-1][0] + 1, time.monotonic()
            wait_until(
                lambda: all(s.saw_version(version) for s in streams),  # noqa: B023
                timeout=HUNG_NOTICE_SECONDS,
                what="the match streams to hear of the moves while Redis does not answer",
            )
            times["streams heard after"] = round(time.monotonic() - moved, 3)
        until = time.monotonic() + QUIET_SECONDS + 0.5
        while time.monotonic() < until:
            if ann.get(f"/api/matches/{race}/").body["legal"]:
                raced = race_move(ann, race)  # answered within PAGE_SECONDS
                times["race"] += 1
                heard = time.monotonic()
                wait_until(
                    lambda: all(s.saw(raced) for s in sockets),  # noqa: B023
                    timeout=PAGE_SECONDS,
                    what="every race socket, on both groups, to hear of a move while Redis does not answer",
                )
                times.setdefault("sockets heard within", []).append(round(time.monotonic() - heard, 3))
            tick = race_tick(site, race)
            assert tick < PAGE_SECONDS, tick
            times["ticks"].append(round(tick, 3))
            pages(ann, paths)
    times["pages"] = pages(ann, paths)
    health = ann.get("/health/")
    assert health.status == 503 and health.body["broker"]["ok"] is False, health
    assert health.seconds < PAGE_SECONDS, health
    times["health"] = round(health.seconds, 3)
    times["hung for"] = round(time.monotonic() - paused, 3)

    site.redis.resume()
    back = time.monotonic()
    for match in matches:
        wait_until(
            lambda: ann.get(f"/api/matches/{match}/").body["version"] > made[match][-1][0] + 1,  # noqa: B023
            timeout=HEAL_SECONDS - (time.monotonic() - back),
            what="the bots whose turn came while Redis did not answer to move",
        )
    times["bots moved after"] = round(time.monotonic() - back, 3)
    last = ann.get(f"/api/matches/{matches[0]}/").body["version"]
    wait_until(lambda: all(s.saw_version(last) for s in streams), timeout=HEAL_SECONDS, what="the streams")
    for match in [*matches, race]:
        check_served_state(site, ann, match)
    assert not any(s.ended for s in sockets), [s.error for s in sockets if s.ended]
    for race_socket in sockets:
        race_socket.close()
    assert worker.running and beat.running
    print(f"\nRedis not answering, seconds: {times}")
