"""Every format runs to its end: heats to one final table, brackets with drops, groups into a
bracket that keeps group-mates apart, round robins as long as they need, drafts that follow drops
and entries, and tables for counts that do not divide."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import TestCase
from django.urls import reverse

from spyleague.clubs.models import Membership, Player, Role
from spyleague.scores.services import EntryLine, result_confirm, result_correct, result_enter
from spyleague.tournaments import services
from spyleague.tournaments.models import Entrant, Event, Round, Table
from spyleague.tournaments.standings import standings_ranked

from .helpers import entrant, make_event, pairs_of, play_round, repeats_said

pytestmark = pytest.mark.django_db


def sizes(rnd: Round) -> list[int]:
    return [t.seats.count() for t in rnd.tables.filter(is_bye=False)]


def byes(rnd: Round) -> int:
    return rnd.tables.filter(is_bye=True).count()


def seated(rnd: Round) -> set[int]:
    return {s.entrant_id for t in rnd.tables.all() for s in t.seats.all()}


def new_player(club: Any, name: str) -> Player:
    player = Player.objects.create(name=name, guest_of=club)
    Membership.objects.create(club=club, player=player, role=Role.PLAYER)
    return player


# --- heats ------------------------------------------------------------------------------------


def test_heats_of_24_at_tables_of_4_top_2_play_to_a_final_of_6(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=24, format="knockout", advance=2)
    shapes: list[tuple[str, list[int]]] = []
    while event.status != Event.Status.FINISHED:
        rnd = play_round(event, organiser, random.Random(len(shapes)))
        shapes.append((rnd.stage, sizes(rnd)))
        event.refresh_from_db()
    assert shapes == [("heats", [4] * 6), ("heats", [4, 4, 4]), ("final", [6])]
    assert "The final: the last 6 players at one table; its winner wins the event." in rnd.notes


def test_a_knockout_is_ranked_by_the_stage_reached_then_the_place_there(club: Any, organiser: Any) -> None:
    """The final's winner is first even when another finalist scored more points on the way."""

    disagreements = 0
    for seed in range(4):
        event = make_event(club, organiser, players=16, format="knockout", advance=2, name=f"Heats {seed}")
        rounds: list[Round] = []
        while event.status != Event.Status.FINISHED:
            rounds.append(play_round(event, organiser, random.Random(seed * 10 + len(rounds))))
            event.refresh_from_db()
        rows = list(standings_ranked(event).order_by("place", "pk"))
        final = rounds[-1].tables.get(is_bye=False)
        by_place = [s.entrant_id for s in final.seats.order_by("place")]
        assert [r.entrant_id for r in rows[: len(by_place)]] == by_place
        assert [r.place for r in rows[:4]] == [1, 2, 3, 4]
        # Then those out at the second stage, then those out in the first heats.
        second = {s.entrant_id for t in rounds[1].tables.all() for s in t.seats.all()} - set(by_place)
        assert {r.entrant_id for r in rows[4:8]} == second
        by_points = sorted(by_place, key=lambda e: -next(r.points for r in rows if r.entrant_id == e))
        disagreements += by_points != by_place
    assert disagreements  # points alone would have ranked some final differently


def test_heats_of_18_start_byes_go_to_the_top_seeds_or_tables_are_shorter(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=18, format="knockout", advance=2, name="Byes")
    first = play_round(event, organiser)
    assert sizes(first) == [4, 4, 4, 4] and byes(first) == 2
    assert "The top 2 seeds have a bye and go through." in first.notes
    second = play_round(event, organiser)
    assert sizes(second) == [4, 4] and byes(second) == 2  # 10 through: 8 play, the top 2 seeds wait
    final = play_round(event, organiser)
    assert final.stage == "final" and sizes(final) == [6]
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED

    shorter = make_event(club, organiser, players=18, format="knockout", uneven="shorter", name="Short")
    first = play_round(shorter, organiser)
    assert sorted(sizes(first), reverse=True) == [4, 4, 4, 3, 3] and byes(first) == 0
    second = play_round(shorter, organiser)
    assert sorted(sizes(second), reverse=True) == [4, 3, 3]
    assert play_round(shorter, organiser).stage == "final"


def test_heats_too_few_for_a_black_spy_table_take_the_best_placed_of_the_others(
    club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=8, format="knockout", advance=1)
    first = play_round(event, organiser)
    assert sizes(first) == [4, 4]
    final = play_round(event, organiser)
    assert final.stage == "final" and sizes(final) == [3]
    note = next(n for n in final.notes if n.startswith("Only 2 went through"))
    assert "fewer than the 3 a table of Black Spy needs" in note
    second_places = {s.entrant.player.name for t in first.tables.all() for s in t.seats.all() if s.place == 2}
    assert any(name in note for name in second_places)


def test_a_heats_qualifier_who_drops_is_replaced_by_the_next_at_their_table(
    club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=16, format="knockout", advance=2)
    first = play_round(event, organiser)
    table = first.tables.order_by("number").first()
    assert table is not None
    by_place = sorted(table.seats.select_related("entrant__player"), key=lambda s: s.place or 0)
    services.entrant_drop(user=organiser, entrant=by_place[0].entrant)
    second = services.round_pair(event=event)
    assert by_place[0].entrant_id not in seated(second)
    assert by_place[2].entrant_id in seated(second)  # third at that table goes through instead
    assert (
        f"{by_place[0].entrant.player.name} dropped out: the next at their table goes through instead."
        in (second.notes)
    )


# --- brackets --------------------------------------------------------------------------------


def test_a_survivor_who_drops_gives_a_walkover_and_a_lone_finalist_wins(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=8, game="spy-vs-spy", size=2, format="knockout")
    first = play_round(event, organiser)
    winners = [
        min(t.seats.all(), key=lambda s: s.place or 0).entrant for t in first.tables.order_by("number")
    ]
    services.entrant_drop(user=organiser, entrant=winners[1])
    semis = services.round_pair(event=event)
    assert winners[1].pk not in seated(semis)
    assert sizes(semis) == [2] and byes(semis) == 1  # winners[0] has a walkover
    assert f"{winners[0].player.name} has a walkover: their opponent dropped out." in semis.notes
    semis = play_round(event, organiser)  # publishes the draft and plays the one table
    final = services.round_pair(event=event)
    assert final.stage == "final" and sizes(final) == [2]
    # A finalist drops before the final is published: the draft follows, and the other has won.
    finalist = final.tables.get().seats.first().entrant  # type: ignore[union-attr]
    services.entrant_drop(user=organiser, entrant=finalist)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert not event.round_set.filter(status=Round.Status.DRAFT).exists()


def test_groups_of_12_seed_the_bracket_so_no_semi_final_repeats_a_group_game(
    club: Any, organiser: Any
) -> None:
    event = make_event(
        club, organiser, players=12, game="spy-vs-spy", size=2, format="groups_knockout", advance=2
    )
    group_games: set[frozenset[int]] = set()
    for _ in range(3):  # three groups of four: three rounds
        rnd = play_round(event, organiser)
        assert rnd.stage == "group"
        group_games |= pairs_of(rnd)
    bracket = play_round(event, organiser)
    assert bracket.stage == "quarter-finals"  # 6 through: the two top group winners have byes
    assert sizes(bracket) == [2, 2] and byes(bracket) == 2
    assert not pairs_of(bracket) & group_games
    semis = play_round(event, organiser)
    assert semis.stage == "semi-finals" and sizes(semis) == [2, 2]
    assert not pairs_of(semis) & group_games, "a semi-final repeats a group game"
    while event.status != Event.Status.FINISHED:
        last = play_round(event, organiser)
        event.refresh_from_db()
    assert last.stage == "final"


# --- round robins ----------------------------------------------------------------------------


def test_a_round_robin_of_7_has_the_7_rounds_it_needs_and_says_so(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=7, game="spy-vs-spy", size=2, format="round_robin")
    assert event.rounds == 5  # the default the organiser left
    first = play_round(event, organiser)
    event.refresh_from_db()
    assert event.rounds == 7
    assert (
        "The event was set to 5 rounds; a round robin has as many as it needs, so it now has 7."
        in first.notes
    )
    with pytest.raises(ValidationError, match=r"as many rounds as its schedule needs \(7\)"):
        services.event_update(user=organiser, event=event, rounds=9)
    met = pairs_of(first)
    for _ in range(6):
        met |= pairs_of(play_round(event, organiser))
    assert len(met) == 21
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


def test_a_round_robin_at_tables_of_4_and_3_seats_every_pair(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=7, format="round_robin", uneven="shorter")
    met: set[frozenset[int]] = set()
    while event.status != Event.Status.FINISHED:
        rnd = play_round(event, organiser)
        assert sorted(sizes(rnd)) == [3, 4]
        met |= pairs_of(rnd)
        event.refresh_from_db()
    assert len(met) == 21 and event.rounds == 3


def test_a_round_robin_longer_than_an_event_can_be_is_refused_in_words(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=32, game="spy-vs-spy", size=2, format="round_robin")
    with pytest.raises(ValidationError, match="needs 31 rounds, more than the 30 an event can have"):
        services.round_pair(event=event)


def test_late_entries_are_refused_once_a_draw_or_schedule_is_made(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=4, game="spy-vs-spy", size=2, format="round_robin")
    play_round(event, organiser)
    with pytest.raises(ValidationError, match="This round robin has begun: its schedule was made"):
        services.entrant_register(user=organiser, event=event, player=new_player(club, "Late"))
    cup = make_event(club, organiser, players=4, game="spy-vs-spy", size=2, format="knockout", name="Cup")
    play_round(cup, organiser)
    with pytest.raises(ValidationError, match="This knockout has begun: its draw was made"):
        services.entrant_register(user=organiser, event=cup, player=new_player(club, "Later"))


# --- drafts follow drops and entries -----------------------------------------------------------


def test_a_drop_while_the_next_round_is_a_draft_takes_them_out_of_it(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=8, game="spy-vs-spy", size=2, rounds=3)
    play_round(event, organiser)
    draft = services.round_pair(event=event)
    leaving = entrant(event, "P03")
    assert leaving.pk in seated(draft)
    services.entrant_drop(user=organiser, entrant=leaving)
    draft = Round.objects.get(event=event, status=Round.Status.DRAFT)
    assert leaving.pk not in seated(draft) and len(seated(draft)) == 7
    assert draft.notes[0] == "Paired again: P03 dropped out."
    published = services.round_publish(user=organiser, rnd=draft)
    assert leaving.pk not in seated(published)


def test_a_late_entry_while_the_next_round_is_a_draft_is_in_it(
    club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=7, game="spy-vs-spy", size=2, rounds=3)
    play_round(event, organiser)
    draft = services.round_pair(event=event)
    late = services.entrant_register(user=make_user(username="late"), event=event)
    assert late.joined_round == 2
    draft = Round.objects.get(event=event, status=Round.Status.DRAFT)
    assert draft.number == 2 and late.pk in seated(draft)
    assert byes(draft) == 0  # 8 players now: nobody sits out
    assert draft.notes[0].startswith("Paired again:") and draft.notes[0].endswith("entered.")


def test_a_swap_by_hand_is_made_again_when_the_draft_follows_a_drop(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=12, game="spy-vs-spy", size=2, rounds=3)
    play_round(event, organiser)
    draft = services.round_pair(event=event)
    tables = list(draft.tables.filter(is_bye=False).order_by("number"))
    a = tables[0].seats.order_by("position").first().entrant  # type: ignore[union-attr]
    b = tables[1].seats.order_by("position").first().entrant  # type: ignore[union-attr]
    services.round_swap(user=organiser, rnd=draft, a=a, b=b)
    tables = list(draft.tables.filter(is_bye=False).order_by("number"))
    partner_of_a = {s.entrant_id for s in Table.objects.get(round=draft, seats__entrant=a).seats.all()}
    leaving = next(s.entrant for t in tables[3:] for s in t.seats.all() if s.entrant_id not in partner_of_a)
    services.entrant_drop(user=organiser, entrant=leaving)
    draft = Round.objects.get(event=event, status=Round.Status.DRAFT)
    assert f"Swapped {a.player.name} and {b.player.name} by hand." in draft.notes
    assert leaving.pk not in seated(draft)
    # A swap with a player who left is not made again, and the notes say so.
    c = Table.objects.get(round=draft, seats__entrant=a).seats.exclude(entrant=a).get().entrant
    services.entrant_drop(user=organiser, entrant=b)
    draft = Round.objects.get(event=event, status=Round.Status.DRAFT)
    assert (
        f"Not swapped again: {a.player.name} and {b.player.name} ({b.player.name} no longer in the round)."
        in (draft.notes)
    )
    assert c.pk in seated(draft)


# --- tables for counts that do not divide --------------------------------------------------------


@pytest.mark.parametrize(
    ("uneven", "expected", "bye_count"),
    [("byes", [4, 4, 4, 4, 4], 3), ("shorter", [4, 4, 4, 4, 4, 3], 0), ("longer", [5, 5, 5, 4, 4], 0)],
)
def test_23_players_at_tables_of_4(
    club: Any, organiser: Any, uneven: str, expected: list[int], bye_count: int
) -> None:
    event = make_event(club, organiser, players=23, uneven=uneven, rounds=2)
    first = play_round(event, organiser)
    second = play_round(event, organiser)
    for rnd in (first, second):
        assert sorted(sizes(rnd), reverse=True) == expected and byes(rnd) == bye_count
    assert repeats_said(second) == (0, True), second.notes
    assert f"23 players: {'5 tables of 4' if uneven != 'longer' else '3 tables of 5 and 2 of 4'}" in " ".join(
        first.notes
    )


@pytest.mark.parametrize(
    ("game", "size", "uneven", "message"),
    [
        ("black-spy", 3, "shorter", "Black Spy has no tables of 2"),
        ("spies", 5, "longer", "Spies! has no tables of 6"),
        ("mister-spy", 2, "shorter", "has no tables of 1"),
        ("spy-vs-spy", 2, "shorter", "has no tables of 1"),
    ],
)
def test_shorter_or_longer_tables_only_where_the_game_allows(
    club: Any, organiser: Any, game: str, size: int, uneven: str, message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        services.event_create(club=club, user=organiser, name="X", game=game, table_size=size, uneven=uneven)


def test_a_bracket_takes_byes_only(club: Any, organiser: Any) -> None:
    with pytest.raises(ValidationError, match="gives its byes to the top seeds"):
        services.event_create(
            club=club,
            user=organiser,
            name="X",
            game="spy-vs-spy",
            table_size=2,
            format="knockout",
            uneven="longer",
        )


def test_the_event_form_has_the_heats_groups_and_uneven_settings(
    client: Any, club: Any, organiser: Any
) -> None:
    client.force_login(organiser)
    url = reverse("tournaments:create", args=[club.slug])
    page = client.get(url).content.decode()
    for name in ('name="advance"', 'name="groups"', 'name="uneven"'):
        assert name in page
    base = {"name": "Cup", "game": "spy-vs-spy", "kind": "tournament", "rounds": 3, "bye_rule": "win"}
    response = client.post(
        url, {**base, "format": "groups_knockout", "table_size": 2, "groups": 3, "advance": 1}
    )
    assert response.status_code == 302
    cup = Event.objects.get(name="Cup")
    assert (cup.format, cup.groups, cup.advance) == ("groups_knockout", 3, 1)
    response = client.post(
        url, {**base, "name": "Heats", "format": "swiss", "table_size": 4, "uneven": "longer"}
    )
    assert Event.objects.get(name="Heats").uneven == "longer"
    bad = client.post(
        url,
        {**base, "name": "Bad", "format": "swiss", "game": "black-spy", "table_size": 3, "uneven": "shorter"},
    )
    assert bad.status_code == 200 and "Black Spy has no tables of 2" in bad.content.decode()
    assert not Event.objects.filter(name="Bad").exists()
    page = client.get(reverse("tournaments:event", args=[cup.pk])).content.decode()
    assert "3 groups, then the top 1 of each group in a bracket" in page


# --- finishing ----------------------------------------------------------------------------------


def test_the_organiser_finishes_an_event_by_hand(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=8, rounds=6)
    play_round(event, organiser)
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    url = reverse("tournaments:finish", args=[event.pk])
    client.force_login(make_user(username="mallory"))
    assert client.post(url).status_code == 403
    client.force_login(organiser)
    refused = client.post(url)
    assert refused.status_code == 400
    assert "Round 2 still has 2 tables waiting for a result" in refused.content.decode()
    for table in rnd.tables.all():  # the organiser enters the last results ...
        seats = list(table.seats.select_related("entrant__player"))
        with TestCase.captureOnCommitCallbacks(execute=True):
            result_confirm(
                user=organiser,
                result=result_enter(
                    user=organiser,
                    game=event.game,
                    club=club,
                    table=table,
                    entries=[
                        EntryLine(s.entrant.player, float(sc))
                        for s, sc in zip(seats, (160, 30, 35, 15), strict=True)
                    ],
                ),
            )
    services.round_pair(event=event)  # ... a draft of round 3 is waiting: finishing discards it
    page = client.get(reverse("tournaments:event", args=[event.pk])).content.decode()
    assert "Finish the event" in page and "the draft of round 3 is discarded" in page
    assert client.post(url).status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert list(event.round_set.values_list("status", flat=True)) == ["complete", "complete"]
    assert client.post(url).status_code == 302  # finishing twice changes nothing
    with pytest.raises(ValidationError, match="This event is over"):
        services.round_pair(event=event)
    with pytest.raises(PermissionDenied):
        services.finish_event(user=make_user(username="eve"), event=event)


def test_a_swiss_cut_to_the_rounds_played_is_over(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser)
    play_round(event, organiser)
    services.event_update(user=organiser, event=event, rounds=2)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert Entrant.objects.filter(event=event).count() == 4


# --- the same through the API ---------------------------------------------------------------------


def test_heats_with_shorter_tables_and_a_draft_that_follows_a_drop_through_the_api(
    api_client: Any, club: Any, organiser: Any
) -> None:
    api_client.force_authenticate(organiser)
    created = api_client.post(
        "/api/events/",
        {
            "club": club.slug,
            "name": "API Heats",
            "game": "black-spy",
            "format": "knockout",
            "table_size": 4,
            "advance": 2,
            "uneven": "shorter",
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    event = Event.objects.get(pk=created.json()["id"])
    assert (event.uneven, event.advance) == ("shorter", 2)
    refused = api_client.patch(
        f"/api/events/{event.pk}/", {"uneven": "longer", "table_size": 6}, format="json"
    )
    assert refused.status_code == 400 and "Black Spy has no tables of 7" in refused.content.decode()
    for i in range(18):
        player = new_player(club, f"A{i:02d}")
        assert (
            api_client.post(
                f"/api/events/{event.pk}/register/", {"player": player.pk}, format="json"
            ).status_code
            == 201
        )
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert api_client.post(f"/api/events/{event.pk}/pair/").status_code == 202
    tables = api_client.get(f"/api/events/{event.pk}/rounds/1/tables/").json()["results"]
    assert sorted((len(t["seats"]) for t in tables), reverse=True) == [4, 4, 4, 3, 3]
    leaving = tables[0]["seats"][0]["entrant"]
    assert api_client.post(f"/api/events/{event.pk}/entrants/{leaving}/drop/").status_code == 200
    draft = api_client.get(f"/api/events/{event.pk}/rounds/1/").json()
    tables = api_client.get(f"/api/events/{event.pk}/rounds/1/tables/").json()["results"]
    assert leaving not in {s["entrant"] for t in tables for s in t["seats"]}
    assert sorted((len(t["seats"]) for t in tables), reverse=True) == [4, 4, 3, 3, 3]
    assert draft["notes"][0].endswith("dropped out.")
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert api_client.post(f"/api/events/{event.pk}/rounds/1/publish/").status_code == 200
    refused = api_client.post(f"/api/events/{event.pk}/finish/")
    assert (
        refused.status_code == 400 and "still has 5 tables waiting for a result" in refused.content.decode()
    )


def test_a_draft_paired_before_a_check_in_is_not_published_until_paired_again(
    club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=6, game="spy-vs-spy", size=2)
    for name in ("P00", "P01", "P02", "P03"):
        services.entrant_check_in(user=organiser, entrant=entrant(event, name))
    draft = services.round_pair(event=event)
    services.entrant_check_in(user=organiser, entrant=entrant(event, "P04"))
    with pytest.raises(ValidationError, match="Round 1 was paired before P04 checked in or out"):
        services.round_publish(user=organiser, rnd=draft)
    services.round_discard(user=organiser, rnd=draft)
    draft = services.round_pair(event=event)
    assert entrant(event, "P04").pk in seated(services.round_publish(user=organiser, rnd=draft))


def test_a_round_in_which_nobody_plays_is_complete_once_published(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=3, game="spy-vs-spy", size=2, format="round_robin")
    play_round(event, organiser)
    draft = services.round_pair(event=event)
    table = draft.tables.get(is_bye=False)
    services.entrant_drop(user=organiser, entrant=table.seats.first().entrant)  # type: ignore[union-attr]
    draft = Round.objects.get(event=event, status=Round.Status.DRAFT)
    assert sizes(draft) == [] and byes(draft) == 2
    rnd = services.round_publish(user=organiser, rnd=draft)
    assert rnd.status == Round.Status.COMPLETE
    third = play_round(event, organiser)
    assert third.number == 3
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED  # the round robin's third and last round


def test_a_tied_final_is_corrected_and_then_decides_the_knockout(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=2, game="mister-spy", size=2, format="knockout")
    final = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    seats = list(final.tables.get().seats.select_related("entrant__player").order_by("position"))
    with TestCase.captureOnCommitCallbacks(execute=True):
        result = result_enter(
            user=organiser,
            game=event.game,
            club=club,
            table=final.tables.get(),
            entries=[EntryLine(s.entrant.player, 20.0) for s in seats],
        )
        result_confirm(user=organiser, result=result)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING  # nobody has won yet
    with pytest.raises(ValidationError, match="ended in a tie: the organiser must correct its result"):
        services.round_pair(event=event)
    with TestCase.captureOnCommitCallbacks(execute=True):
        result_correct(
            user=organiser,
            result=result,
            entries=[EntryLine(s.entrant.player, sc) for s, sc in zip(seats, (25.0, 20.0), strict=True)],
            note="the tie was played off",
        )
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


def test_a_group_player_who_drops_is_not_paired_and_does_not_go_through(club: Any, organiser: Any) -> None:
    event = make_event(
        club, organiser, players=8, game="spy-vs-spy", size=2, format="groups_knockout", groups=2, advance=2
    )
    play_round(event, organiser)
    leaving = entrant(event, "P00")  # the top seed
    services.entrant_drop(user=organiser, entrant=leaving)
    for _ in range(2):
        rnd = play_round(event, organiser)
        assert leaving.pk not in seated(rnd) and byes(rnd) == 1  # their group opponent sits out
    bracket = play_round(event, organiser)
    assert leaving.pk not in seated(bracket) and sizes(bracket) == [2, 2]


def test_more_groups_than_pairs_of_players_is_refused_in_words(club: Any, organiser: Any) -> None:
    event = make_event(
        club, organiser, players=6, game="spy-vs-spy", size=2, format="groups_knockout", groups=4
    )
    with pytest.raises(ValidationError, match="6 players make at most 3 groups of two or more"):
        services.round_pair(event=event)


# --- the organiser's desk ---------------------------------------------------------------------


def test_the_page_says_why_the_next_round_cannot_be_paired_before_the_button_is_pressed(
    client: Any, club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=1, format="swiss", size=4)
    client.force_login(organiser)
    url = reverse("tournaments:event", args=[event.pk])
    assert "Only one player would play" in client.get(url).content.decode()
    for i in range(7):
        services.entrant_register(user=organiser, event=event, player=new_player(club, f"Late {i}"))
    text = client.get(url).content.decode()
    assert "Nobody has checked in: all 8 registered players will be paired." in text
    # Check in everyone at once, then one goes home: only those present are paired.
    assert client.post(reverse("tournaments:check-in-all", args=[event.pk])).status_code == 302
    assert Entrant.objects.filter(event=event, checked_in=True).count() == 8
    gone = Entrant.objects.filter(event=event).first()
    assert gone is not None
    services.entrant_check_in(user=organiser, entrant=gone, present=False)
    assert "7 of 8 checked in: only they will be paired." in client.get(url).content.decode()
    services.entrant_check_in(user=organiser, entrant=gone, present=True)
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert client.post(reverse("tournaments:pair", args=[event.pk])).status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION  # a draft is not the event running yet
    text = client.get(url).content.decode()
    assert "Round 1 is a draft: publish it or discard it first." in text
    rnd = event.round_set.get()
    services.round_publish(user=organiser, rnd=rnd)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    # Mid-round the button is off and says why; a post anyway is refused in the same words,
    # with no job left failing.
    text = client.get(url).content.decode()
    assert "Round 1 still has 2 tables without a confirmed result." in text
    assert 'disabled aria-describedby="pair-why"' in text
    from spyleague.core.models import Job

    jobs = Job.objects.count()
    refused = client.post(reverse("tournaments:pair", args=[event.pk]), HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    assert "Round 1 still has 2 tables without a confirmed result." in refused.content.decode()
    assert Job.objects.count() == jobs


@pytest.mark.parametrize(
    ("game", "size", "fmt", "uneven", "players", "said"),
    [
        (
            "black-spy",
            4,
            "swiss",
            "byes",
            3,
            "3 players would be paired, and a Black Spy table here seats at least 4: register or "
            "check in more players, or allow shorter tables in the Settings.",
        ),
        (
            "spies",
            5,
            "round_robin",
            "shorter",
            3,
            "3 players would be paired, and a Spies! table here seats at least 4: register or "
            "check in more players.",
        ),
        (
            "black-spy",
            4,
            "knockout",
            "byes",
            2,
            "2 players would be paired, and a Black Spy table here seats at least 3: register or "
            "check in more players.",
        ),
    ],
)
def test_too_few_players_for_one_table_are_said_before_pairing_not_by_a_failed_job(
    client: Any,
    club: Any,
    organiser: Any,
    game: str,
    size: int,
    fmt: str,
    uneven: str,
    players: int,
    said: str,
) -> None:
    """The button used to stay enabled with fewer players than the smallest table, and the
    pairing job then failed ("Failed 0%")."""
    from spyleague.core.models import Job

    event = make_event(club, organiser, players=players, game=game, size=size, format=fmt, uneven=uneven)
    assert services.pair_blocker(event=event) == said
    client.force_login(organiser)
    url = reverse("tournaments:event", args=[event.pk])
    text = client.get(url).content.decode()
    assert said in text and 'disabled aria-describedby="pair-why"' in text
    refused = client.post(reverse("tournaments:pair", args=[event.pk]), HTTP_HX_REQUEST="true")
    assert refused.status_code == 400 and said in refused.content.decode()
    assert not Job.objects.filter(kind="pairing").exists() and not event.round_set.exists()
    # One more player fills the smallest table: then it pairs.
    services.entrant_register(user=organiser, event=event, player=new_player(club, "One more"))
    assert services.pair_blocker(event=event) is None
    assert services.round_pair(event=event).tables.filter(is_bye=False).exists()


def test_check_in_everyone_is_offered_while_someone_is_not_checked_in(
    client: Any, club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=4)
    client.force_login(organiser)
    url = reverse("tournaments:event", args=[event.pk])
    assert "Check in everyone" in client.get(url).content.decode()
    client.post(reverse("tournaments:check-in-all", args=[event.pk]))
    assert "Check in everyone" not in client.get(url).content.decode()


def test_a_new_event_can_be_started_from_the_events_page_by_its_organisers(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    events_page = reverse("tournaments:list")
    create = reverse("tournaments:create", args=[club.slug])
    assert create not in client.get(events_page).content.decode()
    client.force_login(make_user(username="pat"))
    page = client.get(events_page).content.decode()
    assert create not in page  # not an organiser: a new one starts a club first
    assert f'href="{reverse("clubs:create")}">Start a club to run events</a>' in page
    client.force_login(organiser)
    page = client.get(events_page).content.decode()
    assert f'href="{create}"' in page and "Start a club to run events" not in page
