"""The sign-up throttle on a site served as deployed (gunicorn with two uvicorn workers, Redis):
the web processes count together, so the address is refused past the rate whichever process
answers; and when Redis stops answering, or goes away, sign-ups go through at once instead of
failing or hanging, and are counted again once it is back."""

from __future__ import annotations

import math
import statistics
import time

import pytest
import redis

from spyleague.core.queue import QUIET_SECONDS

from .matches import Client, logs_on_failure
from .procs import Site, wait_until

pytestmark = pytest.mark.xdist_group("faults")

RATE = 4
WEB_PROCESSES = 2
# While Redis is silent a web process waits on it once, for the throttle's deadline (half a
# second), and then leaves it alone for a while: never once per use (the count, the pages'
# cache), never once per request. Each wait that ran out is logged, so the waits are counted in
# the log, not guessed from timings (a password hashed is most of a sign-up, and its time varies
# with the machine's load). A request that hung instead would take the socket's timeout on each
# use, or the client's 10 s; this bound is far below that and far above a busy machine's noise.
HANG_SECONDS = 2.5
# A Redis that is gone refuses at once, so a sign-up then takes its usual time and no more than
# a busy machine's noise beside it: less than the throttle's connect timeout (1 s), which a wait
# on a connection would cost.
REFUSED_SECONDS = 0.9
WAITED = ("could not count a request", "page cache could not be reached")


def waits(log: str) -> int:
    return sum(log.count(line) for line in WAITED)


def signup(site: Site, n: int) -> tuple[int, float, str]:
    body = {"username": f"newbie{n}", "name": f"New {n}", "password": "faults-pass-8271"}
    answer = Client(site).post("/api/signup/", body)
    return answer.status, answer.seconds, str(answer.body)


def test_the_web_processes_count_together_and_a_redis_away_lets_sign_ups_through(deployment: Site) -> None:
    site = deployment
    site.env["SPYLEAGUE_RATE_SIGNUP"] = f"{RATE}/h"
    web = site.web(workers=WEB_PROCESSES)
    web.start()
    site.wait_web()
    with logs_on_failure(site):
        # Two processes answer the requests, and the counts are Redis's (read there below), so the
        # address is refused past the rate whichever process answers it.
        answers = [signup(site, n) for n in range(RATE + 3)]
        assert [status for status, _, _ in answers] == [201] * RATE + [429] * 3, answers
        assert "Too many accounts were made from your address" in answers[-1][2]
        assert site.sql("SELECT COUNT(*) FROM auth_user") == [(RATE,)]
        assert redis.Redis.from_url(site.env["REDIS_URL"]).keys("*:throttle:*signup*")  # kept in Redis

        usual = statistics.median(seconds for _, seconds, _ in answers[:RATE])
        before = waits(web.output())
        site.redis.pause()  # Redis takes connections and never answers
        started = time.monotonic()
        try:
            quiet = [signup(site, n) for n in range(100, 104)]
        finally:
            site.redis.resume()
        # A silent Redis is tried again after each spell of QUIET_SECONDS.
        spells = math.ceil((time.monotonic() - started) / QUIET_SECONDS)
        assert all(status == 201 for status, _, _ in quiet), quiet
        assert all(seconds < usual + HANG_SECONDS for _, seconds, _ in quiet), (usual, quiet)
        # Four sign-ups, at most one wait for each process that answered them, in each spell of
        # leaving Redis alone (the log is written before the answer is sent: complete here).
        assert 1 <= waits(web.output()) - before <= WEB_PROCESSES * spells, (spells, web.output()[-4000:])

        site.redis.stop(kill=True)  # gone: connections refused
        gone = [signup(site, n) for n in range(200, 203)]
        assert all(status == 201 and seconds < usual + REFUSED_SECONDS for status, seconds, _ in gone), gone

        site.redis.start()  # back (empty, on the same port): counting again from zero
        tries = iter(range(300, 400))

        def refused() -> bool:
            status, _, _ = signup(site, next(tries))
            assert status in (201, 429)
            return status == 429

        wait_until(refused, timeout=30, what="the throttle to count in Redis again", every=0.5)
        assert redis.Redis.from_url(site.env["REDIS_URL"]).keys("*:throttle:*signup*")
