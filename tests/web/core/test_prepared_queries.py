"""Queries compiled once a process (spyleague.core.prepared): the same SQL and rows as Django's
own way, compiled once, and Django's own way wherever a value could change the SQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from spyleague.clubs.models import Membership, Player, Role
from spyleague.core.prepared import Prepared

pytestmark = pytest.mark.django_db


def members(club_id: int, role: str) -> Any:
    return (
        Membership.objects.select_related("player__user", "club")
        .filter(club_id=club_id, role=role)
        .order_by("player__name")
    )


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The SQL of every select Django compiles meanwhile."""
    seen: list[str] = []
    original = SQLCompiler.as_sql

    def counted(self: SQLCompiler, *args: Any, **kwargs: Any) -> Any:
        sql, params = original(self, *args, **kwargs)
        seen.append(sql)
        return sql, params

    monkeypatch.setattr(SQLCompiler, "as_sql", counted)
    yield seen


@pytest.fixture
def clubs(club: Any, make_user: Any) -> list[Any]:
    from spyleague.clubs.services import club_create

    other = club_create(user=make_user(username="oscar"), name="Other Club", city="York")
    for n, name in enumerate(["Cleo", "Abe", "Bea", "Dov"]):
        player = make_user(username=f"p{n}", player_name=name).player
        Membership.objects.create(club=club if n % 2 else other, player=player, role=Role.PLAYER)
    return [club, other]


def rows(found: list[Membership]) -> list[tuple[Any, ...]]:
    return [(m.pk, m.player.name, m.player.user.username, m.club.name, m.role) for m in found]


def test_rows_and_sql_are_django_s_own_for_every_value(clubs: list[Any]) -> None:
    prepared = Prepared(members)
    for club in [*clubs, *clubs]:
        for role in [Role.PLAYER, Role.ORGANISER, "nobody"]:
            with CaptureQueriesContext(connection) as ours:
                got = prepared.list(club.pk, str(role))
            with CaptureQueriesContext(connection) as django_s:
                expected = list(members(club.pk, str(role)))
            assert rows(got) == rows(expected)
            assert [q["sql"] for q in ours.captured_queries] == [q["sql"] for q in django_s.captured_queries]
    assert any(rows(prepared.list(c.pk, str(Role.PLAYER))) for c in clubs), "the test found no rows"
    assert prepared.learned == 1  # one shape: an int and a str


def test_compiled_once_then_never_again(clubs: list[Any], compiles: list[str]) -> None:
    prepared = Prepared(members)
    prepared.list(clubs[0].pk, str(Role.PLAYER))
    assert len(compiles) >= 2  # learning: its own query and the probe
    compiles.clear()
    for club in clubs:
        assert prepared.list(club.pk, str(Role.PLAYER))
    assert compiles == []


def test_prefetching_and_value_lists_come_out_as_django_gives_them(clubs: list[Any]) -> None:
    with_memberships = Prepared(
        lambda pk: Player.objects.prefetch_related("memberships__club").filter(pk=pk)[:1]
    )
    names = Prepared(lambda pk: Membership.objects.filter(club_id=pk).values_list("player__name", flat=True))
    for club in clubs:
        for membership in club.memberships.all():
            player = with_memberships.one(membership.player_id)
            assert player is not None and player.pk == membership.player_id
            assert [m.club.name for m in player.memberships.all()] == [
                m.club.name for m in Membership.objects.filter(player_id=player.pk)
            ]
        assert sorted(names.list(club.pk)) == sorted(
            Membership.objects.filter(club_id=club.pk).values_list("player__name", flat=True)
        )
    assert with_memberships.one(10**6) is None


def test_values_that_could_change_the_sql_go_django_s_way(clubs: list[Any], compiles: list[str]) -> None:
    by_guest = Prepared(lambda host: Player.objects.filter(guest_of=host).order_by("pk"))
    guest = Player.objects.create(name="Guest", guest_of=clubs[0])
    assert [p.pk for p in by_guest.list(clubs[0].pk)] == [guest.pk]
    compiles.clear()
    unhosted = by_guest.list(None)  # IS NULL, not = %s
    assert len(compiles) == 1 and "IS NULL" in compiles[0]
    assert guest not in unhosted and unhosted == list(Player.objects.filter(guest_of=None).order_by("pk"))
    assert Prepared(lambda flag: Player.objects.filter(pk__gt=flag)).list(True) == list(
        Player.objects.filter(pk__gt=1)
    )


def test_a_value_the_lookup_transforms_is_never_kept(clubs: list[Any], compiles: list[str]) -> None:
    named = Prepared(lambda part: Player.objects.filter(name__icontains=part).order_by("name"))
    for part in ["e", "b", "zz", "E"]:
        compiles.clear()
        assert [p.name for p in named.list(part)] == [
            p.name for p in Player.objects.filter(name__icontains=part).order_by("name")
        ]
        assert compiles, "a wrapped value was reused"
    assert named._shapes and all(shape is None for shape in named._shapes.values())


def test_anything_chained_on_is_compiled_anew(clubs: list[Any]) -> None:
    prepared = Prepared(members)
    assert [m.player.name for m in prepared.list(clubs[0].pk, str(Role.PLAYER))] == ["Abe", "Dov"]
    narrowed = prepared.queryset(clubs[0].pk, str(Role.PLAYER)).filter(player__name="Dov")
    assert [m.player.name for m in narrowed] == ["Dov"]
    assert prepared.queryset(clubs[0].pk, str(Role.PLAYER)).count() == 2


@pytest.mark.django_db(transaction=True)  # the test's own transaction would hide the refusal
def test_a_row_lock_outside_a_transaction_is_refused_as_django_refuses_it(clubs: list[Any]) -> None:
    if not connection.features.has_select_for_update:
        pytest.skip("this database has no row locks (SQLite): Django refuses nothing either")
    locked = Prepared(lambda pk: Player.objects.select_for_update().filter(pk=pk)[:1])
    player = Player.objects.first()
    assert player is not None
    with pytest.raises(TransactionManagementError):
        locked.one(player.pk)  # before anything was learned
    with transaction.atomic():
        assert locked.one(player.pk) == player
        assert locked.learned == 1
    with pytest.raises(TransactionManagementError):
        locked.one(player.pk)  # with its SQL kept


def test_a_list_is_learned_once_for_each_length(clubs: list[Any], compiles: list[str]) -> None:
    chosen = Prepared(
        lambda ids: Player.objects.filter(pk__in=ids).order_by("name").values_list("name", flat=True)
    )
    everyone = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    assert len(everyone) >= 6
    for ids in [
        everyone[:2],
        everyone[2:4],
        everyone[1:3],
        tuple(everyone[:3]),
        everyone[3:6],
        [10**6, 10**6 + 1],
    ]:
        assert chosen.list(ids) == list(
            Player.objects.filter(pk__in=ids).order_by("name").values_list("name", flat=True)
        )
    assert chosen.learned == 3  # a list of 2, a tuple of 3, a list of 3
    compiles.clear()
    assert chosen.list(everyone[4:6]) == list(
        Player.objects.filter(pk__in=everyone[4:6]).order_by("name").values_list("name", flat=True)
    )
    assert len(compiles) == 1  # Django's own, for the comparison
    assert chosen.list([]) == []  # no shape: Django knows it is empty without asking


def test_a_match_is_locked_with_its_seats_and_nothing_compiled_the_second_time(
    make_user: Any, compiles: list[str]
) -> None:
    from spyleague.play import services
    from spyleague.play.moves import match_locked

    user = make_user(username="mia", player_name="Mia")
    first = services.match_create(user=user, game="black-spy", seats=3, bots={1: "random", 2: "random"})
    second = services.match_create(user=user, game="black-spy", seats=4, bots={1: "random"})
    with transaction.atomic():
        match_locked(first.pk)
    compiles.clear()
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = match_locked(second.pk)
        seats = [(s.number, s.bot, s.player_id) for s in locked.seat_set.all()]
        assert all(s.match is locked for s in locked.seat_set.all())
    assert compiles == [] and len(queries.captured_queries) == 2  # the match, its seats: no more
    assert locked.pk == second.pk
    assert seats == [(s.number, s.bot, s.player_id) for s in second.seat_set.order_by("number")]
