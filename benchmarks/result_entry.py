"""Result entry at scale: confirming a result, the event page, and a full ratings recompute.

Three figures, each next to a baseline measured in the same run:

* **Confirm**: the time of one POST to a table's confirm page (``tables/<id>/confirm/``), as
  a scorer sends it, in a Swiss event of ``--players`` (1,000) players at tables of 4 with four
  rounds played and the fifth being entered, against the same in an event of ``--small`` (24)
  players in the same database and the same game. The confirmations alternate between the two
  events so that the machine's load falls on both alike. Background jobs run as the site runs
  them without a broker (inline, once the request's transaction commits), so the time includes
  whatever work the confirmation queues. Goal: the large event's median at most 2x the small one's.
* **Event page**: the time and size of the event page of both events (anonymous, and as an
  organiser entered in the event), best and median of ``--page-repeat`` fetches. Goal: under
  200 ms and 200 KB at 1,000 players.
* **Full recompute** (PostgreSQL only): the ratings of ``--results`` (100,000) results of 3 to 6
  players among ``--rated-players`` players, history included, rewritten by
  ``ratings_recompute``: once from nothing, and once after a correction of the first result
  (every later rating point moves). Baselines: the openskill arithmetic alone
  (``pairing.ratings.recompute_ratings`` in memory), and the way the site wrote them before
  (delete every row, then ``bulk_create`` rating and history rows through the ORM), measured
  here on the same rows. Goal: under 10 s.

Each database runs in a child process of its own with a fresh database: a temporary SQLite file,
and a new PostgreSQL database on the server of ``--postgres`` (created here and dropped at the
end). Usage, from the repository root:

    .venv/bin/python benchmarks/result_entry.py                      # SQLite and PostgreSQL
    .venv/bin/python benchmarks/result_entry.py --databases sqlite --confirms 10
    .venv/bin/python benchmarks/result_entry.py --quick              # small sizes, a smoke run

Figures measured on this project's machine are kept in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DB_NAME = f"spyleague_result_bench_{os.getpid()}"
GAME = "black-spy"  # the events' game: tables of 3 to 6
RATED_GAME = "mister-spy"  # the game of the full recompute's results
T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


# --- databases ---------------------------------------------------------------------------------


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def create_database(url: str) -> str:
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    return with_database(url, DB_NAME)


def drop_database(url: str) -> None:
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def child_env(database: str, tmp: Path, postgres: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env["DJANGO_SETTINGS_MODULE"] = "spyleague.settings"
    env["DJANGO_DEBUG"] = "1"  # as the other benchmarks run the site (static files unbuilt)
    env["SPYLEAGUE_QUOTA_CLUBS"] = "1000"  # the small events each have a club of their own
    if database == "postgres":
        env["DATABASE_URL"] = postgres
        env["DATABASE_POOL"] = "0"  # the side-by-side scorers fork: each opens its own connections
    else:
        env["SQLITE_PATH"] = str(tmp / "bench.sqlite3")
    return env


# --- building the events -------------------------------------------------------------------------


def build_event(
    club: Any,
    organiser: Any,
    *,
    name: str,
    players: int,
    rounds_played: int,
    rng: random.Random,
    played_from: datetime,
    plays: bool = False,
) -> Any:
    """A Swiss event at tables of 4: ``rounds_played`` complete rounds, then one published round
    whose every table has a result reported and waiting for confirmation; the organiser among
    the players if ``plays``. Built in bulk (the timed part is the confirmation, not this)."""
    from spyleague.clubs.models import Membership, Player, Role
    from spyleague.scores.models import Result, ResultLine
    from spyleague.tournaments.models import Entrant, Event, Round, Seat, Table

    event = Event.objects.create(
        club=club,
        name=name,
        game=GAME,
        format=Event.Format.SWISS,
        rounds=rounds_played + 1,
        table_size=4,
        points_by_place=[4.0, 2.0, 1.0, 0.0],
        tiebreaks=["tournament_points", "game_points", "opponents_average", "wins", "head_to_head"],
        status=Event.Status.RUNNING,
        created_by=organiser,
    )
    people = Player.objects.bulk_create(
        [Player(name=f"{name} player {i:04d}", guest_of=club) for i in range(players - plays)]
    )
    Membership.objects.bulk_create([Membership(club=club, player=p, role=Role.PLAYER) for p in people])
    if plays:
        people.insert(0, organiser.player)  # the organiser plays too: the page shows their own table
    entrants = Entrant.objects.bulk_create([Entrant(event=event, player=p, joined_round=1) for p in people])
    points = {e.pk: 0.0 for e in entrants}
    player_of = {e.pk: e.player_id for e in entrants}
    scale = [4.0, 2.0, 1.0, 0.0]
    when = played_from
    for number in range(1, rounds_played + 2):
        last = number == rounds_played + 1
        rnd = Round.objects.create(
            event=event,
            number=number,
            status=Round.Status.PUBLISHED if last else Round.Status.COMPLETE,
            published=when,
        )
        order = sorted(points, key=lambda e: (-points[e], rng.random()))
        groups = [order[i : i + 4] for i in range(0, len(order), 4)]
        tables = Table.objects.bulk_create(
            [
                Table(
                    round=rnd,
                    number=n,
                    status=Table.Status.REPORTED if last else Table.Status.CONFIRMED,
                    source="" if last else Table.Source.SHEET,
                )
                for n, _ in enumerate(groups, start=1)
            ]
        )
        seats, results, lines_of = [], [], []
        for table, group in zip(tables, groups, strict=True):
            places = rng.sample(range(1, len(group) + 1), len(group))
            scores = rng.sample(range(60), len(group))
            for position, (entrant, place, score) in enumerate(zip(group, places, scores, strict=True)):
                if last:
                    seats.append(Seat(table=table, entrant_id=entrant, position=position))
                else:
                    seats.append(
                        Seat(
                            table=table,
                            entrant_id=entrant,
                            position=position,
                            place=place,
                            score=float(score),
                            points=scale[place - 1],
                        )
                    )
                    points[entrant] += scale[place - 1]
            when += timedelta(seconds=7)
            results.append(
                Result(
                    game=GAME,
                    club=club,
                    table=table,
                    source=Result.Source.SHEET,
                    status=Result.Status.REPORTED if last else Result.Status.CONFIRMED,
                    data={},
                    played=when,
                    entered_by=None if last else organiser,
                    confirmed_by=None if last else organiser,
                )
            )
            lines_of.append(list(zip(group, places, scores, strict=True)))
        Seat.objects.bulk_create(seats, batch_size=2000)
        results = Result.objects.bulk_create(results, batch_size=2000)
        ResultLine.objects.bulk_create(
            [
                ResultLine(result=result, player_id=player_of[e], position=i, place=place, score=float(score))
                for result, lines in zip(results, lines_of, strict=True)
                for i, (e, place, score) in enumerate(lines)
            ],
            batch_size=2000,
        )
        when += timedelta(hours=1)
    return event


def settle(events: list[Any]) -> None:
    """Standings and ratings as the jobs leave them once everything so far is confirmed."""
    from spyleague.ratings.services import ratings_recompute
    from spyleague.tournaments.services import standings_recompute

    for event in events:
        standings_recompute(event=event)
    ratings_recompute(game=GAME)


def reported_tables(event: Any) -> list[int]:
    from spyleague.tournaments.models import Table

    return list(
        Table.objects.filter(round__event=event, status=Table.Status.REPORTED)
        .order_by("number")
        .values_list("pk", flat=True)
    )


# --- the timed parts -------------------------------------------------------------------------------


def _database_cpu() -> float:
    """CPU seconds the database server's process of this connection has used (PostgreSQL on this
    machine: read from /proc), or 0 where that cannot be read (SQLite runs in this process)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return 0.0
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_confirms(
    client: Any, big: Any, smalls: list[Any], count: int, rng: random.Random, profile: Path | None = None
) -> dict[str, Any]:
    """Alternate confirmations in the large event and the small ones (a small event has only a
    few tables a round, so several of the same size are used): each one's time, and its CPU in
    this process (the site's code) and in the database server's process, in milliseconds."""
    big_tables = [(big, t) for t in reported_tables(big)]
    small_tables = [(event, t) for event in smalls for t in reported_tables(event)]
    rng.shuffle(big_tables)
    rng.shuffle(small_tables)
    count = min(count, len(big_tables) // (2 if profile else 1), len(small_tables) // (2 if profile else 1))
    times: dict[str, list[float]] = {"big": [], "small": [], "big_cpu": [], "small_cpu": []}
    profilers = {"big": cProfile.Profile(), "small": cProfile.Profile()} if profile else {}
    queries: dict[str, list[dict[str, Any]]] = {"big": [], "small": []}
    for i in range(count):
        for which, (event, table) in (("big", big_tables[i]), ("small", small_tables[i])):
            cpu, db = time.process_time(), _database_cpu()
            start = time.perf_counter()
            response = client.post(f"/events/{event.pk}/tables/{table}/confirm/")
            times[which].append((time.perf_counter() - start) * 1000)
            times[f"{which}_cpu"].append((time.process_time() - cpu + _database_cpu() - db) * 1000)
            if response.status_code != 302:
                raise SystemExit(f"confirming table {table} answered {response.status_code}")
        if profile:  # the same again on the next tables, under the profiler (not timed above)
            from django.db import connection
            from django.test.utils import CaptureQueriesContext

            for which, (event, table) in (("big", big_tables[count + i]), ("small", small_tables[count + i])):
                with CaptureQueriesContext(connection) as captured:
                    profilers[which].enable()
                    client.post(f"/events/{event.pk}/tables/{table}/confirm/")
                    profilers[which].disable()
                queries[which].extend(captured.captured_queries)
    if profile:
        for which, profiler in profilers.items():
            out = io.StringIO()
            each = len(queries[which]) / count
            print(f"== {which} event, {count} confirmations: {each:.1f} queries each", file=out)
            first = queries[which][: int(each)]
            print("   the first confirmation's queries, in order:", file=out)
            for q in first:
                print(f"   {1000 * float(q['time']):7.2f} ms  {q['sql'][:160]}", file=out)
            print("   the slowest:", file=out)
            slow = sorted(queries[which], key=lambda q: -float(q["time"]))[:12]
            for q in slow:
                print(f"   {1000 * float(q['time']):7.2f} ms  {q['sql'][:220]}", file=out)
            stats = pstats.Stats(profiler, stream=out)
            stats.sort_stats("cumulative").print_stats(r"spyleague|pairing", 60)
            stats.sort_stats("tottime").print_stats(30)
            (profile / f"confirm-{which}.txt").write_text(out.getvalue())
    return times


def rest_of_round(client: Any, event: Any) -> dict[str, Any]:
    """Confirm every table of the large event still waiting, one after another as scorers would,
    then check what they left: the stored standings against the full computation, and the jobs."""
    from spyleague.core.models import Job
    from spyleague.tournaments.models import Standing
    from spyleague.tournaments.services import standings_compute
    from spyleague.tournaments.standings import standings_ranked

    tables = reported_tables(event)
    start = time.perf_counter()
    for table in tables:
        if client.post(f"/events/{event.pk}/tables/{table}/confirm/").status_code != 302:
            raise SystemExit(f"confirming table {table} failed")
    took = time.perf_counter() - start
    stored = {
        row[0]: row[1:]
        for row in standings_ranked(event).values_list("entrant_id", "place", "points", "opponents_average")
    }
    computed = {r.player: (r.rank, r.points, r.opponents_average) for r in standings_compute(event)}
    assert Standing.objects.filter(event=event).count() == len(computed)
    jobs = dict(Counter(Job.objects.values_list("status", flat=True)))
    return {"tables": len(tables), "seconds": took, "exact": stored == computed, "jobs": jobs}


def side_by_side(organiser: Any, event: Any, count: int, scorers: int) -> dict[str, Any]:
    """Confirmations of different tables of one event by scorers at once, each in a process of its
    own (as the web workers are): ``count`` by one scorer, then ``scorers`` x ``count`` by that
    many at once; each both ways the site runs: *deferred* (as deployed, with a worker: each
    confirmation records its table and the standings and ratings follow, applied by a "worker"
    process of this benchmark's) and *inline* (without a worker: all of it in the confirmation,
    holding the event's standings and the game's ratings locks until it commits). Wall time from
    the first confirmation until every effect is applied; the confirmations a second of each."""
    import multiprocessing

    from django.db import connection

    tables = reported_tables(event)
    runs = [("deferred", 1), ("deferred", scorers), ("inline", 1), ("inline", scorers)]
    needed = count * sum(n for _, n in runs)
    if len(tables) < needed:
        raise SystemExit(f"side by side: {len(tables)} tables waiting, {needed} needed")
    fork = multiprocessing.get_context("fork")
    figures: dict[str, Any] = {"count": count, "scorers": scorers}
    taken = 0
    for mode, n in runs:
        chunks = [tables[taken + count * i : taken + count * (i + 1)] for i in range(n)]
        taken += count * n
        connection.close()  # each process opens its own
        stop, times = fork.Event(), fork.Queue()
        worker = fork.Process(target=_effects_worker, args=(stop,)) if mode == "deferred" else None
        if worker:
            worker.start()
        procs = [fork.Process(target=_scorer, args=(organiser.pk, event.pk, c, mode, times)) for c in chunks]
        start = time.perf_counter()
        for proc in procs:
            proc.start()
        got = [times.get(timeout=600) for _ in procs]
        for proc in procs:
            proc.join()
        if worker:
            stop.set()
            worker.join()
        wall = time.perf_counter() - start
        if any(isinstance(g, str) for g in got):
            raise SystemExit(f"side by side: {[g for g in got if isinstance(g, str)]}")
        from spyleague.scores.models import PendingEffects

        if PendingEffects.objects.exists():
            raise SystemExit("side by side: effects left pending")
        confirm_ms = [t for g in got for t in g]
        figures[f"{mode}_{n}"] = {"rate": len(confirm_ms) / wall, "median": statistics.median(confirm_ms)}
    return figures


def _scorer(organiser: int, event: int, chunk: list[int], mode: str, out: Any) -> None:
    """A scorer's process: confirm ``chunk``'s tables one after another (times in ms to ``out``)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from spyleague.scores import effects

    try:
        if mode == "deferred":
            settings.CELERY_TASK_ALWAYS_EAGER = False
            effects.send_task_safely = lambda task, *args, **kw: True  # the worker process takes it
        client = Client()
        client.force_login(get_user_model().objects.get(pk=organiser))
        times = []
        for table in chunk:
            start = time.perf_counter()
            if client.post(f"/events/{event}/tables/{table}/confirm/").status_code != 302:
                raise RuntimeError(f"confirming table {table} failed")
            times.append((time.perf_counter() - start) * 1000)
        out.put(times)
    except Exception as exc:
        out.put(f"{type(exc).__name__}: {exc}")


def _effects_worker(stop: Any) -> None:
    """The worker's process: apply whatever is pending until told to stop and none is left."""
    from spyleague.scores.effects import effects_apply_all
    from spyleague.scores.models import PendingEffects

    while True:
        stopping = stop.is_set()
        if not effects_apply_all() and stopping and not PendingEffects.objects.exists():
            return
        time.sleep(0.005)


def time_page(client: Any, url: str, repeat: int) -> dict[str, Any]:
    times, size, queries = [], 0, 0
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get(url)
            took = (time.perf_counter() - start) * 1000
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        times.append(took)
        size = len(response.content)
        queries = len(captured.captured_queries)
    return {"best": min(times), "median": statistics.median(times), "bytes": size, "queries": queries}


def full_recompute(results: int, players: int, rng: random.Random) -> dict[str, Any]:
    """PostgreSQL: the full recompute of ``results`` results, history included."""
    from django.db import connection, transaction

    from pairing.ratings import recompute_ratings
    from spyleague.clubs.models import Player
    from spyleague.ratings.models import Rating, RatingPoint
    from spyleague.ratings.services import ratings_recompute
    from spyleague.scores.models import Result, ResultLine

    people = [p.pk for p in Player.objects.bulk_create([Player(name=f"Rated {i}") for i in range(players)])]
    tables = [rng.sample(people, rng.randint(3, 6)) for _ in range(results)]
    start = time.perf_counter()
    with connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy(
            "COPY scores_result (game, source, status, data, played, created, updated) FROM STDIN"
        ) as copy:
            for i in range(results):
                when = T0 + timedelta(seconds=i)
                copy.write_row((RATED_GAME, "sheet", "confirmed", "{}", when, when, when))
        ids = dict(Result.objects.filter(game=RATED_GAME).values_list("played", "pk"))
        by_index = [ids[T0 + timedelta(seconds=i)] for i in range(results)]
        with raw.copy("COPY scores_resultline (result_id, player_id, position, place) FROM STDIN") as copy:
            for i, table in enumerate(tables):
                places = rng.sample(range(1, len(table) + 1), len(table))
                for position, (player, place) in enumerate(zip(table, places, strict=True)):
                    copy.write_row((by_index[i], player, position, place))
        cursor.execute("ANALYZE")
    built = time.perf_counter() - start
    lines = sum(len(t) for t in tables)

    # The arithmetic alone, on the same tables (read back from the database in the same order).
    rows = list(
        ResultLine.objects.filter(result__game=RATED_GAME)
        .order_by("result__played", "result_id", "position")
        .values_list("result_id", "player_id", "place")
    )
    grouped: dict[int, list[tuple[int, int]]] = {}
    for result_id, player_id, place in rows:
        grouped.setdefault(result_id, []).append((player_id, place))
    start = time.perf_counter()
    rated = recompute_ratings(list(grouped.values()), keep_history=True)
    arithmetic = time.perf_counter() - start

    def old_write() -> None:
        """The site's way before: delete everything, then ORM bulk_create of every row."""
        order = list(grouped)
        played = dict(Result.objects.filter(game=RATED_GAME).values_list("pk", "played"))
        with transaction.atomic():
            Rating.objects.filter(game=RATED_GAME).delete()
            RatingPoint.objects.filter(game=RATED_GAME).delete()
            Rating.objects.bulk_create(
                [
                    Rating(
                        player_id=r.player,
                        game=RATED_GAME,
                        mu=r.mu,
                        sigma=r.sigma,
                        ordinal=r.ordinal,
                        games=r.games,
                    )
                    for r in rated.ratings.values()
                ],
                batch_size=2000,
            )
            RatingPoint.objects.bulk_create(
                [
                    RatingPoint(
                        player_id=p.player,
                        game=RATED_GAME,
                        result_id=order[p.result],
                        when=played[order[p.result]],
                        mu=p.mu,
                        sigma=p.sigma,
                        ordinal=p.ordinal,
                    )
                    for p in rated.history
                ],
                batch_size=5000,
            )

    figures: dict[str, Any] = {"results": results, "lines": lines, "players": players, "built": built}
    figures["arithmetic"] = arithmetic
    start = time.perf_counter()
    summary = ratings_recompute(game=RATED_GAME)
    figures["from_nothing"] = time.perf_counter() - start
    figures["phases"] = summary.get("seconds", {}) if isinstance(summary, dict) else {}
    figures["points"] = RatingPoint.objects.filter(game=RATED_GAME).count()
    # A correction of the very first result, told to the ratings as a correction is: every later
    # rating point of the game moves. The recompute it queues runs inline, as without a broker.
    first = ResultLine.objects.filter(result_id=by_index[0]).order_by("position")
    places = [line.place for line in first]
    for line, place in zip(first, places[1:] + places[:1], strict=True):
        line.place = place
        line.save(update_fields=["place"])
    start = time.perf_counter()
    try:
        from spyleague.ratings.services import ratings_result_apply
    except ImportError:  # the code before: every confirmation queued a full recompute
        ratings_recompute(game=RATED_GAME)
    else:
        assert ratings_result_apply(result=Result.objects.get(pk=by_index[0])) == "queued"
    figures["after_correction"] = time.perf_counter() - start
    start = time.perf_counter()
    ratings_recompute(game=RATED_GAME)
    figures["unchanged"] = time.perf_counter() - start
    if not os.environ.get("RESULT_BENCH_SKIP_OLD"):
        start = time.perf_counter()
        old_write()
        figures["old_write"] = time.perf_counter() - start + arithmetic
    return figures


def child(database: str, args: argparse.Namespace) -> dict[str, Any]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from spyleague.clubs.services import club_create

    call_command("migrate", verbosity=0, interactive=False)
    rng = random.Random(14)
    organiser = get_user_model().objects.create_user(username="olivia", password="x" * 12)
    club = club_create(user=organiser, name="Benchmark Club")
    figures: dict[str, Any] = {"database": database, "players": args.players, "small": args.small}
    client = Client()
    anonymous = Client()
    client.force_login(organiser)
    rounds_played = [int(r) for r in str(args.rounds_played).split(",")]
    figures["confirm"] = {}
    for played in rounds_played:
        start = time.perf_counter()
        big = build_event(
            club,
            organiser,
            name=f"Big Open {played}",
            players=args.players,
            rounds_played=played,
            rng=rng,
            played_from=T0 + timedelta(days=100 * played),
            plays=True,
        )
        per_event = args.small // 4
        smalls = [
            build_event(
                # Each event in a club of its own, so that no event's page lists another's players
                # among the members an organiser may still register.
                club_create(user=organiser, name=f"Small Club {played}.{n}"),
                organiser,
                name=f"Small Open {played}.{n}",
                players=args.small,
                rounds_played=played,
                rng=rng,
                played_from=T0 + timedelta(days=100 * played + 1 + n),
            )
            for n in range(-(-args.confirms * (2 if args.profile else 1) // per_event) + 1)
        ]
        small = smalls[-1]  # the pages' baseline: a small event still running (one result confirmed)
        settle([big, *smalls])
        figures["built"] = time.perf_counter() - start
        # Warm up: one confirmation in each (imports, template loading), then the timed ones.
        time_confirms(client, big, smalls[-1:], 1, rng)
        profile = None
        if args.profile:
            profile = args.profile / f"{database}-round{played + 1}"
            profile.mkdir(parents=True, exist_ok=True)
        timed = time_confirms(client, big, smalls[:-1], args.confirms, rng, profile)
        figures["confirm"][str(played + 1)] = timed
    for who, c in (("anonymous", anonymous), ("organiser", client)):
        for which, event in (("big", big), ("small", small)):
            time_page(c, f"/events/{event.pk}/", 1)
            figures[f"page_{which}_{who}"] = time_page(c, f"/events/{event.pk}/", args.page_repeat)
    for which, event in (("big", big), ("small", small)):
        time_page(anonymous, f"/events/{event.pk}/screen/", 1)
        figures[f"screen_{which}"] = time_page(anonymous, f"/events/{event.pk}/screen/", args.page_repeat)
    if database == "postgres" and args.side_by_side:
        figures["side"] = side_by_side(organiser, big, args.side_by_side, scorers=2)
    if args.whole_round:
        figures["round"] = rest_of_round(client, big)
    if database == "postgres" and args.results:
        figures["recompute"] = full_recompute(args.results, args.rated_players, rng)
    return figures


# --- the report ------------------------------------------------------------------------------------


def report(all_figures: list[dict[str, Any]]) -> None:
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f} (2 cores, shared)")
    for f in all_figures:
        name = {"sqlite": "SQLite", "postgres": "PostgreSQL"}[f["database"]]
        for number, confirm in f["confirm"].items():
            big, small = confirm["big"], confirm["small"]
            mb, ms = statistics.median(big), statistics.median(small)
            cb, cs = statistics.median(confirm["big_cpu"]), statistics.median(confirm["small_cpu"])
            print(
                f"\n{name}: confirming a result in round {number} (ms per request, {len(big)} in each "
                "event, alternating; CPU: this process and the database server's)"
            )
            print(f"  {'event':<22}{'median':>9}{'mean':>9}{'p90':>9}{'max':>9}{'CPU median':>12}")
            for label, values, cpu in (
                (f"{f['players']} players", big, cb),
                (f"{f['small']} players (baseline)", small, cs),
            ):
                p90 = sorted(values)[max(0, int(len(values) * 0.9) - 1)]
                print(
                    f"  {label:<22}{statistics.median(values):>9.1f}{statistics.mean(values):>9.1f}"
                    f"{p90:>9.1f}{max(values):>9.1f}{cpu:>12.1f}"
                )
            print(f"  ratio of medians: time {mb / ms:.2f}x, CPU {cb / cs:.2f}x (goal: CPU at most 1.3x)")
        if "side" in f:
            side = f["side"]
            n, k = side["scorers"], side["count"]
            print(
                f"  side by side: {k} confirmations by one scorer, then {n} x {k} by {n} scorers at once, "
                "different tables of the large event, a process each (confirmations a second, until every "
                "effect is applied; median ms a confirmation)"
            )
            for mode, label in (("deferred", "as deployed (effects follow)"), ("inline", "without a worker")):
                one, many = side[f"{mode}_1"], side[f"{mode}_{n}"]
                print(
                    f"  {label:<30} one {one['rate']:6.1f}/s ({one['median']:6.1f} ms), "
                    f"{n} at once {many['rate']:6.1f}/s ({many['median']:6.1f} ms): "
                    f"{many['rate'] / one['rate']:.2f}x the work in the same time"
                )
        if "round" in f:
            r = f["round"]
            print(
                f"  the rest of the round, {r['tables']} tables one after another: {r['seconds']:.1f} s "
                f"({r['seconds'] / max(1, r['tables']) * 1000:.1f} ms each); stored standings equal to "
                f"a full recompute: {'yes' if r['exact'] else 'NO'}; jobs: {r['jobs'] or 'none'}"
            )
        print(f"\n{name}: event pages (ms best / median, KB, queries)")
        for key, label in (
            ("page_big_anonymous", f"event, {f['players']} players, anonymous"),
            ("page_small_anonymous", f"event, {f['small']} players, anonymous (baseline)"),
            ("page_big_organiser", f"event, {f['players']} players, organiser who plays"),
            ("page_small_organiser", f"event, {f['small']} players, organiser (baseline)"),
            ("screen_big", f"screen view, {f['players']} players"),
            ("screen_small", f"screen view, {f['small']} players (baseline)"),
        ):
            p = f[key]
            print(
                f"  {label:<48}{p['best']:>8.1f} / {p['median']:<8.1f}{p['bytes'] / 1024:>8.1f} KB"
                f"{p['queries']:>6} queries"
            )
        if "recompute" in f:
            r = f["recompute"]
            print(
                f"\n{name}: full ratings recompute, {r['results']:,} results ({r['lines']:,} lines, "
                f"{r['players']:,} players), seconds"
            )
            print(f"  openskill arithmetic alone (baseline)      {r['arithmetic']:>8.2f}")
            if "old_write" in r:
                print(
                    f"  the previous way (delete, ORM bulk_create) {r['old_write']:>8.2f}  (arithmetic in it)"
                )
            print(
                f"  ratings_recompute, from nothing            {r['from_nothing']:>8.2f}  "
                f"({r['points']:,} history rows; goal under 10 s)"
            )
            print(
                f"  a correction of the first result           {r['after_correction']:>8.2f}  "
                "(every later point moves: the recompute it queues, run inline)"
            )
            unchanged = r["unchanged"]
            print(f"  ratings_recompute, nothing changed         {unchanged:>8.2f}  (ratings rows only)")
            if r.get("phases"):
                spent = ", ".join(f"{name} {seconds:.2f}" for name, seconds in r["phases"].items())
                print(f"  (from nothing: {spent})")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--databases", default="sqlite,postgres", help="comma-separated: sqlite, postgres")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/postgres",
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--small", type=int, default=24)
    parser.add_argument("--confirms", type=int, default=30, help="confirmations timed in each event")
    parser.add_argument("--page-repeat", type=int, default=7)
    parser.add_argument(
        "--side-by-side",
        type=int,
        default=20,
        help="confirmations per scorer, one scorer then two at once, both ways (PostgreSQL; 0: not measured)",
    )
    parser.add_argument(
        "--rounds-played",
        default="0,4",
        help="comma-separated: confirm in the round after this many complete ones (0: round 1)",
    )
    parser.add_argument(
        "--results", type=int, default=100_000, help="results of the full recompute (0: skip)"
    )
    parser.add_argument("--rated-players", type=int, default=5_000)
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument(
        "--no-whole-round",
        dest="whole_round",
        action="store_false",
        help="skip confirming the rest of the large event's round",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--profile",
        type=Path,
        help="also confirm as many more under cProfile, and write each event's top functions and "
        "slowest queries into this folder",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.players, args.confirms, args.page_repeat, args.results = 200, 5, 2, 5_000
        args.side_by_side = min(args.side_by_side, 2)
    if args.child:
        figures = child(args.child, args)
        print("FIGURES " + json.dumps(figures))
        return
    all_figures = []
    for database in [d.strip() for d in args.databases.split(",") if d.strip()]:
        tmp = Path(tempfile.mkdtemp(prefix="result-entry-"))
        url = ""
        try:
            if database == "postgres":
                url = create_database(args.postgres)
            env = child_env(database, tmp, url)
            command = [sys.executable, __file__, "--child", database, *sys.argv[1:]]
            out = subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True, text=True)
            line = next(x for x in out.stdout.splitlines() if x.startswith("FIGURES "))
            all_figures.append(json.loads(line.removeprefix("FIGURES ")))
        except subprocess.CalledProcessError as exc:
            print(exc.stdout, exc.stderr, file=sys.stderr)
            raise
        finally:
            if url:
                drop_database(args.postgres)
    report(all_figures)
    if args.json:
        args.json.write_text(json.dumps(all_figures, indent=2))


if __name__ == "__main__":
    main()
