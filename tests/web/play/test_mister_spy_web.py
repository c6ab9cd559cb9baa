"""The Mister Spy match page: each seat sees only its own view, refusals explain, windows close on time."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games.core import IllegalAction
from games.mister_spy import ENGINE
from games.mister_spy.cards import DECK
from spyleague.play import services
from spyleague.play.models import Match, Move
from spyleague.play.state import match_state

pytestmark = pytest.mark.django_db

CARD = re.compile(r'data-card="([^"]*)"')


def calm(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A person who never taunts: capture, build the Lair, keep, kill, pass."""
    for kind in ("capture", "play_lair", "keep", "kill", "let_pass", "pass"):
        for action in legal:
            if action["type"] == kind:
                return action
    return legal[0]


def section(html: str, label: str) -> str:
    start = html.index(f'aria-label="{label}"')
    return html[start : html.index("</section>", start)]


def start_match(user: Any, seed: int, *, capture: Any, people: Sequence[Any] = ()) -> Match:
    match = services.match_create(
        user=user, game="mister-spy", seats=4, seed=seed, bots={2: "heuristic", 3: "heuristic"}
    )
    for person in people:
        services.match_join(user=person, match_id=match.pk)
    with capture(execute=True):
        services.match_start(user=user, match_id=match.pk, fill_with="heuristic")
    return bots_done(match)


def bots_done(match: Match) -> Match:
    """The bots have moved: inline on commit when Celery is eager (the default), and here
    otherwise (a live worker cannot see this test's uncommitted rows). A second run is a no-op."""
    services.match_run_bots(match_id=match.pk)
    match.refresh_from_db()
    return match


def test_a_seat_sees_its_own_hand_and_only_backs_and_counts_of_the_others(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = start_match(ann, 5, people=[bob], capture=django_capture_on_commit_callbacks)
    state = match_state(match)
    assert state.turn == 0  # ann deals and plays first; nobody has played a card yet

    pages = {}
    for seat, user in ((0, ann), (1, bob), (None, None)):
        client.logout()
        if user is not None:
            client.force_login(user)
        html = client.get(reverse("play:match", args=[match.pk])).content.decode()
        pages[seat] = html
        shown = Counter(CARD.findall(html))
        if seat is None:
            assert not shown and 'aria-label="Your hand"' not in html
            continue
        hand = Counter(state.hands[seat])
        # Every face on the page is a card of this seat's hand: the others' cards never appear.
        assert shown == hand
        assert Counter(CARD.findall(section(html, "Your hand"))) == hand
        for other in range(4):
            counts = ENGINE.view(state, seat)["hands"][other]
            block = html[html.index(f'data-seat="{other}"') :]
            assert f'aria-label="{counts["cards"]} cards, {counts["spies"]} with a Spy back"' in block
    assert "Your turn: choose one action" in pages[0]
    assert "Ann's turn" in pages[1]

    # ann plays a Secret Lair: she sees what it is, bob and a spectator see a back.
    lair_card = next(c for c in state.hands[0] if not c.startswith("spy-"))
    client.force_login(ann)
    client.post(
        reverse("play:act", args=[match.pk]),
        {"action": json.dumps({"type": "play_lair", "card": lair_card}), "version": match.version},
        HTTP_HX_REQUEST="true",
    )
    mine = client.get(reverse("play:board", args=[match.pk])).content.decode()
    assert "Your Secret Lair" in mine or "Your Deathtrap" in mine
    client.force_login(bob)
    theirs = client.get(reverse("play:board", args=[match.pk])).content.decode()
    state = match_state(Match.objects.get(pk=match.pk))
    assert Counter(CARD.findall(theirs)) == Counter(state.hands[1])
    assert "A Secret Lair (L1), face down, worth 1" in theirs


def test_a_refused_action_shows_the_engines_reason_and_changes_nothing(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    match = start_match(ann, 5, capture=django_capture_on_commit_callbacks)
    state = match_state(match)
    missing = next(c for c in DECK if c.startswith("spy-") and c not in state.hands[0])
    action = {"type": "capture", "card": missing, "reveal": []}
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 0, action)
    client.force_login(ann)
    response = client.post(
        reverse("play:act", args=[match.pk]),
        {"action": json.dumps(action), "version": match.version},
        HTTP_HX_REQUEST="true",
    )
    html = unescape(response.content.decode())
    assert response.status_code == 400
    assert f'<div class="move-error" role="alert">{refused.value.reason}</div>' in html
    assert "You do not hold" in refused.value.reason
    assert "Your turn: choose one action" in html  # the board is still there
    assert Match.objects.get(pk=match.pk).version == match.version and not Move.objects.exists()

    # A seat that is not at the table: the engine's words again.
    response = client.post(
        reverse("play:act", args=[match.pk]),
        {"action": '{"type": "steal_spy", "from": 7}', "version": match.version},
        HTTP_HX_REQUEST="true",
    )
    assert "Seat 7 has no Spy in hand to steal." in unescape(response.content.decode())
    assert not Move.objects.exists()


def reach_my_window(match: Match, user: Any, capture: Any) -> Any:
    """Play calmly as seat 0 until a bot's taunt asks seat 0 to answer."""
    for _ in range(40):
        state = match_state(bots_done(match))
        if state.phase == "window" and 0 in ENGINE.to_act(state):
            return state
        with capture(execute=True):
            services.match_move_submit(
                match_id=match.pk, user=user, action=calm(ENGINE.legal(state, 0)), version=match.version
            )
    raise AssertionError("no taunt asked seat 0 to answer")


def test_the_window_panel_then_an_overdue_window_is_closed_as_let_it_pass_when_the_board_is_fetched(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    match = start_match(ann, 78, capture=django_capture_on_commit_callbacks)
    state = reach_my_window(match, ann, django_capture_on_commit_callbacks)
    match.refresh_from_db()
    assert match.deadline is not None and match.deadline > timezone.now()
    window = ENGINE.view(state, 0)["window"]
    taunter = f"Beginner bot {window['taunter'] + 1}"

    client.force_login(ann)
    html = unescape(client.get(reverse("play:match", args=[match.pk])).content.decode())
    panel = html[html.index('class="ms-window') : html.index('class="ms-layout"')]
    assert f"Taunt! {taunter} is taunting Spy {window['spy_card'].split('-')[1]}" in panel
    assert f"&rarr; {window['stake']}" in panel or f"→ {window['stake']}" in panel
    assert "you may foil this taunt" in panel  # seat 0 holds the other card of the letter
    assert 'data-action="foil"' in panel and 'data-action="let_pass"' in panel
    assert "Still to answer: <strong>Ann</strong>" in panel
    assert re.search(r'data-ms-deadline="\d{4}-\d\d-\d\dT[\d:.]+Z"', panel)
    left = int(re.search(r"<span data-ms-left>(\d+)</span>", panel).group(1))  # type: ignore[union-attr]
    assert 0 < left <= 20

    # A spectator sees the same window but no buttons.
    client.logout()
    watching = unescape(client.get(reverse("play:match", args=[match.pk])).content.decode())
    assert f"Taunt! {taunter} is taunting" in watching and 'data-action="foil"' not in watching

    # Time runs out: the next look at the board answers "let it pass" for ann.
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    version = match.version
    client.force_login(ann)
    with django_capture_on_commit_callbacks(execute=True):
        board = unescape(client.get(reverse("play:board", args=[match.pk])).content.decode())
    bots_done(match)
    move = Move.objects.get(match=match, number=version + 1)
    assert (move.seat, move.action) == (0, {"type": "let_pass"})
    assert 'class="ms-window' not in board
    assert f"Nobody foiled {taunter}'s taunt: the Spy is now worth {window['stake']}." in board
    match.refresh_from_db()
    assert match.version > version


def test_a_foil_is_shown_in_the_events_of_every_seat(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    match = start_match(ann, 78, capture=django_capture_on_commit_callbacks)
    state = reach_my_window(match, ann, django_capture_on_commit_callbacks)
    foil = next(a for a in ENGINE.legal(state, 0) if a["type"] == "foil")
    client.force_login(ann)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("play:act", args=[match.pk]),
            {"action": json.dumps(foil), "version": Match.objects.get(pk=match.pk).version},
            HTTP_HX_REQUEST="true",
        )
    html = unescape(response.content.decode())
    assert '<li class="ev-foil">Ann FOILED Beginner bot' in html
    banner = html[html.index('class="ms-foiled"') : html.index("</section>", html.index('class="ms-foiled"'))]
    assert "Foiled!" in banner and "escapes to the discard pile" in banner
    client.logout()
    assert "ev-foil" in client.get(reverse("play:board", args=[match.pk])).content.decode()
