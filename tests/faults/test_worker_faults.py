"""A worker killed mid-job, Redis going away under a worker, a bot's turn whose message was lost,
and Spy vs Spy bots after a worker restart: the site heals by itself, on real processes.

Each test runs its own Redis, database, Celery worker and beat (``procs``), with the sweeps'
periods shortened through the environment (``FAST``) so that what takes minutes in production
takes seconds here. Nothing waits on time for its own sake: each step waits on the thing itself
(a row's status, a log line), and the times measured are printed (``pytest -s`` shows them).
"""

from __future__ import annotations

import re
import time

import pytest

from .procs import Process, Site, wait_until

pytestmark = pytest.mark.xdist_group("faults")

# The sweeps every second, a job's heartbeat every half second, a job without one for 3 s lost.
FAST = {
    "SPYLEAGUE_SWEEP_SECONDS": "1",
    "SPYLEAGUE_JOB_SWEEP_SECONDS": "1",
    "SPYLEAGUE_JOB_HEARTBEAT_SECONDS": "0.5",
    "SPYLEAGUE_JOB_LOST_SECONDS": "3",
}

# Confirmed Spy vs Spy results enough for a ratings recompute of a few seconds.
RESULTS = """
import random
from datetime import timedelta
from django.utils import timezone
from spyleague.clubs.models import Player
from spyleague.scores.models import Result, ResultLine
rng = random.Random(7)
players = [p.pk for p in Player.objects.bulk_create([Player(name=f"Rated {i}") for i in range(400)])]
t0 = timezone.now() - timedelta(days=400)
results = Result.objects.bulk_create(
    [Result(game="spy-vs-spy", status="confirmed", played=t0 + timedelta(minutes=i)) for i in range(20000)],
    batch_size=5000,
)
ResultLine.objects.bulk_create(
    [
        ResultLine(result_id=r.pk, player_id=p, position=n, place=n + 1)
        for r in results
        for n, p in enumerate(rng.sample(players, 4))
    ],
    batch_size=10000,
)
"""

QUEUE_RATINGS = (
    "from spyleague.ratings.services import ratings_recompute_queue as q\nprint(q(game='spy-vs-spy').pk)"
)
QUEUE_DEMO = "from spyleague.core.services import demo_data_queue\nprint(demo_data_queue().pk)"

# A person's match against bots: ``{game}`` with bots in every other seat, started.
MATCH = """
from django.contrib.auth.models import User
from spyleague.play import services
ann = User.objects.create_user("ann", password="not-used-here")
match = services.match_create(
    user=ann, game="{game}", seats={seats}, seed={seed}, options={options},
    bots=dict.fromkeys(range(1, {seats}), "heuristic"),
)
services.match_start(user=ann, match_id=match.pk)
print(match.pk)
"""

# Replays a match's move log through the engine: every move was its seat's to make, once.
REPLAY = """
from django.db import transaction
from games import get_engine
from spyleague.play.models import Match
with transaction.atomic():  # under the match's lock, as moves are made: its log and version agree
    match = Match.objects.select_for_update().get(pk={pk})
    log = list(match.moves.order_by("number"))
engine = get_engine(match.game)
state = engine.start(match.seats, match.seed, match.options)
numbers = []
for move in log:
    assert move.seat in engine.to_act(state), (move.number, move.seat)
    state = engine.apply(state, move.seat, move.action)
    numbers.append(move.number)
assert numbers == list(range(1, match.version + 1)), numbers
print(match.version, ",".join(map(str, sorted(engine.to_act(state)))) or "-")
"""


def printed(output: str) -> str:
    """The last line a shell printed (Django's shell prints its own lines first)."""
    return [line for line in output.splitlines() if line.strip()][-1].strip()


def ready(worker: Process, times: int = 1) -> None:
    wait_until(lambda: worker.output().count(" ready.") >= times, timeout=60, what="the worker to start")


def job(site: Site, pk: int) -> tuple[str, int, str]:
    status, attempts, message = site.sql(
        "SELECT status, attempts, message FROM sl_core_job WHERE id = %s", pk
    )[0]
    return str(status), int(attempts), str(message)


def moves(site: Site, match: int) -> int:
    return int(site.sql("SELECT COUNT(*) FROM play_move WHERE match_id = %s", match)[0][0])


def drop_queued_messages(site: Site) -> int:
    """Lose every message waiting in Redis for a worker, as a broker restart without its data does."""
    import redis

    client = redis.Redis.from_url(site.env["CELERY_BROKER_URL"])
    keys = list(client.scan_iter("celery*"))
    return int(client.delete(*keys)) if keys else 0


def test_a_job_killed_with_its_worker_runs_again_or_fails_in_words(deployment: Site) -> None:
    site = deployment
    site.env.update(FAST)
    site.shell(RESULTS)
    worker, beat = site.worker(), site.beat()
    worker.start()
    beat.start()
    ready(worker)

    # A ratings recompute is safe to run twice: killed with its worker, it runs again.
    ratings = int(printed(site.shell(QUEUE_RATINGS)))
    wait_until(lambda: job(site, ratings)[0] == "running", timeout=30, what="the ratings job to start")
    worker.stop(kill=True)
    killed = time.monotonic()
    assert job(site, ratings)[0] == "running", "the job finished before its worker was killed"
    worker.start()
    wait_until(lambda: job(site, ratings)[0] == "done", timeout=40, what="the lost ratings job to run again")
    rerun = time.monotonic() - killed
    status, attempts, message = job(site, ratings)
    assert attempts == 2 and message.startswith("Rated "), (status, attempts, message)
    assert "lost its worker: queued again" in worker.output()

    # The demo data is not: killed with its worker, it fails, saying why.
    ready(worker, 2)
    demo = int(printed(site.shell(QUEUE_DEMO)))
    wait_until(lambda: job(site, demo)[0] == "running", timeout=30, what="the demo job to start")
    worker.stop(kill=True)
    killed = time.monotonic()
    worker.start()
    wait_until(lambda: job(site, demo)[0] != "running", timeout=40, what="the lost demo job to be given up")
    given_up = time.monotonic() - killed
    assert job(site, demo) == ("failed", 1, "Failed: its worker stopped before it finished.")
    assert not site.sql("SELECT id FROM sl_core_job WHERE status = 'running'")
    print(f"\nlost job run again {rerun:.1f} s, lost job failed {given_up:.1f} s after the kill")


def outage(site: Site, worker: Process, *, kill: bool, what: str) -> None:
    """Stop Redis (killed, or shut down), let the worker see it, start Redis again (empty: the
    test's Redis keeps nothing on disk), and wait for the worker to connect again."""
    from celery import Celery

    # Back in its event loop (after "Connected to redis" it still sets up its consumers): a loss
    # now is seen as a lost connection, not as a failed start.
    broker = Celery(broker=site.env["CELERY_BROKER_URL"], set_as_current=False)
    wait_until(lambda: broker.control.ping(timeout=0.5), timeout=30, what="the worker to answer a ping")
    connected = worker.output().count("Connected to redis")
    lost = worker.output().count("Connection to broker lost")
    site.redis.stop(kill=kill)
    wait_until(lambda: worker.output().count("Connection to broker lost") > lost, timeout=20, what="the loss")
    site.redis.start()
    wait_until(
        lambda: not worker.running or worker.output().count("Connected to redis") > connected,
        timeout=40,
        what=f"the worker to reconnect after an outage {what}",
    )
    assert worker.running, f"the worker stopped after an outage {what}"


def test_a_worker_rides_out_redis_outages_and_runs_the_next_job(deployment: Site) -> None:
    from celery import Celery

    site = deployment
    site.env.update(FAST)
    site.shell(RESULTS)
    worker, beat = site.pool_worker(), site.beat()  # prefork, as the README deploys it
    worker.start()
    beat.start()
    ready(worker)

    running = int(printed(site.shell(QUEUE_RATINGS)))
    wait_until(lambda: job(site, running)[0] == "running", timeout=30, what="the job to start")
    outage(site, worker, kill=True, what="while it runs a job")

    # A message the worker holds unacknowledged until its countdown is up (as it holds the Spy vs
    # Spy bots' next run): the outage that used to stop the worker for good.
    eta = Celery(broker=site.env["CELERY_BROKER_URL"], set_as_current=False).send_task(
        "spyleague.play.tasks.sweep_timeouts", countdown=600
    )
    wait_until(lambda: f"[{eta.id}] received" in worker.output(), timeout=20, what="the worker to hold it")
    outage(site, worker, kill=False, what="holding a task due later")

    outage(site, worker, kill=True, what="idle")
    assert "Unrecoverable error" not in worker.output()
    wait_until(
        lambda: job(site, running)[0] == "done", timeout=30, what="the job to go on through its outage"
    )
    fresh = int(printed(site.shell(QUEUE_DEMO)))
    wait_until(lambda: job(site, fresh)[0] == "done", timeout=40, what="a job after the outages")
    assert worker.running and beat.running


def test_a_bot_turn_whose_message_was_lost_is_played_by_the_sweep(deployment: Site) -> None:
    site = deployment
    site.env.update(FAST)
    # Spycatcher, seed 0: a bot is first to move. No worker runs: its turn's message waits in Redis...
    match = int(printed(site.shell(MATCH.format(game="spycatcher", seats=3, seed=0, options={}))))
    assert drop_queued_messages(site) >= 1  # ...and is lost
    worker, beat = site.worker(), site.beat()
    worker.start()
    beat.start()
    ready(worker)
    started = time.monotonic()
    wait_until(lambda: moves(site, match) > 0, timeout=30, what="the sweep to play the bots' turn")
    waited = time.monotonic() - started
    assert f"Match {match} waited on its bots" in worker.output()
    wait_until(
        lambda: site.sql("SELECT bot_turn FROM play_match WHERE id = %s", match)[0][0] is None,
        timeout=30,
        what="the bots to play until the person must",
    )
    version, to_act = printed(site.shell(REPLAY.format(pk=match))).split()
    assert int(version) == moves(site, match) > 0 and "0" in to_act.split(",")  # the person's turn
    print(f"\nbots' lost turn played {waited:.1f} s after the worker was ready")


def test_spy_vs_spy_bots_race_on_after_a_worker_restart_with_no_page_open(deployment: Site) -> None:
    site = deployment
    site.env.update(FAST)
    worker, beat = site.worker(), site.beat()
    worker.start()
    beat.start()
    ready(worker)
    options = {"bot_cards_per_minute": 60}
    match = int(printed(site.shell(MATCH.format(game="spy-vs-spy", seats=3, seed=5, options=options))))
    wait_until(lambda: moves(site, match) >= 4, timeout=40, what="the bots to race")
    worker.stop(kill=True)  # with it goes the delayed run that would have made their next moves
    killed = time.monotonic()
    before = moves(site, match)
    drop_queued_messages(site)  # and any run of the bots still queued: only the sweep is left
    worker.start()
    ready(worker, 2)
    restarted = time.monotonic()
    wait_until(lambda: moves(site, match) > before, timeout=30, what="the bots to race on")
    resumed = time.monotonic()
    assert f"Match {match} waited on its bots" in worker.output()
    wait_until(lambda: moves(site, match) >= before + 4, timeout=30, what="the bots to keep racing")
    assert site.sql("SELECT status FROM play_match WHERE id = %s", match)[0][0] == "playing"
    version, _ = printed(site.shell(REPLAY.format(pk=match))).split()
    assert int(version) >= before + 4
    print(
        f"\nSpy vs Spy bots raced on {resumed - restarted:.1f} s after the new worker was ready "
        f"({resumed - killed:.1f} s after the old one was killed)"
    )


def test_after_a_long_outage_the_worker_is_back_within_seconds_of_redis(deployment: Site) -> None:
    """kombu's own pace (2 s more after each failed try, up to 30 s) would keep the worker asleep
    for 10 to 30 s after a long outage; the site's consumer tries every 2 s."""
    site = deployment
    site.env.update(FAST)
    worker = site.worker()
    worker.start()
    ready(worker)
    lost = worker.output().count("Connection to broker lost")
    site.redis.stop(kill=True)
    wait_until(lambda: worker.output().count("Connection to broker lost") > lost, timeout=20, what="the loss")
    # A long outage: as many failed tries as kombu's pace would spread over more than a minute.
    tries = re.compile(r"Trying again in ([0-9.]+) seconds")
    wait_until(lambda: len(tries.findall(worker.output())) >= 8, timeout=60, what="eight tries to reconnect")
    waits = [float(w) for w in tries.findall(worker.output())]
    assert max(waits) <= 2.0, waits
    connected = worker.output().count("Connected to redis")
    site.redis.start()
    back = time.monotonic()
    wait_until(
        lambda: worker.output().count("Connected to redis") > connected, timeout=30, what="the reconnect"
    )
    healed = time.monotonic() - back
    assert healed < 10.0, f"the worker took {healed:.1f} s to reconnect"
    fresh = int(printed(site.shell(QUEUE_DEMO)))
    wait_until(lambda: job(site, fresh)[0] == "done", timeout=40, what="a job after the outage")
    print(f"\nworker back {healed:.1f} s after Redis, after {len(waits)} tries")
