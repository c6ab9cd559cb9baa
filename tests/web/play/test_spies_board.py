"""The Spies! match page: each seat sees only its own view, refusals explain, clocks run out on time."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from games.core import chance
from games.spies import ENGINE
from games.spies.board import POWER_CODES, default_board
from games.spies.bots import HeuristicBot
from games.spies.engine import seen_powers
from spyleague.play import clocks, services
from spyleague.play.models import Match, Move
from spyleague.play.state import match_state
from spyleague.play.templatetags.spies import latest_news

pytestmark = pytest.mark.django_db

BOARD = default_board()
BOT = HeuristicBot()
PIECE = re.compile(
    r'<g class="([^"]*)" data-(spy|police)="([^"]+)"(?: data-strength="(\d+)")?><title>([^<]*)</title>'
)
SECRET = re.compile(
    r'<g class="([^"]*)" data-secret="([^"]+)"(?: data-value="(\d+)")?><title>([^<]*)</title>'
)
CHIT = re.compile(r'data-chit="([a-z]+)"')


def start_match(
    users: Sequence[Any], seed: int, capture: Any, options: dict[str, Any] | None = None
) -> Match:
    match = services.match_create(user=users[0], game="spies", seats=5, seed=seed, options=options or {})
    for person in users[1:]:
        services.match_join(user=person, match_id=match.pk)
    with capture(execute=True):
        services.match_start(user=users[0], match_id=match.pk, fill_with="heuristic")
    return bots_done(match)


def bots_done(match: Match) -> Match:
    """The bots have moved (inline on commit when Celery is eager; here otherwise)."""
    services.match_run_bots(match_id=match.pk)
    match.refresh_from_db()
    return match


def heuristic(state: Any, seat: int) -> dict[str, Any]:
    return BOT.choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), chance(state.seed, "person", seat))


def play_until(
    match: Match,
    people: dict[int, Any],
    capture: Any,
    until: Callable[[Any], bool],
    choose: Callable[[Any, int], dict[str, Any]] = heuristic,
    limit: int = 2000,
) -> Any:
    """The people play (as the heuristic bot would) until ``until(state)``; the bots play themselves."""
    for _ in range(limit):
        match = bots_done(match)
        state = match_state(match)
        if until(state):
            return state
        seat = min(ENGINE.to_act(state))
        with capture(execute=True):
            services.match_move_submit(
                match_id=match.pk, user=people[seat], action=choose(state, seat), version=match.version
            )
    raise AssertionError("the game never reached the state wanted")


def page(client: Any, match: Match, user: Any | None) -> str:
    client.logout()
    if user is not None:
        client.force_login(user)
    return unescape(client.get(reverse("play:match", args=[match.pk])).content.decode())


def words(html: str) -> str:
    """The text of a page, tags dropped and spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def post(client: Any, match: Match, action: Any, version: int | None = None) -> str:
    response = client.post(
        reverse("play:act", args=[match.pk]),
        {"action": action if isinstance(action, str) else json.dumps(action), "version": version or ""},
        HTTP_HX_REQUEST="true",
    )
    html = unescape(response.content.decode())
    # A refused action answers 4xx with the reason in the board; an applied one 200.
    assert (response.status_code >= 400) == ('class="move-error"' in html), response.status_code
    return html


def test_a_seat_sees_its_own_pieces_face_up_and_nothing_hidden_of_the_others(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = start_match([ann, bob], 11, django_capture_on_commit_callbacks)
    state = play_until(
        match,
        {0: ann, 1: bob},
        django_capture_on_commit_callbacks,
        lambda s: s.year == 1935 and s.phase == "move" and s.power == 0 and s.window is None,
    )
    for seat, user in ((0, ann), (1, bob), (None, None)):
        html = page(client, match, user)
        view = ENGINE.view(state, seat)
        seen = seen_powers(state, seat)
        mine = {POWER_CODES[p] for p in seen}

        # Pieces on the map: a strength only where this seat knows it, "face down" otherwise.
        shown = {(m.group(3)): m for m in PIECE.finditer(html)}
        on_map = [p for p in (*state.spies, *state.police) if p.status == "map"]
        assert set(shown) == {p.id for p in on_map}
        hidden = 0
        for piece in on_map:
            classes, _, _, strength, title = shown[piece.id].groups()
            known = next(v for v in (*view["spies"], *view["police"]) if v["id"] == piece.id)["strength"]
            if known is None:
                hidden += 1
                assert strength is None and "face down" in title and "strength" not in title
                assert "sp-down" in classes and "sp-mine" not in classes
            else:
                assert strength == str(piece.strength) == str(known)
                assert f"strength {piece.strength}" in title
            if POWER_CODES[piece.power] in mine:
                assert "sp-mine" in classes and known is not None
        assert hidden > 10  # the others' pieces are mostly face down

        # Secrets: a value only where this seat has seen it.
        secrets = {m.group(2): m for m in SECRET.finditer(html)}
        for secret in state.secrets:
            if secret.status != "map":
                continue
            classes, _, value, title = secrets[secret.id].groups()
            known = next(v for v in view["secrets"] if v["id"] == secret.id)["value"]
            if known is None:
                assert value is None and "face down" in title and "value" not in title
            else:
                assert value == str(secret.value)

        # Chits and tiles: this seat's own, never another power's.
        assert Counter(CHIT.findall(html)) == Counter(k for p in seen for k in state.hands[p])
        played = {tile for tile, _, _ in state.played}
        own = {tile for p in seen for tile in (*state.tiles[p], *state.discards[p])}
        for p in range(5):
            if p in seen:
                continue
            for tile in (*state.tiles[p], *state.discards[p]):
                if tile not in played and tile not in own:
                    assert BOARD.events[tile].title not in html, tile
        if seat is not None:
            assert all(f'data-tile="{t}"' in html for p in seen for t in state.tiles[p])
            assert f'aria-label="Your power: {view["power_info"][seat]["name"]}"' in html
        else:
            assert "sp-mine" not in html and 'aria-label="Your power' not in html and "data-chit" not in html


def test_a_refused_action_shows_the_reason_and_changes_nothing(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = start_match([ann, bob], 5, django_capture_on_commit_callbacks)
    client.force_login(ann)
    version = match.version

    # Paris is not German territory: the engine's words, on the board, nothing applied.
    html = post(client, match, {"type": "place_secret", "city": "paris"}, version)
    assert (
        '<div class="move-error" role="alert">Place your next secret in a city of your territory '
        "that holds no secret yet.</div>" in html
    )
    assert "Set-up: you place secrets" in html  # the board is still there
    html = post(client, match, {"type": "move", "spy": "G-spy-1", "to": "vienna"}, version)
    assert "You cannot 'move' now (in the setup_secrets step); you may: place_secret." in html
    html = post(client, match, "{not json", version)
    assert "That action could not be read; nothing was changed." in html
    html = post(client, match, {"type": "place_secret", "city": "berlin"}, version - 1 if version else 99)
    assert "The game has moved on since you looked" in html
    client.force_login(bob)
    html = post(client, match, {"type": "place_secret", "city": "rome"}, version)
    assert "It is not your turn." in html
    client.logout()
    html = post(client, match, {"type": "place_secret", "city": "berlin"}, version)
    assert "You do not have a seat in this match." in html
    assert Match.objects.get(pk=match.pk).version == version and not Move.objects.filter(match=match).exists()

    # The same board accepts the legal one, named in words on its button.
    client.force_login(ann)
    html = page(client, match, ann)
    assert 'data-type="place_secret" data-city="berlin"' in html and ">Berlin</button>" in html
    html = post(client, match, {"type": "place_secret", "city": "berlin"}, version)
    assert "move-error" not in html
    assert Move.objects.get(match=match).action == {"type": "place_secret", "city": "berlin"}


def test_an_offer_is_seen_by_both_sides_only_and_accepted_with_the_engines_actions(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = start_match([ann, bob], 11, django_capture_on_commit_callbacks)
    play_until(
        match,
        {0: ann, 1: bob},
        django_capture_on_commit_callbacks,
        lambda s: s.phase == "event" and s.power == 0 and s.window is None,
    )
    match.refresh_from_db()
    client.force_login(ann)
    html = page(client, match, ann)
    assert '<section class="card sp-diplomacy"' in html and ">Make an offer to Italy</button>" in html
    with django_capture_on_commit_callbacks(execute=True):
        post(client, match, {"type": "offer", "to": "I"}, match.version)
    match.refresh_from_db()
    html = post(client, match, {"type": "offer_add", "item": "give_money", "amount": 5}, match.version)
    assert "Your offer to Italy : you give 5£; you ask for nothing." in words(html)
    match.refresh_from_db()
    chit = match_state(match).hands[1][0]
    html = post(client, match, {"type": "offer_add", "item": "ask_chit", "chit": chit}, match.version)
    match.refresh_from_db()
    html = post(client, match, {"type": "offer_send"}, match.version)
    assert "Waiting for Italy to answer" in html

    terms = f"Germany gives 5£; Germany asks for {'an' if chit[0] in 'aeiou' else 'a'} {chit.capitalize()}."
    italy = page(client, match, bob)
    assert terms in words(italy) and "Germany offers Italy a deal." in italy
    assert ">Accept the offer</button>" in italy and ">Refuse the offer</button>" in italy
    watcher = page(client, match, None)
    assert "Germany gives 5£" not in words(watcher) and "Only Germany and Italy see the terms." in watcher

    money = match_state(match).money
    match.refresh_from_db()
    client.force_login(bob)
    with django_capture_on_commit_callbacks(execute=True):
        html = post(client, match, {"type": "accept"}, match.version)
    after = match_state(Match.objects.get(pk=match.pk))
    assert (after.money[0], after.money[1]) == (money[0] - 5, money[1] + 5)
    accepted = (
        "Italy accepted Germany's offer: Germany \u22125£, Italy +5£, Germany +1 chit, Italy \u22121 chit."
    )
    assert accepted in page(client, match, None)


def test_a_capture_is_news_on_every_seats_board_with_its_city_marked(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    people = [make_user(username=name) for name in ("ann", "bob", "cyd", "dee", "eve")]
    ann = people[0]
    match = start_match(people, 19, django_capture_on_commit_callbacks)

    def captured(state: Any) -> bool:
        news = latest_news(ENGINE.view(state, None))
        return news is not None and news["kind"] == "capture"

    state = play_until(match, dict(enumerate(people)), django_capture_on_commit_callbacks, captured)
    news = latest_news(ENGINE.view(state, None))
    assert news is not None
    city = news["city"]
    name = BOARD.cities[city].name
    for user in (ann, None):
        html = page(client, match, user)
        banner = html[html.index('<section class="sp-news sp-news-capture"') :]
        banner = banner[: banner.index("</section>")]
        assert "Captured!" in banner and f"in {name}" in banner
        assert re.search(rf'<g class="sp-city[^"]* sp-hot sp-hot-capture[^"]*" data-node="{city}"', html)
        assert "was captured in" in html or "was sanctioned by" in html or "was a counterspy" in html


def test_a_window_asks_with_its_countdown_and_closes_itself_when_time_runs_out(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    match = start_match([ann], 3, django_capture_on_commit_callbacks)
    state = play_until(
        match,
        {0: ann},
        django_capture_on_commit_callbacks,
        lambda s: s.window is not None and s.window.power == 0 and s.window.kind in ("arrival", "evade"),
    )
    match.refresh_from_db()
    assert match.deadline is not None and match.deadline > timezone.now()
    html = page(client, match, ann)
    window = html[html.index('<section class="sp-window sp-window-asked"') :]
    window = window[: window.index("</section>")]
    spy = state.window.spy
    assert BOARD.cities[next(s.where for s in state.spies if s.id == spy)].name in window
    assert 'data-type="decline"' in window
    assert re.search(r'data-sp-deadline="\d{4}-\d\d-\d\dT[\d:.]+Z"', html) and "to answer" in html
    watcher = page(client, match, None)
    assert "sp-window" in watcher and 'data-type="decline"' not in watcher

    # Time runs out: the next look at the board declines for ann.
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    version = match.version
    client.force_login(ann)
    with django_capture_on_commit_callbacks(execute=True):
        client.get(reverse("play:board", args=[match.pk]))
    move = Move.objects.get(match=match, number=version + 1)
    assert (move.seat, move.action) == (0, {"type": "decline"})


def test_the_turn_clock_sets_the_deadline_and_a_late_turn_is_finished_for_the_seat(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    before = timezone.now()
    match = start_match([ann], 4, django_capture_on_commit_callbacks, {"turn_minutes": 5})
    assert match.deadline is not None
    assert before + timedelta(minutes=5) <= match.deadline <= timezone.now() + timedelta(minutes=5)
    html = page(client, match, ann)
    assert "left in this turn" in html and re.search(r"data-sp-left>[45]:\d\d<", html)

    # A move inside the same turn keeps the turn's deadline.
    deadline = match.deadline
    with django_capture_on_commit_callbacks(execute=True):
        services.match_move_submit(
            match_id=match.pk,
            user=ann,
            action={"type": "place_secret", "city": "berlin"},
            version=match.version,
        )
    match.refresh_from_db()
    assert match.deadline == deadline

    # The time runs out: the engine's timeout actions finish Germany's set-up, the bots set up,
    # and Germany's first turn starts with a fresh clock.
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.match_timeouts_close(match_id=match.pk) == 1
    match = bots_done(match)
    state = match_state(match)
    timed_out = [m.action["type"] for m in Move.objects.filter(match=match, seat=0).order_by("number")][1:]
    assert set(timed_out) == {"place_secret", "place_police", "place_spy"}  # a complete set-up
    assert sum(1 for s in state.spies if s.power == 0) == BOARD.powers[0].spies_at_start
    assert (state.year, state.power, state.phase) == (1933, 0, "event")
    assert match.deadline is not None and match.deadline > timezone.now() + timedelta(minutes=4)

    # A turn that runs out part-way is finished the same way: tile discarded, police kept, turn ended.
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    version = match.version
    with django_capture_on_commit_callbacks(execute=True):
        client.force_login(ann)
        client.get(reverse("play:board", args=[match.pk]))  # a page looking at the match closes it
    mine = [m.action["type"] for m in Move.objects.filter(match=match, number__gt=version, seat=0)]
    assert mine[0] == "discard_event" and "end_turn" in mine
    state = match_state(bots_done(match))
    assert (state.year, state.power) != (1933, 0)  # Germany's 1933 turn is over


def test_a_reaction_window_inside_a_timed_turn_gives_the_turn_its_own_deadline_back(
    make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    people = {n: make_user(username=name) for n, name in enumerate(("ann", "bob", "cyd", "dee", "eve"))}
    match = start_match(list(people.values()), 11, django_capture_on_commit_callbacks, {"turn_minutes": 5})

    def into_police(state: Any) -> dict[str, Any] | None:
        """A step of the power moving that takes a spy into a city with another power's police."""
        if state.phase != "move" or state.window is not None:
            return None
        police = {p.where for p in state.police if p.power != state.power}
        steps = [a for a in ENGINE.legal(state, state.power) if a["type"] == "move" and a["to"] in police]
        return steps[0] if steps else None

    state = play_until(
        match, people, django_capture_on_commit_callbacks, lambda s: into_police(s) is not None
    )
    match.refresh_from_db()
    deadline = match.deadline
    assert deadline is not None and deadline > timezone.now()
    mover = state.power
    with django_capture_on_commit_callbacks(execute=True):
        services.match_move_submit(
            match_id=match.pk, user=people[mover], action=into_police(state), version=match.version
        )
    match.refresh_from_db()
    window = match_state(match).window
    assert window is not None and window.kind == "arrival"  # the police's power is asked, on its own timer
    assert match.deadline is not None and match.deadline < deadline

    clock = ENGINE.turn_clock(state)
    assert clock is not None and clocks.TURN_DEADLINES.recall(match, clock["key"]) == deadline

    # The answer comes from another process, which does not remember the turn: the move that began
    # the turn dates it (here moved 90 seconds into the past, so a clock started afresh would show).
    clocks.TURN_DEADLINES._deadlines.clear()
    Move.objects.filter(match=match).update(created=F("created") - timedelta(seconds=90))
    with django_capture_on_commit_callbacks(execute=True):
        services.match_move_submit(
            match_id=match.pk, user=people[window.power], action={"type": "decline"}, version=match.version
        )
    match.refresh_from_db()
    state = match_state(match)
    assert state.window is None and state.power == mover
    assert match.deadline is not None
    assert abs((match.deadline - (deadline - timedelta(seconds=90))).total_seconds()) < 2


def test_the_lobby_offers_the_turn_limit_and_a_match_created_with_it_starts_its_clock(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    client.force_login(ann)
    lobby = client.get(reverse("play:lobby")).content.decode()
    assert 'name="opt-spies-turn_minutes"' in lobby and 'name="opt-spies-offers_per_turn"' in lobby
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("play:new"),
            {
                "game": "spies",
                "seats": 5,
                "fill_with_bots": "on",
                "bot": "heuristic",
                "opt-spies-turn_minutes": 3,
            },
        )
    match = Match.objects.get(game="spies")
    assert match.options == {"turn_minutes": 3} and match.status == Match.Status.PLAYING
    assert match.deadline is not None
    assert timezone.now() + timedelta(minutes=2) < match.deadline <= timezone.now() + timedelta(minutes=3)
