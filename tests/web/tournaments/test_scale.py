"""Result entry at scale: a confirmation updates standings and ratings a table at a time, and
what it leaves is exactly what a full recompute gives; pages and confirmations cost the same
whatever the number of players."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pairing.ratings import recompute_ratings
from pairing.standings import TIEBREAKS
from spyleague.clubs.models import Membership, Player, Role
from spyleague.core.models import Job
from spyleague.core.words import ordinal
from spyleague.ratings.models import Rating, RatingPoint, RatingState
from spyleague.ratings.services import ratings_recompute
from spyleague.scores.models import Result
from spyleague.scores.services import EntryLine, NothingChanged, result_confirm, result_correct, result_enter
from spyleague.tournaments import services
from spyleague.tournaments.models import Entrant, Event, Round, Table
from spyleague.tournaments.standings import standings_ranked

from .helpers import make_event, play_round

pytestmark = pytest.mark.django_db

FIELDS = (
    "place",
    "points",
    "game_points",
    "opponents_average",
    "wins",
    "games",
    "byes",
    "sonneborn_berger",
    "buchholz_cut1",
    "tiebreaks",
)


def stored_standings(event: Event) -> dict[int, tuple[Any, ...]]:
    return {row[0]: row[1:] for row in standings_ranked(event).values_list("entrant_id", *FIELDS)}


def computed_standings(event: Event) -> dict[int, tuple[Any, ...]]:
    return {
        r.player: (
            r.rank,
            r.points,
            r.game_points,
            r.opponents_average,
            r.wins,
            r.games,
            r.byes,
            r.sonneborn_berger,
            r.buchholz_cut1,
            [[name, value] for name, value in r.tiebreaks],
        )
        for r in services.standings_compute(event)
    }


def assert_standings_exact(event: Event) -> None:
    """The stored rows are the full computation's, to the last bit of every float."""
    stored, computed = stored_standings(event), computed_standings(event)
    assert stored.keys() == computed.keys()
    wrong = {e: (stored[e], computed[e]) for e in computed if stored[e] != computed[e]}
    assert not wrong, wrong


def assert_ratings_exact(game: str) -> None:
    """The stored ratings and history are what replaying every confirmed result gives."""
    results = list(Result.objects.filter(game=game, status=Result.Status.CONFIRMED).order_by("played", "pk"))
    tables = [list(r.lines.order_by("position").values_list("player_id", "place")) for r in results]
    kept = [(r, t) for r, t in zip(results, tables, strict=True) if len(t) >= 2]
    expected = recompute_ratings([t for _, t in kept])
    stored = {r.player_id: (r.mu, r.sigma, r.ordinal, r.games) for r in Rating.objects.filter(game=game)}
    assert stored == {p: (r.mu, r.sigma, r.ordinal, r.games) for p, r in expected.ratings.items()}
    points = sorted(
        RatingPoint.objects.filter(game=game).values_list(
            "result_id", "player_id", "when", "mu", "sigma", "ordinal"
        )
    )
    assert points == sorted(
        (kept[p.result][0].pk, p.player, kept[p.result][0].played, p.mu, p.sigma, p.ordinal)
        for p in expected.history
    )
    for rating in Rating.objects.filter(game=game):  # each knows its last counted result
        mine = [r for r, t in kept if any(player == rating.player_id for player, _ in t)]
        last = max(mine, key=lambda r: (r.played, r.pk))
        assert (rating.last_played, rating.last_result) == (last.played, last.pk)


# --- incremental equals full, over random sequences -------------------------------------------


class Play:
    """An event being played with random steps; every step goes through the site's services and
    runs the jobs it queues, as the site does without a broker."""

    def __init__(
        self, club: Any, organiser: Any, rng: random.Random, game: str, size: int, players: int
    ) -> None:
        self.club, self.organiser, self.rng, self.game = club, organiser, rng, game
        tiebreaks = list(TIEBREAKS)
        rng.shuffle(tiebreaks)
        # Tables one seat shorter or longer too (their points scaled), where the size allows.
        uneven = rng.choice([u for u in Event.Uneven.values if size > 2 or u != Event.Uneven.SHORTER])
        self.event = make_event(
            club,
            organiser,
            players=players,
            game=game,
            size=size,
            rounds=3,
            name=f"Open {rng.random()}",
            bye_rule=rng.choice(list(Event.ByeRule.values)),
            tiebreaks=tiebreaks[: rng.randint(1, len(tiebreaks))],
            uneven=uneven,
        )
        self.newcomers = 0

    def entries(self, players: list[Player]) -> list[EntryLine]:
        """Random outcomes with frequent ties: Spy vs Spy by its scores (lowest wins), Mister Spy
        by places (highest wins; its scores follow rules of their own)."""
        scores = [float(self.rng.randint(0, 3)) for _ in players]
        if self.game == "spy-vs-spy":
            return [EntryLine(p, sc) for p, sc in zip(players, scores, strict=True)]
        places = [1 + sum(1 for other in scores if other > sc) for sc in scores]
        return [EntryLine(p, None, place) for p, place in zip(players, places, strict=True)]

    def step(self, kind: str) -> str:
        with TestCase.captureOnCommitCallbacks(execute=True):
            done: str = getattr(self, kind)()
        return done

    def current(self) -> Round | None:
        return self.event.round_set.exclude(status=Round.Status.DRAFT).order_by("-number").first()

    def next_round(self) -> str:
        rnd = self.current()
        if rnd is not None and rnd.tables.exclude(status=Table.Status.CONFIRMED).exists():
            return "skip"
        if rnd is not None and rnd.number >= self.event.rounds:
            return "skip"
        services.round_publish(user=self.organiser, rnd=services.round_pair(event=self.event))
        return "round"

    def confirm(self) -> str:
        rnd = self.current()
        waiting = list(rnd.tables.exclude(status=Table.Status.CONFIRMED)) if rnd else []
        if not waiting:
            return self.next_round()
        table = self.rng.choice(waiting)
        seats = list(table.seats.select_related("entrant__player").order_by("position"))
        result = result_enter(
            user=self.organiser,
            game=self.game,
            club=self.club,
            table=table,
            entries=self.entries([s.entrant.player for s in seats]),
        )
        result_confirm(user=self.organiser, result=result)
        return "confirm"

    def correct(self) -> str:
        confirmed = list(Result.objects.filter(game=self.game, status=Result.Status.CONFIRMED))
        if not confirmed:
            return self.confirm()
        result = self.rng.choice(confirmed)
        players = [line.player for line in result.lines.order_by("position")]
        try:
            result_correct(user=self.organiser, result=result, entries=self.entries(players), note="typo")
        except NothingChanged:
            return "skip"  # the random outcome was the one already there: no correction is kept
        return "correct"

    def late(self) -> str:
        """A club game outside the event, played before or after the others (not on a table)."""
        pool = list(Player.objects.filter(entries__event=self.event))
        players = self.rng.sample(pool, self.rng.randint(2, min(4, len(pool))))
        played = timezone.now() - timedelta(hours=self.rng.choice([0, 1, 30, 400]))
        result = result_enter(
            user=self.organiser,
            game=self.game,
            club=self.club,
            entries=self.entries(players),
            played=played,
        )
        result_confirm(user=self.organiser, result=result)
        return "late"

    def newcomer(self) -> str:
        if Event.objects.get(pk=self.event.pk).status == Event.Status.FINISHED:
            return "skip"  # a finished event takes no one (the service says so: a 409)
        self.newcomers += 1
        player = Player.objects.create(name=f"Late {self.newcomers} {self.rng.random()}", guest_of=self.club)
        Membership.objects.create(club=self.club, player=player, role=Role.PLAYER)
        services.entrant_register(user=self.organiser, event=self.event, player=player)
        return "newcomer"


STEPS = ["confirm", "confirm", "confirm", "confirm", "correct", "late", "newcomer"]


@settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: each example plays a whole event
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    seed=st.integers(0, 10**6),
    game=st.sampled_from(["mister-spy", "spy-vs-spy"]),
    size=st.sampled_from([2, 3, 4]),
    players=st.integers(5, 11),
    steps=st.lists(st.sampled_from(STEPS), min_size=8, max_size=18),
)
def test_a_table_at_a_time_gives_exactly_the_full_recompute(
    club: Any, organiser: Any, seed: int, game: str, size: int, players: int, steps: list[str]
) -> None:
    """Random confirmations (ties included), corrections of any confirmed result, club games
    played before or after the event's, late entries and new rounds (byes scored by every rule,
    tables one seat shorter or longer, every tiebreak in any order): after each step the stored
    standings and ratings are exactly what a full recompute gives."""
    play = Play(club, organiser, random.Random(seed), game, size, players)
    play.step("next_round")
    for step in steps:
        play.step(step)
        # A late entrant has no row until the event's next result or round (registration does
        # not touch the standings); whenever everyone has one, they are exact.
        if not Entrant.objects.filter(event=play.event, standings__isnull=True).exists():
            assert_standings_exact(play.event)
        assert_ratings_exact(game)
        assert not RatingState.objects.filter(game=game, pending=True).exists()
    assert not Job.objects.filter(status=Job.Status.FAILED).exists()


def test_a_new_result_is_applied_on_the_spot_and_a_correction_queues_one_recompute(
    club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=8, game="spy-vs-spy", size=4)
    play_round(event, organiser)
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    tables = list(rnd.tables.all())
    jobs = Job.objects.filter(kind="ratings")
    before = jobs.count()
    for table in tables:  # confirmed in any order: the players of one round's tables differ
        seats = list(table.seats.select_related("entrant__player"))
        result = result_enter(
            user=organiser,
            game="spy-vs-spy",
            club=club,
            table=table,
            entries=[EntryLine(s.entrant.player, float(i)) for i, s in enumerate(seats)],
        )
        with CaptureQueriesContext(connection) as queries:
            result_confirm(user=organiser, result=result)
        assert not any(
            "ratings_rating" in q["sql"] and "DELETE" in q["sql"] for q in queries.captured_queries
        )
    assert jobs.count() == before  # nothing queued: each result was rated on the spot
    assert_ratings_exact("spy-vs-spy")
    assert_standings_exact(event)

    # Corrections of older results, without a worker to run the job yet: one job for all of them.
    first = list(Result.objects.filter(game="spy-vs-spy").order_by("played")[:3])
    for result in first:
        players = [line.player for line in result.lines.order_by("position")]
        result_correct(
            user=organiser,
            result=result,
            entries=[EntryLine(p, float(-i)) for i, p in enumerate(players)],
            note="recounted",
        )
    assert jobs.filter(status=Job.Status.QUEUED).count() == 1
    state = RatingState.objects.get(game="spy-vs-spy")
    assert state.pending and state.dirty_from == first[0].played
    assert_standings_exact(event)  # standings follow a correction at once: only its table changed
    ratings_recompute(game="spy-vs-spy")
    assert_ratings_exact("spy-vs-spy")
    assert not RatingState.objects.get(game="spy-vs-spy").pending


def test_a_recompute_that_read_older_results_never_overwrites_a_newer_one(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=8, game="spy-vs-spy", size=4)
    play_round(event, organiser)
    state = RatingState.objects.get(game="spy-vs-spy")
    # A run that read version v finishes after a run that read v + 1 has written.
    state.written = state.version + 5
    state.save()
    summary = ratings_recompute(game="spy-vs-spy")
    assert summary["written"] is False
    assert_ratings_exact("spy-vs-spy")


def test_confirming_costs_the_same_queries_whatever_the_number_of_players(club: Any, organiser: Any) -> None:
    def confirm_queries(players: int) -> int:
        event = make_event(club, organiser, players=players, name=f"Open {players}")
        # Three rounds played: the opponents' opponents are then most of a small event and
        # some hundreds of a big one, so a read per player among them shows in the count.
        for _ in range(3):
            play_round(event, organiser)
        rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
        table = rnd.tables.filter(is_bye=False).first()
        assert table is not None
        seats = list(table.seats.select_related("entrant__player"))
        from .helpers import distinct_scores

        result = result_enter(
            user=organiser,
            game=event.game,
            club=club,
            table=table,
            entries=[
                EntryLine(s.entrant.player, float(sc))
                for s, sc in zip(seats, distinct_scores(event, len(seats), random.Random(2)), strict=True)
            ],
        )
        with CaptureQueriesContext(connection) as queries, TestCase.captureOnCommitCallbacks(execute=True):
            result_confirm(user=organiser, result=result)
        assert_standings_exact(event)
        return len(queries.captured_queries)

    # The same queries, give or take the ones that are there only when there is something to do:
    # the head-to-head tiebreak's read of players still tied, the new ranks of players overtaken.
    counts = [confirm_queries(n) for n in (12, 48, 160)]
    assert max(counts) - min(counts) <= 2, counts


# --- the event page at scale ------------------------------------------------------------------


def test_the_event_page_costs_the_same_whatever_the_number_of_players(
    client: Any, club: Any, organiser: Any
) -> None:
    """Queries and size do not grow with the players: the standings, a round's tables and the
    entrants come a page at a time."""

    def page(players: int, who: Any) -> tuple[int, int]:
        event = make_event(club, organiser, players=players, name=f"Open {players}")
        play_round(event, organiser)
        services.round_publish(user=organiser, rnd=services.round_pair(event=event))
        client.logout()
        if who is not None:
            client.force_login(who)
        url = f"/events/{event.pk}/"
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        return len(queries.captured_queries), len(response.content)

    for who in (None, organiser):
        (small_queries, small_bytes), (big_queries, big_bytes) = page(120, who), page(400, who)
        assert big_queries == small_queries
        assert big_bytes < small_bytes * 1.1, (small_bytes, big_bytes)  # (longer numbers, that is all)


def test_a_player_sees_their_own_table_first_and_their_line_in_the_standings(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=150, name="Big Open")
    me = make_user(username="mia")
    Membership.objects.create(club=club, player=me.player, role=Role.PLAYER)
    services.entrant_register(user=me, event=event)
    play_round(event, organiser)
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    table = rnd.tables.get(seats__entrant__player=me.player)
    client.force_login(me)
    html = client.get(f"/events/{event.pk}/").content.decode()
    assert html.index('id="my-table"') < html.index('id="standings"')
    mine = html[html.index('id="my-table"') : html.index("</section>", html.index('id="my-table"'))]
    assert f"/tables/{table.pk}/" in mine and "Enter result" in mine
    line = next(r for r in standings_ranked(event) if r.entrant.player_id == me.player.pk)
    assert f"You are {ordinal(line.place)} of 151" in mine
    # The link to their line goes to the page of the standings it is on, where it is marked.
    ordered = list(
        standings_ranked(event)
        .order_by("place", "entrant__player__name", "entrant_id")
        .values_list("entrant__player_id", flat=True)
    )
    my_page = ordered.index(me.player.pk) // 50 + 1
    assert f"?page={my_page}#me" in mine
    there = client.get(f"/events/{event.pk}/?page={my_page}").content.decode()
    assert 'id="me"' in there and "mia" in there.lower()


def standings_of(html: str) -> str:
    start = html.index('id="standings"')
    return html[start : html.index("</section>", start)]


def test_the_standings_come_in_pages_with_or_without_javascript(
    client: Any, club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=120, name="Big Open")
    play_round(event, organiser)
    ordered = list(
        standings_ranked(event)
        .order_by("place", "entrant__player__name", "entrant_id")
        .values_list("entrant__player__name", flat=True)
    )
    first = standings_of(client.get(f"/events/{event.pk}/").content.decode())
    assert f">{ordered[0]}<" in first and f">{ordered[60]}<" not in first
    assert "Page 1 of 3" in first and "?page=2#standings" in first  # a plain link: no script needed
    second = standings_of(client.get(f"/events/{event.pk}/?page=2").content.decode())
    assert f">{ordered[60]}<" in second and "Page 2 of 3" in second
    # With htmx the pager fetches the standings alone, and the address follows.
    part = client.get(f"/events/{event.pk}/standings/?page=3", HTTP_HX_REQUEST="true").content.decode()
    assert part.lstrip().startswith('<section class="card flush" id="standings">')
    assert f">{ordered[-1]}<" in part and "<html" not in part
    assert 'hx-push-url="?page=2"' in part
    # Out of range or not a number: the nearest page, not an error.
    assert "Page 3 of 3" in client.get(f"/events/{event.pk}/?page=99").content.decode()
    assert "Page 1 of 3" in client.get(f"/events/{event.pk}/?page=abc").content.decode()


def test_the_tables_of_a_big_round_come_in_pages(client: Any, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=200, name="Big Open")
    play_round(event, organiser)
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    html = client.get(f"/events/{event.pk}/").content.decode()
    assert "Table 40<" in html and "Table 41<" not in html and "Tables 1 to 40 of 50" in html
    assert "Table 41<" in client.get(f"/events/{event.pk}/?tables=2").content.decode()
    # Earlier rounds are a link away.
    assert "?round=1#round-1" in html
    first = client.get(f"/events/{event.pk}/?round=1").content.decode()
    assert "Tables 1 to 40 of 50" in first and rnd.number == 2


def test_the_projector_turns_the_page_at_each_refresh(client: Any, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=60, name="Big Open")
    play_round(event, organiser)
    screen = client.get(f"/events/{event.pk}/screen/").content.decode()
    assert "page 1 of 3" in screen and f'hx-get="/events/{event.pk}/screen/?page=2"' in screen
    last = client.get(f"/events/{event.pk}/screen/?page=3", HTTP_HX_REQUEST="true").content.decode()
    assert "page 3 of 3" in last and f'hx-get="/events/{event.pk}/screen/?page=1"' in last
    assert "Places 41 to 60 of 60" in last
