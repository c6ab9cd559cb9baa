"""The demo data: a club with an organiser, a scorer and players, one finished event
and one running event, so a new visitor sees the site at work. Safe to load twice."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ..clubs.models import Club, Membership, Player, Role
from ..clubs.services import guests_make
from ..tournaments.models import Entrant, Event

DEMO_PASSWORD = "spyleague"
DEMO_CLUB = "Baker Street Games Club"
DEMO_USERS = [
    ("olivia", "Olivia Hart", Role.ORGANISER),
    ("sam", "Sam Okafor", Role.SCORER),
    ("pat", "Pat Lindqvist", Role.PLAYER),
]
GUESTS = [
    "Ada Byrne",
    "Bruno Costa",
    "Chloe Martin",
    "Dev Patel",
    "Elena Rossi",
    "Finn Murphy",
    "Grace Liu",
    "Hugo Weber",
    "Ines Duarte",
    "Jonas Berg",
    "Kira Novak",
    "Leo Dubois",
    "Maya Cohen",
    "Nils Eriksen",
    "Orla Quinn",
    "Priya Nair",
    "Quentin Roux",
    "Rosa Alvarez",
    "Tomas Horak",
    "Uma Sato",
    "Victor Lange",
]

Progress = Callable[[int, int, str], None]


DEMO_ADMIN = "admin"


def demo_admin_ensure() -> bool:
    """The demo's site administrator (Django admin), in no club: organisers run their clubs,
    not the site. Made only by the ``demo_data`` command that ``scripts/start`` runs on the
    operator's own machine, never by the site's "Load demo data" button, which a stranger may
    press on an empty site. True when it was created now."""
    if User.objects.filter(username=DEMO_ADMIN).exists():
        return False
    User.objects.create_superuser(username=DEMO_ADMIN, password=DEMO_PASSWORD, email="")
    return True


def demo_logins() -> list[dict[str, str]]:
    return [
        {"username": username, "password": DEMO_PASSWORD, "name": name, "role": str(role.label)}
        for username, name, role in DEMO_USERS
    ]


def _play_round(event: Event, organiser: User, scorer: User, rng: random.Random, *, results: bool) -> None:
    """Pair and publish the next round through the same services the pages use; enter results."""
    from ..scores.services import EntryLine, result_confirm, result_enter
    from ..tournaments.services import round_pair, round_publish

    rnd = round_publish(user=organiser, rnd=round_pair(event=event))
    if not results:
        return
    for table in rnd.tables.filter(is_bye=False).prefetch_related("seats__entrant__player"):
        seats = list(table.seats.all())
        if event.game == "black-spy":
            # A real game's totals (random bots, a few milliseconds): sheets are checked against
            # what whole deals to the end value can give.
            from games import get_engine
            from games.core import play_out

            outcome = play_out(get_engine(event.game), len(seats), rng.randrange(2**31), event.options)
            scores = [float(score) for score in outcome.scores]
        else:
            scores = [float(rng.randint(-6, 12)) for _ in seats]
            while len(set(scores)) < len(scores):
                scores = [float(rng.randint(-6, 12)) for _ in seats]
        result = result_enter(
            user=scorer,
            game=event.game,
            club=event.club,
            table=table,
            entries=[EntryLine(s.entrant.player, sc) for s, sc in zip(seats, scores, strict=True)],
            data={"typed": {f"score_{s.position}": f"{sc:g}" for s, sc in zip(seats, scores, strict=True)}},
        )
        result_confirm(user=organiser, result=result)


@transaction.atomic
def demo_data_load(progress: Progress | None = None) -> dict[str, Any]:
    """Create the demo club and events unless they exist. Returns what is there."""
    report = progress or (lambda done, total, message: None)
    club = Club.objects.filter(name=DEMO_CLUB).first()
    if club is not None:
        report(1, 1, "The demo data is already loaded.")
        return {"club": club.slug, "created": False}
    total = 5
    report(0, total, "Creating the club and its people")
    club = Club.objects.create(
        name=DEMO_CLUB,
        city="London",
        description=(
            "Tuesday nights above the Sherlock Arms: Black Spy, Spy vs Spy and the odd game of Spies!"
        ),
    )
    players: list[Player] = []
    for username, name, role in DEMO_USERS:
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(username=username, password=DEMO_PASSWORD)
        player = user.player  # created with the account
        player.name = name
        player.save(update_fields=["name"])
        Membership.objects.update_or_create(club=club, player=player, defaults={"role": role})
        players.append(player)
    # The club's guests, made as the club's organiser makes them on its page.
    players.extend(guests_make(user=User.objects.get(username="olivia"), club=club, names=GUESTS))
    report(1, total, "Creating the finished Black Spy event")

    rng = random.Random(20261121)
    organiser = User.objects.get(username="olivia")
    finished = Event.objects.create(
        club=club,
        name="Autumn Black Spy Open",
        game="black-spy",
        format=Event.Format.SWISS,
        rounds=3,
        table_size=4,
        points_by_place=[4, 2, 1, 0],
        status=Event.Status.RUNNING,  # it finishes itself when its last result is confirmed
        starts=timezone.now() - timedelta(days=21),
        created_by=organiser,
        tiebreaks=["tournament_points", "game_points", "opponents_average", "wins", "head_to_head"],
    )
    scorer = User.objects.get(username="sam")
    for p in players[:12]:
        Entrant.objects.create(event=finished, player=p, checked_in=True)
    for number in (1, 2, 3):
        _play_round(finished, organiser, scorer, rng, results=True)
        report(1 + number, total + 3, f"Round {number} of the finished event")
    finished.refresh_from_db()
    if finished.status != Event.Status.FINISHED:
        raise RuntimeError("The demo's three-round event did not finish after its last result.")

    running = Event.objects.create(
        club=club,
        name="Winter Spy vs Spy Swiss",
        game="spy-vs-spy",
        format=Event.Format.SWISS,
        rounds=4,
        table_size=2,
        points_by_place=[3, 0],
        status=Event.Status.RUNNING,
        starts=timezone.now() - timedelta(hours=2),
        created_by=organiser,
        tiebreaks=["tournament_points", "opponents_average", "wins", "head_to_head"],
    )
    for p in players[:10]:
        Entrant.objects.create(event=running, player=p, checked_in=True)
    _play_round(running, organiser, scorer, rng, results=True)
    _play_round(running, organiser, scorer, rng, results=False)
    report(total, total, "Demo data loaded")
    return {"club": club.slug, "created": True, "events": [finished.pk, running.pk]}
