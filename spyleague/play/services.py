"""Online matches: create, seat, start, act, and let bots play.

Every action goes through the engine under a row lock on the match (and an optional
version check), so two clicks, two tabs or two players acting at once can never both
win: the second sees the new state and is told so. An illegal or stale action raises
``MoveRejected`` with a reason and changes nothing.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import OperationalError, transaction
from django.utils import timezone

from games import IllegalAction, InvalidOptions, engines, game_info, get_bots, get_engine
from games.core import chance

from ..clubs.models import Club, Player
from ..core.locks import atomic_retrying
from ..core.queue import send_task_safely
from . import live, race_moves
from .models import Match, MatchSeat, Move
from .state import match_state, remember_state
from .sweeps import bot_turn

log = logging.getLogger(__name__)

MAX_BOT_MOVES_PER_RUN = 2000
BUSY_RETRIES = 5  # tries of a bot move the database was too busy to take
MAX_TIMEOUT_MOVES = 100  # moves one look at an overdue match may make for the seats out of time


class MoveRejected(Exception):
    """An action that was not applied; ``reason`` says why in words."""

    def __init__(self, reason: str, *, status: int = 400) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


def _player(user: Any) -> Player | None:
    return getattr(user, "player", None) if getattr(user, "is_authenticated", False) else None


def seat_of(*, match: Match, user: Any) -> int | None:
    """The seat the user plays in this match, or None for a spectator."""
    player = _player(user)
    if player is None:
        return None
    for seat in match.seat_set.all():
        if seat.player_id == player.pk:
            # A player who resigned watches as a spectator while a bot plays on for them (and is
            # a player of the match again once it is over: the rematch, the rating change).
            playing_on = seat.resigned is not None and match.status == Match.Status.PLAYING
            return None if playing_on else seat.number
    return None


@transaction.atomic
def match_create(
    *,
    user: Any,
    game: str,
    seats: int,
    options: dict[str, Any] | None = None,
    bots: dict[int, str] | None = None,
    club: Club | None = None,
    seed: int | None = None,
) -> Match:
    """Create a match with the user in seat 0. ``bots`` maps seats to bot names."""
    try:
        info = game_info(game)
        engine = get_engine(game)
    except LookupError as exc:
        playable = ", ".join(e.slug for e in engines())
        raise MoveRejected(f"{exc} Games that can be played online: {playable}.") from None
    if seats not in info.seats:
        raise MoveRejected(f"{info.title} is played by {info.players}.")
    seed = seed if seed is not None else secrets.randbits(48)
    try:
        engine.start(seats, seed, options or {})  # validates the options
    except InvalidOptions as exc:
        raise MoveRejected(str(exc)) from exc
    available = get_bots(game)
    for seat, name in (bots or {}).items():
        if not 0 < seat < seats:
            raise MoveRejected(f"There is no seat {seat + 1} for a bot (seat 1 is yours).")
        if name not in available:
            raise MoveRejected(f"No bot is called {name!r}; choose one of {', '.join(sorted(available))}.")
    player = _player(user)
    match = Match.objects.create(
        game=game,
        seats=seats,
        seed=seed,
        options=options or {},
        club=club,
        created_by=user if player else None,
    )
    for number in range(seats):
        MatchSeat.objects.create(
            match=match,
            number=number,
            player=player if number == 0 else None,
            bot=(bots or {}).get(number, ""),
        )
    return match


def default_bot(game: str) -> str:
    """The bot that takes a seat when nobody says which: the heuristic one where the game has it."""
    bots = get_bots(game)
    return "heuristic" if "heuristic" in bots else next(iter(bots))


def table_guests(table: Any) -> list[Player]:
    """The players at a tournament table who have no account: online, a bot plays for each."""
    seats = table.seats.select_related("entrant__player").order_by("position")
    return [s.entrant.player for s in seats if s.entrant.player.user_id is None]


@atomic_retrying
def match_for_table(*, user: Any, table: Any) -> Match:
    """An online match for a tournament table: its players in its seat order, started at once.

    Players without an account (the club's guests) cannot log in to move: a bot plays for each
    (the seat keeps the guest, so the table's result is theirs; such a result counts for the
    tournament but is not rated, see ``results``). A table where nobody has an account is
    refused: it is played at the table and scored on the sheet. The finished match reports the
    table's result by itself. Asking twice gives the same match.
    """
    from ..clubs.models import Role
    from ..clubs.selectors import has_club_role
    from ..tournaments.services import table_locked

    table = table_locked(table.pk)  # two players asking at once get the one match
    existing = Match.objects.filter(table=table).first()
    if existing is not None:
        return existing
    event = table.round.event
    seats = list(table.seats.select_related("entrant__player").order_by("position"))
    players = [s.entrant.player for s in seats]
    me = _player(user)
    if not (
        (me is not None and me in players) or has_club_role(user=user, club=event.club, role=Role.ORGANISER)
    ):
        raise MoveRejected("Only the players at this table or an organiser can start its match.", status=403)
    if table.is_bye or table.round.status != "published":
        raise MoveRejected("Only a table of a published round can be played online.")
    if all(p.user_id is None for p in players):
        raise MoveRejected(
            "Nobody at this table has an account to play online with: play it at the table and "
            "enter the result on the score sheet."
        )
    engine = get_engine(event.game)  # raises for a game without an engine
    seed = secrets.randbits(48)
    try:
        engine.start(len(seats), seed, event.options)
    except InvalidOptions as exc:
        raise MoveRejected(str(exc)) from exc
    bot = default_bot(event.game)
    match = Match.objects.create(
        game=event.game,
        seats=len(seats),
        seed=seed,
        options=event.options,
        club=event.club,
        table=table,
        status=Match.Status.PLAYING,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    MatchSeat.objects.bulk_create(
        [
            MatchSeat(match=match, number=i, player=player, bot="" if player.user_id else bot)
            for i, player in enumerate(players)
        ]
    )
    match.bot_turn = bot_turn(match, match_state(match))
    match.save(update_fields=["bot_turn"])
    _clock_start(match)
    _after_change(match)
    return match


@transaction.atomic
def table_played_at_table(*, user: Any, table: Any) -> Match | None:
    """The table plays its game at the table: its result is entered on the score sheet as usual.

    A match already under way online for the table is abandoned (by whoever may abandon it: the
    one who started it or an organiser) and lets go of the table; returns it, or None when the
    table had no match. A table whose match is over has its result already: refused.
    """
    from ..clubs.models import Role
    from ..clubs.selectors import has_club_role

    event = table.round.event
    me = _player(user)
    seated = me is not None and table.seats.filter(entrant__player=me).exists()
    if not (seated or has_club_role(user=user, club=event.club, role=Role.ORGANISER)):
        raise MoveRejected("Only the players at this table or an organiser can decide that.", status=403)
    existing = Match.objects.filter(table=table).first()
    if existing is None:
        return None
    if existing.status == Match.Status.FINISHED:
        raise MoveRejected("This table's match was played online to the end: its result is in.")
    return match_abandon(user=user, match_id=existing.pk, reason="the table plays this game at the table")


def _lock(match_id: int) -> Match:
    # The seats come along (one query): seat_of, the bots and _after_change read them from here.
    match = Match.objects.select_for_update().prefetch_related("seat_set").filter(pk=match_id).first()
    if match is None:
        raise MoveRejected("There is no such match.", status=404)
    return match


@transaction.atomic
def match_join(*, user: Any, match_id: int, seat: int | None = None) -> int:
    player = _player(user)
    if player is None:
        raise MoveRejected("Log in to take a seat.", status=403)
    match = _lock(match_id)
    if match.status != Match.Status.OPEN:
        raise MoveRejected("This match has already started.")
    seats = list(match.seat_set.all())
    if any(s.player_id == player.pk for s in seats):
        raise MoveRejected("You already have a seat in this match.")
    free = [s for s in seats if s.player_id is None and not s.bot and (seat is None or s.number == seat)]
    if not free:
        raise MoveRejected("That seat is taken." if seat is not None else "Every seat is taken.")
    free[0].player = player
    free[0].save(update_fields=["player"])
    _touch(match)
    return free[0].number


@transaction.atomic
def match_set_bot(*, user: Any, match_id: int, seat: int, bot: str) -> None:
    match = _lock(match_id)
    _require_creator(match, user)
    if match.status != Match.Status.OPEN:
        raise MoveRejected("Seats can only change before the match starts.")
    if bot and bot not in get_bots(match.game):
        raise MoveRejected(f"No bot is called {bot!r}.")
    target = match.seat_set.filter(number=seat).first()
    if target is None:
        raise MoveRejected(f"There is no seat {seat + 1}.")
    if target.player_id is not None:
        raise MoveRejected("A person sits there.")
    target.bot = bot
    target.save(update_fields=["bot"])
    _touch(match)


def _require_creator(match: Match, user: Any) -> None:
    if not (getattr(user, "is_authenticated", False) and (match.created_by_id == user.pk or user.is_staff)):
        raise MoveRejected("Only the player who created the match can do that.", status=403)


@transaction.atomic
def match_start(*, user: Any, match_id: int, fill_with: str | None = None) -> Match:
    """Start the match; empty seats take the bot ``fill_with`` (or the match cannot start)."""
    match = _lock(match_id)
    _require_creator(match, user)
    if match.status != Match.Status.OPEN:
        raise MoveRejected("This match has already started.")
    empty = [s for s in match.seat_set.all() if s.player_id is None and not s.bot]
    if empty:
        bots = get_bots(match.game)
        name = fill_with or default_bot(match.game)
        if name not in bots:
            raise MoveRejected(f"No bot is called {name!r}.")
        for seat in empty:
            seat.bot = name
            seat.save(update_fields=["bot"])
    match.status = Match.Status.PLAYING
    match.bot_turn = bot_turn(match, match_state(match))
    match.save(update_fields=["status", "updated", "bot_turn"])
    _clock_start(match)
    _after_change(match)
    return match


def _touch(match: Match) -> None:
    """A change of seats: bump nothing in the log, but tell the watchers."""
    match.save(update_fields=["updated"])
    _announce(match)


def _announce(match: Match) -> None:
    """Once the change commits: tell the match's watchers its version, and a race's pages the
    race as it is now (built here, from the state the change just computed: ``race_moves``)."""
    transaction.on_commit(partial(live.publish, match.pk, match.version))
    if match.status != Match.Status.OPEN and race_moves.is_race(match.game):
        version, message = race_moves.update_of(match)
        transaction.on_commit(partial(race_moves.publish_update, match.pk, version, message))


def _after_change(match: Match) -> None:
    """After the commit: tell the watchers, and queue the bots' turn.

    Neither may fail nor hold up the action, which is applied: a notice that cannot be published
    is caught up by the streams' own looks, and a bots' turn the broker did not take by the
    periodic sweep of matches waiting on a bot.
    """
    _announce(match)
    if match.status == Match.Status.PLAYING and any(s.bot for s in match.seat_set.all()):
        from .tasks import run_bots  # only a match with bots has any to run

        transaction.on_commit(partial(send_task_safely, run_bots, match.pk))


def _apply(match: Match, seat: int, action: dict[str, Any]) -> Any:
    """Apply one action to a locked match. The caller holds the transaction."""
    engine = get_engine(match.game)
    state = match_state(match)
    if seat not in engine.to_act(state):
        raise MoveRejected("It is not your turn.")
    try:
        new_state = engine.apply(state, seat, action)
    except IllegalAction as exc:
        raise MoveRejected(exc.reason) from exc
    match.version += 1
    Move.objects.create(match=match, number=match.version, seat=seat, action=action)
    outcome = engine.outcome(new_state)
    fields = ["version", "updated", "deadline"]
    if outcome is not None:
        match.status = Match.Status.FINISHED
        match.outcome = with_resignations(match, outcome.as_dict())
        fields += ["status", "outcome"]
        fields += _report_on_commit(match)
    match.deadline = _deadline(match, new_state, state)
    match.bot_turn = bot_turn(match, new_state)
    match.save(update_fields=[*fields, "bot_turn"])
    remember_state(match, new_state)
    return new_state


def _deadline(match: Match, state: Any, previous: Any = None) -> Any:
    """When the seats to act run out of time: reaction windows (several seats asked at once,
    outside the turn order) close on a timer, and so do turns where the engine keeps a turn clock.

    ``turn_clock(state)`` (optional) gives ``{"key", "seconds"}`` for a timed turn: the clock starts
    when the key first appears and runs on through the reaction windows the turn opens (they have
    their own, shorter timer); the turn's deadline comes back when they close.
    """
    engine = get_engine(match.game)
    turn = _turn_clock(engine, state)
    before = None if previous is None else _turn_clock(engine, previous)
    if getattr(engine, "reaction_window", None) and engine.reaction_window(state):  # type: ignore[attr-defined]
        if before is not None and match.deadline is not None:
            _TURN_DEADLINES.remember(match, before["key"], match.deadline)
        return timezone.now() + timedelta(seconds=settings.PLAY_REACTION_SECONDS)
    if turn is None:
        return None
    if before is not None and before["key"] == turn["key"] and match.deadline is not None:
        return match.deadline  # the same turn goes on
    if previous is not None and before is None:
        return _turn_deadline_recalled(match, engine, turn)  # back from a reaction window
    return _TURN_DEADLINES.remember(
        match, turn["key"], timezone.now() + timedelta(seconds=int(turn["seconds"]))
    )


def _turn_clock(engine: Any, state: Any) -> dict[str, Any] | None:
    clock = getattr(engine, "turn_clock", None)
    return None if clock is None else clock(state)


class _TurnDeadlines:
    """The deadline of each timed turn, by match and turn key, kept by this process.

    A reaction window replaces ``match.deadline`` for a while; the turn's own deadline comes back
    from here when it closes, or from the move log (``_turn_deadline_recalled``) in another process.
    """

    MAX = 1024

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._deadlines: OrderedDict[tuple[int, float, str], datetime] = OrderedDict()

    @staticmethod
    def _key(match: Match, key: str) -> tuple[int, float, str]:
        return (match.pk, match.created.timestamp(), key)

    def remember(self, match: Match, key: str, deadline: datetime) -> datetime:
        with self._lock:
            self._deadlines[self._key(match, key)] = deadline
            self._deadlines.move_to_end(self._key(match, key))
            while len(self._deadlines) > self.MAX:
                self._deadlines.popitem(last=False)
        return deadline

    def recall(self, match: Match, key: str) -> datetime | None:
        with self._lock:
            return self._deadlines.get(self._key(match, key))


_TURN_DEADLINES = _TurnDeadlines()


def _turn_deadline_recalled(match: Match, engine: Any, turn: dict[str, Any]) -> datetime:
    """The deadline of a timed turn that a reaction window interrupted.

    Not remembered by this process: the log says which move began the turn (the engine
    replays fast), and that move's time starts the clock.
    """
    remembered = _TURN_DEADLINES.recall(match, turn["key"])
    if remembered is not None:
        return remembered
    replayed = engine.start(match.seats, match.seed, match.options)
    last_key = (_turn_clock(engine, replayed) or {}).get("key")
    began = 0
    for number, seat, action in (
        Move.objects.filter(match=match).order_by("number").values_list("number", "seat", "action")
    ):
        replayed = engine.apply(replayed, seat, action)
        clock = _turn_clock(engine, replayed)
        if clock is None:
            continue
        if clock["key"] != last_key:
            began, last_key = number, clock["key"]
    move = Move.objects.filter(match=match, number=began).first() if began else None
    # A turn that began with the match (before any move) has no move to date it: it starts afresh.
    started = move.created if move is not None else timezone.now()
    return _TURN_DEADLINES.remember(match, turn["key"], started + timedelta(seconds=int(turn["seconds"])))


def _clock_start(match: Match) -> None:
    """A match that begins with a timed turn starts its clock."""
    deadline = _deadline(match, match_state(match))
    if deadline != match.deadline:
        match.deadline = deadline
        match.save(update_fields=["deadline"])


@transaction.atomic
def match_move_submit(
    *,
    match_id: int,
    user: Any,
    action: Any,
    version: int | None = None,
    seat: int | None = None,
    check: Callable[[Match, int], None] | None = None,
) -> Match:
    """A person's action. ``version`` is the match version the person saw; a stale one is refused.

    ``check(match, seat)``, if given, may refuse the action too (raising ``MoveRejected``) once the
    match is locked and the seat known: the race page's check of the card it showed."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise MoveRejected(
            'An action is a JSON object with a "type", for example {"type": "play", "card": "red-1"}.'
        )
    match = _lock(match_id)
    if match.status == Match.Status.OPEN:
        raise MoveRejected("The match has not started yet.")
    if match.status != Match.Status.PLAYING:
        raise MoveRejected("The match is over.")
    mine = seat_of(match=match, user=user)
    if mine is None:
        if has_resigned(match, user):
            raise MoveRejected("You resigned: a bot plays your seat now.", status=403)
        raise MoveRejected("You do not have a seat in this match.", status=403)
    if seat is not None and seat != mine:
        raise MoveRejected("That is not your seat.", status=403)
    if version is not None and version != match.version:
        raise MoveRejected(
            "The game has moved on since you looked: here is the current position.", status=409
        )
    if check is not None:
        check(match, mine)
    _apply(match, mine, action)
    _after_change(match)
    return match


def match_run_bots(*, match_id: int, limit: int = MAX_BOT_MOVES_PER_RUN) -> int:
    """Let every bot whose turn it is act, until a person must act or the game ends.

    Each bot move is its own short transaction, so people's moves interleave freely.
    In a real-time game (Spy vs Spy) bots are paced instead: each makes only the moves its
    speed allows by now, and the race page's ticks or a follow-up run bring the next ones
    (see ``realtime``). Returns the number of moves made.
    """
    from . import realtime

    if realtime.bots_due_now(match_id=match_id) is False:
        # A real-time match with no bot move due: nothing to lock (this runs after every move).
        realtime.bots_follow_up(match_id=match_id)
        return 0
    made = 0
    paced = False
    busy = 0
    while made < limit:
        try:
            with transaction.atomic():
                match = _lock(match_id)
                if match.status != Match.Status.PLAYING:
                    break
                bots = {s.number: s.bot for s in match.seat_set.all() if s.bot}
                engine = get_engine(match.game)
                state = match_state(match)
                acting = sorted(seat for seat in engine.to_act(state) if seat in bots)
                if realtime.is_real_time(engine):
                    paced = True
                    acting = realtime.bots_pace(match=match, state=state, seats=acting).due
                if not acting:
                    break
                seat = acting[0]
                bot = get_bots(match.game)[bots[seat]]
                rng: random.Random = chance(match.seed, "bot", match.version, seat)
                action = bot.choose(engine.view(state, seat), engine.legal(state, seat), rng)
                _apply(match, seat, action)
                _announce(match)
        except OperationalError:
            # The database was busy (SQLite lets one writer at a time, and its shared-cache test
            # database refuses rather than waits): nothing was applied, so try that move again.
            # Bots that stopped here would leave a game where only bots can act stuck for good.
            busy += 1
            if busy > BUSY_RETRIES:
                raise
            time.sleep(0.05 * busy)
            continue
        busy = 0
        made += 1
    if paced:
        realtime.bots_follow_up(match_id=match_id)
    return made


def match_timeouts_close(*, now: Any = None, match_id: int | None = None) -> int:
    """Close reaction windows whose time ran out, answering for the seats still to act, and
    finish timed turns whose clock ran out (the engine's ``timeout_action``, move after move,
    until the deadline is no longer past: the turn is over, or a window asks another seat).

    Celery beat runs it every few seconds; pages also run it for their match when they see a
    deadline has passed, so windows close on time without a beat process too.
    """
    now = now or timezone.now()
    closed = 0
    due = Match.objects.filter(status=Match.Status.PLAYING, deadline__lte=now)
    if match_id is not None:
        due = due.filter(pk=match_id)
    for match_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            match = _lock(match_id)
            if match.deadline is None or match.deadline > now:
                continue
            engine = get_engine(match.game)
            state = match_state(match)
            timeout = getattr(engine, "timeout_action", None)
            if timeout is None:
                continue
            for _ in range(MAX_TIMEOUT_MOVES):
                acted = False
                for seat in sorted(engine.to_act(state)):
                    if match.status != Match.Status.PLAYING or seat not in engine.to_act(state):
                        continue
                    action = timeout(state, seat)
                    if action is not None:
                        state = _apply(match, seat, action)
                        acted = True
                overdue = match.deadline is not None and match.deadline <= now
                if not acted or match.status != Match.Status.PLAYING or not overdue:
                    break
            closed += 1
            _after_change(match)
    return closed


# --- ending a match early: resigning, abandoning; and playing it again ----------------------------


def _viewer_scores(match: Match) -> list[float | None]:
    """The scores a spectator sees so far, where the game shows them as one number per seat;
    else none (the game was not played out)."""
    try:
        shown = get_engine(match.game).view(match_state(match), None).get("scores")
    except Exception:  # a view that cannot say: no scores rather than a refused resignation
        shown = None
    if (
        isinstance(shown, list)
        and len(shown) == match.seats
        and all(isinstance(x, int | float) and not isinstance(x, bool) for x in shown)
    ):
        return [float(x) for x in shown]
    return [None] * match.seats


@transaction.atomic
def match_resign(*, user: Any, match_id: int, version: int | None = None) -> Match:
    """A seated player gives up.

    The ruling (the same online and at a tournament table), as Board Game Arena plays a player
    who leaves: while at least two others are still playing, the game goes on without the
    resigner, a bot playing their seat, so the others still play it out for their places; the
    resigner is placed below everyone who did not resign (of several, the first to resign is
    last). When only one other is left (a match of two), the match ends at once: that player
    wins, the resigners follow, the scores are what the game showed so far (none where it
    shows no running score). The result is reported like any finished match: a table's result
    and the standings take it, and an all-human match is rated (resigning is a loss, as on
    lichess). ``version``, when given, is the version the player saw: a stale confirmation is
    refused (409).
    """
    match = _lock(match_id)
    mine = seat_of(match=match, user=user)
    if mine is None and has_resigned(match, user):
        raise MoveRejected(
            "The match is over." if match.status != Match.Status.PLAYING else "You resigned already."
        )
    if mine is None:
        raise MoveRejected("Only a player seated in this match can resign it.", status=403)
    if match.status == Match.Status.OPEN:
        raise MoveRejected("The match has not started: there is nothing to resign yet.")
    if match.status != Match.Status.PLAYING:
        raise MoveRejected("The match is over.")
    if version is not None and version != match.version:
        raise MoveRejected(
            "The game has moved on since you looked: check the board and decide again.", status=409
        )
    seats = list(match.seat_set.all())
    order = 1 + sum(1 for s in seats if s.resigned is not None)
    leaving = next(s for s in seats if s.number == mine)
    name = leaving.player.name if leaving.player else f"Seat {mine + 1}"
    leaving.resigned = order
    still = [s for s in seats if s.resigned is None]
    # The game goes on (a bot plays the seat) while two or more seats still play and one of them
    # is a person's (a guest's played by a bot counts: their place matters); a friendly left to
    # bots alone ends.
    if len(still) >= 2 and any(s.player_id for s in still):
        leaving.bot = leaving.bot or default_bot(match.game)
        leaving.save(update_fields=["resigned", "bot"])
        match.bot_turn = bot_turn(match, match_state(match))
        match.save(update_fields=["bot_turn", "updated"])
        _after_change(match)
        return match
    leaving.save(update_fields=["resigned"])
    places = [0 if seat in {s.number for s in still} else 1 for seat in range(match.seats)]
    match.outcome = with_resignations(
        match, {"scores": _viewer_scores(match), "places": places, "detail": {"ended": "resigned"}}
    )
    extra = _report_on_commit(match)
    _end(match, Match.Status.FINISHED, f"{name} resigned.", extra)
    return match


def has_resigned(match: Match, user: Any) -> bool:
    """Whether ``user`` played in ``match`` and resigned (a bot plays their seat on)."""
    player = _player(user)
    return player is not None and any(
        s.player_id == player.pk and s.resigned is not None for s in match.seat_set.all()
    )


def with_resignations(match: Match, outcome: dict[str, Any]) -> dict[str, Any]:
    """``outcome`` with the seats whose players resigned placed below all the others (of them,
    the first to resign last), the others keeping their order and ties; ``detail.resigned``
    lists the resigned seats in the order they resigned."""
    resigned = {s.number: s.resigned for s in match.seat_set.all() if s.resigned is not None}
    if not resigned:
        return outcome
    places = outcome["places"]
    keys = [(1, -resigned[n]) if n in resigned else (0, places[n]) for n in range(len(places))]
    detail = dict(outcome.get("detail") or {})
    detail["resigned"] = sorted(resigned, key=lambda n: resigned[n])
    return {
        **outcome,
        "places": [1 + sum(1 for other in keys if other < key) for key in keys],
        "detail": detail,
    }


def _report_on_commit(match: Match) -> list[str]:
    """Report the ended match's result once the move commits; the fields to save with it.

    Robust: the move is applied whatever becomes of its report (the error is logged). The mark
    ``report_due`` is saved with the move and cleared by the report, so a report that failed (a
    database error, the process ending before it ran) is made by the sweep (``sweeps``).
    """
    from .results import match_report_result

    match.report_due = timezone.now()
    transaction.on_commit(partial(match_report_result, match_id=match.pk), robust=True)
    return ["report_due"]


def abandon_allowed(*, match: Match, user: Any) -> bool:
    """Who may abandon a match: its creator, the club's organisers (and staff); and, when nobody
    can move any more (no seat to act, or only seats nobody can play), any seated player."""
    from ..clubs.models import Role
    from ..clubs.selectors import has_club_role

    if match.status not in (Match.Status.OPEN, Match.Status.PLAYING):
        return False
    if not getattr(user, "is_authenticated", False):
        return False
    if match.created_by_id == user.pk or user.is_staff:
        return True
    if match.club is not None and has_club_role(user=user, club=match.club, role=Role.ORGANISER):
        return True
    return seat_of(match=match, user=user) is not None and match_stuck(match=match)


def match_stuck(*, match: Match) -> bool:
    """A match under way that nobody can move on: no seat is to act, or every seat to act is a
    person without an account and without a bot (a guest seated before bots played for guests)."""
    if match.status != Match.Status.PLAYING:
        return False
    to_act = get_engine(match.game).to_act(match_state(match))
    playable = {
        s.number for s in match.seat_set.select_related("player") if s.bot or (s.player and s.player.user_id)
    }
    return not to_act or not playable.intersection(to_act)


@transaction.atomic
def match_abandon(*, user: Any, match_id: int, reason: str = "") -> Match:
    """End a match without a result: nobody wins, nothing is reported, no rating changes.

    A tournament table's match lets go of its table, so the table can be played at the table
    (its result entered on the score sheet) or started online again.
    """
    match = _lock(match_id)
    if match.status not in (Match.Status.OPEN, Match.Status.PLAYING):
        raise MoveRejected("The match is over already.")
    if not abandon_allowed(match=match, user=user):
        raise MoveRejected(
            "Only the player who created the match or the club's organisers can abandon it "
            "(its players too, once nobody can move).",
            status=403,
        )
    reason = " ".join(str(reason or "").split())[:120]
    who = getattr(getattr(user, "player", None), "name", "") or user.get_username()
    text = f"Abandoned by {who}" + (f": {reason}" if reason else "")
    text += "" if text[-1] in ".!?" else "."
    match.table = None
    _end(match, Match.Status.ABANDONED, text[:200], extra=["table"])
    return match


def _end(match: Match, status: str, reason: str, extra: list[str] | None = None) -> None:
    match.status = status
    match.end_reason = reason
    match.deadline = None
    match.bot_turn = None
    fields = ["status", "end_reason", "deadline", "bot_turn", "outcome", "updated", *(extra or [])]
    match.save(update_fields=fields)
    _announce(match)


@transaction.atomic
def match_rematch(*, user: Any, match_id: int) -> Match:
    """Play a finished match again: the same game, options, seats, people and bots, a new deal.

    One click starts it for everyone (the others' pages follow to it by themselves); asked again
    (another player's click at the same moment) it gives the same new match. The rematch of a
    tournament table's match is a friendly: it belongs to no table.
    """
    match = _lock(match_id)
    if seat_of(match=match, user=user) is None:
        raise MoveRejected("Only the players of this match can ask for a rematch.", status=403)
    if match.status != Match.Status.FINISHED:
        raise MoveRejected("A rematch can be played once the match is over.")
    if match.rematch_id is not None:
        rematch = Match.objects.filter(pk=match.rematch_id).first()
        if rematch is not None:
            return rematch
    seats = list(match.seat_set.all())
    new = Match.objects.create(
        game=match.game,
        seats=match.seats,
        seed=secrets.randbits(48),
        options=match.options,
        club=match.club,
        status=Match.Status.PLAYING,
        created_by=user,
    )
    MatchSeat.objects.bulk_create(
        [MatchSeat(match=new, number=s.number, player_id=s.player_id, bot=s.bot) for s in seats]
    )
    new = _lock(new.pk)
    new.bot_turn = bot_turn(new, match_state(new))
    new.save(update_fields=["bot_turn"])
    _clock_start(new)
    _after_change(new)
    match.rematch = new
    match.save(update_fields=["rematch", "updated"])
    _announce(match)
    return new
