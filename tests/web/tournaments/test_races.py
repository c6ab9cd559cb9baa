"""Two organisers (or two tabs) at the same moment, on PostgreSQL: every change of an event's,
a round's, a table's or an entrant's state takes the event's lock and reads the state after it,
so the second waits for the first and is told what happened (a ``Conflict``: 409) instead of
acting on what it read before.

Each test holds the first service's transaction open (its locks held) in a thread, starts the
second in another thread, waits until PostgreSQL says the second is waiting for a lock (the
thing itself, read from ``pg_stat_activity``), then lets the first commit. A service that did
not lock would not wait: it would run on the old state while the first is still open, and the
test says so. On SQLite every transaction takes the database's write lock first, so there is
no race to show: these run on PostgreSQL (CI's second pass).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import connection, transaction

from spyleague.clubs.models import Membership, Player, Role
from spyleague.core.locks import Conflict
from spyleague.tournaments import services
from spyleague.tournaments.models import Entrant, Event, Round

from .helpers import make_event

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks race on PostgreSQL only"),
]

WAIT = 30.0  # seconds before a test gives up on a thread (it fails then: nothing waits this long)


@dataclass
class Outcome:
    value: Any = None
    error: BaseException | None = None
    finished: threading.Event = field(default_factory=threading.Event)


def _run(
    fn: Callable[[], Any],
    outcome: Outcome,
    *,
    hold: threading.Event | None = None,
    holding: threading.Event | None = None,
    pid: list[int] | None = None,
) -> None:
    try:
        if pid is not None:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pid.append(cursor.fetchone()[0])
        if hold is None:
            outcome.value = fn()
        else:
            assert holding is not None
            with transaction.atomic():
                try:
                    outcome.value = fn()
                finally:
                    holding.set()
                    hold.wait(WAIT)
    except BaseException as exc:  # the test reads it
        outcome.error = exc
    finally:
        outcome.finished.set()
        connection.close()


def _waiting_for_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


def race(first: Callable[[], Any], second: Callable[[], Any]) -> tuple[Outcome, Outcome]:
    """``first`` runs and keeps its transaction open; ``second`` starts and must wait for its
    locks; then ``first`` commits and ``second`` goes on. Returns both outcomes."""
    one, two = Outcome(), Outcome()
    hold, holding = threading.Event(), threading.Event()
    pid: list[int] = []
    a = threading.Thread(target=_run, args=(first, one), kwargs={"hold": hold, "holding": holding})
    b = threading.Thread(target=_run, args=(second, two), kwargs={"pid": pid})
    a.start()
    assert holding.wait(WAIT), "the first service did not return"
    if one.error is not None:
        hold.set()
        a.join(WAIT)
        raise AssertionError(f"the first service failed: {one.error!r}")
    b.start()
    deadline = time.monotonic() + WAIT
    waited = False
    while time.monotonic() < deadline and not two.finished.is_set():
        if pid and _waiting_for_a_lock(pid[0]):
            waited = True
            break
        two.finished.wait(0.01)
    hold.set()
    a.join(WAIT)
    b.join(WAIT)
    assert not a.is_alive() and not b.is_alive(), "a service hung"
    assert waited, f"the second service did not wait for the first one's lock ({two.error or two.value!r})"
    return one, two


def refused(outcome: Outcome, words: str) -> None:
    assert isinstance(outcome.error, Conflict), repr(outcome.error)
    assert words in " ".join(outcome.error.messages)


def _draft(club: Any, organiser: Any, players: int = 8) -> tuple[Event, Round]:
    event = make_event(club, organiser, players=players, game="mister-spy", size=4)
    return event, services.round_pair(event=event)


def test_discard_then_publish_of_one_draft(club: Any, organiser: Any) -> None:
    event, draft = _draft(club, organiser)
    one, two = race(
        lambda: services.round_discard(user=organiser, rnd=draft),
        lambda: services.round_publish(user=organiser, rnd=draft),
    )
    assert one.error is None
    refused(two, "was discarded meanwhile")
    assert not Round.objects.filter(event=event).exists()


def test_publish_then_discard_of_one_draft(club: Any, organiser: Any) -> None:
    event, draft = _draft(club, organiser)
    _, two = race(
        lambda: services.round_publish(user=organiser, rnd=draft),
        lambda: services.round_discard(user=organiser, rnd=draft),
    )
    refused(two, "a published round cannot be discarded")
    assert Round.objects.get(event=event).status == Round.Status.PUBLISHED


def test_publish_twice_at_once_publishes_once(club: Any, organiser: Any) -> None:
    event, draft = _draft(club, organiser)
    one, two = race(
        lambda: services.round_publish(user=organiser, rnd=draft),
        lambda: services.round_publish(user=organiser, rnd=draft),
    )
    assert two.error is None and two.value.published == one.value.published
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING


@pytest.mark.parametrize(
    ("first", "words"),
    [
        (services.round_discard, "was discarded meanwhile"),
        (services.round_publish, "was published meanwhile"),
    ],
)
def test_a_swap_in_the_draft_while_it_is_discarded_or_published(
    club: Any, organiser: Any, first: Callable[..., Any], words: str
) -> None:
    _event, draft = _draft(club, organiser)
    first_table, second_table = list(draft.tables.all())[:2]
    a = first_table.seats.select_related("entrant").first().entrant
    b = second_table.seats.select_related("entrant").first().entrant
    _, two = race(
        lambda: first(user=organiser, rnd=draft),
        lambda: services.round_swap(user=organiser, rnd=draft, a=a, b=b),
    )
    refused(two, words)


def test_pairing_twice_at_once_makes_one_draft(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=8, game="mister-spy", size=4)
    one, two = race(lambda: services.round_pair(event=event), lambda: services.round_pair(event=event))
    assert two.error is None and two.value.pk == one.value.pk
    assert Round.objects.filter(event=event).count() == 1


def test_finish_then_publish(club: Any, organiser: Any) -> None:
    """Finishing by hand discards a draft: the publish that waited is told it is gone."""
    event, draft = _draft(club, organiser)
    _, two = race(
        lambda: services.finish_event(user=organiser, event=event),
        lambda: services.round_publish(user=organiser, rnd=draft),
    )
    refused(two, "was discarded meanwhile")
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED


def test_finish_then_register_check_in_or_drop(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=4, game="mister-spy", size=4)
    entrant = Entrant.objects.filter(event=event).select_related("player", "event").first()
    newcomer = Player.objects.create(name="Late Lou", guest_of=club)
    Membership.objects.create(club=club, player=newcomer, role=Role.PLAYER)
    for second in (
        lambda: services.entrant_register(user=organiser, event=event, player=newcomer),
        lambda: services.entrant_check_in(user=organiser, entrant=entrant),
        lambda: services.entrant_drop(user=organiser, entrant=entrant),
        lambda: services.entrants_check_in_all(user=organiser, event=event),
    ):
        Event.objects.filter(pk=event.pk).update(status=Event.Status.REGISTRATION)
        _, two = race(lambda: services.finish_event(user=organiser, event=event), second)
        refused(two, "This event is over")
    assert not Entrant.objects.filter(event=event, player=newcomer).exists()
    assert Entrant.objects.get(pk=entrant.pk).dropped_after is None


def test_a_drop_while_the_draft_is_published(club: Any, organiser: Any) -> None:
    """The drop waits for the publish and counts the round just published as played by them."""
    event, draft = _draft(club, organiser)
    entrant = Entrant.objects.filter(event=event).select_related("player", "event").first()
    _, two = race(
        lambda: services.round_publish(user=organiser, rnd=draft),
        lambda: services.entrant_drop(user=organiser, entrant=entrant),
    )
    assert two.error is None
    assert Entrant.objects.get(pk=entrant.pk).dropped_after == 1


def test_pair_then_change_the_table_size(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=8, game="mister-spy", size=4)
    _, two = race(
        lambda: services.round_pair(event=event),
        lambda: services.event_update(user=organiser, event=event, table_size=3),
    )
    assert two.error is not None and "cannot change once a round has been paired" in str(two.error)
    assert Event.objects.get(pk=event.pk).table_size == 4


def test_pair_then_delete_the_event(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=8, game="mister-spy", size=4)
    _, two = race(
        lambda: services.round_pair(event=event), lambda: services.event_delete(user=organiser, event=event)
    )
    assert two.error is not None and "keeps its rounds and results" in str(two.error)
    assert Event.objects.filter(pk=event.pk).exists()


def test_delete_the_event_then_pair(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=8, game="mister-spy", size=4)
    _, two = race(
        lambda: services.event_delete(user=organiser, event=event), lambda: services.round_pair(event=event)
    )
    refused(two, "was deleted meanwhile")
    assert not Round.objects.exists()


def _entered(event: Event, organiser: Any) -> list[Any]:
    """Round 1 published and each table's result entered (not confirmed), places in seat order."""
    from spyleague.scores.services import EntryLine, result_enter

    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    results = []
    for table in rnd.tables.filter(is_bye=False).order_by("number"):
        players = [
            s.entrant.player for s in table.seats.select_related("entrant__player").order_by("position")
        ]
        lines = [EntryLine(p, None, place) for place, p in enumerate(players, 1)]
        results.append(
            result_enter(user=organiser, game=event.game, club=event.club, table=table, entries=lines)
        )
    return results


def test_the_last_two_tables_confirmed_at_once_complete_the_round(club: Any, organiser: Any) -> None:
    """Each confirmation checks whether its round is complete: the second waits for the first and
    sees its table confirmed, so the round is complete (and the standings count both)."""
    from spyleague.scores.services import result_confirm
    from spyleague.tournaments.models import Standing

    event = make_event(club, organiser, players=8, game="mister-spy", size=4)
    one, two = _entered(event, organiser)
    first, second = race(
        lambda: result_confirm(user=organiser, result=one),
        lambda: result_confirm(user=organiser, result=two),
    )
    assert first.error is None and second.error is None
    assert Round.objects.get(event=event).status == Round.Status.COMPLETE
    assert sorted(Standing.objects.filter(event=event).values_list("games", flat=True)) == [1] * 8


def test_two_results_entered_for_one_table_at_once(club: Any, organiser: Any) -> None:
    from spyleague.scores.models import Result
    from spyleague.scores.services import EntryLine, ResultExists, result_enter

    event = make_event(club, organiser, players=4, game="mister-spy", size=4)
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    table = rnd.tables.get()
    players = [s.entrant.player for s in table.seats.select_related("entrant__player").order_by("position")]

    def enter(order: list[Any]) -> Any:
        lines = [EntryLine(p, None, place) for place, p in enumerate(order, 1)]
        return result_enter(user=organiser, game=event.game, club=event.club, table=table, entries=lines)

    _, two = race(lambda: enter(players), lambda: enter(players[::-1]))
    assert isinstance(two.error, ResultExists)
    assert Result.objects.filter(table=table).count() == 1


def test_a_correction_waits_for_the_confirmation_and_overrides_it(club: Any, organiser: Any) -> None:
    """The organiser corrects while a player confirms: the correction reads the confirmed result
    and is kept as an override of it, in the history's order."""
    from spyleague.scores.services import EntryLine, result_confirm, result_correct

    event = make_event(club, organiser, players=4, game="mister-spy", size=4)
    (result,) = _entered(event, organiser)
    players = [line.player for line in result.lines.order_by("position")]
    lines = [EntryLine(p, None, len(players) - i) for i, p in enumerate(players)]  # places backwards
    _, two = race(
        lambda: result_confirm(user=organiser, result=result),
        lambda: result_correct(user=organiser, result=result, entries=lines, note="Places read backwards"),
    )
    assert two.error is None, two.error
    assert list(result.changes.order_by("pk").values_list("action", flat=True)) == [
        "entered",
        "confirmed",
        "overridden",
    ]


def test_a_standings_job_and_a_confirmation_at_once(club: Any, organiser: Any) -> None:
    """The job holds the standings lock and writes every row; the confirmation waits for it and
    then applies its table: both finish, and the rows are what a full recompute gives."""
    from spyleague.scores.services import result_confirm
    from spyleague.tournaments.models import Standing

    event = make_event(club, organiser, players=8, game="mister-spy", size=4)
    one, _ = _entered(event, organiser)
    Standing.objects.filter(event=event).delete()  # the job inserts every row (referring to the event)
    first, second = race(
        lambda: services.standings_recompute(event=event),
        lambda: result_confirm(user=organiser, result=one),
    )
    assert first.error is None and second.error is None, (first.error, second.error)
    stored = dict(Standing.objects.filter(event=event).values_list("entrant_id", "points"))
    assert stored == {r.player: r.points for r in services.standings_compute(event)}


def test_a_settings_change_and_a_confirmation_at_once(club: Any, organiser: Any) -> None:
    """A change of tiebreaks re-ranks the standings under the event's lock while a confirmation
    writes them: whichever comes first, the other waits, and both finish."""
    from spyleague.scores.services import result_confirm

    event = make_event(club, organiser, players=8, game="mister-spy", size=4)
    one, two = _entered(event, organiser)
    first, second = race(
        lambda: result_confirm(user=organiser, result=one),
        lambda: services.event_update(user=organiser, event=event, tiebreaks=["tournament_points", "wins"]),
    )
    assert first.error is None and second.error is None, (first.error, second.error)
    first, second = race(
        lambda: services.event_update(user=organiser, event=event, tiebreaks=["tournament_points"]),
        lambda: result_confirm(user=organiser, result=two),
    )
    assert first.error is None and second.error is None, (first.error, second.error)
    assert Round.objects.get(event=event).status == Round.Status.COMPLETE
