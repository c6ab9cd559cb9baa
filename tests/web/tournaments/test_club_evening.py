"""The club evening, as the organiser runs it: players check themselves in by the QR code on the
screen, members are registered with a search-as-you-type picker, the draft's players are swapped
by tapping two of them, repeated pairs are one summary line, and the screen lists everyone's
table by name."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from pairing.explain import RepeatExplanation
from pairing.history import RepeatedPair, RoundPlan
from pairing.history import Round as PRound
from spyleague.clubs.models import Membership, Player, Role
from spyleague.clubs.services import club_join
from spyleague.tournaments import services
from spyleague.tournaments.models import Entrant, Event, Round
from spyleague.tournaments.selectors import draft_notes

from .helpers import make_event, play_round, repeats_said

pytestmark = pytest.mark.django_db


def entered_user(make_user: Any, club: Any, organiser: Any, event: Event, name: str) -> tuple[Any, Entrant]:
    """A player with an account, a member of the club, entered in the event."""
    user = make_user(username=name.lower(), player_name=name)
    club_join(user=user, club=club)
    return user, services.entrant_register(user=organiser, event=event, player=user.player)


def check_in_url(event: Event) -> str:
    return reverse("tournaments:self-check-in", args=[event.pk])


def checked_in() -> dict[int, bool]:
    return dict(Entrant.objects.values_list("pk", "checked_in"))


# --- checking oneself in by the screen's link ----------------------------------------------------


def test_an_entered_player_checks_in_by_the_link_with_one_tap(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=3, game="spy-vs-spy", size=2)
    ann, entry = entered_user(make_user, club, organiser, event, "Ann")
    client.force_login(ann)
    page = client.get(check_in_url(event))
    assert page.status_code == 200
    assert "I'm here: check me in" in page.content.decode()
    entry.refresh_from_db()
    assert not entry.checked_in  # opening the link changes nothing: the tap does
    done = client.post(check_in_url(event), follow=True)
    assert done.redirect_chain == [(check_in_url(event), 302)]
    body = done.content.decode()
    assert "You are checked in for" in body and "Checked in" in body and "check me in" not in body
    entry.refresh_from_db()
    assert entry.checked_in
    # Nobody else was checked in.
    assert [pk for pk, here in checked_in().items() if here] == [entry.pk]
    # A second tap (or a reload of the post) changes nothing and says nothing new.
    again = client.post(check_in_url(event), follow=True)
    assert again.status_code == 200 and "You are checked in for" not in again.content.decode()
    # The pairing now seats only those checked in: the organiser's page says so.
    assert services.pair_who(event=event) == "1 of 4 checked in: only they will be paired."


def test_the_link_asks_a_visitor_to_log_in_and_refuses_who_is_not_entered(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=4, game="spy-vs-spy", size=2)
    before = checked_in()
    anonymous = client.get(check_in_url(event))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert client.post(check_in_url(event)).status_code == 302
    stranger = make_user(username="stan")
    client.force_login(stranger)
    # Not entered: the page offers to enter (a walk-in, below), but a tap that does not ask
    # for it checks nobody in.
    offer = client.get(check_in_url(event))
    assert offer.status_code == 200 and "Enter me and check me in" in offer.content.decode()
    answer = client.post(check_in_url(event))
    assert answer.status_code == 403
    assert "You are not entered in Test Open" in answer.content.decode()
    # A member of the club who is not entered is no different; the organiser neither.
    member = make_user(username="meg")
    club_join(user=member, club=club)
    client.force_login(member)
    assert client.post(check_in_url(event)).status_code == 403
    client.force_login(organiser)
    assert client.post(check_in_url(event)).status_code == 403
    assert checked_in() == before
    assert client.put(check_in_url(event)).status_code == 405
    assert client.get(reverse("tournaments:self-check-in", args=[999999])).status_code == 404


def test_a_walk_in_enters_and_checks_in_with_one_tap_while_check_in_is_open(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    """Someone who scans the screen's code without having registered is not sent away to
    register on the event page and scan again: one tap enters them and checks them in."""
    event = make_event(club, organiser, players=3, game="spy-vs-spy", size=2, rounds=2)
    walk_in = make_user(username="wendy", player_name="Wendy")
    client.force_login(walk_in)
    done = client.post(check_in_url(event), {"enter": "1"}, follow=True)
    assert done.redirect_chain == [(check_in_url(event), 302)]
    assert "You are entered in Test Open and checked in." in done.content.decode()
    entry = Entrant.objects.get(event=event, player=walk_in.player)
    assert entry.checked_in and entry.joined_round == 1
    # A second tap changes nothing.
    again = client.post(check_in_url(event), {"enter": "1"})
    assert (
        again.status_code == 302 and Entrant.objects.filter(event=event, player=walk_in.player).count() == 1
    )
    # While a round is a draft, check-in is closed: nobody is entered, the page says why.
    services.entrants_check_in_all(user=organiser, event=event)
    services.round_pair(event=event)
    late = make_user(username="lou", player_name="Lou")
    client.force_login(late)
    page = client.get(check_in_url(event))
    assert page.status_code == 403 and "Enter me" not in page.content.decode()
    refused = client.post(check_in_url(event), {"enter": "1"})
    assert refused.status_code == 409 and "Round 1 has just been paired" in refused.content.decode()
    assert not Entrant.objects.filter(event=event, player=late.player).exists()


def test_the_link_works_only_until_the_round_is_paired_and_not_after_the_event(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=3, game="spy-vs-spy", size=2, rounds=2)
    ann, entry = entered_user(make_user, club, organiser, event, "Ann")
    client.force_login(ann)
    draft = services.round_pair(event=event)
    for answer in (client.get(check_in_url(event)), client.post(check_in_url(event))):
        assert answer.status_code == 409
        assert "Round 1 has just been paired" in answer.content.decode()
    entry.refresh_from_db()
    assert not entry.checked_in
    # Discarded: open again. Round 1 played: open for round 2 (a Swiss takes late arrivals).
    services.round_discard(user=organiser, rnd=draft)
    assert client.get(check_in_url(event)).status_code == 200
    play_round(event, organiser)
    assert client.post(check_in_url(event)).status_code == 302
    entry.refresh_from_db()
    assert entry.checked_in
    # All rounds paired, then over: closed (a player already checked in is still told so).
    services.entrant_check_in(user=ann, entrant=entry, present=False)
    play_round(event, organiser)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    answer = client.post(check_in_url(event))
    assert answer.status_code == 409 and "This event is over" in answer.content.decode()
    entry.refresh_from_db()
    assert not entry.checked_in


def test_the_link_refuses_a_player_who_dropped_out_and_a_begun_round_robin(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=3, game="spy-vs-spy", size=2)
    ann, entry = entered_user(make_user, club, organiser, event, "Ann")
    services.entrant_drop(user=ann, entrant=entry)
    client.force_login(ann)
    for answer in (client.get(check_in_url(event)), client.post(check_in_url(event))):
        assert answer.status_code == 409 and "You dropped out" in answer.content.decode()
    entry.refresh_from_db()
    assert not entry.checked_in

    robin = make_event(
        club, organiser, players=0, game="spy-vs-spy", size=2, format=Event.Format.ROUND_ROBIN, name="Robin"
    )
    bob = make_user(username="bob", player_name="Bob")
    club_join(user=bob, club=club)
    services.entrant_register(user=organiser, event=robin, player=bob.player)
    for player in Player.objects.filter(name__in=["P00", "P01", "P02"]):
        services.entrant_register(user=organiser, event=robin, player=player)
    services.round_publish(user=organiser, rnd=services.round_pair(event=robin))
    client.force_login(bob)
    answer = client.post(check_in_url(robin))
    assert answer.status_code == 409 and "round robin has begun" in answer.content.decode()
    assert not Entrant.objects.get(event=robin, player=bob.player).checked_in


def test_the_api_checks_in_the_same_way(api_client: Any, club: Any, organiser: Any, make_user: Any) -> None:
    event = make_event(club, organiser, players=3, game="spy-vs-spy", size=2)
    ann, entry = entered_user(make_user, club, organiser, event, "Ann")
    url = f"/api/events/{event.pk}/check-in/"
    assert api_client.post(url).status_code in (401, 403)
    api_client.force_authenticate(make_user(username="stan"))
    refused = api_client.post(url)
    assert refused.status_code == 403 and "not entered" in refused.json()["detail"]
    api_client.force_authenticate(ann)
    answer = api_client.post(url)
    assert answer.status_code == 200 and answer.json()["checked_in"] is True
    assert api_client.post(url).status_code == 200  # twice: nothing new
    services.entrant_check_in(user=ann, entrant=entry, present=False)
    services.round_pair(event=event)
    closed = api_client.post(url)
    assert closed.status_code == 409 and "has just been paired" in closed.json()["detail"]
    entry.refresh_from_db()
    assert not entry.checked_in


# --- the screen ------------------------------------------------------------------------------


def test_the_screen_shows_the_check_in_qr_code_while_check_in_is_open(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=4, game="spy-vs-spy", size=2, rounds=2)
    ann, _ = entered_user(make_user, club, organiser, event, "Ann")
    client.force_login(ann)
    client.post(check_in_url(event))
    client.logout()
    screen = client.get(reverse("tournaments:public", args=[event.pk]))
    body = screen.content.decode()
    assert screen.status_code == 200
    # An inline SVG (no script), labelled, and the link written out beside it.
    svg = re.search(r'<svg role="img" aria-label="QR code: check in to Test Open"[^>]*>.*?</svg>', body, re.S)
    assert svg is not None and 'class="qr"' in svg.group(0) and "<path" in svg.group(0)
    assert f"http://testserver{check_in_url(event)}" in body
    assert "1 of 5 checked in" in body
    assert "<script" not in body.split('id="screen"')[1]
    # The QR code holds the link (segno's own matrix for it is what the page draws).
    import segno

    modules = len(segno.make(f"http://testserver{check_in_url(event)}", error="m").matrix)
    assert f'viewBox="0 0 {modules + 4} {modules + 4}"' in svg.group(0)
    refreshed = client.get(reverse("tournaments:public", args=[event.pk]), HTTP_HX_REQUEST="true")
    assert (
        refreshed.content.decode().lstrip().startswith('<div class="screen"')
        and svg.group(0) in refreshed.content.decode()
    )
    # Once the round is paired, the code leaves the screen (htmx refreshes it too).
    services.entrants_check_in_all(user=organiser, event=event)
    services.round_pair(event=event)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        later = client.get(reverse("tournaments:public", args=[event.pk]), **headers).content.decode()
        assert "<svg" not in later and "check in" not in later.lower()


def test_the_screen_lists_everyone_by_name_with_their_table(client: Any, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=9, game="spy-vs-spy", size=2, rounds=2)
    for i, player in enumerate(Player.objects.filter(name__startswith="P").order_by("name")):
        player.name = ["Zoe", "Ann", "Mia", "Bob", "Kim", "Eve", "Dan", "Uma", "Cal"][i]
        player.save()
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    screen = client.get(reverse("tournaments:public", args=[event.pk])).content.decode()
    block = screen.split('id="find-your-name"')[1].split("</section>")[0]
    shown = re.findall(r"<li><span>([^<]+)</span><span class=\"at\">([^<]+)</span></li>", block)
    expected = sorted(
        (s.entrant.player.name, "bye" if t.is_bye else f"table {t.number}")
        for t in rnd.tables.all()
        for s in t.seats.select_related("entrant__player")
    )
    assert shown == expected
    assert [name for name, _ in shown] == ["Ann", "Bob", "Cal", "Dan", "Eve", "Kim", "Mia", "Uma", "Zoe"]
    assert any(at == "bye" for _, at in shown)  # nine players at tables of 2


def test_the_screen_turns_the_pages_of_names_with_the_others(client: Any, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=50, game="spy-vs-spy", size=2, rounds=2)
    services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    url = reverse("tournaments:public", args=[event.pk])
    first = client.get(url).content.decode()
    second = client.get(url, {"page": 2}).content.decode()
    # 25 tables, 50 names and 50 places: 3 pages of standings and of tables, 2 of 40 names each.
    assert "page 1 of 3" in first and "page 2 of 3" in second
    assert "P to P · names 1 to 40 of 50" in first
    assert "names 41 to 50 of 50" in second
    third = client.get(url, {"page": 3}).content.decode()
    assert "names 1 to 40 of 50" in third  # fewer pages of names: they start again


# --- registering with the picker ----------------------------------------------------------------


def test_the_picker_lists_the_members_not_yet_entered_and_finds_them_by_name(
    client: Any, club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=2, game="spy-vs-spy", size=2)
    for name in ("Anna Bell", "Ben Dover", "Céline Ånd"):
        Membership.objects.create(club=club, player=Player.objects.create(name=name, guest_of=club))
    client.force_login(organiser)
    url = reverse("tournaments:event", args=[event.pk])
    page = client.get(url).content.decode()
    boxes = re.findall(r'<input type="checkbox" name="player" value="(\d+)"> <span>([^<]+)</span>', page)
    assert [name for _, name in boxes] == ["Anna Bell", "Ben Dover", "Céline Ånd", "Olga Organiser"]
    assert 'id="find-player"' in page and 'data-picker-complete="true"' in page
    assert '<select name="player"' not in page  # no more Ctrl-click multi-select
    found = client.get(url, {"find": "  ben "}).content.decode()
    assert re.findall(r'name="player" value="\d+"> <span>([^<]+)</span>', found) == ["Ben Dover"]
    assert "1 of 4 not yet registered match “ben”" in found
    assert 'data-picker-complete="false"' in found
    none = client.get(url, {"find": "zz"}).content.decode()
    assert "Nobody not yet registered is called “zz”" in none
    assert client.get(url, {"find": "zz\x00"}).status_code == 400
    # The ticked boxes register those players, and only them.
    chosen = [pk for pk, name in boxes if name in ("Anna Bell", "Céline Ånd")]
    done = client.post(reverse("tournaments:entrant-add", args=[event.pk]), {"player": chosen}, follow=True)
    assert "Registered 2 players." in done.content.decode()
    assert set(Entrant.objects.filter(event=event).values_list("player__name", flat=True)) == {
        "P00",
        "P01",
        "Anna Bell",
        "Céline Ånd",
    }
    left = re.findall(r'name="player" value="\d+"> <span>([^<]+)</span>', done.content.decode())
    assert left == ["Ben Dover", "Olga Organiser"]


def test_a_big_club_shows_the_first_names_and_finds_the_others(
    client: Any, club: Any, organiser: Any
) -> None:
    from spyleague.tournaments.views import CANDIDATES_SHOWN

    event = make_event(club, organiser, players=0, game="spy-vs-spy", size=2)
    players = Player.objects.bulk_create(
        Player(name=f"Member {i:03d}", guest_of=club) for i in range(CANDIDATES_SHOWN + 10)
    )
    Membership.objects.bulk_create(Membership(club=club, player=p, role=Role.PLAYER) for p in players)
    client.force_login(organiser)
    url = reverse("tournaments:event", args=[event.pk])
    page = client.get(url).content.decode()
    assert page.count('name="player"') == CANDIDATES_SHOWN
    assert f"Showing {CANDIDATES_SHOWN} of {CANDIDATES_SHOWN + 11}" in page
    assert 'data-picker-complete="false"' in page
    found = client.get(url, {"find": "member 205"}).content.decode()
    assert re.findall(r'name="player" value="\d+"> <span>([^<]+)</span>', found) == ["Member 205"]


def test_players_see_no_picker(client: Any, club: Any, organiser: Any, make_user: Any) -> None:
    event = make_event(club, organiser, players=2, game="spy-vs-spy", size=2)
    member = make_user(username="meg")
    club_join(user=member, club=club)
    client.force_login(member)
    page = client.get(reverse("tournaments:event", args=[event.pk]), {"find": "P"}).content.decode()
    assert "data-picker" not in page and "organiser.js" not in page


# --- tapping two players to swap them ---------------------------------------------------------------


def draft_with_tables(club: Any, organiser: Any) -> tuple[Event, Round]:
    event = make_event(club, organiser, players=6, game="spy-vs-spy", size=2)
    return event, services.round_pair(event=event)


def seat_ids(rnd: Round) -> list[list[int]]:
    return [
        [s.entrant_id for s in t.seats.order_by("position")]
        for t in Round.objects.get(pk=rnd.pk).tables.order_by("number")
    ]


def test_each_draft_player_is_a_tap_and_the_second_tap_swaps(client: Any, club: Any, organiser: Any) -> None:
    event, draft = draft_with_tables(club, organiser)
    before = seat_ids(draft)
    (a, partner), (b, _), _ = before
    client.force_login(organiser)
    url = reverse("tournaments:event", args=[event.pk])
    page = client.get(url).content.decode()
    assert "To swap two players, tap one, then the other." in page
    links = re.findall(r'<a class="seat-pick" href="\?swap=(\d+)#round-1" data-entrant="(\d+)">', page)
    assert sorted(int(x) for x, y in links if x == y) == sorted(p for table in before for p in table)
    # The first tap (without JavaScript, a page): that player is lit, the others are buttons.
    first = client.get(url, {"swap": a}).content.decode()
    name = Entrant.objects.get(pk=a).player.name
    assert f"Swapping <strong>{name}</strong>" in first
    picked = re.search(
        rf'<a class="seat-pick picked" aria-pressed="true" href="([^"]*)" data-entrant="{a}">', first
    )
    assert picked is not None, first.split("data-swap-round")[1][:600]
    assert "swap=" not in picked.group(1)  # tapping them again: no one tapped
    assert f'<input type="hidden" name="a" value="{a}">' in first
    assert len(re.findall(r'<button class="seat-pick" type="submit" name="b" value="\d+"', first)) == 5
    seat_ids_unchanged = seat_ids(draft)
    assert seat_ids_unchanged == before  # looking changes nothing
    # The second tap posts the swap the draft form always took.
    swapped = client.post(
        reverse("tournaments:round-action", args=[event.pk, 1]), {"do": "swap", "a": a, "b": b}, follow=True
    )
    assert "Swapped" in swapped.content.decode()
    # Back at the draft's tables, not the top of the page (on a phone they are far below it).
    assert swapped.redirect_chain == [(f"{url}#round-1", 302)]
    after = seat_ids(draft)
    assert after[0] == [b, partner] and a in after[1]
    # "Swap by name" is still there, folded, for a long list.
    assert '<details class="swap-by-name"><summary>Swap by name</summary>' in swapped.content.decode()


def test_a_first_tap_that_is_no_player_of_the_draft_is_no_tap(client: Any, club: Any, organiser: Any) -> None:
    event, draft = draft_with_tables(club, organiser)
    other = make_event(club, organiser, players=2, game="spy-vs-spy", size=2, name="Other")
    stranger = Entrant.objects.filter(event=other).first()
    assert stranger is not None
    client.force_login(organiser)
    url = reverse("tournaments:event", args=[event.pk])
    for raw in ("", "abc", "-1", "²", "9" * 40, str(stranger.pk), "99999999"):
        page = client.get(url, {"swap": raw})
        assert page.status_code == 200
        assert "To swap two players, tap one, then the other." in page.content.decode()
        assert 'name="b"' not in page.content.decode().split("data-swap-round")[1].split("</ul>")[0]
    # A player who is not the organiser sees no draft at all, tapped or not.
    client.logout()
    assert "seat-pick" not in client.get(url, {"swap": seat_ids(draft)[0][0]}).content.decode()


# --- repeated pairs: one line ---------------------------------------------------------------------


def test_a_round_that_must_repeat_pairs_says_so_in_one_line(client: Any, club: Any, organiser: Any) -> None:
    # Four players at tables of 2 have met everyone after three rounds: the fourth repeats two pairs.
    event = make_event(club, organiser, players=4, game="spy-vs-spy", size=2, rounds=4)
    for _ in range(3):
        assert repeats_said(play_round(event, organiser)) == (0, True)
    draft = services.round_pair(event=event)
    summary = [n for n in draft.notes if "meet again" in n]
    assert len(summary) == 1, draft.notes  # no long explanation per pair: they had to meet again
    pair = r"P0\d\u2013P0\d \(round \d\)"
    assert re.fullmatch(rf"2 pairs meet again: {pair}, {pair}; the fewest possible\.", summary[0]), summary[0]
    client.force_login(organiser)
    page = client.get(reverse("tournaments:event", args=[event.pk])).content.decode()
    assert summary[0] in page and "notes-more" not in page


def test_a_pair_a_swap_could_separate_is_explained_folded_under_the_summary(
    client: Any, club: Any, organiser: Any
) -> None:
    names = {1: "Ann", 2: "Ben", 3: "Cat", 4: "Dan"}
    first = "Ann and Ben meet again (they met in round 1). Long."
    second = "Cat and Dan meet again (they met in rounds 1 and 2)."
    whys = [
        RepeatExplanation((1, 2), 0, (1,), False, None, first),
        RepeatExplanation((3, 4), 1, (1, 2), False, None, second),
    ]
    plan = RoundPlan(
        PRound(((1, 2), (3, 4))),
        (RepeatedPair((1, 2), 0, (1,)), RepeatedPair((3, 4), 1, (1, 2))),
        repeat_lower_bound=1,
        spread=0.0,
    )
    notes = services.repeats_notes(plan, whys, names)
    assert notes[0] == (
        "2 pairs meet again: Ann\u2013Ben (round 1), Cat\u2013Dan (rounds 1 and 2); "
        "the fewest possible is at least 1."
    )
    folded = draft_notes(notes=["Round 2: 2 tables of 2.", *notes, "Swapped Ann and Cat by hand."])
    assert folded.lines == ["Round 2: 2 tables of 2.", notes[0], "Swapped Ann and Cat by hand."]
    assert folded.details == [w.text for w in whys]
    many = [RepeatExplanation((i, i + 1), 0, (1,), True, None, "") for i in range(1, 24, 2)]
    plan_many = RoundPlan(PRound(()), tuple(RepeatedPair(w.players, 0, (1,)) for w in many), 12, 0.0)
    line = services.repeats_notes(plan_many, many, {i: f"N{i}" for i in range(1, 25)})
    assert len(line) == 1 and line[0].endswith("N15\u2013N16 (round 1) and 4 more; the fewest possible.")
    # On the page: the summary, and the explanations in a fold.
    event, draft = draft_with_tables(club, organiser)
    draft.notes = ["Round 1: 3 tables of 2.", *notes]
    draft.save(update_fields=["notes"])
    client.force_login(organiser)
    page = client.get(reverse("tournaments:event", args=[event.pk])).content.decode()
    assert notes[0] in page
    fold = page.split('<details class="notes-more">')[1].split("</details>")[0]
    assert "Why, and what a swap would do (2 pairs)" in fold and "Long." in fold
