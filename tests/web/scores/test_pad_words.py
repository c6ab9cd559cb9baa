"""A pad speaks its game's words and offers its game's options only: a Spy vs Spy race sheet has
races (not deals) and no Black Spy variants; a Black Spy scorepad has deals and no half decks."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from spyleague.clubs.models import Player
from spyleague.scores import scorepad as pads
from spyleague.tournaments import services
from tests.web.tournaments.helpers import make_event

pytestmark = pytest.mark.django_db

BLACK_SPY_OPTIONS = ("no_good_spies", "capture_or_release", "going_back", "the_mole", "end_value")


def main(page: str) -> str:
    """The words of the page's content, its tags dropped (the menu and the scripts left out)."""
    found = re.search(r"<main[^>]*>(.*)</main>", page, re.S)
    assert found
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def words_of_the_other_game(page: str, game: str) -> list[str]:
    other = r"\b(deal|deals|dealt|trick|tricks)\b" if game == "spy-vs-spy" else r"\b(race|races|raced)\b"
    return re.findall(other, main(page), re.I)


def pad_page(client: Any, pad: Any, **query: str) -> str:
    return client.get(reverse("scores:pad", args=[pad.pk]), query).content.decode()


def test_a_race_sheet_says_races_whatever_its_state(client: Any, make_user: Any) -> None:
    owner = make_user(username="owen")
    pad = pads.scorepad_open(user=owner, players=[owner.player, Player(name="Rae")], game="spy-vs-spy")
    client.force_login(owner)
    seen = [pad_page(client, pad)]
    assert "No races yet." in main(seen[0]) and "Race 1" in main(seen[0])
    pads.scorepad_deal_add(user=owner, pad=pad, points=[3, 4], first=0)
    seen.append(pad_page(client, pad))
    seen.append(pad_page(client, pad, round="1"))
    assert "Correct race 1" in main(seen[-1]) and "Save the correction of race 1" in main(seen[-1])
    pads.scorepad_deal_correct(user=owner, pad=pad, number=1, points=[2, 4], first=0)
    pads.scorepad_deal_add(user=owner, pad=pad, points=[-20, 4], first=0)
    seen.append(pad_page(client, pad))
    assert "Game over after 2 races" in main(seen[-1]) and "Race 1 corrected" in main(seen[-1])
    for page in seen:
        assert words_of_the_other_game(page, "spy-vs-spy") == [], main(page)
        assert "Black Spy" not in main(page)


def test_a_black_spy_scorepad_says_deals(client: Any, make_user: Any) -> None:
    owner = make_user(username="owen")
    pad = pads.scorepad_open(user=owner, players=[owner.player, Player(name="Bea"), Player(name="Cy")])
    client.force_login(owner)
    seen = [pad_page(client, pad)]
    assert "No deals yet." in main(seen[0])
    pads.scorepad_deal_add(user=owner, pad=pad, points=[30, 20, 10])
    seen += [pad_page(client, pad), pad_page(client, pad, round="1")]
    assert "Correct deal 1" in main(seen[-1])
    for page in seen:
        assert words_of_the_other_game(page, "black-spy") == [], main(page)


def table_of(club: Any, organiser: Any, game: str, size: int) -> Any:
    event = make_event(club, organiser, players=size, game=game, size=size, name=f"{game} night")
    return services.round_publish(user=organiser, rnd=services.round_pair(event=event)).tables.get()


@pytest.mark.parametrize(("size", "half_decks"), [(2, True), (3, False)])
def test_a_new_pad_for_a_spy_vs_spy_table_offers_its_options_only(
    client: Any, club: Any, organiser: Any, size: int, half_decks: bool
) -> None:
    table = table_of(club, organiser, "spy-vs-spy", size)
    client.force_login(organiser)
    page = client.get(reverse("scores:pad-new"), {"table": table.pk}).content.decode()
    assert not [name for name in BLACK_SPY_OPTIONS if f'name="{name}"' in page]
    assert "Black Spy" not in main(page)
    assert ('name="half_decks"' in page) is half_decks  # half a deck each: for two players only
    assert words_of_the_other_game(page, "spy-vs-spy") == []


def test_a_new_pad_for_a_black_spy_table_offers_its_variants_only(
    client: Any, club: Any, organiser: Any
) -> None:
    table = table_of(club, organiser, "black-spy", 4)
    client.force_login(organiser)
    page = client.get(reverse("scores:pad-new"), {"table": table.pk}).content.decode()
    assert 'name="half_decks"' not in page and "Spy vs Spy" not in main(page)
    assert all(f'name="{name}"' in page for name in BLACK_SPY_OPTIONS)


def test_a_new_pad_without_a_table_shows_the_chosen_games_options(client: Any, make_user: Any) -> None:
    client.force_login(make_user(username="owen"))
    page = client.get(reverse("scores:pad-new")).content.decode()
    # Both games' options are in the form, each in its game's own box; the other game's is hidden.
    black = re.search(r'<fieldset data-game="black-spy"[^>]*>', page)
    race = re.search(r'<fieldset data-game="spy-vs-spy"[^>]*>', page)
    assert black and race and "hidden" in race.group(0) and "hidden" not in black.group(0)
    assert 'data-shows="#pad-options fieldset[data-game]"' in page
    page = client.post(reverse("scores:pad-new"), {"game": "spy-vs-spy", "more": "1"}).content.decode()
    race = re.search(r'<fieldset data-game="spy-vs-spy"[^>]*>', page)
    black = re.search(r'<fieldset data-game="black-spy"[^>]*>', page)
    assert race and black and "hidden" not in race.group(0) and "hidden" in black.group(0)
