"""Two events run end to end as an organiser runs them: created on the page, players registered,
each round paired by the background job, checked and published on the page, every result entered
by the scorer and confirmed by the organiser, and the event finished.

Run with ``-s`` to see each event's rounds as the organiser saw them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import TestCase
from django.urls import reverse

from spyleague.clubs.models import Membership, Player, Role
from spyleague.core.models import Job
from spyleague.scores.services import EntryLine, result_confirm, result_enter
from spyleague.tournaments import services
from spyleague.tournaments.models import Event, Round, Standing
from spyleague.tournaments.standings import standings_ranked

from .helpers import distinct_scores, pairs_of, repeats_said

pytestmark = pytest.mark.django_db


def create_on_the_page(client: Any, club: Any, **fields: Any) -> Event:
    form = {"kind": "tournament", "bye_rule": "win", "game": "black-spy", "table_size": 4, **fields}
    response = client.post(reverse("tournaments:create", args=[club.slug]), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Event.objects.get(name=fields["name"])


def register(event: Event, organiser: Any, count: int) -> None:
    for i in range(count):
        player = Player.objects.create(name=f"{event.name[:1]}{i:02d}", guest_of=event.club)
        Membership.objects.create(club=event.club, player=player, role=Role.PLAYER)
        services.entrant_register(user=organiser, event=event, player=player)


def run_round(client: Any, event: Event, organiser: Any, scorer: Any, rng: random.Random) -> Round:
    """Pair (the job), publish (the page), then every table: the scorer enters, the organiser
    confirms. Jobs queued on commit run as they would after a real commit."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        client.post(reverse("tournaments:pair", args=[event.pk]))
    job = Job.objects.filter(kind="pairing").order_by("-pk").first()
    assert job is not None and job.status == Job.Status.DONE, job and job.message
    draft = Round.objects.get(event=event, status=Round.Status.DRAFT)
    with TestCase.captureOnCommitCallbacks(execute=True):
        client.post(reverse("tournaments:round-action", args=[event.pk, draft.number]), {"do": "publish"})
    rnd = Round.objects.get(pk=draft.pk)
    assert rnd.status == Round.Status.PUBLISHED
    for table in rnd.tables.filter(is_bye=False).prefetch_related("seats__entrant__player"):
        seats = list(table.seats.all())
        scores = distinct_scores(event, len(seats), rng)
        with TestCase.captureOnCommitCallbacks(execute=True):
            result = result_enter(
                user=scorer,
                game=event.game,
                club=event.club,
                table=table,
                entries=[EntryLine(s.entrant.player, float(sc)) for s, sc in zip(seats, scores, strict=True)],
            )
            result_confirm(user=organiser, result=result)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETE
    return rnd


@pytest.fixture
def scorer(club: Any, make_user: Any) -> Any:
    user = make_user(username="sam")
    Membership.objects.create(club=club, player=user.player, role=Role.SCORER)
    return user


def test_a_16_player_heats_event_runs_to_its_final(
    client: Any, club: Any, organiser: Any, scorer: Any
) -> None:
    client.force_login(organiser)
    event = create_on_the_page(client, club, name="Heats Cup", format="knockout", rounds=5, advance=2)
    register(event, organiser, 16)
    rng = random.Random(16)
    log = []
    while event.status != Event.Status.FINISHED:
        rnd = run_round(client, event, organiser, scorer, rng)
        sizes = [t.seats.count() for t in rnd.tables.all()]
        log.append(f"round {rnd.number} ({rnd.stage}): tables of {sizes}")
        event.refresh_from_db()
        assert rnd.number <= 3
    final = event.round_set.get(number=3)
    assert [line.split(": ")[1] for line in log] == [
        "tables of [4, 4, 4, 4]",
        "tables of [4, 4]",
        "tables of [4]",
    ]
    assert final.stage == "final"
    # The final's players are the top 2 of round 2's tables, who were the top 2 of round 1's.
    finalists = {s.entrant_id for s in final.tables.get().seats.all()}
    second = event.round_set.get(number=2)
    assert finalists == {
        s.entrant_id for t in second.tables.all() for s in t.seats.all() if (s.place or 9) <= 2
    }
    winner = final.tables.get().seats.get(place=1).entrant
    log.append(f"winner: {winner.player.name}; status {event.status}")
    # The organiser's finish button changes nothing now; pairing says the event is over.
    assert client.post(reverse("tournaments:finish", args=[event.pk])).status_code == 302
    jobs = Job.objects.count()
    with TestCase.captureOnCommitCallbacks(execute=True):
        refused = client.post(reverse("tournaments:pair", args=[event.pk]))
    assert refused.status_code == 400 and Job.objects.count() == jobs  # refused up front, no job
    assert "This event is over: it has no more rounds to pair." in refused.content.decode()
    assert Standing.objects.filter(event=event).count() == 16
    page = client.get(reverse("tournaments:event", args=[event.pk])).content.decode()
    assert "Finished" in page and "Finish the event" not in page
    print("\n16-player heats:", *log, sep="\n  ")


def test_a_24_player_swiss_at_tables_of_4_runs_and_is_finished_by_hand(
    client: Any, club: Any, organiser: Any, scorer: Any
) -> None:
    client.force_login(organiser)
    event = create_on_the_page(client, club, name="Swiss Open", format="swiss", rounds=6)
    register(event, organiser, 24)
    rng = random.Random(24)
    seen: set[frozenset[int]] = set()
    log = []
    for number in range(1, 6):
        rnd = run_round(client, event, organiser, scorer, rng)
        assert [t.seats.count() for t in rnd.tables.all()] == [4] * 6
        again = len(pairs_of(rnd) & seen)
        seen |= pairs_of(rnd)
        assert repeats_said(rnd) == (again, True), rnd.notes
        log.append(f"round {number}: 6 tables of 4, {again} repeated pairs (the fewest possible)")
        event.refresh_from_db()
        assert event.status == Event.Status.RUNNING
    # Time is up after five of the six rounds: the organiser finishes the event on its page.
    page = client.get(reverse("tournaments:event", args=[event.pk])).content.decode()
    assert 'data-confirm="Finish Swiss Open now?' in page
    assert client.post(reverse("tournaments:finish", args=[event.pk])).status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = list(standings_ranked(event).order_by("place", "pk").select_related("entrant__player"))
    assert len(rows) == 24 and all(r.games == 5 for r in rows)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    log.append(f"finished by hand; top: {rows[0].entrant.player.name} with {rows[0].points:g} points")
    print("\n24-player Swiss:", *log, sep="\n  ")
