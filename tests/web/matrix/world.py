"""The small world the permission matrix asks about, built through the services.

Club A (Alpha Club) has an organiser (olga), a scorer (sam), a player who sits at no table
(pat) and a player who does (sid), plus sue, who sits beside sid and entered a result, and
guests without an account. Club B (Beta Club) has its own organiser (bea). Stan has an
account and no club. In club A:

- ``league``: a season, with the event ``open`` in it;
- ``open``: a Swiss event, round 1 published with two tables:
  ``reported_table`` (sid, sue and two guests; sue entered the result, waiting for
  confirmation) and ``pad_table`` (four guests; the scorer keeps it on the scorepad ``pad``);
- ``night``: a published round whose one table ``waiting_table`` seats sid and three guests,
  with no result yet (where the seated player enters a result, opens a scorepad, plays online);
- ``cup``: a draft round (not published), sid at ``draft_table``;
- ``finished``: a one-round event that is over, sid at ``finished_table`` (confirmed result);
- ``done_pad``: a friendly Black Spy scorepad in club A (sue, sid and two guests), over, its
  result entered by sue and waiting for confirmation;
- matches: ``open_match`` (Black Spy, created by sid, two free seats), ``finished_match``
  (the tiny Race to Ten test game, sid against sue, over: for replays) and ``race_match``
  (Spy vs Spy, sid against a bot, running: for the race URLs);
- ``job``: the pairing job of ``open`` that the organiser queued; ``standings_job`` (the
  open's standings recompute) and ``ratings_job`` (Black Spy's ratings), queued by nobody;
- ``spring``: an event still taking registrations (nothing paired).

Nothing here is queued to run: the world is built inside the test's transaction, so the
jobs its services queue on commit never start (standings and ratings stay as they are).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from django.contrib.auth.models import User

from games import get_engine, registry
from spyleague.clubs import services as clubs
from spyleague.clubs.models import Club, Membership, Player, Role
from spyleague.core.models import Job
from spyleague.play import services as play
from spyleague.play.models import Match
from spyleague.play.state import match_state
from spyleague.scores import scorepad as pads
from spyleague.scores.models import Result, Scorepad
from spyleague.scores.services import EntryLine, result_confirm, result_enter
from spyleague.tournaments import services as events
from spyleague.tournaments.models import Entrant, Event, League, Round, Table
from tests.factories import UserFactory

ANONYMOUS = "anonymous"
STRANGER = "stranger"
PLAYER = "player"
SEATED = "seated"
SCORER = "scorer"
OTHER_ORGANISER = "other_organiser"
ORGANISER = "organiser"
ROLES = (ANONYMOUS, STRANGER, PLAYER, SEATED, SCORER, OTHER_ORGANISER, ORGANISER)

# The user behind each role (anonymous has none).
USERNAMES = {
    STRANGER: "stan",
    PLAYER: "pat",
    SEATED: "sid",
    SCORER: "sam",
    OTHER_ORGANISER: "bea",
    ORGANISER: "olga",
}

RACE_TO_TEN = registry.GameInfo(
    "race-to-ten", "Race to Ten", range(2, 5), False, "tests.web.play.race_to_ten", "A test game."
)


def race_to_ten_register() -> None:
    registry.GAMES["race-to-ten"] = RACE_TO_TEN
    registry.get_engine.cache_clear()


def race_to_ten_unregister() -> None:
    registry.GAMES.pop("race-to-ten", None)
    registry.get_engine.cache_clear()


@dataclass
class World:
    users: dict[str, User]
    sue: User
    club_a: Club
    club_b: Club
    league: League
    open: Event
    night: Event
    cup: Event
    finished: Event
    open_round: Round
    draft_round: Round
    reported_table: Table
    pad_table: Table
    waiting_table: Table
    draft_table: Table
    finished_table: Table
    pad: Scorepad
    done_pad: Scorepad
    open_match: Match
    finished_match: Match
    race_match: Match
    race_card: str  # the card showing for sid in the race, as the race page shows it
    job: Job
    spring: Event  # registration open, no round paired yet
    cup_swap: tuple[int, int]  # sid's entrant in the cup and one at the cup's other table
    unentered_guest: Player  # a guest of club A entered in no event
    # Jobs nobody queued by hand: the open's standings recompute, and a recompute of Black Spy's
    # ratings (as a correction of a confirmed result queues one).
    standings_job: Job
    ratings_job: Job
    guests: list[Player] = field(default_factory=list)

    def user(self, role: str) -> User | None:
        return self.users.get(role)

    def player(self, role: str) -> Player | None:
        user = self.user(role)
        return None if user is None else user.player

    def me(self, role: str) -> Player:
        """The player of a role that has an account."""
        player = self.player(role)
        assert player is not None, role
        return player

    def named(self, username: str) -> Player:
        player: Player = User.objects.get(username=username).player
        return player

    def entrant(self, event: Event, player: Player) -> Entrant:
        return Entrant.objects.get(event=event, player=player)

    def membership(self, role: str) -> Membership:
        return Membership.objects.get(club=self.club_a, player=self.player(role))

    def table_players(self, table: Table) -> list[Player]:
        return [s.entrant.player for s in table.seats.select_related("entrant__player").order_by("position")]


# A finished Black Spy game of four: four deals (60 points each), one player past the end value
# (150). The cells enter or correct results with ``CELL_SCORES``, the world with these.
WORLD_SCORES = (160.0, 30.0, 35.0, 15.0)
CELL_SCORES = (20.0, 40.0, 30.0, 150.0)


def _user(username: str, name: str) -> User:
    return cast(User, UserFactory(username=username, player_name=name))  # type: ignore[no-untyped-call]


def _event(club: Club, organiser: User, name: str, players: list[Player], **kw: Any) -> Event:
    event = events.event_create(
        club=club,
        user=organiser,
        name=name,
        game="black-spy",
        format=Event.Format.SWISS,
        rounds=kw.pop("rounds", 3),
        table_size=4,
        **kw,
    )
    for player in players:
        events.entrant_register(user=organiser, event=event, player=player)
    return event


def _table_of(rnd: Round, player: Player) -> Table:
    return Table.objects.get(round=rnd, seats__entrant__player=player)


def world_build() -> World:
    race_to_ten_register()
    users = {role: _user(username, username.title()) for role, username in USERNAMES.items()}
    olga, sam, sid = users[ORGANISER], users[SCORER], users[SEATED]
    sue = _user("sue", "Sue")
    club_a = clubs.club_create(user=olga, name="Alpha Club", city="Bath")
    club_b = clubs.club_create(user=users[OTHER_ORGANISER], name="Beta Club", city="Wells")
    for user in (sam, users[PLAYER], sid, sue):
        clubs.club_join(user=user, club=club_a)
    clubs.member_set_role(
        user=olga,
        club=club_a,
        membership=Membership.objects.get(club=club_a, player=sam.player),
        role=Role.SCORER,
    )
    guests = [clubs.guest_add(user=olga, club=club_a, name=f"Guest {i:02d}").player for i in range(16)]
    unentered = clubs.guest_add(user=olga, club=club_a, name="Gus Unentered").player
    sid_p, sue_p = sid.player, sue.player
    league = events.league_create(user=olga, club=club_a, name="Alpha League", game="black-spy")

    # The Swiss event: round 1 published, sid and sue at one table.
    open_ = _event(club_a, olga, "Alpha Open", [sid_p, sue_p, *guests[:6]], league=league)
    draft = events.round_pair(event=open_)
    sid_table = _table_of(draft, sid_p)
    if not sid_table.seats.filter(entrant__player=sue_p).exists():
        mate = next(s.entrant for s in sid_table.seats.all() if s.entrant.player_id != sid_p.pk)
        events.round_swap(user=olga, rnd=draft, a=mate, b=Entrant.objects.get(event=open_, player=sue_p))
    open_round = events.round_publish(user=olga, rnd=draft)
    reported_table = _table_of(open_round, sid_p)
    pad_table = Table.objects.filter(round=open_round).exclude(pk=reported_table.pk).get()
    players = [
        s.entrant.player for s in reported_table.seats.select_related("entrant__player").order_by("position")
    ]
    result_enter(
        user=sue,
        game="black-spy",
        club=club_a,
        table=reported_table,
        entries=[EntryLine(p, score) for p, score in zip(players, WORLD_SCORES, strict=True)],
    )
    pad = pads.scorepad_open(
        user=sam,
        players=[
            s.entrant.player for s in pad_table.seats.select_related("entrant__player").order_by("position")
        ],
        club=club_a,
        table=pad_table,
    )

    # A league night: one published table, sid at it, no result yet.
    night = _event(club_a, olga, "Alpha Night", [sid_p, *guests[6:9]], kind=Event.Kind.LEAGUE_NIGHT)
    waiting_table = events.round_publish(user=olga, rnd=events.round_pair(event=night)).tables.get()

    # A cup whose first round is a draft (two tables), sid at one.
    cup = _event(club_a, olga, "Alpha Cup", [sid_p, *guests[9:16]])
    draft_round = events.round_pair(event=cup)
    draft_table = _table_of(draft_round, sid_p)
    other = Table.objects.filter(round=draft_round).exclude(pk=draft_table.pk).first()
    assert other is not None
    cup_swap = (
        Entrant.objects.get(event=cup, player=sid_p).pk,
        other.seats.order_by("position").first().entrant_id,  # type: ignore[union-attr]
    )

    # An event still taking registrations: nothing paired, so it may still change shape. Four
    # fill a Black Spy table: its next round can be paired (two could not, and are refused).
    spring = _event(club_a, olga, "Alpha Spring", guests[:4])

    # A finished event: one round, its one table confirmed.
    finished = _event(club_a, olga, "Alpha Winter", [sid_p, *guests[:3]], rounds=1)
    last = events.round_publish(user=olga, rnd=events.round_pair(event=finished))
    finished_table = last.tables.get()
    players = [
        s.entrant.player for s in finished_table.seats.select_related("entrant__player").order_by("position")
    ]
    result_confirm(
        user=olga,
        result=result_enter(
            user=olga,
            game="black-spy",
            club=club_a,
            table=finished_table,
            entries=[EntryLine(p, score) for p, score in zip(players, WORLD_SCORES, strict=True)],
        ),
    )
    finished.refresh_from_db()
    assert finished.status == Event.Status.FINISHED

    # A friendly scorepad in club A, played to the end by sue: its result waits for confirmation.
    done_pad = pads.scorepad_open(user=sue, players=[sue_p, sid_p, guests[0], guests[1]], club=club_a)
    for points in ((20, 10, 25, 5), (40, 10, 5, 5), (60, 0, 0, 0), (40, 10, 5, 5)):
        pads.scorepad_deal_add(user=sue, pad=done_pad, points=points)
    done_pad.refresh_from_db()
    assert done_pad.status == Scorepad.Status.FINISHED and done_pad.result is not None
    assert done_pad.result.status == Result.Status.REPORTED

    # Online matches.
    open_match = play.match_create(user=sid, game="black-spy", seats=3, seed=3, club=club_a)
    finished_match = play.match_create(user=sid, game="race-to-ten", seats=2, seed=0, options={"target": 3})
    play.match_join(user=sue, match_id=finished_match.pk)
    play.match_start(user=sid, match_id=finished_match.pk)
    play.match_move_submit(match_id=finished_match.pk, user=sid, action={"type": "add", "n": 1})
    play.match_move_submit(match_id=finished_match.pk, user=sue, action={"type": "add", "n": 2})
    finished_match.refresh_from_db()
    assert finished_match.status == Match.Status.FINISHED
    race_match = play.match_create(user=sid, game="spy-vs-spy", seats=2, seed=5, bots={1: "heuristic"})
    play.match_start(user=sid, match_id=race_match.pk)
    race_match.refresh_from_db()
    race_card = get_engine("spy-vs-spy").view(match_state(race_match), 0)["players"][0]["card"]

    # A pairing job of olga's (the running event's round is being played, so the page would
    # refuse to queue one now: made as the queue makes it).
    job = Job.objects.create(
        kind="pairing",
        label=f"Pair the next round of {open_.name}",
        params={"event": open_.pk},
        key=f"pair:{open_.pk}",
        created_by=olga,
    )
    standings_job = events.standings_recompute_queue(event=open_)
    ratings_job = Job.objects.create(
        kind="ratings",
        label="Recompute black-spy ratings",
        params={"game": "black-spy"},
        key="ratings:black-spy",
    )
    assert standings_job.created_by_id is None and ratings_job.created_by_id is None

    for obj in (open_, night, cup):
        obj.refresh_from_db()
    return World(
        users=users,
        sue=sue,
        club_a=club_a,
        club_b=club_b,
        league=league,
        open=open_,
        night=night,
        cup=cup,
        finished=finished,
        open_round=open_round,
        draft_round=draft_round,
        reported_table=reported_table,
        pad_table=pad_table,
        waiting_table=waiting_table,
        draft_table=draft_table,
        finished_table=finished_table,
        pad=pad,
        done_pad=done_pad,
        open_match=open_match,
        finished_match=finished_match,
        race_match=race_match,
        race_card=race_card,
        job=job,
        spring=spring,
        cup_swap=cup_swap,
        guests=guests,
        unentered_guest=unentered,
        standings_job=standings_job,
        ratings_job=ratings_job,
    )
