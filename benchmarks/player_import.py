"""Many players at once: a file of 1,000 players imported with one request, against the same
1,000 players added one by one, in the same run.

Three figures, through the API as a script sends it (Django's test client, in process: the
requests' handling is measured, not a network):

* **Import**: ``POST /api/events/<id>/import/`` with a CSV file of ``--lines`` (1,000) new
  names (the preview: nothing written), then ``POST .../import/confirm/`` with its token (the
  guests created, all registered and checked in). Goal: a second or two, a handful of queries.
* **Register many**: the same number of guests, added beforehand, registered with one
  ``POST /api/events/<id>/entrants/register/``.
* **One by one** (the baseline): what a script had to do before, for each player
  ``POST /api/clubs/<slug>/guests/`` then ``POST /api/events/<id>/register/``: 2,000 requests
  for 1,000 players.

Each runs in an event of its own in a fresh SQLite database (a temporary file); the queries of
each are counted. The machine's load average is printed before and after, since other work may
share its cores. Usage, from the repository root:

    .venv/bin/python benchmarks/player_import.py                 # 1,000 lines
    .venv/bin/python benchmarks/player_import.py --lines 2000
    .venv/bin/python benchmarks/player_import.py --quick         # 100 lines: a smoke run
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min; {os.cpu_count()} cores)"


def timed(what: Any) -> tuple[float, int, Any]:
    """Seconds, queries and the answer of ``what()``."""
    from django.db import connection

    count = 0

    def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal count
        count += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted):
        start = time.perf_counter()
        answer = what()
        seconds = time.perf_counter() - start
    return seconds, count, answer


def run(lines: int) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment
    from rest_framework.test import APIClient

    from spyleague.clubs.models import Membership, Player, Role
    from spyleague.clubs.services import club_create
    from spyleague.tournaments import services
    from spyleague.tournaments.models import Entrant

    setup_test_environment()  # the test client's host is allowed
    call_command("migrate", verbosity=0, interactive=False)
    from django.contrib.auth import get_user_model

    organiser = get_user_model().objects.create_user(username="olivia", password="x" * 12)
    club = club_create(user=organiser, name="Benchmark Club")
    api = APIClient()
    api.force_authenticate(organiser)

    def event(name: str) -> Any:
        return services.event_create(club=club, user=organiser, name=name, game="black-spy", rounds=5)

    print(f"Load average before: {load()}")
    print(f"{lines:,} players, SQLite, DJANGO_DEBUG={os.environ.get('DJANGO_DEBUG')}")
    figures = []

    # The import: a CSV file, the preview, then the confirmation.
    imported = event("Import Open")
    text = "name;rating\n" + "".join(f"Imported Player {i:05d};{1000 + i}\n" for i in range(lines))

    def preview() -> Any:
        return api.post(f"/api/events/{imported.pk}/import/", {"csv": text}, format="json")

    seconds, queries, shown = timed(preview)
    assert shown.status_code == 200, shown.content[:300]
    figures.append(("import: the preview (1 request)", seconds, queries))

    def confirm() -> Any:
        token = shown.json()["token"]
        return api.post(
            f"/api/events/{imported.pk}/import/confirm/", {"token": token, "check_in": True}, format="json"
        )

    seconds, queries, done = timed(confirm)
    assert done.status_code == 200 and done.json()["registered"] == lines, done.content[:300]
    figures.append(("import: the confirmation (1 request)", seconds, queries))

    # Registering many guests the club has, with one call.
    many = event("Many Open")
    players = Player.objects.bulk_create(
        [Player(name=f"Listed Player {i:05d}", guest_of=club) for i in range(lines)]
    )
    Membership.objects.bulk_create([Membership(club=club, player=p, role=Role.PLAYER) for p in players])

    def register_many() -> Any:
        ids = [p.pk for p in players]
        return api.post(f"/api/events/{many.pk}/entrants/register/", {"players": ids}, format="json")

    seconds, queries, done = timed(register_many)
    assert done.status_code == 200 and done.json()["registered"] == lines, done.content[:300]
    figures.append(("register many: existing guests (1 request)", seconds, queries))

    # The baseline: a guest, then their registration, one request each.
    single = event("One By One Open")

    def one_by_one() -> None:
        for i in range(lines):
            added = api.post(
                f"/api/clubs/{club.slug}/guests/", {"name": f"Single Player {i:05d}"}, format="json"
            )
            assert added.status_code == 201, added.content[:300]
            player = added.json()["player"]["id"]
            entered = api.post(f"/api/events/{single.pk}/register/", {"player": player}, format="json")
            assert entered.status_code == 201, entered.content[:300]

    seconds, queries, _ = timed(one_by_one)
    figures.append((f"one by one: a guest, then a registration ({2 * lines:,} requests)", seconds, queries))
    assert Entrant.objects.filter(event=single).count() == lines

    width = max(len(f[0]) for f in figures)
    print()
    print(f"{'':{width}}  {'seconds':>8}  {'queries':>8}")
    for label, seconds, queries in figures:
        print(f"{label:{width}}  {seconds:8.2f}  {queries:8,}")
    baseline = figures[-1][1]
    whole = figures[0][1] + figures[1][1]
    print()
    print(f"The import (preview and confirmation) takes {whole:.2f} s for {lines:,} lines,")
    print(f"{baseline / whole:.0f} times less than the one-by-one path's {baseline:.1f} s in this run.")
    print(f"Load average after: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lines", type=int, default=1000, help="players in the file (at most 2,000)")
    parser.add_argument("--quick", action="store_true", help="100 lines: a smoke run")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="player-import-"))
    os.environ["SQLITE_PATH"] = str(tmp / "bench.sqlite3")
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_DEBUG", "1")  # as the other benchmarks run the site
    os.environ["SPYLEAGUE_QUOTA_GUESTS"] = "100000"  # the day's quota of guests, past both paths' players
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spyleague.settings")
    try:
        run(100 if args.quick else args.lines)
    finally:
        for path in tmp.iterdir():
            path.unlink()
        tmp.rmdir()


if __name__ == "__main__":
    main()
