"""A racer's move the short way (``race_moves``) against the general way (``services``).

The short way is a second path to the same log: it must take exactly the moves the general way
takes, refuse exactly what it refuses (in the same words), and stay right when several web
processes move the same race (each with its own cached state) or a cached state is ahead of
the log. These tests play the same races both ways and compare the logs, move by move.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from typing import Any

import pytest
from django.db import connection

from games import get_engine
from spyleague.play import race_moves, race_view, services, state
from spyleague.play.models import Match, Move
from spyleague.play.state import match_state

from .races import race_of_people

pytestmark = pytest.mark.django_db
ENGINE = get_engine("spy-vs-spy")


def racer_of(match: Match, user: Any) -> race_moves.Racer:
    racer = race_moves.racer_for(match_id=match.pk, user=user)
    assert racer is not None
    return racer


def log_of(match: Match) -> list[tuple[int, int, Any]]:
    return list(Move.objects.filter(match=match).order_by("number").values_list("number", "seat", "action"))


def a_move(rng: random.Random, st: Any, seat: int) -> tuple[dict[str, Any], str | None]:
    """What a racer's page might send: mostly a legal move, now and then a wrong pile, finishing
    too early, a card already down, or nonsense."""
    legal = ENGINE.legal(st, seat)
    spy = st.spies[seat]
    roll = rng.random()
    if roll < 0.06:
        return {"type": "finish"}, None
    if roll < 0.1 and spy.piles:
        return {"type": "place", "pile": rng.randrange(len(spy.piles))}, spy.card
    if roll < 0.13:
        return {"type": "place", "pile": 0}, "2C" if spy.card != "2C" else "3C"
    if roll < 0.15:
        return {"type": rng.choice(["take", "jump"]), "pile": rng.choice([0, 9, "x", None])}, None
    if not legal:
        return {"type": "finish"}, None
    action = rng.choice(legal)
    return action, spy.card if action["type"] == "place" else None


def general(match: Match, user: Any, action: Any, card: str | None) -> tuple[str, Any]:
    from spyleague.play.race_moves import race_move_submit

    try:
        race_move_submit(match_id=match.pk, user=user, action=action, card=card)
    except services.MoveRejected as exc:
        return "no", (exc.status, exc.reason)
    return "ok", None


def short(racer: race_moves.Racer, user: Any, action: Any, card: str | None) -> tuple[str, Any]:
    try:
        race_moves.answer_move(racer=racer, user=user, action=action, card=card)
    except services.MoveRejected as exc:
        return "no", (exc.status, exc.reason)
    return "ok", None


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_short_way_takes_and_refuses_exactly_what_the_general_way_does(make_user: Any, seed: int) -> None:
    users = [make_user(username=f"r{seed}{i}") for i in range(3)]
    by_short, by_general = race_of_people(*users, seed=seed), race_of_people(*users, seed=seed)
    racers = [racer_of(by_short, u) for u in users]
    rng = random.Random(seed)
    taken = 0
    for _ in range(400):
        now = match_state(Match.objects.get(pk=by_general.pk))
        to_act = sorted(ENGINE.to_act(now))
        if not to_act:
            break
        seat = rng.choice([*to_act, rng.randrange(3)])  # now and then a seat that may not move
        action, card = a_move(rng, now, seat)
        expected = general(by_general, users[seat], action, card)
        got = short(racers[seat], users[seat], action, card)
        assert got == expected, (seat, action, card)
        taken += expected[0] == "ok"
        assert log_of(by_short) == log_of(by_general)
    assert taken > 100
    finished = [Match.objects.get(pk=m.pk) for m in (by_short, by_general)]
    assert finished[0].version == finished[1].version == taken
    assert finished[0].status == finished[1].status
    assert finished[0].outcome == finished[1].outcome


def test_each_process_keeps_its_own_state_and_catches_up_from_the_log(make_user: Any) -> None:
    """Two web processes moving one race: each process's cached state is behind the other's
    moves; every move is still applied once, in order, on the state the log says."""
    users = [make_user(username=n) for n in ("ann", "bob", "cy")]
    match = race_of_people(*users, seed=7)
    racers = [racer_of(match, u) for u in users]
    caches: dict[str, Any] = {"one": None, "two": None}  # each process's cache entry for the race
    key = racers[0].key
    rng = random.Random(7)
    for turn in range(60):
        process = "one" if turn % 2 == 0 else "two"
        # Switch to that process's cache: what it last saw of the race.
        if caches[process] is None:
            state._CACHE.pop(key, None)
        else:
            state.remember_state_at(key, *caches[process])
        seat = turn % 3
        truth = match_state(Match.objects.get(pk=match.pk), upto=Match.objects.get(pk=match.pk).version)
        legal = ENGINE.legal(truth, seat)
        if not legal or legal[0]["type"] != "place":
            continue
        action = rng.choice(legal)
        race_moves.answer_move(
            racer=racers[seat], user=users[seat], action=action, card=truth.spies[seat].card
        )  # type: ignore[arg-type]
        caches[process] = state.cached_state(key)
    log = log_of(match)
    assert [n for n, _, _ in log] == list(range(1, len(log) + 1)) and len(log) > 20
    replayed = ENGINE.start(3, 7, {})
    for _, seat, action in log:
        replayed = ENGINE.apply(replayed, seat, action)
    state._CACHE.pop(key, None)
    assert match_state(Match.objects.get(pk=match.pk)) == replayed


def test_a_cached_state_ahead_of_the_log_is_not_trusted(make_user: Any) -> None:
    """A move whose transaction rolled back after its state was cached leaves the cache ahead of
    the log: the next move is made on the log's state, not the cache's."""
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = race_of_people(ann, bob, seed=3)
    racer = racer_of(match, ann)
    start = match_state(match)
    ghost = ENGINE.apply(start, 1, ENGINE.legal(start, 1)[0])  # bob's move that never committed
    state.remember_state_at(racer.key, 1, ghost)
    action = ENGINE.legal(start, 0)[0]
    moved = race_moves.answer_move(racer=racer, user=ann, action=action, card=start.spies[0].card)
    assert moved.version == 1 and log_of(match) == [(1, 0, action)]
    state._CACHE.pop(racer.key, None)
    assert match_state(Match.objects.get(pk=match.pk)) == ENGINE.apply(start, 0, action)


def test_what_the_short_way_leaves_to_the_general_way(
    make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, bob, cy = (make_user(username=n) for n in ("ann", "bob", "cy"))
    # A race with a bot: its pace and sweeps are the general way's.
    with_bot = services.match_create(user=ann, game="spy-vs-spy", seats=2, seed=3, bots={1: "heuristic"})
    services.match_start(user=ann, match_id=with_bot.pk)
    racer = race_moves.racer_for(match_id=with_bot.pk, user=ann)
    st = match_state(Match.objects.get(pk=with_bot.pk))
    with pytest.raises(race_moves.GeneralWay):
        race_moves.race_move(racer=racer, action=ENGINE.legal(st, 0)[0], card=st.spies[0].card)  # type: ignore[arg-type]
    assert (
        race_moves.answer_move(
            racer=racer, user=ann, action=ENGINE.legal(st, 0)[0], card=st.spies[0].card
        ).version
        == 1
    )  # type: ignore[arg-type]
    # A racer who resigned: a bot plays the seat, the socket's racer may no longer move it.
    match = race_of_people(ann, bob, cy, seed=5)
    racer = racer_of(match, bob)
    services.match_resign(user=bob, match_id=match.pk)
    st = match_state(Match.objects.get(pk=match.pk))
    with pytest.raises(services.MoveRejected) as refused:
        race_moves.answer_move(racer=racer, user=bob, action=ENGINE.legal(st, 1)[0], card=st.spies[1].card)
    assert refused.value.status == 403 and "resigned" in refused.value.reason
    assert Match.objects.get(pk=match.pk).version == st.actions
    # A spectator never moves; a race that is over takes nothing.
    watcher = racer_of(match, make_user(username="eve"))
    assert watcher.seat is None
    with pytest.raises(services.MoveRejected) as refused:
        race_moves.answer_move(racer=watcher, user=None, action={"type": "finish"})
    assert refused.value.status == 403


def test_the_move_that_ends_the_game_is_the_general_ways_with_its_outcome_and_report(
    make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    wes = make_user(username="wes")
    match = race_of_people(wes, seed=67)  # alone: two races to the end
    racer = racer_of(match, wes)
    for _ in range(2000):
        now = Match.objects.get(pk=match.pk)
        if now.status != Match.Status.PLAYING:
            break
        st = match_state(now)
        action = ENGINE.legal(st, 0)[0]
        with django_capture_on_commit_callbacks(execute=True):
            race_moves.answer_move(racer=racer, user=wes, action=action, card=st.spies[0].card)
    now = Match.objects.get(pk=match.pk)
    assert now.status == Match.Status.FINISHED and now.outcome is not None and now.report_due is None
    assert now.outcome == ENGINE.outcome(match_state(now)).as_dict() | {"detail": now.outcome["detail"]}


class CachePerThread:
    """The state cache, one per thread: each thread is a web process of its own."""

    def __init__(self) -> None:
        self.local = threading.local()

    def _own(self) -> OrderedDict[Any, Any]:
        if not hasattr(self.local, "cache"):
            self.local.cache = OrderedDict()
        return self.local.cache  # type: ignore[no-any-return]

    def get(self, key: Any, default: Any = None) -> Any:
        return self._own().get(key, default)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._own()[key] = value

    def move_to_end(self, key: Any) -> None:
        self._own().move_to_end(key)

    def popitem(self, last: bool = True) -> Any:
        return self._own().popitem(last)

    def pop(self, key: Any, default: Any = None) -> Any:
        return self._own().pop(key, default)

    def __len__(self) -> int:
        return len(self._own())


@pytest.mark.django_db(transaction=True)
def test_racers_moving_at_once_from_many_processes_lose_and_double_nothing(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four racers, each in a thread with a state cache of its own (as four web processes), place
    their cards as fast as they can; the log holds every move once, numbered in order."""
    users = [make_user(username=f"t{i}") for i in range(4)]
    match = race_of_people(*users, seed=11)
    racers = [racer_of(match, u) for u in users]
    monkeypatch.setattr(state, "_CACHE", CachePerThread())
    placed = [0] * 4
    conflicts = [0]
    errors: list[BaseException] = []
    real_status = race_moves._status_and_version

    def counted(match_id: int) -> Any:
        conflicts[0] += 1  # asked only when an append found the match moved on
        return real_status(match_id)

    monkeypatch.setattr(race_moves, "_status_and_version", counted)

    def race(seat: int) -> None:
        racer = racers[seat]
        try:
            for _ in range(25):
                _, st = race_moves._current(racer)  # the racer's own cards are as its page shows them
                legal = ENGINE.legal(st, seat)
                if not legal or legal[0]["type"] != "place":
                    break
                race_moves.answer_move(
                    racer=racer, user=users[seat], action=legal[0], card=st.spies[seat].card
                )
                placed[seat] += 1
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=race, args=(seat,)) for seat in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    log = log_of(match)
    assert [n for n, _, _ in log] == list(range(1, sum(placed) + 1)) and sum(placed) > 40
    assert [sum(1 for _, s, _ in log if s == seat) for seat in range(4)] == placed
    assert Match.objects.get(pk=match.pk).version == len(log)
    assert conflicts[0] > 0  # the racers did get in each other's way, and caught up


def test_the_update_every_page_gets_shows_nothing_hidden() -> None:
    """Over random races of every size: the update of a state and of any twin of it (every
    face-down card redealt, every pick but its own redrawn: ``tests/games/spy_vs_spy/twins``)
    are the same message, and so is the pick part of a seat's own answer for every other seat."""
    from games.spy_vs_spy.bots import BOTS
    from tests.games.spy_vs_spy.twins import twin

    checked = 0
    for seed, seats in enumerate((1, 2, 3, 4, 6, 8)):
        rng = random.Random(seed)
        state = ENGINE.start(seats, seed, {})
        while (to_act := sorted(ENGINE.to_act(state))) and state.race <= 2:
            if rng.random() < 0.3 or state.phase != "race":
                for _ in range(2):
                    other = twin(state, None, rng)
                    assert race_view.update_message(ENGINE, other, 5, "playing") == race_view.update_message(
                        ENGINE, state, 5, "playing"
                    )
                    for seat in range(seats):
                        mine = twin(state, seat, rng)
                        assert race_view.seat_part(ENGINE, mine, seat) == race_view.seat_part(
                            ENGINE, state, seat
                        )
                    checked += 1
            seat = rng.choice(to_act)
            bot = BOTS["heuristic"]
            state = ENGINE.apply(
                state, seat, bot.choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rng)
            )
    assert checked > 100
