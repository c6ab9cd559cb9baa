"""The sign-up throttle on a site served as deployed (gunicorn with two uvicorn workers, Redis):
the web processes count together, so the address is refused past the rate whichever process
answers; and when Redis stops answering, or goes away, sign-ups go through at once instead of
failing or hanging, and are counted again once it is back."""

from __future__ import annotations

import statistics

import pytest
import redis

from .matches import Client, logs_on_failure
from .procs import Site, wait_until

pytestmark = pytest.mark.xdist_group("faults")

RATE = 4
# While Redis is silent a request waits on it once, for the throttle's deadline (half a second),
# never once per use (the count, the pages' cache): an answer may take that much longer than the
# same sign-up with Redis answering (a password hashed: most of it, and slower on a busy machine),
# and less than a second more.
ONE_WAIT_SECONDS = 0.9


def signup(site: Site, n: int) -> tuple[int, float, str]:
    body = {"username": f"newbie{n}", "name": f"New {n}", "password": "faults-pass-8271"}
    answer = Client(site).post("/api/signup/", body)
    return answer.status, answer.seconds, str(answer.body)


def test_the_web_processes_count_together_and_a_redis_away_lets_sign_ups_through(deployment: Site) -> None:
    site = deployment
    site.env["SPYLEAGUE_RATE_SIGNUP"] = f"{RATE}/h"
    site.web(workers=2).start()
    site.wait_web()
    with logs_on_failure(site):
        # Two processes answer the requests, and the counts are Redis's (read there below), so the
        # address is refused past the rate whichever process answers it.
        answers = [signup(site, n) for n in range(RATE + 3)]
        assert [status for status, _, _ in answers] == [201] * RATE + [429] * 3, answers
        assert "Too many accounts were made from your address" in answers[-1][2]
        assert site.sql("SELECT COUNT(*) FROM auth_user") == [(RATE,)]
        assert redis.Redis.from_url(site.env["REDIS_URL"]).keys("*:throttle:*signup*")  # kept in Redis

        site.redis.pause()  # Redis takes connections and never answers
        try:
            quiet = [signup(site, n) for n in range(100, 104)]
        finally:
            site.redis.resume()
        assert all(status == 201 for status, _, _ in quiet), quiet
        usual = statistics.median(seconds for _, seconds, _ in answers[:RATE])
        assert all(seconds < usual + ONE_WAIT_SECONDS for _, seconds, _ in quiet), (usual, quiet)

        site.redis.stop(kill=True)  # gone: connections refused
        gone = [signup(site, n) for n in range(200, 203)]
        assert all(status == 201 and seconds < usual + ONE_WAIT_SECONDS for status, seconds, _ in gone), gone

        site.redis.start()  # back (empty, on the same port): counting again from zero
        tries = iter(range(300, 400))

        def refused() -> bool:
            status, _, _ = signup(site, next(tries))
            assert status in (201, 429)
            return status == 429

        wait_until(refused, timeout=30, what="the throttle to count in Redis again", every=0.5)
        assert redis.Redis.from_url(site.env["REDIS_URL"]).keys("*:throttle:*signup*")
