"""Background jobs through the API: who may follow which.

Yours, always; an event's pairing and standings jobs (a standings job queued by a confirmed
result has no owner), to the organisers of the event's club; a game's ratings jobs nobody
queued, to the organisers of clubs with an event of that game; everything, to staff."""

from __future__ import annotations

from typing import Any

import pytest

from spyleague.clubs.models import Membership, Role
from spyleague.clubs.services import club_create
from spyleague.core.models import Job
from spyleague.ratings.services import ratings_recompute_queue
from spyleague.tournaments import services
from tests.web.tournaments.helpers import make_event

pytestmark = pytest.mark.django_db


def labels(api_client: Any) -> set[str]:
    page = api_client.get("/api/jobs/?limit=500").json()
    assert page["count"] == len(page["results"])
    return {job["label"] for job in page["results"]}


def test_who_follows_which_job(api_client: Any, club: Any, organiser: Any, make_user: Any) -> None:
    event = make_event(club, organiser, players=4, name="Spring Open")  # Black Spy
    pairing = services.round_pair_queue(event=event, user=organiser)
    standings = services.standings_recompute_queue(event=event)  # as a confirmed result queues it
    ratings = ratings_recompute_queue(game="black-spy")
    other_ratings = ratings_recompute_queue(game="spies")
    co_organiser = make_user(username="cora")
    Membership.objects.create(club=club, player=co_organiser.player, role=Role.ORGANISER)
    scorer = make_user(username="sam")
    Membership.objects.create(club=club, player=scorer.player, role=Role.SCORER)
    rival = make_user(username="rita")
    rival_club = club_create(user=rival, name="Rival Club")
    make_event(rival_club, rival, players=0, game="spy-vs-spy", size=2, name="Their Night")
    mine = Job.objects.create(kind="demo-data", label="Scorer's own job", created_by=scorer)
    staff = make_user(username="stella", is_staff=True)

    assert api_client.get("/api/jobs/").status_code in (401, 403)
    assert api_client.get(f"/api/jobs/{standings.pk}/").status_code in (401, 403)
    api_client.force_authenticate(organiser)
    event_jobs = {pairing.label, standings.label, ratings.label}
    assert labels(api_client) == event_jobs
    assert api_client.get(f"/api/jobs/{other_ratings.pk}/").status_code == 404
    followed = api_client.get(f"/api/jobs/{standings.pk}/").json()
    assert followed["event"] == event.pk and followed["kind"] == "standings"
    assert api_client.get(f"/api/jobs/{ratings.pk}/").json()["game"] == "black-spy"
    api_client.force_authenticate(co_organiser)  # the club's other organiser: the same jobs
    assert labels(api_client) == event_jobs
    api_client.force_authenticate(scorer)  # a scorer follows their own jobs only
    assert labels(api_client) == {mine.label}
    assert api_client.get(f"/api/jobs/{standings.pk}/").status_code == 404
    api_client.force_authenticate(rival)  # another club's organiser, of another game
    assert labels(api_client) == set()
    assert api_client.get(f"/api/jobs/{pairing.pk}/").status_code == 404
    api_client.force_authenticate(staff)
    assert labels(api_client) == {*event_jobs, other_ratings.label, mine.label}


def test_an_organisers_change_of_tiebreaks_queues_a_job_they_follow(
    api_client: Any, club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=4)
    services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    api_client.force_authenticate(organiser)
    api_client.patch(f"/api/events/{event.pk}/", {"tiebreaks": ["wins", "tournament_points"]}, format="json")
    jobs = api_client.get("/api/jobs/").json()["results"]
    assert any(j["kind"] == "standings" and j["event"] == event.pk for j in jobs)
