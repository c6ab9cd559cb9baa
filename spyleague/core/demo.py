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
from ..tournaments.models import Entrant, Event, Round, Seat, Table

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


def demo_logins() -> list[dict[str, str]]:
    return [
        {"username": username, "password": DEMO_PASSWORD, "name": name, "role": str(role.label)}
        for username, name, role in DEMO_USERS
    ]


def _seat_round(event: Event, number: int, entrants: list[Entrant], rng: random.Random, done: bool) -> Round:
    """Seat a round by rotating standings-free groups; results drawn at random when ``done``."""
    rnd = Round.objects.create(
        event=event,
        number=number,
        status=Round.Status.COMPLETE if done else Round.Status.PUBLISHED,
        published=timezone.now(),
    )
    order = entrants[:]
    rng.shuffle(order)
    size = event.table_size
    points = event.points_by_place
    for t, start in enumerate(range(0, len(order), size), start=1):
        group = order[start : start + size]
        table = Table.objects.create(
            round=rnd,
            number=t,
            status=Table.Status.CONFIRMED if done else Table.Status.WAITING,
            source=Table.Source.SHEET if done else Table.Source.NONE,
        )
        scores = [rng.randint(0, 120) for _ in group] if done else [None] * len(group)
        ranked = sorted(range(len(group)), key=lambda i: scores[i] or 0)
        for position, entrant in enumerate(group):
            place = ranked.index(position) + 1 if done else None
            Seat.objects.create(
                table=table,
                entrant=entrant,
                position=position,
                score=scores[position],
                place=place,
                points=points[place - 1]
                if done and place and place <= len(points)
                else (0 if done else None),
            )
    return rnd


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
    for name in GUESTS:
        player = Player.objects.create(name=name, guest_of=club)
        Membership.objects.create(club=club, player=player, role=Role.PLAYER)
        players.append(player)
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
        status=Event.Status.FINISHED,
        starts=timezone.now() - timedelta(days=21),
        created_by=organiser,
        tiebreaks=["points", "game_points", "opponents", "wins"],
    )
    entrants = [Entrant.objects.create(event=finished, player=p, checked_in=True) for p in players[:12]]
    for number in (1, 2, 3):
        _seat_round(finished, number, entrants, rng, done=True)
        report(1 + number, total + 3, f"Round {number} of the finished event")

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
        tiebreaks=["points", "opponents", "wins", "head_to_head"],
    )
    entrants = [Entrant.objects.create(event=running, player=p, checked_in=True) for p in players[:10]]
    _seat_round(running, 1, entrants, rng, done=True)
    _seat_round(running, 2, entrants, rng, done=False)
    report(total, total, "Demo data loaded")
    return {"club": club.slug, "created": True, "events": [finished.pk, running.pk]}
