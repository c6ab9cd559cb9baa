"""The Spycatcher match page: a drawn board from each seat's own view, buttons that are exactly
the legal actions, refusals in words, and the challenge moment shown to every seat."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games.core import chance
from games.spycatcher import ENGINE
from games.spycatcher.bots import BOTS
from spyleague.play import services
from spyleague.play.models import Match, Move
from spyleague.play.selectors import match_picture
from spyleague.play.state import match_state

pytestmark = pytest.mark.django_db

CARD = re.compile(r'data-card="([^"]*)"')
CODE = re.compile(r"\b(?:court|government|press|publisher)-(?:1[0-2]|[1-9]|M)\b")
ACTION = re.compile(r'name="action" value="(\{.*?\})">')  # (in a page already unescaped)
HEURISTIC = BOTS["heuristic"]
# Seeds found by replaying the engine and the bots offline (the tests check what they rely on):
# with BOARD_SEED and two people playing like the heuristic bot, Bob (seat 1) seeks permission
# with a run of three while Ann has still to answer.
BOARD_SEED = 14
# With WINDOW_SEED and a calm Ann, a bot seeks permission with a run of Press cards and Ann,
# holding three Press cards, has seven ways to challenge.
WINDOW_SEED = 24


def section(html: str, label: str) -> str:
    start = html.index(f'aria-label="{label}"')
    return html[start : html.index("</section>", start)]


def window_panel(html: str) -> str:
    start = html.index('<section class="sc-window')
    return html[start : html.index("</section>", start)]


def text(html: str) -> str:
    """What a person reads: the words without the tags, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split()).replace(" .", ".").replace(" ,", ",")


def actions_in(html: str) -> list[dict[str, Any]]:
    return [json.loads(raw) for raw in ACTION.findall(html)]


def start_match(user: Any, seed: int, *, capture: Any, people: Sequence[Any] = ()) -> Match:
    bots = dict.fromkeys(range(1 + len(people), 4), "heuristic")
    match = services.match_create(
        user=user, game="spycatcher", seats=4, seed=seed, bots=bots, options={"first_player": 0}
    )
    for person in people:
        services.match_join(user=person, match_id=match.pk)
    with capture(execute=True):
        services.match_start(user=user, match_id=match.pk)
    return bots_done(match)


def bots_done(match: Match) -> Match:
    """The bots have moved: inline on commit when Celery is eager (the default), and here
    otherwise (a live worker cannot see this test's uncommitted rows). A second run is a no-op."""
    services.match_run_bots(match_id=match.pk)
    match.refresh_from_db()
    return match


def calm(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A person who never seeks nor challenges: draws from the pack, drops a card, rolls."""
    for kind in ("draw", "discard", "roll", "move", "pass", "decline", "give", "replace"):
        for action in legal:
            if action["type"] == kind and action.get("from", "pack") == "pack":
                return action
    return legal[0]


def page(client: Any, match: Match, user: Any | None, *, fragment: bool = False) -> str:
    client.logout()
    if user is not None:
        client.force_login(user)
    name = "play:board" if fragment else "play:match"
    return unescape(client.get(reverse(name, args=[match.pk])).content.decode())


def post(client: Any, match: Match, user: Any, action: Any, version: int | None) -> str:
    client.logout()
    client.force_login(user)
    data = {"action": action if isinstance(action, str) else json.dumps(action)}
    if version is not None:
        data["version"] = str(version)
    response = client.post(reverse("play:act", args=[match.pk]), data, HTTP_HX_REQUEST="true")
    html = unescape(response.content.decode())
    # A refused action answers 4xx with the reason in the board; an applied one 200.
    assert (response.status_code >= 400) == ('class="move-error"' in html), response.status_code
    return html


def cards_named(html: str) -> set[str]:
    """Every card code in a page. Challenge squares share their names with cards (the square
    ``court-4`` rings the Courts), so the places that name squares are left out first."""
    squares = re.sub(r'data-(?:square|choice)="[^"]*"|"to":"[^"]*"', "", html)
    return set(CODE.findall(squares))


def public_cards(view: dict[str, Any]) -> set[str]:
    """Every card a seat may see named: the discard top, the runs turned over and the challengers'
    cards, played face up (in the events)."""
    seen = {view["discard"]["top"]} if view["discard"]["top"] else set()
    for event in view["events"]:
        if event["event"] == "challenge_played":
            seen.update(event["cards"])
        if event["event"] in ("challenge", "unchallenged"):
            seen.update(event["cards"])
            for challenge in event["challenges"]:
                seen.update(challenge["cards"])
    return seen


def test_a_seat_sees_the_drawn_circuit_every_piece_its_own_hand_and_the_piles(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    match = start_match(ann, BOARD_SEED, capture=django_capture_on_commit_callbacks)
    state = match_state(match)
    view = ENGINE.view(state, 0)
    html = page(client, match, ann)
    board = ENGINE.board_drawing("league")

    # The circuit: every square of the board file, every link as an arrow, the four circles.
    drawing = section(html, "The board")
    assert '<svg class="sc-svg" viewBox="' in drawing
    assert len(re.findall(r'data-square="', drawing)) == len(board["squares"])
    assert drawing.count("<polygon ") == sum(len(sq["next"]) for sq in board["squares"])
    for circle in board["circles"]:
        assert f'data-circle="{circle["suit"]}"' in drawing and circle["title"] in drawing
    challenge_squares = [sq for sq in board["squares"] if sq["kind"] == "challenge"]
    assert len(re.findall(r'class="sc-sq sc-sq-challenge"', drawing)) == len(challenge_squares)
    assert len(re.findall(r'class="sc-sq sc-sq-action"', drawing)) == 20
    # Every piece sits on MI5 at the start, in its seat's colour.
    pieces = re.findall(r'<g class="sc-piece[^"]*" data-seat="(\d)"><title>([^<]*)</title>', drawing)
    assert sorted(int(seat) for seat, _ in pieces) == [0, 1, 2, 3]
    assert "Ann (red) on MI5" in [title for _, title in pieces]
    assert "Beginner bot 2 (blue) on MI5" in [title for _, title in pieces]

    # Ann's hand, the discard pile's top card and the pack: nothing else has a face on the page.
    assert Counter(CARD.findall(section(html, "Your hand"))) == Counter(view["hand"])
    top = view["discard"]["top"]
    # (the top card of the discard pile shows on the pile and on the button that takes it)
    assert Counter(CARD.findall(html)) == Counter(view["hand"]) + Counter({top: 2})
    piles = section(html, "The table")
    assert f"<strong>Pack</strong><br>{view['pack']} cards" in piles
    assert f"<strong>Discard</strong><br>{view['discard']['cards']} card" in piles
    assert "Your turn: take a card" in piles
    assert "not rolled yet" in piles

    # The buttons are the legal actions, in words.
    actions = section(html, "Your actions")
    assert actions_in(actions) == ENGINE.legal(state, 0)
    suit, number = top.split("-")
    named = f"{suit.capitalize()} master card" if number == "M" else f"{suit.capitalize()} {number}"
    assert "Take the top card of the pack" in actions
    assert f"Take the {named} from the discard pile" in actions

    # Every player's row: colour, square, cards in hand, four empty permission slots.
    players = section(html, "The players")
    assert players.count('class="sc-perm"') == 16 and "sc-held" not in players
    assert "Red piece on <strong>MI5</strong>" in players and "7 cards in hand" in players
    # The players' rows are also a fragment of their own, as on the other boards.
    picture = match_picture(match=match, seat=0)
    rivals = render_to_string(f"{picture.board_template}#rivals", {"p": picture, "match": match})
    assert rivals.count('class="card sc-seat') == 4 and 'id="sc-rivals"' in rivals


def drive(match: Match, people: dict[int, Any], capture: Any, stop: Any, moves: int = 300) -> Any:
    """People play like the heuristic bot (their choice seeded) until ``stop(state)``."""
    for _ in range(moves):
        state = match_state(bots_done(match))
        if stop(state):
            return state
        seat = min(s for s in ENGINE.to_act(state) if s in people)
        rng = chance(match.seed, "person", match.version, seat)
        action = HEURISTIC.choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rng)
        with capture(execute=True):
            services.match_move_submit(
                match_id=match.pk, user=people[seat], action=action, version=match.version
            )
    raise AssertionError("the position the test needs never came")


def test_no_other_hand_and_not_the_face_down_run_reaches_another_seats_page(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = start_match(ann, BOARD_SEED, people=[bob], capture=django_capture_on_commit_callbacks)
    state = drive(
        match,
        {0: ann, 1: bob},
        django_capture_on_commit_callbacks,
        lambda s: s.phase == "window" and s.window.seeker == 1 and 0 in s.window.waiting,
    )
    run = list(state.window.cards)
    assert len(run) == 3  # a run of three, face down

    for seat, user in ((0, ann), (1, bob), (None, None)):
        html = page(client, match, user)
        view = ENGINE.view(state, seat)
        mine = set(view["hand"] or []) | set(view["window"]["cards"] or [])  # the seeker's own run
        shown = cards_named(html)
        # Only this seat's own cards and public ones are named anywhere in the page.
        assert shown <= mine | public_cards(view), shown - mine - public_cards(view)
        for other in range(4):
            if other != seat:
                hidden = set(state.hands[other]) - public_cards(view)
                assert not hidden & shown, (seat, other, hidden & shown)
        panel = window_panel(html)
        if seat == 1:
            assert "Seeking permission! You are asking The Courts" in panel
            assert CARD.findall(panel) == run and "only you see it" in panel
            assert 'data-action="challenge"' not in panel and 'data-action="decline"' not in panel
        else:
            assert "Seeking permission! Bob is asking The Courts" in panel
            assert not set(run) & shown and not CARD.findall(panel)
            assert panel.count('class="sc-back"') == 3 and "3 cards face down" in panel
            assert "Still to answer: <strong>Ann</strong>" in panel
            assert "Ann (you): deciding…" in panel if seat == 0 else "Ann: deciding…" in panel
            asked = seat == 0
            assert ('data-action="decline"' in panel) is asked


def test_actions_post_from_the_page_and_illegal_ones_are_refused_with_a_reason(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, bob, eve = make_user(username="ann"), make_user(username="bob"), make_user(username="eve")
    match = start_match(ann, BOARD_SEED, people=[bob], capture=django_capture_on_commit_callbacks)
    state = match_state(match)
    hand = state.hands[0]
    version = match.version

    # A discard before drawing: the engine's reason, shown on the board; nothing changes.
    html = post(client, match, ann, {"type": "discard", "card": hand[0]}, version)
    assert '<div class="move-error" role="alert">You cannot \'discard\' now; you may: draw.</div>' in html
    assert "Your turn: take a card" in html
    # Bad JSON, a stale version, another seat, a stranger: each told why, nothing changes.
    assert "That action could not be read; nothing was changed." in post(client, match, ann, "{oops", version)
    assert "The game has moved on since you looked" in post(
        client, match, ann, {"type": "draw", "from": "pack"}, version - 1
    )
    assert "It is not your turn." in post(client, match, bob, {"type": "draw", "from": "pack"}, version)
    assert "You do not have a seat in this match." in post(
        client, match, eve, {"type": "draw", "from": "pack"}, version
    )
    assert Match.objects.get(pk=match.pk).version == version and not Move.objects.exists()

    # The page's own button for "take the top card of the pack" is accepted.
    html = page(client, match, ann)
    take = next(a for a in actions_in(section(html, "Your actions")) if a.get("from") == "pack")
    html = post(client, match, ann, take, version)
    assert Match.objects.get(pk=match.pk).version == version + 1
    assert "Discard one card" in html and "move-error" not in html
    hand = match_state(Match.objects.get(pk=match.pk)).hands[0]
    discards = actions_in(section(html, "Your hand"))
    assert discards == [{"type": "discard", "card": card} for card in hand]
    assert 'aria-label="Discard the ' in html
    # A card Ann does not hold: refused in words.
    missing = next(c for c in ("court-1", "court-2", "court-3", "court-4") if c not in hand)
    html = post(client, match, ann, {"type": "discard", "card": missing}, version + 1)
    assert f"You do not hold Court {missing.rsplit('-', 1)[1]}." in html
    assert Match.objects.get(pk=match.pk).version == version + 1


def reach_my_window(match: Match, user: Any, capture: Any) -> Any:
    """Play calmly as seat 0 until a bot's request for permission asks seat 0 to answer."""
    for _ in range(120):
        state = match_state(bots_done(match))
        if state.phase == "window" and 0 in ENGINE.to_act(state):
            return state
        with capture(execute=True):
            services.match_move_submit(
                match_id=match.pk, user=user, action=calm(ENGINE.legal(state, 0)), version=match.version
            )
    raise AssertionError("no request for permission asked seat 0 to answer")


def test_the_challenge_panel_offers_every_legal_challenge_and_tells_the_outcome(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    match = start_match(ann, WINDOW_SEED, capture=django_capture_on_commit_callbacks)
    state = reach_my_window(match, ann, django_capture_on_commit_callbacks)
    match.refresh_from_db()
    assert match.deadline is not None and match.deadline > timezone.now()
    seeker = f"Beginner bot {state.window.seeker + 1}"
    legal = ENGINE.legal(state, 0)
    assert len([a for a in legal if a["type"] == "challenge"]) == 7

    html = page(client, match, ann)
    panel = window_panel(html)
    assert f"Seeking permission! {seeker} is asking The Press" in panel
    assert "You may challenge with one, two or three of your 3 numbered Press cards." in text(panel)
    assert "Still to answer: <strong>Ann</strong>" in panel
    assert re.search(r'data-sc-deadline="\d{4}-\d\d-\d\dT[\d:.]+Z"', panel)
    left = int(re.search(r"<span data-sc-left>(\d+)</span>", panel).group(1))  # type: ignore[union-attr]
    assert 0 < left <= 20
    # Every legal answer has a button (the strongest first, the rest one tap away), and no other.
    offered = actions_in(panel)
    assert sorted(map(json.dumps, offered)) == sorted(map(json.dumps, legal))
    assert offered[0]["type"] == "challenge" and "Other ways to challenge (4)" in panel
    strongest = max(
        (a for a in legal if a["type"] == "challenge"),
        key=lambda a: sum(int(c.split("-")[1]) for c in a["cards"]),
    )
    assert offered[0] == strongest
    assert re.search(r"Challenge with Press \d+, \d+, \d+ \(total \d+\)<small>beats a run up to", panel)
    # The seeker's piece is ringed on the board.
    assert 'class="sc-seeking"' in html

    # A spectator sees the same moment, and no buttons.
    watching = window_panel(page(client, match, None))
    assert f"Seeking permission! {seeker} is asking The Press" in watching
    assert "data-action" not in watching and "Still to answer: <strong>Ann</strong>" in watching

    # Ann challenges with her strongest cards: the run is turned over and the outcome told.
    with django_capture_on_commit_callbacks(execute=True):
        html = post(client, match, ann, offered[0], match.version)
    bots_done(match)
    event = next(e for e in reversed(ENGINE.events(match_state(match))) if e["event"] == "challenge")
    assert event["challenges"][0]["seat"] == 0
    verdict = section(html, "The last request for permission")
    run = ", ".join(c.split("-")[1] for c in event["cards"])
    assert f"{seeker} sought permission in The Press with Press {run} (total {event['total']})." in verdict
    assert "Ann challenged with Press " in verdict
    if event["result"] == "granted":
        assert "Permission granted" in verdict and "not enough." in verdict
    else:
        assert (
            "Permission refused" in verdict
            and "Ann challenged with Press " in verdict
            and "and beat it!" in verdict
        )
    assert '<section class="sc-window' not in html
    assert "ev-challenge" in html


def test_an_overdue_challenge_window_closes_as_no_challenge_when_the_board_is_fetched(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    match = start_match(ann, WINDOW_SEED, capture=django_capture_on_commit_callbacks)
    reach_my_window(match, ann, django_capture_on_commit_callbacks)
    match.refresh_from_db()
    version = match.version
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        board = page(client, match, ann, fragment=True)
    assert Move.objects.get(match=match, number=version + 1).action == {"type": "decline"}
    assert Move.objects.get(match=match, number=version + 1).seat == 0
    assert '<section class="sc-window' not in board
    assert "Nobody challenged." in board
