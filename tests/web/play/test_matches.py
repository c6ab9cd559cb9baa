"""Online matches: the server is the authority, the log is the truth."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from spyleague.play import services
from spyleague.play.models import Match, Move
from spyleague.play.state import forget, match_state
from spyleague.scores.models import Result

pytestmark = pytest.mark.django_db


def new_match(user: Any, seats: int = 2, seed: int = 0, **kw: Any) -> Match:
    return services.match_create(user=user, game="race-to-ten", seats=seats, seed=seed, **kw)


def test_create_join_and_start_with_two_people(make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = new_match(ann)
    assert services.match_join(user=bob, match_id=match.pk) == 1
    with pytest.raises(services.MoveRejected, match="already have a seat"):
        services.match_join(user=bob, match_id=match.pk)
    with pytest.raises(services.MoveRejected, match="Only the player who created"):
        services.match_start(user=bob, match_id=match.pk)
    services.match_start(user=ann, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING


def test_an_illegal_action_is_refused_with_a_reason_and_changes_nothing(make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = new_match(ann, seed=0)
    services.match_join(user=bob, match_id=match.pk)
    services.match_start(user=ann, match_id=match.pk)
    with pytest.raises(services.MoveRejected, match="add 1 or 2"):
        services.match_move_submit(match_id=match.pk, user=ann, action={"type": "add", "n": 3})
    with pytest.raises(services.MoveRejected, match="not your turn"):
        services.match_move_submit(match_id=match.pk, user=bob, action={"type": "add", "n": 1})
    with pytest.raises(services.MoveRejected, match="JSON object"):
        services.match_move_submit(match_id=match.pk, user=ann, action="add one")
    match.refresh_from_db()
    assert match.version == 0 and not Move.objects.exists()


def test_a_stranger_and_a_stale_version_are_refused(make_user: Any) -> None:
    ann, bob, eve = make_user(username="ann"), make_user(username="bob"), make_user(username="eve")
    match = new_match(ann, seed=0)
    services.match_join(user=bob, match_id=match.pk)
    services.match_start(user=ann, match_id=match.pk)
    with pytest.raises(services.MoveRejected) as refused:
        services.match_move_submit(match_id=match.pk, user=eve, action={"type": "add", "n": 1})
    assert refused.value.status == 403
    services.match_move_submit(match_id=match.pk, user=ann, action={"type": "add", "n": 1}, version=0)
    # A second click from the same page (it still shows version 0) must not apply twice.
    with pytest.raises(services.MoveRejected) as stale:
        services.match_move_submit(match_id=match.pk, user=bob, action={"type": "add", "n": 1}, version=0)
    assert stale.value.status == 409
    match.refresh_from_db()
    assert match.version == 1
    assert match_state(match).total == 1


def test_bots_fill_seats_and_play_until_a_person_must_act(
    make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = make_user(username="ann")
    match = new_match(ann, seats=3, seed=1)  # seat 1 starts: two bots move first
    with django_capture_on_commit_callbacks(execute=True):
        services.match_start(user=ann, match_id=match.pk, fill_with="random")
    match.refresh_from_db()
    assert [s.bot for s in match.seat_set.order_by("number")] == ["", "random", "random"]
    state = match_state(match)
    assert match.version == 2 and state.turn == 0


def test_a_finished_match_with_people_only_becomes_a_confirmed_result(
    make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = new_match(ann, seed=0, options={"target": 3})
    services.match_join(user=bob, match_id=match.pk)
    services.match_start(user=ann, match_id=match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_move_submit(match_id=match.pk, user=ann, action={"type": "add", "n": 1})
        services.match_move_submit(match_id=match.pk, user=bob, action={"type": "add", "n": 2})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["places"] == [2, 1]
    result = Result.objects.get(source=Result.Source.ONLINE)
    assert result.status == Result.Status.CONFIRMED
    assert [(line.player.user.username, line.place) for line in result.lines.order_by("position")] == [
        ("ann", 2),
        ("bob", 1),
    ]
    with pytest.raises(services.MoveRejected, match="over"):
        services.match_move_submit(match_id=match.pk, user=ann, action={"type": "add", "n": 1})


def test_bad_options_are_explained(make_user: Any) -> None:
    with pytest.raises(services.MoveRejected, match="target"):
        new_match(make_user(username="ann"), options={"target": 999})
    with pytest.raises(services.MoveRejected, match="Unknown option"):
        new_match(make_user(username="bob"), options={"speed": 3})


def test_the_state_is_rebuilt_from_the_log_after_another_process_moved(make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = new_match(ann, seed=0)
    services.match_join(user=bob, match_id=match.pk)
    services.match_start(user=ann, match_id=match.pk)
    services.match_move_submit(match_id=match.pk, user=ann, action={"type": "add", "n": 2})
    # Another web process appends a move: this process's cache is behind the database.
    Move.objects.create(match=match, number=2, seat=1, action={"type": "add", "n": 1})
    Match.objects.filter(pk=match.pk).update(version=2)
    match.refresh_from_db()
    assert match_state(match).total == 3
    forget(match)
    assert match_state(match).total == 3
    assert match_state(match, upto=1).total == 2


def test_pages_show_only_the_viewers_seat_and_act_through_htmx(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = new_match(ann, seed=0)
    services.match_join(user=bob, match_id=match.pk)
    services.match_start(user=ann, match_id=match.pk)
    client.force_login(ann)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "you are seat 1" in page and "Your move." in page
    response = client.post(
        reverse("play:act", args=[match.pk]),
        {"action": json.dumps({"type": "add", "n": 5}), "version": "0"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert "add 1 or 2" in response.content.decode()  # shown in the board, nothing changed
    response = client.post(
        reverse("play:act", args=[match.pk]),
        {"action": json.dumps({"type": "add", "n": 2}), "version": "0"},
        HTTP_HX_REQUEST="true",
    )
    assert "Waiting for" in response.content.decode()
    match.refresh_from_db()
    assert match.version == 1
    garbage = client.post(
        reverse("play:act", args=[match.pk]), {"action": "{not json"}, HTTP_HX_REQUEST="true"
    )
    assert "could not be read" in garbage.content.decode()


def test_the_board_fragment_answers_204_when_nothing_changed(client: Any, make_user: Any) -> None:
    ann = make_user(username="ann")
    match = new_match(ann)
    services.match_start(user=ann, match_id=match.pk, fill_with="random")
    match.refresh_from_db()
    key = f"{match.version}-{match.status}-{match.updated.timestamp():.3f}"
    assert client.get(reverse("play:board", args=[match.pk]), {"v": key}).status_code == 204
    assert client.get(reverse("play:board", args=[match.pk]), {"v": "old"}).status_code == 200


def test_the_event_stream_announces_the_current_version(client: Any, make_user: Any) -> None:
    ann = make_user(username="ann")
    match = new_match(ann)
    response = client.get(reverse("play:events", args=[match.pk]))
    assert response["Content-Type"] == "text/event-stream"
    stream = iter(response.streaming_content)
    assert next(stream).startswith(b"retry:")
    first = next(stream).decode()
    assert first.startswith("event: update\ndata: 0-open-")
    response.close()


def test_replay_steps_through_a_finished_match(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = new_match(ann, seed=0, options={"target": 3})
    services.match_join(user=bob, match_id=match.pk)
    services.match_start(user=ann, match_id=match.pk)
    assert client.get(reverse("play:replay", args=[match.pk])).status_code == 302  # not over yet
    services.match_move_submit(match_id=match.pk, user=ann, action={"type": "add", "n": 1})
    services.match_move_submit(match_id=match.pk, user=bob, action={"type": "add", "n": 2})
    response = client.get(reverse("play:replay", args=[match.pk]), {"step": 1})
    assert response.status_code == 200, response
    page = response.content.decode()
    assert "Move 1 of 2" in page
    assert "&#x27;total&#x27;: 1" in page or "total" in page
    frame = client.get(reverse("play:replay", args=[match.pk]), {"step": 99}, HTTP_HX_REQUEST="true")
    assert "Move 2 of 2" in frame.content.decode()


def test_invite_link_offers_a_seat_that_one_click_takes(client: Any, make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = new_match(ann)
    client.force_login(bob)
    response = client.get(reverse("play:invite", args=[match.invite]), follow=True)
    assert "You are invited: take a seat below." in response.content.decode()
    assert "Take a seat" in response.content.decode()
    assert match.seat_set.get(number=1).player is None  # following a link changes nothing
    assert client.post(reverse("play:join", args=[match.pk])).status_code == 302
    assert match.seat_set.get(number=1).player == bob.player
    assert client.get(reverse("play:invite", args=["nope"])).status_code == 404
