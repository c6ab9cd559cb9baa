"""The club evening in the browser: the organiser registers members with the search-as-you-type
picker, players check themselves in by the screen's QR code link, the draft's players are
swapped by tapping two of them, and the screen lists everyone's table by name. Every page runs
under the site's Content-Security-Policy (a violation fails the test)."""

from __future__ import annotations

from typing import Any

import pytest

from spyleague.clubs.models import Club, Membership, Player, Role
from spyleague.clubs.services import club_create, club_join
from spyleague.tournaments import services
from spyleague.tournaments.models import Entrant, Event, Round

from .conftest import no_sideways_scroll, shot
from .helpers import log_in_as

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ann Archer", "Ben Black", "Cat Cole", "Dan Drake", "Eve East", "Finn Fox", "Gus Grey"]


def evening(make_user: Any) -> tuple[Any, Club, Event, list[Any]]:
    """Olga's club with seven members, two of them with accounts (Ann and Ben), and a Swiss of
    Spy vs Spy with nobody registered yet."""
    olga = make_user(username="olga", player_name="Olga Organiser")
    club = club_create(user=olga, name="Dead Drop Club", city="Bath")
    users = []
    for name in NAMES[:2]:
        user = make_user(username=name.split()[0].lower(), player_name=name)
        club_join(user=user, club=club)
        users.append(user)
    for name in NAMES[2:]:
        Membership.objects.create(
            club=club, player=Player.objects.create(name=name, guest_of=club), role=Role.PLAYER
        )
    event = services.event_create(
        club=club, user=olga, name="Friday Night Spies", game="spy-vs-spy", table_size=2, rounds=3
    )
    return olga, club, event, users


def seats(event: Event) -> list[list[str]]:
    rnd = Round.objects.filter(event=event).order_by("-number").first()
    assert rnd is not None
    return [
        [s.entrant.player.name for s in t.seats.select_related("entrant__player").order_by("position")]
        for t in rnd.tables.order_by("number")
    ]


def test_the_club_evening_from_registration_to_the_screen(
    page: Any, phone: Any, browser: Any, live_server: Any, make_user: Any
) -> None:
    _olga, _club, event, (ann, _ben) = evening(make_user)
    log_in_as(page, "olga")
    page.goto(event.get_absolute_url())

    # Registration: type to filter, tap to tick, Enter ticks the only match.
    chips = page.locator("#candidates li:not([hidden])")
    assert chips.count() == 8  # the seven members and Olga
    page.fill("#find-player", "ann")
    assert chips.count() == 1
    page.get_by_text("Ann Archer", exact=True).click()
    assert page.input_value("#find-player") == ""  # cleared for the next name
    page.fill("#find-player", "GREY")
    assert chips.count() == 2  # Gus, and Ann who is ticked stays in sight
    page.press("#find-player", "Enter")
    assert page.locator("#candidates input:checked").count() == 2
    page.fill("#find-player", "zzz")
    assert page.locator("[data-picker-none]").is_visible()
    page.fill("#find-player", "")
    for name in ("Ben Black", "Cat Cole", "Dan Drake", "Eve East"):
        page.get_by_text(name, exact=True).click()
    register = page.locator("[data-picker-submit]")
    assert register.inner_text() == "Register 6 players"
    shot(page, "club-evening-picker")
    register.click()
    page.wait_for_selector("text=Registered 6 players.")
    assert sorted(Entrant.objects.filter(event=event).values_list("player__name", flat=True)) == sorted(
        ["Ann Archer", "Gus Grey", "Ben Black", "Cat Cole", "Dan Drake", "Eve East"]
    )
    assert page.locator("#candidates input[type=checkbox]").count() == 2  # Finn and Olga left
    assert "Players can check themselves in" in page.inner_text("#self-check-in")

    # The screen shows the check-in QR code and the link it holds.
    page.goto(f"/events/{event.pk}/screen/")
    qr = page.locator("#check-in svg.qr")
    assert qr.is_visible() and qr.bounding_box()["width"] >= 150
    link = page.locator("#check-in a.link").get_attribute("href")
    assert link == f"{live_server.url}/events/{event.pk}/check-in/"
    assert page.inner_text("#checked-in-count") == "0 of 6 checked in"
    shot(page, "club-evening-screen-check-in")

    # Ann opens the link on her phone: logs in, taps, is checked in.
    phone.goto(link)
    phone.fill("#id_username", "ann")
    phone.fill("#id_password", "correct-horse-battery")
    phone.click("main button[type=submit]")
    phone.wait_for_url(link)
    shot(phone, "club-evening-phone-check-in")
    assert no_sideways_scroll(phone)
    phone.get_by_role("button", name="I'm here: check me in").click()
    phone.wait_for_selector("text=You are checked in for Friday Night Spies.")
    shot(phone, "club-evening-phone-checked-in")
    assert Entrant.objects.get(event=event, player=ann.player).checked_in
    # Someone with an account who is not entered is offered to enter (a walk-in: see below),
    # and checked in only if they tap it.
    make_user(username="stan")
    other = browser.new_context(base_url=live_server.url)
    try:
        visitor = other.new_page()
        log_in_as(visitor, "stan")
        answer = visitor.goto(link)
        assert answer is not None and answer.status == 200
        assert "You are not entered in Friday Night Spies yet" in visitor.inner_text("main")
        assert visitor.get_by_role("button", name="Enter me and check me in").is_visible()
        shot(visitor, "club-evening-check-in-offer")
    finally:
        other.close()
    page.reload()
    assert page.inner_text("#checked-in-count") == "1 of 6 checked in"

    # The organiser checks everyone in at the desk and pairs: the draft's players are taps.
    page.goto(event.get_absolute_url())
    page.get_by_role("button", name="Check in everyone").click()
    page.get_by_role("button", name="Pair the next round").click()
    page.wait_for_selector("text=Publish round 1", timeout=20_000)
    before = seats(event)
    first, second = before[0][0], before[1][0]
    page.locator("#round-1 .seat-pick", has_text=first).click()
    assert page.locator("#round-1 .seat-pick.picked").inner_text() == first
    assert f"Swapping {first}" in page.inner_text("[data-swap-hint]")
    shot(page, "club-evening-draft-tapped")
    # Tapping the same player again cancels; then two taps swap.
    page.locator("#round-1 .seat-pick", has_text=first).click()
    assert page.locator("#round-1 .seat-pick.picked").count() == 0
    page.locator("#round-1 .seat-pick", has_text=first).click()
    page.locator("#round-1 .seat-pick", has_text=second).click()
    page.wait_for_selector(f"text=Swapped {first} and {second}.")
    after = seats(event)
    assert after[0] == [second, before[0][1]] and after[1] == [first, before[1][1]]
    # Phone: the draft fits, and the taps are big enough for a thumb.
    phone.goto("about:blank")
    log_in_as(phone, "olga")
    phone.goto(event.get_absolute_url() + "#round-1")
    assert no_sideways_scroll(phone)
    assert phone.locator("#round-1 .seat-pick").first.bounding_box()["height"] >= 38
    shot(phone, "club-evening-draft-phone")

    # Published: the screen says where everyone sits, by name.
    page.get_by_role("button", name="Publish round 1").click()
    page.wait_for_selector("text=Round 1 is published")
    page.goto(f"/events/{event.pk}/screen/")
    assert page.locator("#check-in").count() == 1  # a Swiss takes late arrivals before round 2
    names = page.locator("#find-your-name li").all_inner_texts()
    expected = sorted(
        f"{name}\t{'table ' + str(number)}"
        for number, table in enumerate(seats(event), start=1)
        for name in table
    )
    assert [n.replace("\n", "\t") for n in names] == expected
    shot(page, "club-evening-screen-round")
    phone.goto(f"/events/{event.pk}/screen/")
    assert no_sideways_scroll(phone)
    shot(phone, "club-evening-screen-phone")


def test_a_walk_in_scans_the_code_and_enters_and_checks_in_with_one_tap(
    page: Any, phone: Any, make_user: Any
) -> None:
    _olga, _club, event, _ = evening(make_user)
    make_user(username="wendy", player_name="Wendy Walker")
    log_in_as(phone, "wendy")
    phone.goto(f"/events/{event.pk}/check-in/")
    assert no_sideways_scroll(phone)
    shot(phone, "club-evening-walk-in-phone")
    phone.get_by_role("button", name="Enter me and check me in").click()
    phone.wait_for_selector("text=You are entered in Friday Night Spies and checked in.")
    assert phone.get_by_text("Checked in", exact=True).is_visible()
    entry = Entrant.objects.get(event=event, player__name="Wendy Walker")
    assert entry.checked_in
    # The screen counts her.
    log_in_as(page, "olga")
    page.goto(f"/events/{event.pk}/screen/")
    assert page.inner_text("#checked-in-count") == "1 of 1 checked in"


def test_a_swap_without_javascript_is_two_taps_too(browser: Any, live_server: Any, make_user: Any) -> None:
    olga, _club, event, _ = evening(make_user)
    for player in Player.objects.filter(name__in=NAMES[2:6]):
        services.entrant_register(user=olga, event=event, player=player)
    services.round_pair(event=event)
    before = seats(event)
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        log_in_as(page, "olga")
        page.goto(event.get_absolute_url())
        page.locator("#round-1 .seat-pick", has_text=before[0][0]).click()
        page.wait_for_url("**?swap=*")
        assert page.locator("#round-1 .seat-pick.picked").inner_text() == before[0][0]
        page.locator("#round-1 button.seat-pick", has_text=before[1][1]).click()
        page.wait_for_selector(f"text=Swapped {before[0][0]} and {before[1][1]}.")
        # The picker is a plain form: a search, then ticks.
        page.fill("#find-player", "gus")
        page.get_by_role("button", name="Find").click()
        page.wait_for_url("**find=gus*")
        assert page.locator("#candidates input[type=checkbox]").count() == 1
        page.get_by_text("Gus Grey", exact=True).click()
        page.get_by_role("button", name="Register", exact=True).click()
        page.wait_for_selector("text=Registered 1 player.")
    finally:
        context.close()
    after = seats(event)
    assert after[0] == [before[1][1], before[0][1]] and after[1] == [before[1][0], before[0][0]]


def test_the_repeated_pairs_are_one_line_with_the_details_folded(page: Any, make_user: Any) -> None:
    olga, _club, event, _ = evening(make_user)
    for player in Player.objects.filter(name__in=NAMES[2:6]):
        services.entrant_register(user=olga, event=event, player=player)
    draft = services.round_pair(event=event)
    draft.notes = [
        "Round 2: 2 tables of 2.",
        "2 pairs meet again: Cat Cole\u2013Dan Drake (round 1), Eve East\u2013Finn Fox (round 1); "
        "the fewest possible is at least 1.",
        "Cat Cole and Dan Drake meet again (they met in round 1). This round can be improved: swapping "
        "Cat Cole with Eve East (table 2) avoids this repeat without widening the points spread.",
    ]
    draft.save(update_fields=["notes"])
    log_in_as(page, "olga")
    page.goto(event.get_absolute_url() + "#round-1")
    notes = page.locator("#draft-notes li").all_inner_texts()
    assert len(notes) == 2 and notes[1].startswith("2 pairs meet again: Cat Cole\u2013Dan Drake")
    fold = page.locator("details.notes-more")
    assert not fold.locator("li").first.is_visible()
    fold.locator("summary").click()
    assert fold.locator("li").first.is_visible()
    shot(page, "club-evening-repeats")
