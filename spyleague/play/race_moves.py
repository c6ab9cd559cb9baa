"""A racer's move in a real-time race (Spy vs Spy), the short way, and what the race pages get.

A race of three people at a card a second each makes three moves a second, and a club night
runs fifty races at once: a move must cost the server little. The general way
(``services.match_move_submit``) locks the match row, reads its seats, applies the move, saves
the match and answers with a rendered board: about a dozen statements and a template. A move
of a race of people, in the middle of a race, needs much less, and takes the short way here:

- The racer's seat was looked up once, when the page opened its socket (``Racer``).
- The state comes from the process's cache (``state``), brought forward from the move log when
  another process moved the match on.
- The engine checks the move against that state; the move is then written with one statement
  that appends it to the log *only if* the match is still at the version the state was
  computed for, still playing, the seat still the racer's, and no bot sits at the table
  (``_APPEND_POSTGRESQL``; on SQLite an update and an insert in one transaction). The version
  is the compare-and-set: if another racer got there first, this process reads the moves it
  missed and tries again, so the log stays the truth, every move is applied exactly once, and
  the finishing order is the order in which the moves reached the database.
- Everything else goes the general way, in full: a move that ends the match (its outcome and
  its report), a race with bots (their pace and their sweeps), a racer who resigned, a match
  that is over, anything the short way cannot account for. So a refusal always says why in the
  general way's own words.

Nothing here is a second set of rules: legality is the engine's, and the conditions of the
append are exactly those the general way checks for such a move.

What the pages get is ``race_view``'s. The general way is ``services``' (and
``race_move_submit`` here, a racer's move from the page by it), above the write path (``moves``).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from games import IllegalAction, get_engine

from . import realtime, services
from .models import Match, MatchSeat, Move
from .moves import MoveRejected, seat_of
from .race_view import ack_message, is_race, publish_update, seat_part, update_message, update_of
from .state import cached_state, match_state, remember_state_at, state_from_log

log = logging.getLogger(__name__)

ATTEMPTS = 8  # appends tried before the move goes the general way (others kept getting there first)


@dataclass(frozen=True)
class Racer:
    """A race page's match and seat, looked up once when it opens (``racer_for``)."""

    match_id: int
    created: float  # the match's creation time: with the id, the key of its cached state
    game: str
    seats: int
    seed: int
    options: dict[str, Any]
    seat: int | None  # None: a spectator
    player_id: int | None

    @property
    def key(self) -> tuple[int, float]:
        return (self.match_id, self.created)


@dataclass(frozen=True)
class Moved:
    """A move applied: the version it made, and the two messages about it."""

    version: int
    ack: str  # for the mover
    update: str  # for every race page


class GeneralWay(Exception):
    """The short way does not take this move: the general way does (and says why not, if not)."""


def racer_for(*, match_id: int, user: Any) -> Racer | None:
    """The race page's racer (a spectator if the user has no seat); None: no such race."""
    match = Match.objects.filter(pk=match_id).prefetch_related("seat_set").first()
    if match is None or not is_race(match.game):
        return None
    seat = seat_of(match=match, user=user)
    player = next((s.player_id for s in match.seat_set.all() if s.number == seat), None)
    return Racer(
        match_id=match.pk,
        created=match.created.timestamp(),
        game=match.game,
        seats=match.seats,
        seed=match.seed,
        options=dict(match.options or {}),
        seat=seat,
        player_id=player,
    )


# --- the state, from the cache or the log ------------------------------------------------------


def _status_and_version(match_id: int) -> tuple[str, int] | None:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT status, version FROM {Match._meta.db_table} WHERE id = %s", [match_id])
        row = cursor.fetchone()
    return None if row is None else (str(row[0]), int(row[1]))


def _current(racer: Racer, *, version: int | None = None) -> tuple[int, Any]:
    """The match's state and version: the cached one, or the one after ``version`` moves (the
    version the database has shown), brought forward from the log."""
    found = cached_state(racer.key)
    if found is not None and (version is None or found[0] == version):
        return found
    if found is not None and version is not None and found[0] > version:
        found = None  # ahead of the log (a move whose transaction was rolled back): from the start
    return state_from_log(racer.key, racer.game, racer.seats, racer.seed, racer.options, since=found)


# --- the move ---------------------------------------------------------------------------------

_APPEND_POSTGRESQL = """
WITH bumped AS (
    UPDATE {match} SET version = version + 1, updated = %(now)s
    WHERE id = %(match_id)s AND version = %(version)s AND status = 'playing'
      AND EXISTS (SELECT 1 FROM {seat} WHERE match_id = %(match_id)s AND number = %(seat)s
                  AND player_id = %(player)s AND resigned IS NULL)
      AND NOT EXISTS (SELECT 1 FROM {seat} WHERE match_id = %(match_id)s AND bot <> '')
    RETURNING version
)
INSERT INTO {move} (match_id, number, seat, action, created)
SELECT %(match_id)s, version, %(seat)s, %(action)s, %(now)s FROM bumped
RETURNING number
"""

_BUMP_SQLITE = """
UPDATE {match} SET version = version + 1, updated = %(now)s
WHERE id = %(match_id)s AND version = %(version)s AND status = 'playing'
  AND EXISTS (SELECT 1 FROM {seat} WHERE match_id = %(match_id)s AND number = %(seat)s
              AND player_id = %(player)s AND resigned IS NULL)
  AND NOT EXISTS (SELECT 1 FROM {seat} WHERE match_id = %(match_id)s AND bot <> '')
"""

_INSERT_SQLITE = """
INSERT INTO {move} (match_id, number, seat, action, created)
VALUES (%(match_id)s, %(number)s, %(seat)s, %(action)s, %(now)s)
"""

_TABLES = {"match": Match._meta.db_table, "seat": MatchSeat._meta.db_table, "move": Move._meta.db_table}


def _append(racer: Racer, version: int, action: dict[str, Any]) -> bool:
    """Append the racer's move as number ``version + 1`` if the match is still as the state says.

    One statement on PostgreSQL (a compare-and-set on the version, then the insert); on SQLite
    the two in one transaction. True if the move is in the log.
    """
    params = {
        "match_id": racer.match_id,
        "version": version,
        "number": version + 1,
        "seat": racer.seat,
        "player": racer.player_id,
        "action": Move._meta.get_field("action").get_db_prep_save(action, connection),
        "now": connection.ops.adapt_datetimefield_value(timezone.now()),
    }
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_APPEND_POSTGRESQL.format(**_TABLES), params)
            return cursor.fetchone() is not None
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_BUMP_SQLITE.format(**_TABLES), params)
        if cursor.rowcount != 1:
            return False
        cursor.execute(_INSERT_SQLITE.format(**_TABLES), params)
        return True


def _check_card(engine: Any, state: Any, seat: int, action: dict[str, Any], card: str | None) -> None:
    """A placement names the card the page showed: refused (409) once that card is down."""
    if not card or action.get("type") != "place":
        return
    showing = engine.view(state, seat)["players"][seat]["card"]
    if showing is not None and showing != card:
        raise MoveRejected(
            f"The {card} is already down; the card showing now is the {showing}. Nothing was changed.",
            status=409,
        )


def race_move(*, racer: Racer, action: Any, card: str | None = None) -> Moved:
    """Apply a racer's move the short way. Raises ``GeneralWay`` for a move it does not take
    (then nothing was changed), ``services.MoveRejected`` for one the rules refuse."""
    if racer.seat is None or racer.player_id is None:
        raise GeneralWay
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise GeneralWay
    engine = get_engine(racer.game)
    seat = racer.seat
    known: int | None = None  # the version the database last showed, once it has been asked
    for _ in range(ATTEMPTS):
        version, state = _current(racer, version=known)
        refusal: MoveRejected | None = None
        new_state = None
        try:
            if seat not in engine.to_act(state):
                raise MoveRejected("It is not your turn.")
            _check_card(engine, state, seat, action, card)
            new_state = engine.apply(state, seat, action)
        except IllegalAction as exc:
            refusal = MoveRejected(exc.reason)
        except MoveRejected as exc:
            refusal = exc
        if refusal is not None or new_state is None or engine.outcome(new_state) is not None:
            # Refused by a state that may be behind the log, or the move that ends the match:
            # the general way decides, on the locked match.
            raise GeneralWay from refusal
        if _append(racer, version, action):
            remember_state_at(racer.key, version + 1, new_state)
            update = update_message(engine, new_state, version + 1, Match.Status.PLAYING)
            move = {"key": racer.key, "game": racer.game, "seat": seat, "action": action}
            publish_update(racer.match_id, version + 1, update, move=move)
            return Moved(version + 1, ack_message(engine, new_state, seat, version + 1), update)
        found = _status_and_version(racer.match_id)
        if found is None or found[0] != Match.Status.PLAYING or found[1] == version:
            raise GeneralWay  # over, gone, the seat changed hands, or bots joined: the general way says
        known = found[1]  # another racer got there first: read what they did, try again
    raise GeneralWay


def answer_move(*, racer: Racer, user: Any, action: Any, card: str | None = None) -> Moved:
    """A race page's move: the short way where it can, else the general way (which publishes its
    own update once it commits). Raises ``services.MoveRejected`` with the reason if refused."""
    try:
        return race_move(racer=racer, action=action, card=card)
    except GeneralWay:
        pass
    try:
        match = race_move_submit(match_id=racer.match_id, user=user, action=action, card=card)
    except Match.DoesNotExist:
        raise MoveRejected("There is no such match.", status=404) from None
    engine = get_engine(match.game)
    seat = racer.seat if racer.seat is not None else seat_of(match=match, user=user)
    version, update = update_of(match)
    return Moved(version, ack_message(engine, match_state(match), seat, version), update)


# --- the messages -----------------------------------------------------------------------------


def opening_messages(*, racer: Racer) -> tuple[str, str]:
    """For a race page that (re)connects: its own part, and the race now."""
    match = Match.objects.filter(pk=racer.match_id).values_list("status", "version").first()
    if match is None:
        raise Match.DoesNotExist
    status, version = match
    engine = get_engine(racer.game)
    version, state = _current(racer, version=version)
    you = json.dumps({"t": "you", "v": version, "you": seat_part(engine, state, racer.seat)})
    return you, update_message(engine, state, version, status)


# --- a racer's move from the race page, the general way --------------------------------------


def race_move_submit(*, match_id: int, user: Any, action: Any, card: str | None = None) -> Match:
    """A racer's move from the race page (a key or a tap). Returns the match as the move left it.

    ``card`` is the flipped card the page showed. Racers act at once, so the match's version
    moves on all the time and is not checked; instead a placement is refused when that card
    is no longer the one showing (a second press sent before the page caught up), so a card
    is never put where its owner did not see it go. The check runs under the move's own lock.
    """

    def a_race(match: Match, seat: int) -> None:
        if not realtime.is_real_time(get_engine(match.game)):
            raise MoveRejected("This match is not a race: play it from its board.", status=404)

    def still_showing(match: Match, seat: int) -> None:
        a_race(match, seat)
        view = get_engine(match.game).view(match_state(match), seat)
        showing = view["players"][seat]["card"]
        if showing is not None and showing != card:
            raise MoveRejected(
                f"The {card} is already down; the card showing now is the {showing}. Nothing was changed.",
                status=409,
            )

    if getattr(user, "is_authenticated", False):
        getattr(user, "player", None)  # who is moving is read now: the lock is held for the move alone
    placing = bool(card) and isinstance(action, dict) and action.get("type") == "place"
    return services.match_move_submit(
        match_id=match_id, user=user, action=action, check=still_showing if placing else a_race
    )
