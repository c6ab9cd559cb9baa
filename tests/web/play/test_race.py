"""The Spy vs Spy race online: paced bots, moves refused with the engine's reason, hidden cards."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games import get_engine
from games.spy_vs_spy.cards import card_name
from spyleague.play import bots, realtime, services
from spyleague.play.models import Match, Move
from spyleague.play.state import match_state

from .races import race_of_people, race_out

pytestmark = pytest.mark.django_db
ENGINE = get_engine("spy-vs-spy")
T0 = datetime(2031, 5, 4, 12, 0, 0, tzinfo=UTC)


class Clock:
    """A stand-in for ``timezone.now``: move rows and the pacing read the same clock."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def at(self, seconds: float) -> None:
        self.now = T0 + timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(timezone, "now", fake)
    return fake


@pytest.fixture(autouse=True)
def fresh_race_starts() -> Iterator[None]:
    realtime._RACE_STARTS.clear()
    yield
    realtime._RACE_STARTS.clear()


def bot_race(user: Any, *, speed: int = 60, bots: int = 3, seed: int = 5, capture: Any = None) -> Match:
    match = services.match_create(
        user=user,
        game="spy-vs-spy",
        seats=bots + 1,
        seed=seed,
        options={"bot_cards_per_minute": speed},
        bots=dict.fromkeys(range(1, bots + 1), "heuristic"),
    )
    with capture(execute=True):
        services.match_start(user=user, match_id=match.pk)
    match.refresh_from_db()
    return match


def moves_by_seat(match: Match) -> Counter[int]:
    return Counter(Move.objects.filter(match=match).values_list("seat", flat=True))


def tick(clock: Clock, match: Match, seconds: float) -> int:
    clock.at(seconds)
    return bots.race_tick(match_id=match.pk)


def test_bots_wait_for_the_start_then_move_one_card_per_interval(
    make_user: Any, clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    match = bot_race(ann, speed=60, capture=django_capture_on_commit_callbacks)  # one card a second
    assert match.version == 0, "bots do not race off at once when the match starts"
    assert tick(clock, match, 1.0) == 0
    assert tick(clock, match, 3.5) == 0  # "3, 2, 1, go", then a card takes a second
    assert tick(clock, match, 4.0) == 3  # one card for each bot
    assert tick(clock, match, 4.5) == 0
    assert tick(clock, match, 4.99) == 0
    assert tick(clock, match, 5.0) == 3
    seconds = 5.0
    while seconds < 12.0:
        seconds += 0.25
        tick(clock, match, seconds)
    assert moves_by_seat(match) == {1: 9, 2: 9, 3: 9}  # 9 seconds since the go: 9 cards each
    # Nobody asks for a while (no page open, no worker): no burst of catching up afterwards.
    assert tick(clock, match, 40.0) == 3
    assert tick(clock, match, 40.5) == 0
    assert tick(clock, match, 41.0) == 3
    assert moves_by_seat(match) == {1: 11, 2: 11, 3: 11}


def test_bots_asked_late_catch_up_but_never_beat_their_speed(
    make_user: Any, clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    match = bot_race(ann, speed=120, bots=2, capture=django_capture_on_commit_callbacks)  # 2 a second
    seconds = 3.0
    times: dict[int, list[float]] = {1: [], 2: []}
    while seconds < 13.0:
        seconds = round(seconds + 0.7, 2)  # ticks that do not fit the interval
        before = moves_by_seat(match)
        tick(clock, match, seconds)
        after = moves_by_seat(match)
        for seat in (1, 2):
            times[seat] += [seconds] * (after[seat] - before[seat])
    for seat in (1, 2):
        made = times[seat]
        assert 18 <= len(made) <= 20, made  # 10 s after the go at 2 a second
        for i, at in enumerate(made):
            assert i + 1 <= (at - 3.0) * 2 + 1e-6  # never ahead of its speed since the go


def test_the_speed_is_an_option_of_the_match(make_user: Any) -> None:
    ann = make_user(username="ann")
    fast = services.match_create(
        user=ann, game="spy-vs-spy", seats=2, options={"bot_cards_per_minute": 600}, bots={1: "heuristic"}
    )
    assert realtime.cards_per_second(fast) == 10.0
    default = services.match_create(user=ann, game="spy-vs-spy", seats=2)
    assert realtime.cards_per_second(default) == 1.5
    with pytest.raises(services.MoveRejected, match="6 to 600 cards a minute"):
        services.match_create(user=ann, game="spy-vs-spy", seats=2, options={"bot_cards_per_minute": 0})


def test_the_lobby_offers_the_bot_speed(client: Any, make_user: Any) -> None:
    client.force_login(make_user(username="ann"))  # (the new-match form is for those logged in)
    page = client.get(reverse("play:lobby")).content.decode()
    assert 'name="opt-spy-vs-spy-bot_cards_per_minute"' in page and "cards per minute" in page


def test_a_turn_based_game_is_not_ticked(make_user: Any, django_capture_on_commit_callbacks: Any) -> None:
    ann = make_user(username="ann")
    match = services.match_create(user=ann, game="race-to-ten", seats=2, seed=0)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_start(user=ann, match_id=match.pk, fill_with="random")
    assert bots.race_tick(match_id=match.pk) == 0


# --- a racer's moves from the page --------------------------------------------------------


def seed_with_a_wrong_pile() -> tuple[int, int, int]:
    """A seed where seat 0's first card fits one pile and not another: (seed, good, bad)."""
    for seed in range(100):
        state = ENGINE.start(2, seed, {})
        legal = {a["pile"] for a in ENGINE.legal(state, 0) if a["type"] == "place"}
        wrong = [i for i in range(len(state.spies[0].piles)) if i not in legal]
        if legal and wrong:
            return seed, min(legal), wrong[0]
    raise AssertionError("no such seed")


def act(client: Any, match: Match, action: str, card: str | None = None) -> Any:
    """The race page's POST of a move (where its socket cannot open); the answer is JSON."""
    data = {"action": action} if card is None else {"action": action, "card": card}
    return client.post(reverse("play:race-act", args=[match.pk]), data, HTTP_HX_REQUEST="true")


def answer(response: Any) -> dict[str, Any]:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return dict(response.json())


def test_a_wrong_placement_is_refused_at_once_with_the_reason(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    seed, good, bad = seed_with_a_wrong_pile()
    match = race_of_people(ann, bob, seed=seed)
    state = match_state(match)
    card, top = state.spies[0].card, state.spies[0].piles[bad][-1]
    client.force_login(ann)
    response = act(client, match, f'{{"type":"place","pile":{bad}}}', card)
    refused = answer(response)
    assert response.status_code == 400 and refused["t"] == "no" and refused["status"] == 400
    assert f"The {card_name(card)} does not go on the {card_name(top)}" in refused["reason"]
    match.refresh_from_db()
    assert match.version == 0
    # Saying finished with a card still waiting is refused too, with why.
    response = act(client, match, '{"type":"finish"}')
    assert response.status_code == 400
    assert f"the {card_name(card)} must go on a pile first" in answer(response)["reason"]
    # The right pile: the card goes down and the next one turns up by itself.
    response = act(client, match, f'{{"type":"place","pile":{good}}}', card)
    ack = answer(response)
    assert response.status_code == 200 and ack["t"] == "ack" and ack["v"] == 1
    match.refresh_from_db()
    after = match_state(match).spies[0]
    assert match.version == 1 and after.piles[good][-1] == card and after.card != card
    # The answer carries the race as everyone now sees it, and the piles the new card fits.
    mine = ack["u"]["race"]["players"][0]
    assert (
        ack["u"]["v"] == 1
        and mine["card"] == after.card
        and mine["piles"][good] == [card, len(after.piles[good])]
    )
    fits = [a["pile"] for a in ENGINE.legal(match_state(match), 0) if a["type"] == "place"]
    assert ack["you"] == {"seat": 0, "card": after.card, "fits": fits, "choice": None}


def test_a_second_press_for_a_card_already_down_changes_nothing(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    seed, good, _ = seed_with_a_wrong_pile()
    match = race_of_people(ann, bob, seed=seed)
    card = match_state(match).spies[0].card
    client.force_login(ann)
    assert act(client, match, f'{{"type":"place","pile":{good}}}', card).status_code == 200
    again = act(client, match, f'{{"type":"place","pile":{good}}}', card)
    assert again.status_code == 409 and "already down" in answer(again)["reason"]
    match.refresh_from_db()
    assert match.version == 1


def test_other_racers_moves_do_not_make_mine_stale(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob, seed=3)
    for seat, user in ((1, bob), (0, ann), (1, bob)):
        state = match_state(Match.objects.get(pk=match.pk))
        client.force_login(user)
        action = ENGINE.legal(state, seat)[0]
        response = act(client, match, f'{{"type":"place","pile":{action["pile"]}}}', state.spies[seat].card)
        assert response.status_code == 200, response.content.decode()[:300]
    assert Match.objects.get(pk=match.pk).version == 3


def test_a_stranger_cannot_race_and_bad_input_changes_nothing(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob, seed=3)
    assert act(client, match, '{"type":"place","pile":0}').status_code == 403
    client.force_login(make_user(username="eve"))
    refused = act(client, match, '{"type":"place","pile":0}')
    assert refused.status_code == 403 and "do not have a seat" in answer(refused)["reason"]
    client.force_login(ann)
    response = act(client, match, "place it")
    assert response.status_code == 400 and "could not be read" in answer(response)["reason"]
    assert act(client, match, '"place"').status_code == 400
    assert act(client, match, '{"type":"place","pile":"0"}').status_code == 400
    assert act(client, match, '{"type":"place","pile":0}', card=["7H"] and "not a card").status_code in (
        400,
        409,
    )
    assert client.get(reverse("play:race-act", args=[match.pk])).status_code == 405
    match.refresh_from_db()
    assert match.version == 0


def test_a_move_of_a_race_of_people_is_one_statement_and_runs_no_bots(
    client: Any,
    make_user: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_assert_max_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from spyleague.play import tasks

    queued: list[int] = []
    monkeypatch.setattr(
        tasks.run_bots, "apply_async", lambda args, countdown=None, **options: queued.append(*args)
    )
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob, seed=3)
    client.force_login(ann)
    state = match_state(match)
    action = ENGINE.legal(state, 0)[0]
    # The session, the user; the match with its seats and the user's player (the race page's
    # socket reads these once, when it opens); then the move itself: one statement on PostgreSQL
    # (SQLite: an update and an insert, in a savepoint here). The state comes from the process's cache.
    with django_capture_on_commit_callbacks(execute=True), django_assert_max_num_queries(9) as run:
        response = act(client, match, f'{{"type":"place","pile":{action["pile"]}}}', state.spies[0].card)
    assert response.status_code == 200 and answer(response)["v"] == 1
    sql = [q["sql"].strip() for q in run.captured_queries]
    writes = [q for q in sql if q.startswith(("UPDATE", "INSERT", "WITH"))]
    assert len(writes) == (1 if run.connection.vendor == "postgresql" else 2), writes
    assert queued == []  # nobody to run: no task per move
    # A race with bots goes the general way: its bots are run after the person's move.
    bots = services.match_create(
        user=ann,
        game="spy-vs-spy",
        seats=2,
        seed=3,
        bots={1: "heuristic"},
        options={"bot_cards_per_minute": 6},
    )
    services.match_start(user=ann, match_id=bots.pk)
    queued.clear()
    state = match_state(Match.objects.get(pk=bots.pk))
    action = ENGINE.legal(state, 0)[0]
    with django_capture_on_commit_callbacks(execute=True):
        response = act(client, bots, f'{{"type":"place","pile":{action["pile"]}}}', state.spies[0].card)
    assert response.status_code == 200 and len(answer(response)["u"]["race"]["players"]) == 2
    assert queued == [bots.pk]
    # A move on a match that does not exist is a plain 404.
    assert client.post(reverse("play:race-act", args=[9999]), {"action": "{}"}).status_code == 404


# --- what a seat sees ---------------------------------------------------------------------


def shown_cards(html: str) -> set[str]:
    return set(re.findall(r'data-card="([0-9AJQK]{1,2}[SHDC])"', html))


def visible_cards(view: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for player in view["players"]:
        out.update(card for pile in player["piles"] for card in pile)
        out.update(c for c in (player["card"], player["called"]) if c)
    return out


def seed_where_both_take() -> int:
    for seed in range(200):
        state = ENGINE.start(2, seed, {"half_decks": True})
        for seat in (0, 1):
            while ENGINE.legal(state, seat) and state.phase == "race":
                state = ENGINE.apply(state, seat, ENGINE.legal(state, seat)[0])
        if state.phase == "take" and state.must_take == {0, 1}:
            return seed
    raise AssertionError("no such seed")


def test_each_seat_sees_only_its_own_information(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob, seed=seed_where_both_take(), half_decks=True)
    url = reverse("play:match", args=[match.pk])
    client.force_login(ann)
    page = client.get(url).content.decode()
    state = match_state(match)
    assert shown_cards(page) and shown_cards(page) <= visible_cards(ENGINE.view(state, 0))
    hidden = {c for spy in state.spies for c in (*spy.hand, *spy.points_pile)}
    assert not shown_cards(page) & hidden  # no racing hand, no points pile face, of anyone
    assert page.count("data-pile=") == len(state.spies[0].piles) and 'data-mode="place"' in page
    assert "Keys <kbd>1</kbd>\u2013<kbd>6</kbd>" in page

    race_out(match, ann, 0)
    race_out(match, bob, 1)
    state = match_state(Match.objects.get(pk=match.pk))
    assert state.phase == "take"
    services.match_move_submit(match_id=match.pk, user=bob, action={"type": "take", "pile": 1})
    bob_page = client.get(url).content.decode()  # still Ann's page
    assert "has chosen" in bob_page and "Choose the pile to add to your points" in bob_page
    assert "You add pile" not in bob_page and "my_choice" not in bob_page
    client.force_login(bob)
    mine = client.get(url).content.decode()
    assert "You add pile 2" in mine and 'data-mode=""' in mine

    # A spectator sees the race and no controls at all.
    client.logout()
    spectator = client.get(url).content.decode()
    assert 'id="race"' in spectator and "data-pile=" not in spectator and "Keys <kbd>" not in spectator
    assert spectator.count('<article class="rival') == 2


def test_the_page_shows_the_points_after_each_race(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob, seed=seed_where_both_take(), half_decks=True)
    race_out(match, ann, 0)
    race_out(match, bob, 1)
    services.match_move_submit(match_id=match.pk, user=bob, action={"type": "take", "pile": 0})
    services.match_move_submit(match_id=match.pk, user=ann, action={"type": "take", "pile": 0})
    state = match_state(Match.objects.get(pk=match.pk))
    assert len(state.history) == 1
    client.force_login(ann)
    page = client.get(reverse("play:match", args=[match.pk])).content.decode()
    assert "Race 1: the points" in page
    row = next(r for r in state.history[0].rows if r.seat == 0)
    assert f"<strong>{row.score}</strong>" in page
    if ENGINE.outcome(state) is None:
        assert "Race 2" in page


# --- ticks and the follow-up run ---------------------------------------------------------


def test_the_tick_answers_204_while_the_page_is_current(
    client: Any, make_user: Any, clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    match = bot_race(ann, capture=django_capture_on_commit_callbacks)
    client.force_login(ann)
    url = reverse("play:race-tick", args=[match.pk])
    page = client.get(reverse("play:match", args=[match.pk])).content.decode()
    key = re.search(r'data-key="([^"]+)"', page)
    assert key is not None
    assert 'data-ticking="111"' in page  # three bots race: the page ticks
    clock.at(1.0)
    assert client.post(url, {"v": key.group(1)}).status_code == 204
    clock.at(4.0)
    response = client.post(url, {"v": key.group(1)})
    assert response.status_code == 200 and 'id="race"' in response.content.decode()
    assert Match.objects.get(pk=match.pk).version == 3


class FakeRedis:
    def __init__(self) -> None:
        self.keys: dict[str, int] = {}

    def set(self, key: str, value: str, *, nx: bool, px: int) -> bool:
        if nx and key in self.keys:
            return False
        self.keys[key] = px
        return True


@override_settings(CELERY_TASK_ALWAYS_EAGER=False, REDIS_URL="redis://127.0.0.1:1/0")
def test_with_a_worker_one_follow_up_run_waits_for_the_next_due_bot(
    make_user: Any, clock: Clock, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from spyleague.play import live, tasks

    queued: list[tuple[Any, Any]] = []
    fake = FakeRedis()

    def apply_async(args: Any, countdown: float | None = None, **options: Any) -> None:
        if countdown is not None:  # a follow-up run, not the bots' turn after a start
            queued.append((args, countdown))

    monkeypatch.setattr(tasks.run_bots, "apply_async", apply_async)
    monkeypatch.setattr(realtime, "_redis", lambda: fake)
    monkeypatch.setattr(live, "publish", lambda match_id, version: None)
    ann = make_user(username="ann")
    match = bot_race(ann, speed=60, capture=django_capture_on_commit_callbacks)

    def run() -> int:
        with django_capture_on_commit_callbacks(execute=True):
            return services.match_run_bots(match_id=match.pk)

    clock.at(1.0)
    assert run() == 0
    assert queued == [((match.pk,), pytest.approx(3.0))]  # the first cards are due at 4 s
    assert run() == 0
    assert len(queued) == 1  # one follow-up waits at a time
    fake.keys.clear()  # the wait is over
    clock.at(4.0)
    assert run() == 3
    assert queued[-1] == ((match.pk,), pytest.approx(1.0))


# --- the race page's own live updates ----------------------------------------------------


# Closing a stream before its end fires request_finished, which drops a connection held in a
# transaction (PostgreSQL): this test commits instead, so the next request simply reconnects.
@pytest.mark.django_db(transaction=True)
def test_the_race_stream_announces_versions_and_holds_nothing_for_a_missing_match(
    client: Any, make_user: Any
) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob, seed=3)
    url = reverse("play:race-events", args=[match.pk])
    response = client.get(url)
    assert response["Content-Type"] == "text/event-stream"
    stream = iter(response.streaming_content)
    assert next(stream).startswith(b"retry:")
    assert next(stream).decode() == "event: update\ndata: 0\n\n"
    response.close()
    current = client.get(url, {"v": "0"})
    stream = iter(current.streaming_content)
    next(stream)
    assert next(stream).decode().startswith(":")  # nothing new: a heartbeat, no update
    current.close()
    assert client.get(reverse("play:race-events", args=[999])).status_code == 404


def test_the_race_now_is_at_hand_for_a_page_that_missed_an_update(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob, seed=3)
    url = reverse("play:race-progress", args=[match.pk])
    client.force_login(ann)
    now = client.get(url).json()
    assert now["t"] == "u" and now["v"] == 0 and now["status"] == "playing"
    assert [p["seat"] for p in now["race"]["players"]] == [0, 1]
    assert client.get(url, {"v": "0"}).status_code == 204
    state = match_state(match)
    services.match_move_submit(match_id=match.pk, user=bob, action=ENGINE.legal(state, 1)[0])
    after = client.get(url, {"v": "0"})
    assert after.status_code == 200 and after.json()["v"] == 1
    client.logout()
    assert client.get(url).json()["v"] == 1  # a spectator's page gets the same: it is all public
    assert client.get(reverse("play:race-progress", args=[999])).status_code == 404


class PublishingRedis:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def publish(self, channel: str, message: str) -> None:
        self.sent.append((channel, message))


@override_settings(REDIS_URL="redis://127.0.0.1:1/0")
def test_with_redis_a_move_publishes_the_race_once_for_every_page(
    client: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    import json

    from spyleague.play import live

    fake = PublishingRedis()
    monkeypatch.setattr(live, "_redis", lambda: fake)
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob, seed=seed_where_both_take(), half_decks=True)  # one deck: codes unique
    fake.sent.clear()
    state = match_state(match)
    client.force_login(ann)
    action = ENGINE.legal(state, 0)[0]
    with django_capture_on_commit_callbacks(execute=True):
        response = act(client, match, json.dumps(action), state.spies[0].card)
    assert response.status_code == 200
    ((channel, message),) = fake.sent
    assert channel == live.race_channel(match.pk)
    update, _, move = message.partition("\n")
    pushed = json.loads(update)
    assert pushed == answer(response)["u"] and pushed["v"] == 1
    # The move rides along for the other processes' state caches (the feeds strip it).
    assert json.loads(move) == {
        "key": [match.pk, match.created.timestamp()],
        "game": "spy-vs-spy",
        "seat": 0,
        "action": action,
    }
    after = match_state(Match.objects.get(pk=match.pk))
    hidden = {c for spy in after.spies for c in (*spy.hand, *spy.points_pile)}
    shown = {
        c
        for p in pushed["race"]["players"]
        for c in (p["card"], p["called"], *(top for top, _ in p["piles"]))
        if c
    }
    assert shown and not shown & hidden  # as a spectator sees it: all public
    # A refused move publishes nothing; a move the general way publishes once it commits.
    assert act(client, match, '{"type":"finish"}').status_code == 400
    assert len(fake.sent) == 1
    with django_capture_on_commit_callbacks(execute=True):
        services.match_move_submit(match_id=match.pk, user=bob, action=ENGINE.legal(after, 1)[0])
    assert [c for c, _ in fake.sent].count(live.race_channel(match.pk)) == 2
    assert json.loads(fake.sent[-1][1])["v"] == 2 and "\n" not in fake.sent[-1][1]


def test_the_lobby_seats_as_many_racers_as_the_race_takes_and_no_more(client: Any, make_user: Any) -> None:
    from games import get_engine

    client.force_login(make_user(username="ann"))
    most = get_engine("spy-vs-spy").seats.stop - 1
    assert (
        f'id="id_seats" value="4" min="1" max="{most}"' in client.get(reverse("play:lobby")).content.decode()
    )
    body = {"game": "spy-vs-spy", "seats": str(most), "bot": "heuristic"}
    assert client.post(reverse("play:new"), body).status_code == 302  # the form stopped at 6 before
    assert Match.objects.get(game="spy-vs-spy").seats == most
    too_many = client.post(reverse("play:new"), {**body, "seats": str(most + 1)})
    assert too_many.status_code == 400 and Match.objects.count() == 1
