"""PostgreSQL stops under the running site, and starts again: the site answers, heals, loses nothing.

The site runs as the README deploys it (gunicorn with three uvicorn workers, a Celery worker and
beat, Redis) on a PostgreSQL cluster of the test's own (``procs.Postgres``), which the test stops
for real (``pg_ctl stop -m fast``: every session ends, the port refuses) and starts again. Then:

- while it is stopped, every page and API call asked (pages as a logged-in scorer, the API with
  a token, a score sheet sent, a move sent from the page and from the API) is answered within
  2 s: 503 in words with ``Retry-After``, or, for a page read over and over whose every part is
  kept in the cache (``KEPT_READS``: the event's page, its standings...), that page as kept,
  which is what the database held when it stopped; every write and every read of what is not
  kept is a 503; ``/health/`` says 503 within 1 s;
- the score sheet sent during the outage comes back with what was typed, and sent again once the
  database is back, it is saved;
- within 5 s of the database's return, the site is fast again without a restart: every process's
  pool noticed its dead connections and made new ones;
- a ratings recompute cut off by the outage runs again by itself and is done, its first run
  having waited for the database (no worker lost, no job sweep needed).

Each bound is a deadline on the thing itself, measured per answer (``pytest -s`` prints them).
"""

from __future__ import annotations

import html
import http.client
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import pytest

from .matches import Answer, Client, logs_on_failure
from .procs import Site, wait_until
from .test_worker_faults import QUEUE_RATINGS, RESULTS, job, printed, ready

pytestmark = pytest.mark.xdist_group("faults")

# The reads that may be answered from the pages' cache alone: every part of them is kept
# (core.cache), and who is asking too (core.auth, core.sessions).
KEPT_READS = frozenset({"home page", "event page", "standings page", "lobby", "standings API"})

FAST = {
    "SPYLEAGUE_SWEEP_SECONDS": "1",
    "SPYLEAGUE_JOB_SWEEP_SECONDS": "1",
    "SPYLEAGUE_JOB_HEARTBEAT_SECONDS": "0.5",
    # A run the database cut off waits for it itself, this long, before the job sweep steps in.
    "SPYLEAGUE_JOB_LOST_SECONDS": "60",
}

# The demo club: its running event has a round with no results; sam is its scorer. A token for
# the API, and a match of pat's against bots.
SETUP = """
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from spyleague.core.demo import demo_data_load
from spyleague.play import services
from spyleague.tournaments.models import Event, Table
demo_data_load()
event = Event.objects.get(status="running")
table = Table.objects.filter(round__event=event, is_bye=False, result__isnull=True).order_by("pk").first()
pat = User.objects.get(username="pat")
bots = {1: "heuristic", 2: "heuristic"}
match = services.match_create(user=pat, game="black-spy", seats=3, seed=1, options={}, bots=bots)
services.match_start(user=pat, match_id=match.pk)
token = Token.objects.create(user=User.objects.get(username="sam"))
print(event.pk, table.pk, table.seats.count(), match.pk, token.key)
"""

AWAY_WORDS = "The site cannot reach its database at the moment"


@dataclass
class Page:
    status: int
    headers: dict[str, str]
    body: str
    seconds: float


@dataclass
class Browser:
    """A person's browser: its cookies (the session, CSRF's), forms sent as a page sends them."""

    site: Site
    cookies: dict[str, str] = field(default_factory=dict)

    def request(
        self, method: str, path: str, form: Any = None, headers: dict[str, str] | None = None
    ) -> Page:
        conn = http.client.HTTPConnection("127.0.0.1", self.site.port, timeout=10)
        sent = dict(headers or {})
        sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.monotonic()
        conn.request(method, path, body=body, headers=sent)
        response = conn.getresponse()
        data = response.read().decode(errors="replace")
        seconds = time.monotonic() - started
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        conn.close()
        return Page(response.status, {k.lower(): v for k, v in response.getheaders()}, data, seconds)

    def get(self, path: str, **headers: str) -> Page:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, form: dict[str, Any], **headers: str) -> Page:
        return self.request("POST", path, {**form, "csrfmiddlewaretoken": self.cookies["csrftoken"]}, headers)

    def log_in(self, username: str, password: str) -> None:
        assert self.get("/accounts/login/").status == 200 and "csrftoken" in self.cookies
        answer = self.post("/accounts/login/", {"username": username, "password": password})
        assert answer.status == 302 and "sessionid" in self.cookies, answer.status


def kept_form(page: Page) -> list[tuple[str, str]]:
    """The hidden fields of the form a 503 sends again."""
    fields = re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)">', page.body)
    return [(html.unescape(name), html.unescape(value)) for name, value in fields]


def test_postgresql_stopped_and_started_again_under_the_site(deployment_with_its_own_postgres: Site) -> None:
    site = deployment_with_its_own_postgres
    site.env.update(FAST)
    event, table, seats, match, token = printed(site.shell(SETUP)).split()
    site.shell(RESULTS)
    web, worker, beat = site.web(workers=3), site.worker(), site.beat()
    for process in (web, worker, beat):
        process.start()
    site.wait_web()
    ready(worker)
    with logs_on_failure(site):
        outage_and_return(site, int(event), int(table), int(seats), int(match), token)


def outage_and_return(site: Site, event: int, table: int, seats: int, match: int, token: str) -> None:
    assert site.postgres is not None
    sam = Browser(site)
    sam.log_in("sam", "spyleague")
    api = Client(site, token)
    sheet = f"/events/{event}/tables/{table}/"
    typed = {f"score_{seat}": str(10 * (seat + 1)) for seat in range(seats)}
    typed |= {f"place_{seat}": "" for seat in range(seats)}
    typed["version"] = "new"
    asked: dict[str, Callable[[], Page | Answer]] = {
        "home page": lambda: sam.get("/"),
        "event page": lambda: sam.get(f"/events/{event}/"),
        "standings page": lambda: sam.get(f"/events/{event}/standings/"),
        "lobby": lambda: sam.get("/play/"),
        "match page": lambda: sam.get(f"/play/matches/{match}/"),
        "score sheet": lambda: sam.get(sheet),
        "score sheet sent": lambda: sam.post(sheet, typed),
        "move from the page": lambda: sam.post(
            f"/play/matches/{match}/act/", {"action": '"pass"'}, **{"HX-Request": "true"}
        ),
        "standings API": lambda: api.get(f"/api/events/{event}/standings/"),
        "leaderboard API": lambda: api.get("/api/leaderboards/black-spy/"),
        "move from the API": lambda: api.post(
            f"/api/matches/{match}/act/", {"action": {"type": "pass"}, "version": 0}
        ),
    }
    for name, ask in asked.items():  # warm: every process has connections in its pool
        if "sent" in name or "move" in name:
            continue  # (the sheet is sent during the outage, and once the database is back)
        for _ in range(3):
            answer = ask()
            assert answer.status < 500, (name, answer)

    ratings = int(printed(site.shell(QUEUE_RATINGS)))
    wait_until(lambda: job(site, ratings)[0] == "running", timeout=30, what="the ratings job to start")

    site.postgres.stop()  # every session ends; the port refuses new ones
    slowest: dict[str, float] = {}
    sent_sheet: Page | None = None
    for _ in range(4):  # enough to meet each of the three web processes
        for name, ask in asked.items():
            answer = ask()
            seconds = answer.seconds
            slowest[name] = max(slowest.get(name, 0.0), seconds)
            assert seconds < 2.0, f"{name}: answered after {seconds:.2f} s with the database stopped"
            if answer.status == 200 and name in KEPT_READS:
                assert isinstance(answer, Page) or isinstance(answer.body, dict), (name, answer)
                continue  # the page as kept, made from what the database held
            assert answer.status == 503, (name, answer)
            if isinstance(answer, Page):
                assert answer.headers.get("retry-after") == "5", (name, answer.headers)
                assert AWAY_WORDS in answer.body, (name, answer.body[:300])
            else:
                assert AWAY_WORDS in answer.body["detail"], (name, answer.body)
            if name == "score sheet sent" and isinstance(answer, Page):
                sent_sheet = answer
        health = sam.get("/health/")
        slowest["health"] = max(slowest.get("health", 0.0), health.seconds)
        assert health.status == 503 and health.seconds < 1.0, health
        assert '"error": "The database does not answer."' in health.body, health.body

    # What was typed on the sheet came back with the answer, ready to send again.
    assert sent_sheet is not None and "Send it again" in sent_sheet.body
    kept = kept_form(sent_sheet)
    assert {name: value for name, value in kept if name in typed} == typed
    # The htmx move: the notice at the top of the page, the board (and what was chosen) left alone.
    move = sam.post(f"/play/matches/{match}/act/", {"action": '"pass"'}, **{"HX-Request": "true"})
    assert move.headers.get("hx-retarget") == "#main" and "<form" not in move.body

    # The ratings job was cut off, and waits for the database rather than failing.
    wait_until(
        lambda: "cut off by the database" in worker_output(site),
        timeout=60,
        what="the ratings job to meet the stopped database",
    )

    site.postgres.start()
    back = time.monotonic()

    def fast_everywhere() -> bool:
        # Twelve pages in a row, each answered and quickly: every web process serves again.
        answers: list[Page | Answer] = [sam.get(f"/events/{event}/") for _ in range(6)]
        answers += [api.get("/api/events/") for _ in range(6)]
        return all(a.status == 200 and a.seconds < 1.0 for a in answers)

    wait_until(fast_everywhere, timeout=5.0, what="the site to be fast again after the database's return")
    healed = time.monotonic() - back

    # The sheet sent during the outage, sent again: saved.
    again = sam.request("POST", sheet, kept)
    assert again.status == 302, (again.status, again.body[:500])
    saved = site.sql("SELECT COUNT(*) FROM scores_result WHERE table_id = %s", table)[0][0]
    assert saved == 1

    # The job cut off by the outage runs again by itself and is done: its own run waited for the
    # database (one run: no worker was lost, the job sweep did not have to step in).
    wait_until(lambda: job(site, ratings)[0] != "running", timeout=120, what="the ratings job to finish")
    status, attempts, message = job(site, ratings)
    assert (status, attempts) == ("done", 1) and message.startswith("Rated "), (status, attempts, message)

    print(
        f"\nDatabase stopped: slowest answers {', '.join(f'{k} {v:.2f} s' for k, v in slowest.items())}; "
        f"fast again {healed:.2f} s after the database's return"
    )


def worker_output(site: Site) -> str:
    return "\n".join(p.output() for p in site.processes if p.name == "worker")


def test_a_saturated_site_answers_busy_after_its_pool_timeout_not_a_500(
    deployment_with_its_own_postgres: Site,
) -> None:
    """Every connection of the web process's pool in use (one, here, held by a request that waits
    on a lock the test holds): the next requests wait the pool's timeout (1 s here), then are
    answered 503 "busy" with Retry-After, a page or JSON; the held request finishes once free."""
    import threading

    import psycopg

    site = deployment_with_its_own_postgres
    site.env.update(
        {"DATABASE_POOL_MIN_SIZE": "1", "DATABASE_POOL_MAX_SIZE": "1", "DATABASE_POOL_TIMEOUT": "1"}
    )
    web = site.web(workers=1)
    web.start()
    site.wait_web()
    with logs_on_failure(site), psycopg.connect(site.database) as holder:
        holder.execute("LOCK TABLE sl_core_job IN ACCESS EXCLUSIVE MODE")  # the home page reads it
        held: list[Page] = []
        waiting = threading.Thread(target=lambda: held.append(Browser(site).get("/")), daemon=True)
        waiting.start()
        wait_until(
            lambda: site.sql("SELECT COUNT(*) FROM pg_locks WHERE NOT granted")[0][0] > 0,
            timeout=20,
            what="the home page's request to wait on the lock, holding the pool's connection",
        )
        call = Client(site).get("/api/events/")
        page = Browser(site).get("/events/")
        holder.rollback()
    waiting.join(30)
    for answer in (call, page):
        assert answer.status == 503, answer
        assert 1.0 <= answer.seconds < 2.5, f"answered after {answer.seconds:.2f} s"
    assert call.body == {
        "detail": "The site is too busy to answer at the moment, so nothing was read or saved. "
        "Try again in a few seconds."
    }
    assert page.headers["retry-after"] == "2" and "<h1>The site is very busy</h1>" in page.body
    assert held and held[0].status == 200, held  # the request that held the connection finished
    print(f"\nSaturated: answered busy after {call.seconds:.2f} s (API) and {page.seconds:.2f} s (page)")
