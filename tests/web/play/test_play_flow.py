"""The club evening's online play: tables with guests, resigning and abandoning, the turn in the
tab, rematches with rating changes, the lobby's lists, game titles (not ids) and the rules pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import TestCase
from django.urls import reverse

from games import games
from spyleague.clubs import services as clubs
from spyleague.play import services
from spyleague.play.models import Match, MatchSeat
from spyleague.play.selectors import match_picture
from spyleague.ratings.models import Rating, RatingPoint
from spyleague.scores.models import Result
from spyleague.tournaments import services as events
from spyleague.tournaments.models import Table

pytestmark = pytest.mark.django_db


def two_people(ann: Any, bob: Any, *, seed: int = 0, target: int = 10) -> Match:
    """Race to Ten between ann (seat 0) and bob (seat 1), under way; seed 0: ann moves first."""
    match = services.match_create(
        user=ann, game="race-to-ten", seats=2, seed=seed, options={"target": target}
    )
    services.match_join(user=bob, match_id=match.pk)
    services.match_start(user=ann, match_id=match.pk)
    match.refresh_from_db()
    return match


def play_out(match: Match, users: dict[int, Any]) -> None:
    """The people of ``match`` (by seat) add 1 each turn until it is over (bots move by themselves)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        match.refresh_from_db()
        while match.status == Match.Status.PLAYING:
            seat = match_picture(match=match, seat=None).to_act[0]
            if seat not in users:  # a bot's turn: its task runs on commit, which a test holds back
                services.match_run_bots(match_id=match.pk)
                match.refresh_from_db()
                continue
            services.match_move_submit(match_id=match.pk, user=users[seat], action={"type": "add", "n": 1})
            match.refresh_from_db()


def table_event(club: Any, organiser: Any, players: list[Any], **kw: Any) -> tuple[Any, Table]:
    event = events.event_create(
        club=club,
        user=organiser,
        name=kw.pop("name", "Club Evening"),
        game=kw.pop("game", "race-to-ten"),
        format="swiss",
        rounds=1,
        table_size=len(players),
        **kw,
    )
    for player in players:
        if player.user_id is not None and not player.memberships.filter(club=club).exists():
            clubs.club_join(user=player.user, club=club)
        events.entrant_register(user=organiser, event=event, player=player)
    rnd = events.round_publish(user=organiser, rnd=events.round_pair(event=event))
    return event, rnd.tables.get()


# --- 1. a tournament table with guests ------------------------------------------------------------


def test_guests_at_a_table_are_played_by_bots_and_the_result_counts_unrated(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    ann = make_user(username="ann")
    guest = clubs.guest_add(user=organiser, club=club, name="Gwen Guest").player
    event, table = table_event(club, organiser, [ann.player, guest])
    client.force_login(ann)
    sheet = client.get(reverse("tournaments:sheet", args=[event.pk, table.pk])).content.decode()
    assert "a bot plays for Gwen Guest" in sheet and "We play this one at the table" in sheet

    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(reverse("tournaments:online", args=[event.pk, table.pk]), {"where": "online"})
    match = Match.objects.get(table=table)
    assert response["Location"] == match.get_absolute_url()
    seats = {s.player_id: s for s in match.seat_set.all()}
    assert seats[guest.pk].bot == "random" and seats[ann.player.pk].bot == ""  # race-to-ten has a random bot
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Bots play for the players without an account: Gwen Guest" in page

    ann_seat = seats[ann.player.pk].number
    play_out(match, {ann_seat: ann})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    result = Result.objects.get(table=table)
    assert result.data["unrated"] is True and result.data["bots"] == [seats[guest.pk].number]
    assert not RatingPoint.objects.filter(result=result).exists()
    assert not Rating.objects.filter(game="race-to-ten").exists()
    assert "Not rated: a bot played in this match." in client.get(match.get_absolute_url()).content.decode()


def test_a_table_of_guests_only_is_refused_and_can_be_played_at_the_table(
    client: Any, club: Any, organiser: Any
) -> None:
    guests = [clubs.guest_add(user=organiser, club=club, name=f"Guest {i}").player for i in range(2)]
    event, table = table_event(club, organiser, guests)
    client.force_login(organiser)
    sheet = client.get(reverse("tournaments:sheet", args=[event.pk, table.pk])).content.decode()
    assert "Start the online match" not in sheet and "We play this one at the table" not in sheet
    assert "Nobody at this table has an account to play online with" in sheet
    refused = client.post(reverse("tournaments:online", args=[event.pk, table.pk]))
    assert refused.status_code == 400
    assert "Nobody at this table has an account" in refused.content.decode()
    assert not Match.objects.exists()
    at_table = client.post(reverse("tournaments:online", args=[event.pk, table.pk]), {"where": "table"})
    assert at_table["Location"] == reverse("tournaments:sheet", args=[event.pk, table.pk])
    assert not Match.objects.exists()


def test_playing_at_the_table_instead_abandons_the_online_match_and_frees_the_table(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    ann, bob, eve = make_user(username="ann"), make_user(username="bob"), make_user(username="eve")
    event, table = table_event(club, organiser, [ann.player, bob.player])
    match = services.match_for_table(user=ann, table=table)
    url = reverse("tournaments:online", args=[event.pk, table.pk])
    sheet = reverse("tournaments:sheet", args=[event.pk, table.pk])
    client.force_login(eve)  # a stranger
    assert "We play this one at the table" not in client.get(sheet).content.decode()
    assert client.post(url, {"where": "table"}).status_code == 403
    client.force_login(bob)  # seated, but did not start it, and it can be played: not bob's call
    assert "We play this one at the table" not in client.get(sheet).content.decode()
    assert client.post(url, {"where": "table"}).status_code == 403
    client.force_login(ann)  # who started it
    assert "We play this one at the table instead" in client.get(sheet).content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.table_id == table.pk
    client.force_login(organiser)
    response = client.post(url, {"where": "table"})
    assert response["Location"] == reverse("tournaments:sheet", args=[event.pk, table.pk])
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED and match.table_id is None
    assert "at the table" in match.end_reason
    assert not Result.objects.exists()
    # The table can be started online again.
    assert services.match_for_table(user=ann, table=table).pk != match.pk


def test_the_sheet_offers_online_play_and_the_scorepad_only_to_those_who_may_use_them(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    """A player of another table saw "Start the online match" and "Open the scorepad" on every
    sheet, and was refused (403) when pressing them."""
    ann, eve = make_user(username="ann"), make_user(username="eve")
    guest = clubs.guest_add(user=organiser, club=club, name="Gwen Guest").player
    event, table = table_event(club, organiser, [ann.player, guest], game="spy-vs-spy")
    clubs.club_join(user=eve, club=club)
    sheet = reverse("tournaments:sheet", args=[event.pk, table.pk])
    for who, online, pad in ((eve, False, False), (ann, True, True), (organiser, True, True)):
        client.force_login(who)
        page = client.get(sheet).content.decode()
        assert ("Start the online match with bots for guests" in page) is online, who
        assert ("Open the scorepad" in page) is pad, who
    client.force_login(eve)
    told = "The players at this table or an organiser can play it in the browser"
    assert told in client.get(sheet).content.decode()


def test_a_stuck_table_match_can_be_abandoned_by_its_players(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    """A match started before bots played for guests: the guest is to act and nobody can move."""
    ann = make_user(username="ann")
    guest = clubs.guest_add(user=organiser, club=club, name="Gwen Guest").player
    event, table = table_event(club, organiser, [guest, ann.player])
    match = services.match_for_table(user=organiser, table=table)
    MatchSeat.objects.filter(match=match).update(bot="")  # as such matches were seated
    to_act = match_picture(match=match, seat=None).to_act
    guest_seat = match.seat_set.get(player=guest).number
    if to_act != [guest_seat]:  # make the guest the one to act
        services.match_move_submit(match_id=match.pk, user=ann, action={"type": "add", "n": 1})
    match.refresh_from_db()
    assert services.match_stuck(match=match)
    client.force_login(ann)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Nobody in this match can move" in page and "Abandon the match" in page
    confirm = client.get(reverse("play:abandon", args=[match.pk]))
    assert confirm.status_code == 200 and "No result is recorded" in confirm.content.decode()
    done = client.post(reverse("play:abandon", args=[match.pk]), {"reason": "guest went home"})
    assert done["Location"] == reverse("tournaments:sheet", args=[event.pk, table.pk])
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED and match.end_reason == "Abandoned by Ann: guest went home."


# --- 2. resign and abandon -----------------------------------------------------------------------


def test_resigning_ends_the_match_with_the_resigner_last_and_is_rated(client: Any, make_user: Any) -> None:
    ann, bob, eve = make_user(username="ann"), make_user(username="bob"), make_user(username="eve")
    match = two_people(ann, bob)
    url = reverse("play:resign", args=[match.pk])
    client.force_login(eve)
    assert client.get(url).status_code == 403
    assert client.post(url, {"version": "0"}).status_code == 403
    client.force_login(bob)
    confirm = client.get(url)
    assert confirm.status_code == 200 and "The match ends now: your opponent wins" in confirm.content.decode()
    services.match_move_submit(match_id=match.pk, user=ann, action={"type": "add", "n": 1})
    stale = client.post(url, {"version": "0"})  # the confirm page was drawn before ann's move
    assert stale.status_code == 409 and "moved on" in stale.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = client.post(url, {"version": "1"})
    assert done["Location"] == match.get_absolute_url()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.end_reason == "Bob resigned."
    assert match.outcome["places"] == [1, 2] and match.outcome["detail"]["resigned"] == [1]
    result = Result.objects.get(data__match=match.pk)
    assert [(line.player_id, line.place) for line in result.lines.order_by("position")] == [
        (ann.player.pk, 1),
        (bob.player.pk, 2),
    ]
    assert RatingPoint.objects.filter(result=result).count() == 2  # people against people: rated
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Bob resigned." in page and "(resigned)" in page
    assert re.search(r"rating-change up[^>]*>\+", page) and re.search(r"rating-change down[^>]*>\u2212", page)
    again = client.post(url, {"version": "1"})
    assert again.status_code == 400 and "over" in again.content.decode()


def test_a_resigned_tournament_match_puts_the_resigner_last_in_the_standings(
    club: Any, organiser: Any, make_user: Any
) -> None:
    """Of three, one resigns: a bot plays their seat on, the two others play the game out for
    first and second, and the resigner is third."""
    users = [make_user(username=n) for n in ("ann", "bob", "cat")]
    _, table = table_event(club, organiser, [u.player for u in users])
    match = services.match_for_table(user=users[0], table=table)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.match_resign(user=users[1], match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.seat_set.get(number=1).bot
    with pytest.raises(services.MoveRejected, match="You resigned: a bot plays your seat now"):
        services.match_move_submit(match_id=match.pk, user=users[1], action={"type": "add", "n": 1})
    play_out(match, {0: users[0], 2: users[2]})
    match.refresh_from_db()
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    places = {s.entrant.player_id: s.place for s in table.seats.select_related("entrant")}
    # The two who played on keep the game's order between them (tied, if the bot in Bob's seat won).
    assert places[users[1].player.pk] == 3
    assert sorted((places[users[0].player.pk], places[users[2].player.pk])) in ([1, 2], [1, 1])
    result = Result.objects.get(data__match=match.pk)
    assert not result.data.get("unrated")  # a resignation is a loss, rated; no guest was played
    assert match.outcome["detail"]["resigned"] == [1]


def test_abandoning_is_for_the_creator_or_an_organiser_and_records_nothing(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = services.match_create(user=ann, game="race-to-ten", seats=2, seed=0, club=club)
    services.match_join(user=bob, match_id=match.pk)
    services.match_start(user=ann, match_id=match.pk)
    with pytest.raises(services.MoveRejected) as refused:
        services.match_abandon(user=bob, match_id=match.pk)
    assert refused.value.status == 403
    client.force_login(bob)
    assert client.get(reverse("play:abandon", args=[match.pk])).status_code == 403
    assert "Abandon the match" not in client.get(match.get_absolute_url()).content.decode()
    client.force_login(organiser)  # the club's organiser
    assert client.get(reverse("play:abandon", args=[match.pk])).status_code == 200
    response = client.post(reverse("play:abandon", args=[match.pk]), {"reason": "  closing   time "})
    assert response["Location"] == match.get_absolute_url()
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert match.end_reason == "Abandoned by Olga Organiser: closing time."
    assert not Result.objects.exists()
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Abandoned" in page and "closing time" in page
    assert client.post(reverse("play:abandon", args=[match.pk])).status_code == 400
    with pytest.raises(services.MoveRejected, match=r"not your turn|over"):
        services.match_move_submit(match_id=match.pk, user=ann, action={"type": "add", "n": 1})


def test_the_api_resigns_abandons_and_rematches(api_client: Any, make_user: Any) -> None:
    ann, bob, eve = make_user(username="ann"), make_user(username="bob"), make_user(username="eve")
    match = two_people(ann, bob)
    api_client.force_authenticate(eve)
    assert api_client.post(f"/api/matches/{match.pk}/resign/", {}, format="json").status_code == 403
    assert api_client.post(f"/api/matches/{match.pk}/abandon/", {}, format="json").status_code == 403
    assert api_client.post(f"/api/matches/{match.pk}/rematch/", {}, format="json").status_code == 403
    api_client.force_authenticate(ann)
    assert api_client.post(f"/api/matches/{match.pk}/rematch/", {}, format="json").status_code == 400
    stale = api_client.post(f"/api/matches/{match.pk}/resign/", {"version": 5}, format="json")
    assert stale.status_code == 409
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = api_client.post(f"/api/matches/{match.pk}/resign/", {"version": 0}, format="json")
    assert done.status_code == 200
    body = done.json()
    assert (
        body["status"] == "finished"
        and body["ended"] == "Ann resigned."
        and body["outcome"]["places"] == [2, 1]
    )
    assert body["game"] == "race-to-ten" and body["title"] == "Race to Ten"
    api_client.force_authenticate(bob)
    rematch = api_client.post(f"/api/matches/{match.pk}/rematch/", {}, format="json")
    assert (
        rematch.status_code == 201 and rematch.json()["status"] == "playing" and rematch.json()["seat"] == 1
    )
    assert api_client.get(f"/api/matches/{match.pk}/").json()["rematch"] == rematch.json()["id"]
    api_client.force_authenticate(ann)  # bob started the rematch: ann may not abandon it
    refused = api_client.post(f"/api/matches/{rematch.json()['id']}/abandon/", {}, format="json")
    assert refused.status_code == 403
    api_client.force_authenticate(bob)
    gone = api_client.post(
        f"/api/matches/{rematch.json()['id']}/abandon/", {"reason": "tired"}, format="json"
    )
    assert gone.status_code == 200 and gone.json()["status"] == "abandoned"
    assert gone.json()["ended"] == "Abandoned by Bob: tired."


# --- 3. the turn in the tab ----------------------------------------------------------------------


def test_the_title_and_the_board_say_whose_turn_it_is(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = two_people(ann, bob)  # ann to act
    client.force_login(ann)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "<title>● Your turn · Race to Ten #" in page
    assert 'data-turn="1"' in page and "favicon-turn.svg" in page and "js/play-turn.js" in page
    client.force_login(bob)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "<title>Race to Ten #" in page and 'data-turn=""' in page
    services.match_move_submit(match_id=match.pk, user=ann, action={"type": "add", "n": 1})
    board = client.get(reverse("play:board", args=[match.pk]), headers={"HX-Request": "true"})
    assert 'data-turn="1"' in board.content.decode()  # the live update carries the mark


# --- 4. rematch and rating changes ---------------------------------------------------------------


def test_a_rematch_keeps_seats_and_bots_and_everyone_lands_in_it(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = services.match_create(
        user=ann, game="race-to-ten", seats=3, seed=0, options={"target": 3}, bots={2: "random"}
    )
    services.match_join(user=bob, match_id=match.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.match_start(user=ann, match_id=match.pk)
    play_out(match, {0: ann, 1: bob})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    client.force_login(bob)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Rematch</button>" in page and "A friendly with bots: not rated." in page
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(reverse("play:rematch", args=[match.pk]))
    match.refresh_from_db()
    new = match.rematch
    assert new is not None and response["Location"] == new.get_absolute_url()
    assert [(s.number, s.player_id, s.bot) for s in new.seat_set.all()] == [
        (s.number, s.player_id, s.bot) for s in match.seat_set.all()
    ]
    assert new.status == Match.Status.PLAYING and new.options == match.options and new.seed != match.seed
    # ann's click a moment later lands in the same rematch; her old page follows it by itself.
    client.force_login(ann)
    again = client.post(reverse("play:rematch", args=[match.pk]), headers={"HX-Request": "true"})
    assert again["HX-Redirect"] == new.get_absolute_url()
    board = client.get(reverse("play:board", args=[match.pk])).content.decode()
    assert f'data-rematch="{new.get_absolute_url()}"' in board
    client.logout()
    assert 'data-rematch="' not in client.get(reverse("play:board", args=[match.pk])).content.decode()


def test_rematch_is_refused_to_strangers_and_before_the_end(client: Any, make_user: Any) -> None:
    ann, bob, eve = make_user(username="ann"), make_user(username="bob"), make_user(username="eve")
    match = two_people(ann, bob)
    client.force_login(ann)
    assert client.post(reverse("play:rematch", args=[match.pk])).status_code == 400
    play_out(match, {0: ann, 1: bob})
    client.force_login(eve)
    assert client.post(reverse("play:rematch", args=[match.pk])).status_code == 403
    assert Match.objects.count() == 1


def test_a_finished_match_shows_each_players_rating_change(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    first = two_people(ann, bob, target=3)
    play_out(first, {0: ann, 1: bob})
    second = two_people(ann, bob, target=3)
    play_out(second, {0: ann, 1: bob})
    picture = match_picture(match=second, seat=0)
    changes = picture.rating_changes
    points = {p.player_id: p.ordinal for p in RatingPoint.objects.filter(result=picture.result)}
    before = {p.player_id: p.ordinal for p in RatingPoint.objects.filter(result__data__match=first.pk)}
    for player, after in points.items():
        assert changes[player]["change"] == round(after - before[player], 1)
    client.force_login(ann)
    page = client.get(second.get_absolute_url()).content.decode()
    assert f"rating {round(points[ann.player.pk], 1)}" in page


# --- 5. the lobby --------------------------------------------------------------------------------


def test_the_lobby_shows_open_tables_my_matches_with_my_turn_first_and_matches_to_watch(
    client: Any, make_user: Any
) -> None:
    ann, bob, cat, dan = (make_user(username=n) for n in ("ann", "bob", "cat", "dan"))
    waiting = two_people(ann, bob, seed=1)  # bob to act: ann waits
    my_turn = two_people(bob, ann, seed=1)  # ann (seat 1) to act
    open_table = services.match_create(user=cat, game="race-to-ten", seats=2, seed=0)
    others = two_people(cat, dan)
    client.force_login(ann)
    page = client.get(reverse("play:lobby")).content.decode()
    mine = page[page.index('id="my-matches"') : page.index('id="open-tables"')]
    open_ = page[page.index('id="open-tables"') : page.index('id="new-match"')]
    watch = page[page.index('id="watch"') :]
    assert mine.index(f"#{my_turn.pk}<") < mine.index(f"#{waiting.pk}<")
    assert "Your turn" in mine and "Waiting for others" in mine
    assert f"#{open_table.pk}<" in open_ and f"#{others.pk}<" not in open_
    assert f"#{others.pk}<" in watch and f"#{my_turn.pk}<" not in watch
    # Who sits there, as a sentence: people by name, bots and open seats counted.
    assert "Cat and an open seat" in open_
    with_bots = services.match_create(
        user=ann, game="race-to-ten", seats=4, seed=2, bots={2: "random", 3: "random"}
    )
    services.match_start(user=ann, match_id=with_bots.pk)
    page = client.get(reverse("play:lobby")).content.decode()
    assert "Ann and 3 random bots" in page


def test_the_lobby_lists_kept_for_everyone_follow_each_match_at_once_and_its_moves_soon(
    client: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.test import Client, override_settings

    from spyleague.core import cache
    from spyleague.play import selectors

    now = [1_000_000.0]
    monkeypatch.setattr(selectors.time, "time", lambda: now[0])
    ann, bob, cat, dan = (make_user(username=n, player_name=n.title()) for n in ("ann", "bob", "cat", "dan"))
    visitor = Client()

    def lists(who: Any) -> tuple[str, str]:
        page = who.get(reverse("play:lobby")).content.decode()
        open_ = page[page.index('id="open-tables"') : page.index('id="new-match"')]
        return open_, page[page.index('id="watch"') :]

    with override_settings(SPYLEAGUE_PAGE_CACHE=True):
        cache.PAGES.over()
        assert "No table is waiting" in lists(visitor)[0]
        table = services.match_create(user=cat, game="race-to-ten", seats=2, seed=0)
        assert f"#{table.pk}<" in lists(visitor)[0]  # made: listed at once
        services.match_join(user=dan, match_id=table.pk)
        open_, watch = lists(visitor)
        assert f"#{table.pk}<" not in open_  # no seat free: gone at once
        services.match_start(user=cat, match_id=table.pk)
        open_, watch = lists(visitor)
        assert f"#{table.pk}<" in watch and '<td class="num">0</td>' in watch  # under way, no move yet
        client.force_login(cat)
        assert f"#{table.pk}<" not in lists(client)[1]  # a player's own is in their list, not here
        ours = two_people(ann, bob)
        assert f"#{ours.pk}<" in lists(visitor)[1]
        table.refresh_from_db()
        player = (cat, dan)[match_picture(match=table, seat=None).to_act[0]]  # (cat in seat 0)
        services.match_move_submit(match_id=table.pk, user=player, action={"type": "add", "n": 1})
        assert '<td class="num">1</td>' not in lists(visitor)[1]  # the count, kept a moment
        now[0] += selectors.LOBBY_SECONDS
        assert '<td class="num">1</td>' in lists(visitor)[1]  # and no longer
        bob.player.name = "Roberta"
        bob.player.save()
        assert "Ann and Roberta" in lists(visitor)[1]  # a name, at once


def test_the_new_match_form_keeps_what_was_chosen_after_an_error(client: Any, make_user: Any) -> None:
    client.force_login(make_user(username="ann"))
    response = client.post(
        reverse("play:new"),
        {"game": "race-to-ten", "seats": "9", "bot": "random", "opt-race-to-ten-target": "60"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert '<option value="race-to-ten" selected>' in page
    assert 'name="seats" id="id_seats" value="9"' in page
    assert '<option value="random" selected>' in page
    assert 'id="id_fill_with_bots" >' in page  # left unticked, stays unticked
    assert re.search(r'<fieldset data-game="race-to-ten"\s+style', page)  # its variants shown
    assert 'id="opt-race-to-ten-target" value="60"' in page


# --- 6. titles, not ids --------------------------------------------------------------------------

SLUGS = [g.slug for g in games()]
# "spies" is also a word ("capture spies"): the id is caught where ids used to show, beside "match",
# "ratings", "result", after a "·", or alone in a table's cell.
WORD_SLUGS = {"spies": r"(?i:spies match|spies ratings|spies result)|· spies\b|>\s*spies\s*<"}


def shows_id(slug: str, text: str) -> bool:
    if slug in WORD_SLUGS:
        return re.search(WORD_SLUGS[slug], text) is not None
    return re.search(rf"(?<![\w/-]){re.escape(slug)}(?![\w/-])", text) is not None


def visible_text(html: str) -> str:
    """What a person reads on a page: the text, without attributes, scripts or styles (tags are
    kept as bare ``<>`` so a cell holding only an id is still seen as one)."""
    html = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", html)
    html = re.sub(r"(?s)<!--.*?-->", " ", html)
    return re.sub(r"(?s)<[^>]+>", "<>", html)


def test_the_check_sees_ids_in_text_only() -> None:
    assert shows_id("black-spy", visible_text("<p>black-spy match #1</p>"))
    assert not shows_id("black-spy", visible_text('<a href="/play/rules/black-spy/">Black Spy</a>'))
    assert shows_id("spies", visible_text("<td>spies</td>"))
    assert shows_id("spies", visible_text("<h2>Rating history · spies</h2>"))
    assert not shows_id("spies", visible_text("<p>Capture spies and taunt them.</p>"))


def test_no_page_shows_a_game_id_to_people(client: Any, club: Any, organiser: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    pages = [reverse("play:lobby"), reverse("ratings:leaderboards"), "/"]
    for slug, seats in (
        ("black-spy", 3),
        ("mister-spy", 2),
        ("spycatcher", 2),
        ("spies", 2),
        ("spy-vs-spy", 2),
    ):
        match = services.match_create(user=ann, game=slug, seats=seats, seed=1, bots={1: "random"})
        services.match_start(user=ann, match_id=match.pk)
        pages += [match.get_absolute_url(), reverse("play:rules", args=[slug])]
        pages.append(reverse("play:resign", args=[match.pk]))
        pages.append(reverse("play:abandon", args=[match.pk]))
    finished = two_people(ann, bob, target=3)
    play_out(finished, {0: ann, 1: bob})
    # A rated Black Spy result for the player page's rating history.
    from spyleague.scores.services import EntryLine, result_confirm, result_enter

    result = result_enter(
        user=organiser,
        game="black-spy",
        club=club,
        entries=[EntryLine(p, s) for p, s in ((ann.player, 10), (bob.player, 20), (organiser.player, 30))],
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        result_confirm(user=organiser, result=result)
    pages += [
        reverse("clubs:player", args=[ann.player.pk]),
        reverse("clubs:player", args=[ann.player.pk]) + "?game=black-spy",
        reverse("ratings:leaderboards") + "?game=spies",
    ]
    client.force_login(ann)
    shown = []
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        text = visible_text(response.content.decode())
        shown += [f"{url}: {slug}" for slug in SLUGS if shows_id(slug, text)]
    assert not shown, "game ids shown to people:\n" + "\n".join(shown)
    assert str(Match.objects.filter(game="black-spy").first()).startswith("Black Spy match #")


# --- 7. the rules pages --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "words", "ruling"),
    [
        ("black-spy", "Red 1", "First dealer"),
        ("mister-spy", "33 points", "Every opponent answers every taunt."),
        ("spy-vs-spy", "points pile", "Players."),
        ("spycatcher", "four permissions", "Hand size."),
        ("spies", "1939", "Territory and home country."),
    ],
)
def test_each_game_has_a_rules_page_with_the_engines_rulings(
    client: Any, slug: str, words: str, ruling: str
) -> None:
    response = client.get(reverse("play:rules", args=[slug]))
    assert response.status_code == 200
    page = response.content.decode()
    assert words in page and ruling in page and "How we rule it online" in page
    assert "``" not in page and "**" not in page
    lobby = client.get(reverse("play:lobby")).content.decode()
    assert f'href="{reverse("play:rules", args=[slug])}"' in lobby


# Code in a ruling: a name with an underscore, a call, JSON, a file, a seat by its number.
CODE_IN_WORDS = re.compile(r"\b[a-z]+_[a-z_]+\b|\w\(|[{}\[\]]|\w\.(?:json|py|md)\b|\bseat [+\d]")


@pytest.mark.parametrize("slug", ["black-spy", "mister-spy", "spy-vs-spy", "spycatcher", "spies"])
def test_the_rulings_are_in_words_a_player_reads(client: Any, slug: str) -> None:
    """The rulings come from the engine's docstring, but a player reads them: no code, and a
    heading that begins the ruling's sentence ("**Roll again** works once a turn") is not cut off
    from it ("Roll again. works once a turn")."""
    from spyleague.play.selectors import game_rulings

    rulings = game_rulings(slug)
    assert len(rulings) >= 10
    for ruling in rulings:
        words = f"{ruling['title']} {ruling['text']}"
        assert not CODE_IN_WORDS.search(words), words
        assert ruling["text"][:1].isupper() or ruling["text"][:1] in '"(', words
    page = client.get(reverse("play:rules", args=[slug])).content.decode()
    rulings_html = page[page.index('id="rulings"') :]
    assert not CODE_IN_WORDS.search(re.sub(r"<[^>]+>", " ", rulings_html))


def test_rules_of_an_unknown_game_are_not_found(client: Any) -> None:
    assert client.get(reverse("play:rules", args=["chess"])).status_code == 404
    assert client.get(reverse("play:rules", args=["race-to-ten"])).status_code == 404  # no page written


def test_the_board_links_its_rules(client: Any, make_user: Any) -> None:
    ann = make_user(username="ann")
    match = services.match_create(user=ann, game="black-spy", seats=3, seed=1)
    page = client.get(match.get_absolute_url()).content.decode()
    assert f'href="{reverse("play:rules", args=["black-spy"])}"' in page


def test_a_recompute_leaves_out_results_a_bot_played_in(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    from spyleague.ratings.services import ratings_recompute

    ann, bob = make_user(username="ann"), make_user(username="bob")
    rated = two_people(ann, bob, target=3)
    play_out(rated, {0: ann, 1: bob})
    guest = clubs.guest_add(user=organiser, club=club, name="Gwen Guest").player
    _, table = table_event(club, organiser, [ann.player, guest])
    with TestCase.captureOnCommitCallbacks(execute=True):
        played = services.match_for_table(user=ann, table=table)
    seat = played.seat_set.get(player=ann.player).number
    play_out(played, {seat: ann})
    ratings_recompute(game="race-to-ten", everything=True)
    assert RatingPoint.objects.filter(result__data__match=rated.pk).count() == 2
    assert not RatingPoint.objects.filter(result__data__match=played.pk).exists()
    assert Rating.objects.get(player=ann.player, game="race-to-ten").games == 1


def test_with_two_resigned_of_four_the_first_to_resign_is_last_and_the_page_says_who(
    client: Any, make_user: Any
) -> None:
    users = [make_user(username=n) for n in ("ann", "bob", "cat", "dan")]
    match = services.match_create(user=users[0], game="race-to-ten", seats=4, seed=3, options={"target": 12})
    for user in users[1:]:
        services.match_join(user=user, match_id=match.pk)
    services.match_start(user=users[0], match_id=match.pk)
    client.force_login(users[3])
    page = client.get(reverse("play:resign", args=[match.pk])).content.decode()
    assert "The others play on: a bot takes your seat" in page
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.match_resign(user=users[3], match_id=match.pk)  # dan first
        services.match_resign(user=users[1], match_id=match.pk)  # then bob
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.still_playing == 2
    watching = client.get(match.get_absolute_url()).content.decode()  # dan watches, as a spectator
    assert "you are seat" not in watching and "(resigned, a bot plays on)" in watching
    play_out(match, {0: users[0], 2: users[2]})
    match.refresh_from_db()
    places = match.outcome["places"]
    assert places[3] == 4 and places[1] == 3 and sorted(places[i] for i in (0, 2)) in ([1, 2], [1, 1])
    assert match.outcome["detail"]["resigned"] == [3, 1]
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Dan and Bob resigned: placed below everyone who played on." in page


def test_the_last_two_left_when_one_resigns_the_other_wins_and_it_ends(make_user: Any) -> None:
    users = [make_user(username=n) for n in ("ann", "bob", "cat")]
    match = services.match_create(user=users[0], game="race-to-ten", seats=3, seed=3)
    for user in users[1:]:
        services.match_join(user=user, match_id=match.pk)
    services.match_start(user=users[0], match_id=match.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.match_resign(user=users[2], match_id=match.pk)
        services.match_resign(user=users[0], match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.end_reason == "Ann resigned."
    assert match.outcome["places"] == [2, 1, 3] and match.outcome["detail"]["resigned"] == [2, 0]


def test_resigning_a_friendly_against_bots_alone_ends_it(client: Any, make_user: Any) -> None:
    """Nobody is left to play it out for: the bots share first, the resigner is last."""
    ann = make_user(username="ann")
    match = services.match_create(user=ann, game="race-to-ten", seats=3, seed=3)
    services.match_start(user=ann, match_id=match.pk, fill_with="random")
    client.force_login(ann)
    page = client.get(reverse("play:resign", args=[match.pk])).content.decode()
    assert "The match ends now: the bots share first place." in page
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.match_resign(user=ann, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.end_reason == "Ann resigned."
    assert match.outcome["places"] == [3, 1, 1]


def test_each_list_of_the_lobby_reads_its_seats_with_their_players_in_one_query(
    client: Any, make_user: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann, bob, cat, dan = (make_user(username=n) for n in ("ann", "bob", "cat", "dan"))
    for _ in range(3):
        two_people(ann, bob, seed=1)
        two_people(cat, dan)
    services.match_create(user=cat, game="race-to-ten", seats=2, seed=0)
    client.force_login(ann)
    client.get(reverse("play:lobby"))
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("play:lobby")).content.decode()
    assert "Cat and an open seat" in page and "Waiting for others" in page
    seats = [q["sql"] for q in queries.captured_queries if 'FROM "play_matchseat"' in q["sql"]]
    assert seats and all('"clubs_player"."name"' in sql for sql in seats)  # with their players
    players = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT "clubs_player"')]
    assert len(players) <= 1  # the viewer's own player at most, never a list's


def test_a_match_s_page_and_its_api_read_its_seats_once(client: Any, make_user: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = two_people(ann, bob)
    client.force_login(ann)
    for url in (f"/api/matches/{match.pk}/", match.get_absolute_url()):
        assert client.get(url).status_code == 200
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        seats = [q["sql"] for q in queries.captured_queries if 'FROM "play_matchseat"' in q["sql"]]
        assert len(seats) == 1 and '"clubs_player"."name"' in seats[0], (url, seats)
