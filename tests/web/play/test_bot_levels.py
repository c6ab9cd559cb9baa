"""Players choose a bot by its level in words, and see it on the seats, in the API and the lobby."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games import engines, get_bots
from spyleague.play import levels, services
from spyleague.play.models import Match

pytestmark = pytest.mark.django_db


class Labelled:
    """A bot of a test's own with a level of its own words."""

    name = "champion"
    label = "Grandmaster"

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Any) -> Any:
        return legal[0]


def test_every_game_s_bots_have_a_level_in_words_weakest_first() -> None:
    for engine in engines():
        found = levels.levels(engine.slug)
        assert [name for name, _ in found] == sorted(get_bots(engine.slug), key=levels._rank)
        assert found[0] == ("random", "Novice"), engine.slug
        assert "heuristic" not in dict(found) or found[1] == ("heuristic", "Beginner"), engine.slug
        assert all(level and level[0].isupper() and "_" not in level for _, level in found)
    assert levels.all_levels()[:2] == (("random", "Novice"), ("heuristic", "Beginner"))


def test_a_bot_that_says_its_level_is_named_by_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "get_bots", lambda game: {**get_bots(game), "champion": Labelled()})
    levels.level_of.cache_clear()
    levels.levels.cache_clear()
    try:
        assert levels.level_of("black-spy", "champion") == "Grandmaster"
        assert levels.levels("black-spy")[-1] == ("champion", "Grandmaster")
        assert levels.bot_seat_name("black-spy", "champion", 2) == "Grandmaster bot 3"
    finally:
        levels.level_of.cache_clear()
        levels.levels.cache_clear()
    assert levels.level_of("black-spy", "gone") == "Gone"  # a seat of a bot the game no longer has


def test_the_lobby_offers_the_levels_and_the_match_names_them(client: Any, make_user: Any) -> None:
    ann = make_user(username="ann")
    client.force_login(ann)
    page = client.get(reverse("play:lobby")).content.decode()
    select = page[
        page.index('<select name="bot"') : page.index("</select>", page.index('<select name="bot"'))
    ]
    offered = re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', select)
    assert offered == list(levels.all_levels())
    assert 'label for="id_bot">Bot level<' in page
    response = client.post(
        reverse("play:new"), {"game": "black-spy", "seats": 3, "fill_with_bots": "on", "bot": "random"}
    )
    assert response.status_code == 302
    match = Match.objects.get()
    assert sorted(match.seat_set.exclude(bot="").values_list("bot", flat=True)) == ["random", "random"]
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Novice bot 2" in page and "Novice bot 3" in page and "Random bot" not in page
    seats = client.get(f"/api/matches/{match.pk}/").json()["seats"]
    assert [(s["bot"], s["bot_label"]) for s in seats] == [
        (None, None),
        ("random", "Novice"),
        ("random", "Novice"),
    ]


def test_a_level_the_game_does_not_have_is_refused_in_words(
    client: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = make_user(username="ann")
    client.force_login(ann)
    # A level another game has (the lobby lists every game's): this game refuses it, saying which it has.
    every = (*levels.all_levels(), ("champion", "Champion"))
    monkeypatch.setattr(services, "all_levels", lambda: every)
    match = services.match_create(user=ann, game="black-spy", seats=3)
    with pytest.raises(services.MoveRejected) as refused:
        services.match_start(user=ann, match_id=match.pk, fill_with="champion")
    assert "Black Spy has no Champion bot yet: choose Novice, Beginner" in refused.value.reason
    with pytest.raises(services.MoveRejected) as unknown:
        services.match_start(user=ann, match_id=match.pk, fill_with="nobody")
    assert "No bot is called 'nobody'; choose Novice, Beginner" in unknown.value.reason
    response = client.post(
        reverse("play:new"), {"game": "black-spy", "seats": 3, "fill_with_bots": "on", "bot": "nobody"}
    )
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()


def test_the_api_lists_each_game_s_bots_with_their_levels(client: Any) -> None:
    listed = {g["slug"]: g for g in client.get("/api/games/").json()}
    for engine in engines():
        assert listed[engine.slug]["bots"] == [
            {"name": name, "level": level} for name, level in levels.levels(engine.slug)
        ]


def test_a_level_is_rated_from_its_matches_against_people_once_each(client: Any, make_user: Any) -> None:
    from spyleague.play.results import match_report_result
    from spyleague.ratings.models import BotRating, Rating

    from .test_play_flow import play_out

    ann = make_user(username="ann")
    before = None
    for seed in range(3):
        match = services.match_create(
            user=ann, game="race-to-ten", seats=2, seed=seed, options={"target": 6}, bots={1: "random"}
        )
        services.match_start(user=ann, match_id=match.pk)
        play_out(match, {0: ann})
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        rating = BotRating.objects.get(game="race-to-ten", bot="random")
        assert rating.games == seed + 1
        if before is not None:
            assert (rating.mu, rating.sigma) != before and rating.sigma < before[1]  # it moved, surer
        before = (rating.mu, rating.sigma)
        match_report_result(match_id=match.pk)  # its end reported again (a sweep): counted once
        assert BotRating.objects.get(pk=rating.pk).games == seed + 1
    assert not Rating.objects.filter(player=ann.player).exists()  # the person's rating did not move
    listed = client.get("/api/leaderboards/race-to-ten/bots/").json()
    assert [(b["bot"], b["level"], b["games"]) for b in listed["results"]] == [("random", "Novice", 3)]
    assert listed["results"][0]["rating"] == round(before[0] - 3 * before[1], 1)
    page = client.get(reverse("ratings:leaderboards") + "?game=race-to-ten").content.decode()
    assert "Bot levels" in page and "<td>Novice</td>" in page
    assert client.get("/api/leaderboards/black-spy/bots/").json()["results"] == []


def test_a_racing_bot_keeps_its_level_s_pace_unless_the_match_sets_a_speed(make_user: Any) -> None:
    from spyleague.play import realtime

    ann = make_user(username="ann")
    bots = get_bots("spy-vs-spy")
    paced = {name: bot.cards_per_minute for name, bot in bots.items() if hasattr(bot, "cards_per_minute")}
    assert len(paced) >= 2 and len(set(paced.values())) == len(paced)  # each level its own pace
    plain = services.match_create(user=ann, game="spy-vs-spy", seats=2)
    lobby = services.match_create(user=ann, game="spy-vs-spy", seats=2, options={"bot_cards_per_minute": 90})
    fast = services.match_create(user=ann, game="spy-vs-spy", seats=2, options={"bot_cards_per_minute": 600})
    for name, pace in paced.items():
        assert realtime.cards_per_second(plain, name) == pytest.approx(pace / 60)
        assert realtime.cards_per_second(lobby, name) == pytest.approx(pace / 60)  # the form's default
        assert realtime.cards_per_second(fast, name) == pytest.approx(10.0)  # the match's own speed
