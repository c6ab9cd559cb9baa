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

What the pages get
------------------
One message per move for everyone (``update_message``): the race as a spectator sees it, the
piles as their top card and size, built once per move by the process that made it and passed
on to every race page (``feeds``). Everything in it comes from ``engine.view(state, None)``,
which hides what nobody may see (the unflipped racing hands, the faces of the points piles).
The mover's own answer (``ack_message``) adds only what is its own: which piles its card fits
on, and its choice in the pick after a race.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from games import IllegalAction, get_engine

from .models import Match, MatchSeat, Move
from .state import cached_state, remember_state_at, state_from_log

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


def is_race(game: str) -> bool:
    return bool(getattr(get_engine(game), "real_time", False))


def publish_update(match_id: int, version: int, message: str, *, move: dict[str, Any] | None = None) -> None:
    """Send the race's update to every web process (through Redis, when there is one).

    ``move`` (``{"key", "game", "seat", "action"}``: the move that made ``version``, committed)
    rides along for the other processes' state caches: one whose cached state is the version
    before brings it forward with the engine, so its racers' next moves find their state current
    instead of reading the log (``state.advance_state``). It is stripped before the update goes
    to any page: a racer's pick after the race is hidden until everyone has picked.

    Never fails and never waits on a Redis that is away (nor more than ``queue.DEADLINE_SECONDS``
    on one that does not answer): the processes' feeds then look at the database and build the
    update themselves (``feeds``).
    """
    from django.conf import settings

    from ..core.queue import within_deadline
    from . import live

    if not settings.REDIS_URL or live.PUBLISHING.ongoing():
        return
    payload = message if move is None else f"{message}\n{json.dumps(move)}"
    try:
        within_deadline(live.PUBLISHING, lambda: live._redis().publish(live.race_channel(match_id), payload))
    except Exception:
        log.warning("Could not publish the update of match %s version %s", match_id, version, exc_info=True)
    else:
        live.PUBLISHING.over()


def racer_for(*, match_id: int, user: Any) -> Racer | None:
    """The race page's racer (a spectator if the user has no seat); None: no such race."""
    from .services import seat_of

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
    from .services import MoveRejected

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
    from .services import MoveRejected

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
    from .realtime import race_move_submit
    from .services import MoveRejected
    from .state import match_state

    try:
        return race_move(racer=racer, action=action, card=card)
    except GeneralWay:
        pass
    try:
        match = race_move_submit(match_id=racer.match_id, user=user, action=action, card=card)
    except Match.DoesNotExist:
        raise MoveRejected("There is no such match.", status=404) from None
    engine = get_engine(match.game)
    seat = racer.seat if racer.seat is not None else _seat_of(match, user)
    version, update = update_of(match)
    return Moved(version, ack_message(engine, match_state(match), seat, version), update)


def _seat_of(match: Match, user: Any) -> int | None:
    from .services import seat_of

    return seat_of(match=match, user=user)


# --- the messages -----------------------------------------------------------------------------


def race_picture(engine: Any, state: Any) -> dict[str, Any]:
    """The race as every page shows it: the spectator's view, each pile as its top card and size
    (the rest of a pile is covered on the table too), without the scored races' history (the
    page fetches the board when a race ends)."""
    view = engine.view(state, None)
    players = []
    for p in view["players"]:
        players.append(
            {
                "seat": p["seat"],
                "score": p["score"],
                "hand": p["hand"],
                "card": p["card"],
                "piles": [[pile[-1], len(pile)] for pile in p["piles"]],
                "called": p["called"],
                "came_round": p["called_came_round"],
                "stuck": p["stuck"],
                "done": p["done"],
                "finished": p["finished"],
                "bonus": p["bonus"],
                "must_take": p["must_take"],
                "has_chosen": p["has_chosen"],
            }
        )
    return {
        "race": view["race"],
        "phase": view["phase"],
        "tie_break": view["tie_break"],
        "bonus_points": view["bonus_points"],
        "racing": view["racing"],
        "finish_order": view["finish_order"],
        "to_act": view["to_act"],
        "races_scored": len(view["history"]),
        "players": players,
    }


def update_message(engine: Any, state: Any, version: int, status: str) -> str:
    """Every race page's update: ``{"t": "u", "v": version, "status": ..., "race": {...}}``."""
    return json.dumps({"t": "u", "v": version, "status": status, "race": race_picture(engine, state)})


def seat_part(engine: Any, state: Any, seat: int | None) -> dict[str, Any]:
    """What only the seat itself may know or needs: the piles its card fits on (and that card),
    its pick after the race."""
    if seat is None:
        return seat_part_of({}, [], None)
    return seat_part_of(engine.view(state, seat), engine.legal(state, seat), seat)


def seat_part_of(view: dict[str, Any], legal: list[dict[str, Any]], seat: int | None) -> dict[str, Any]:
    """``seat_part`` from the seat's view and legal actions (a page drawn by the server has them)."""
    if seat is None or not view:
        return {"seat": None, "card": None, "fits": [], "choice": None}
    return {
        "seat": seat,
        "card": view["players"][seat]["card"],  # the card the fits are for
        "fits": [a["pile"] for a in legal if a.get("type") in ("place", "take")],
        "choice": view.get("my_choice"),
    }


def ack_message(engine: Any, state: Any, seat: int | None, version: int) -> str:
    """The mover's answer: the version its move made and its own part (the update follows)."""
    return json.dumps({"t": "ack", "v": version, "you": seat_part(engine, state, seat)})


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


def update_of(match: Match) -> tuple[int, str]:
    """The update for the match as it is (after a move the general way, or for a page that
    missed one): (version, message)."""
    from .state import match_state

    engine = get_engine(match.game)
    return match.version, update_message(engine, match_state(match), match.version, match.status)
