"""Lists paged in the database: a page's cost at 1,000 and at 10,000 rows, and a round of 250 tables.

Every figure is the median time of ``--repeat`` requests through the whole Django stack (the test
client, in this process; the database in its own), with the answer's size, next to a baseline
measured in the same run on the same rows:

* **Leaderboard**: ``GET /api/leaderboards/<game>/`` (a page of 100: the first, and one in the
  middle of the board) and the leaderboards page, for a game with ``--small`` (1,000) rated
  players and one with ``--players`` (10,000). Goal: a page at 10,000 at most 1.5x the same page
  at 1,000. Baseline: the board as the site read it before (every rated player read, then the
  page cut out in Python), timed as a query.
* **Standings**: ``GET /api/events/<id>/standings/`` (a page of 100) of events of 1,000 and
  10,000 stored standings. Same goal.
* **A round of 250 tables** (1,000 players at tables of 4): ``GET /api/events/<id>/rounds/``
  (the round without its tables) and a page of 100 of its tables
  (``/api/events/<id>/rounds/1/tables/``). Baseline: the round with every table in it, as the
  rounds list gave it before (one item of the whole round).
* **Rating history**: a page of 100 of a player's 5,000 rating points, against 50 points.

Each database runs in a child process of its own with a fresh database: a temporary SQLite file,
and a new PostgreSQL database on the server of ``--postgres`` (created here and dropped at the
end). The machine's load average is printed beside the figures (other work shares its cores).

    .venv/bin/python benchmarks/paging.py                      # SQLite and PostgreSQL
    .venv/bin/python benchmarks/paging.py --databases postgres --repeat 15
    .venv/bin/python benchmarks/paging.py --quick              # small sizes, a smoke run

Figures measured on this project's machine are kept in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DB_NAME = f"spyleague_paging_bench_{os.getpid()}"
SMALL_GAME, LARGE_GAME = "black-spy", "mister-spy"
T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


def loadavg() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


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
    env["DJANGO_DEBUG"] = "1"
    if database == "postgres":
        env["DATABASE_URL"] = postgres
    else:
        env["SQLITE_PATH"] = str(tmp / "bench.sqlite3")
    return env


# --- the rows ------------------------------------------------------------------------------------


def rated_players(club: Any, *, game: str, count: int, rng: random.Random) -> list[Any]:
    """``count`` guests of the club, each rated in ``game`` (many ties, as after a first round)."""
    from spyleague.clubs.models import Membership, Player, Role
    from spyleague.ratings.models import Rating

    people = Player.objects.bulk_create(
        [Player(name=f"{game} player {i:05d}", guest_of=club) for i in range(count)], batch_size=2000
    )
    Membership.objects.bulk_create(
        [Membership(club=club, player=p, role=Role.PLAYER) for p in people], batch_size=2000
    )
    ratings = []
    for p in people:
        mu, sigma = round(rng.gauss(25, 3), 1), round(rng.uniform(2, 8.3), 1)
        ratings.append(
            Rating(player=p, game=game, mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=rng.randint(1, 40))
        )
    Rating.objects.bulk_create(ratings, batch_size=2000)
    return people


def stored_standings(club: Any, organiser: Any, people: list[Any], *, name: str) -> Any:
    from spyleague.tournaments.models import Entrant, Event, Standing

    event = Event.objects.create(
        club=club,
        name=name,
        game=SMALL_GAME,
        format=Event.Format.SWISS,
        rounds=5,
        table_size=4,
        status=Event.Status.RUNNING,
        created_by=organiser,
    )
    entrants = Entrant.objects.bulk_create([Entrant(event=event, player=p) for p in people], batch_size=2000)
    Standing.objects.bulk_create(
        [
            Standing(event=event, entrant=e, rank=i // 3 + 1, points=float(len(entrants) - i // 3), games=4)
            for i, e in enumerate(entrants)
        ],
        batch_size=2000,
    )
    return event


def round_of_tables(club: Any, organiser: Any, people: list[Any], *, tables: int) -> Any:
    from spyleague.tournaments.models import Entrant, Event, Round, Seat, Table

    event = Event.objects.create(
        club=club,
        name="Big Open",
        game=SMALL_GAME,
        format=Event.Format.SWISS,
        rounds=5,
        table_size=4,
        status=Event.Status.RUNNING,
        created_by=organiser,
    )
    entrants = Entrant.objects.bulk_create(
        [Entrant(event=event, player=p) for p in people[: tables * 4]], batch_size=2000
    )
    rnd = Round.objects.create(event=event, number=1, status=Round.Status.PUBLISHED, published=T0)
    made = Table.objects.bulk_create([Table(round=rnd, number=n + 1) for n in range(tables)])
    Seat.objects.bulk_create(
        [
            Seat(table=t, entrant=entrants[4 * i + k], position=k)
            for i, t in enumerate(made)
            for k in range(4)
        ],
        batch_size=2000,
    )
    return event


def history(player: Any, *, game: str, points: int) -> None:
    from spyleague.ratings.models import RatingPoint
    from spyleague.scores.models import Result

    result = Result.objects.create(game=game, status=Result.Status.CONFIRMED, data={}, played=T0)
    RatingPoint.objects.bulk_create(
        [
            RatingPoint(
                player=player,
                game=game,
                result=result,
                when=T0 + timedelta(hours=i),
                mu=25,
                sigma=8,
                ordinal=1.0,
            )
            for i in range(points)
        ],
        batch_size=2000,
    )


# --- timing --------------------------------------------------------------------------------------


def timed(call: Callable[[], Any], repeat: int) -> dict[str, float]:
    call()  # warm: the first request compiles templates and fills caches
    times, size = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        out = call()
        times.append(time.perf_counter() - start)
        size = len(getattr(out, "content", b"")) if out is not None else 0
    return {"ms": round(statistics.median(times) * 1000, 2), "kb": round(size / 1024, 1)}


def get(client: Any, url: str) -> Callable[[], Any]:
    def call() -> Any:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return response

    return call


def old_board(game: str, offset: int, limit: int) -> Callable[[], Any]:
    """The board as it was read before: every rated player, then the page cut out of the list."""

    def call() -> None:
        from spyleague.ratings.models import Rating

        rows = Rating.objects.filter(game=game).select_related("player")
        board = list(enumerate(rows.order_by("-ordinal", "player__name")[: 10**9], start=1))
        board[offset : offset + limit]

    return call


def old_rounds(event: Any) -> Callable[[], Any]:
    """The rounds list as it was: every table of the round, with its seats, in one item."""

    def call() -> Any:
        from rest_framework.renderers import JSONRenderer

        from spyleague.tournaments.selectors import rounds_get

        data = [
            {
                "number": r.number,
                "tables": [
                    {
                        "id": t.pk,
                        "number": t.number,
                        "seats": [
                            {"entrant": s.entrant_id, "player": s.entrant.player.name} for s in t.seats.all()
                        ],
                    }
                    for t in r.tables.all()
                ],
            }
            for r in rounds_get(event=event)
        ]
        body = JSONRenderer().render(data)

        class Sized:
            content = body

        return Sized()

    return call


def child(database: str, args: argparse.Namespace) -> dict[str, Any]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from spyleague.clubs.services import club_create

    call_command("migrate", verbosity=0, interactive=False)
    rng = random.Random(24)
    organiser = get_user_model().objects.create_user(username="olivia", password="x" * 12)
    club = club_create(user=organiser, name="Benchmark Club")
    start = time.perf_counter()
    small = rated_players(club, game=SMALL_GAME, count=args.small, rng=rng)
    large = rated_players(club, game=LARGE_GAME, count=args.players, rng=rng)
    events = {
        "small": stored_standings(club, organiser, small, name="Small Open"),
        "large": stored_standings(club, organiser, large, name="Large Open"),
    }
    big_round = round_of_tables(club, organiser, large, tables=args.tables)
    history(small[0], game=SMALL_GAME, points=50)
    history(large[0], game=LARGE_GAME, points=args.history)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    built = time.perf_counter() - start
    client = Client()
    r = args.repeat
    figures: dict[str, Any] = {
        "database": database,
        "built_s": round(built, 1),
        "sizes": {"small": args.small, "large": args.players, "tables": args.tables, "history": args.history},
        "load_before": loadavg(),
    }
    lb: dict[str, Any] = {}
    for size, game, count in (("small", SMALL_GAME, args.small), ("large", LARGE_GAME, args.players)):
        middle = (count // 2) // 100 * 100
        lb[size] = {
            "first": timed(get(client, f"/api/leaderboards/{game}/?limit=100"), r),
            "middle": timed(get(client, f"/api/leaderboards/{game}/?limit=100&offset={middle}"), r),
            "page": timed(get(client, f"/leaderboards/?game={game}&page={middle // 100 + 1}"), r),
            "baseline_middle": timed(old_board(game, middle, 100), r),
        }
    figures["leaderboard"] = lb
    figures["standings"] = {
        size: timed(get(client, f"/api/events/{event.pk}/standings/?limit=100&offset=100"), r)
        for size, event in events.items()
    }
    figures["round"] = {
        "rounds": timed(get(client, f"/api/events/{big_round.pk}/rounds/"), r),
        "tables_page": timed(get(client, f"/api/events/{big_round.pk}/rounds/1/tables/?limit=100"), r),
        "baseline_whole_round": timed(old_rounds(big_round), r),
    }
    figures["history"] = {
        "small": timed(get(client, f"/api/players/{small[0].pk}/ratings/{SMALL_GAME}/?limit=100"), r),
        "large": timed(
            get(client, f"/api/players/{large[0].pk}/ratings/{LARGE_GAME}/?limit=100&offset=2000"), r
        ),
    }
    figures["load_after"] = loadavg()
    return figures


def report(all_figures: list[dict[str, Any]]) -> None:
    for f in all_figures:
        s = f["sizes"]
        print(
            f"\n== {f['database']} ({s['small']:,} and {s['large']:,} rated players, a round of "
            f"{s['tables']} tables; rows built in {f['built_s']} s; load average {f['load_before']} "
            f"before, {f['load_after']} after)"
        )
        lb = f["leaderboard"]
        for kind, label in (
            ("first", "API, first page"),
            ("middle", "API, middle page"),
            ("page", "the page"),
        ):
            a, b = lb["small"][kind], lb["large"][kind]
            print(
                f"  leaderboard {label:17}: {a['ms']:7.2f} ms at {s['small']:,}, {b['ms']:7.2f} ms at "
                f"{s['large']:,} ({b['ms'] / a['ms']:.2f}x; goal <= 1.5x), {b['kb']} KB"
            )
        a, b = lb["small"]["baseline_middle"], lb["large"]["baseline_middle"]
        print(
            f"  baseline (whole board read) : {a['ms']:7.2f} ms at {s['small']:,}, {b['ms']:7.2f} ms at "
            f"{s['large']:,} ({b['ms'] / a['ms']:.2f}x)"
        )
        a, b = f["standings"]["small"], f["standings"]["large"]
        print(
            f"  standings, a page of 100    : {a['ms']:7.2f} ms at {s['small']:,}, {b['ms']:7.2f} ms at "
            f"{s['large']:,} ({b['ms'] / a['ms']:.2f}x; goal <= 1.5x)"
        )
        rd = f["round"]
        print(
            f"  a round of {s['tables']} tables: rounds list {rd['rounds']['ms']:.2f} ms, "
            f"{rd['rounds']['kb']} KB; a page of 100 tables {rd['tables_page']['ms']:.2f} ms, "
            f"{rd['tables_page']['kb']} KB; baseline, the whole round in one item "
            f"{rd['baseline_whole_round']['ms']:.2f} ms, {rd['baseline_whole_round']['kb']} KB"
        )
        a, b = f["history"]["small"], f["history"]["large"]
        print(
            f"  rating history, page of 100 : {a['ms']:7.2f} ms of 50 points, {b['ms']:7.2f} ms of "
            f"{s['history']:,} ({b['ms'] / a['ms']:.2f}x)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--databases", default="sqlite,postgres", help="comma-separated: sqlite, postgres")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/postgres",
    )
    parser.add_argument("--small", type=int, default=1000, help="rated players of the small board")
    parser.add_argument("--players", type=int, default=10_000, help="rated players of the large board")
    parser.add_argument("--tables", type=int, default=250, help="tables of the big round")
    parser.add_argument("--history", type=int, default=5000, help="rating points of one player")
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.small, args.players, args.tables, args.history, args.repeat = 100, 1000, 25, 500, 3
    if args.child:
        print("FIGURES " + json.dumps(child(args.child, args)))
        return
    all_figures = []
    for database in [d.strip() for d in args.databases.split(",") if d.strip()]:
        tmp = Path(tempfile.mkdtemp(prefix="paging-bench-"))
        url = ""
        try:
            if database == "postgres":
                url = create_database(args.postgres)
            command = [sys.executable, __file__, "--child", database, *sys.argv[1:]]
            out = subprocess.run(
                command,
                cwd=ROOT,
                env=child_env(database, tmp, url),
                check=True,
                capture_output=True,
                text=True,
            )
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
