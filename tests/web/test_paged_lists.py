"""What a page read from the database says is what the whole list says at that place.

- A leaderboard's ``rank`` is a place in the whole board (one more than the players rated
  higher: equal ratings share it), whatever the page and its size, with or without a club.
- A round's tables are a list of their own, paged, with the round's ``table_count``.
- The standings before anything is scored (read from the entrants, a page at a time) are the
  standings worked out in full; a league's table summed by the database is the league's rule.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyleague.clubs.models import Membership, Player, Role
from spyleague.ratings.models import Rating
from spyleague.tournaments import services
from spyleague.tournaments.selectors import (
    _computed_standings,
    league_line,
    league_table,
    league_table_rows,
    standing_line,
    standings_rows,
)
from tests.web.tournaments.helpers import make_event, play_round


def whole_board(ratings: list[tuple[int, float]]) -> list[tuple[int, int]]:
    """(player, rank) of the whole board, worked out here in Python."""
    ordered = sorted(ratings, key=lambda r: (-r[1], r[0]))
    return [(player, 1 + sum(1 for _, o in ratings if o > ordinal)) for player, ordinal in ordered]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    ordinals=st.lists(st.sampled_from([1.0, 2.5, 2.5, 4.0, 7.25, -3.0]), min_size=1, max_size=30),
    limit=st.integers(1, 7),
    offset=st.integers(0, 32),
    members=st.integers(0, 30),
)
def test_a_leaderboard_page_ranks_each_player_in_the_whole_board(
    api_client: Any, club: Any, ordinals: list[float], limit: int, offset: int, members: int
) -> None:
    Rating.objects.filter(game="spies").delete()
    players = Player.objects.bulk_create([Player(name=f"R{i:02d}") for i in range(len(ordinals))])
    Rating.objects.bulk_create(
        [
            Rating(player=p, game="spies", mu=o + 3, sigma=1, ordinal=o)
            for p, o in zip(players, ordinals, strict=True)
        ]
    )
    Membership.objects.bulk_create(
        [Membership(club=club, player=p, role=Role.PLAYER) for p in players[:members]]
    )
    for query, rated in (
        ("", list(zip([p.pk for p in players], ordinals, strict=True))),
        (f"&club={club.slug}", list(zip([p.pk for p in players[:members]], ordinals[:members], strict=True))),
    ):
        page = api_client.get(f"/api/leaderboards/spies/?limit={limit}&offset={offset}{query}").json()
        assert page["count"] == len(rated)
        shown = [(r["player_id"], r["rank"]) for r in page["results"]]
        assert shown == whole_board(rated)[offset : offset + limit]


def test_a_rounds_tables_are_paged_on_their_own(api_client: Any, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=12)
    services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    rounds = api_client.get(f"/api/events/{event.pk}/rounds/").json()["results"]
    assert [(r["number"], r["table_count"]) for r in rounds] == [(1, 3)] and "tables" not in rounds[0]
    url = f"/api/events/{event.pk}/rounds/1/tables/"
    first, rest = api_client.get(f"{url}?limit=2").json(), api_client.get(f"{url}?limit=2&offset=2").json()
    assert first["count"] == 3 and [t["number"] for t in first["results"] + rest["results"]] == [1, 2, 3]
    assert all(len(t["seats"]) == 4 for t in first["results"] + rest["results"])
    assert api_client.get(f"/api/events/{event.pk}/rounds/2/tables/").status_code == 404


def test_standings_before_anything_is_scored_are_the_full_computation(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=12)
    services.round_publish(user=organiser, rnd=services.round_pair(event=event))  # 3 tables, no bye
    services.entrant_drop(user=organiser, entrant=event.entrants.order_by("pk").first())
    rows = standings_rows(event=event)
    assert not isinstance(rows, list)  # read from the entrants, a page at a time
    assert [standing_line(r) for r in rows] == _computed_standings(event)


def test_a_leagues_table_summed_by_the_database_is_the_leagues_rule(club: Any, organiser: Any) -> None:
    league = services.league_create(user=organiser, club=club, name="Spring", game="black-spy")
    for name in ("First", "Second"):
        event = make_event(club, organiser, players=8, name=name, league=league)
        play_round(event, organiser)
        play_round(event, organiser)
    rows = league_table_rows(league=league)
    assert not isinstance(rows, list)  # every event's standings are stored: summed by the database
    assert [league_line(r) for r in rows] == league_table(league=league)
