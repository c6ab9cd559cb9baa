"""Real-time games online: bots race at a speed, not all at once.

In a turn-based game a bot acts as soon as it may (``bots.match_run_bots``). In a
real-time game (an engine with ``real_time = True``: Spy vs Spy) every racer acts at
once and the fastest wins, so a bot that answered at once would win every race. Here a
bot makes only the moves its speed allows:

Speed
    The match option ``bot_cards_per_minute`` (the engine's default when it is not set).
Pace
    A bot's next move is due one interval (``1 / speed`` seconds) after the last, counted
    over its latest moves in the race (its *streak*, up to ``STREAK`` moves): a bot that
    was asked late catches up a little, but over any stretch of its streak it never makes
    more moves than its speed allows. After a pause (nobody asked for a while) it starts
    again with one move, without a burst.
Start
    Bots wait ``RACE_PAUSE`` seconds at the start of every race ("3, 2, 1, go"), so people
    can read the last race's points first.

Nothing is stored beyond the move log, so this works the same in every process and
deployment: a bot's move times are the ``created`` times of its rows, and the start of a
race is the row numbered ``engine.race_started(state)``. The first race has no such row:
while no move has been made it started at the match's last change (the start), and then
it is worked out back from the first move (less the pause, and a card's time if a bot made
it), never before the match was created.

What asks the bots to move when they are due:

- the race page calls ``race_tick`` a few times a second while bots race (it needs no
  worker: with the default eager Celery and ``runserver`` it is all there is);
- with a Celery broker, every run of the bots queues one follow-up run for when the next
  bot move is due (at most one waiting per match, held by a short-lived Redis key), so bots
  race on with no page open.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import get_bots, get_engine

from ..core.queue import send_task_safely, within_deadline
from . import live
from .models import Match, Move
from .state import match_state
from .tasks import run_bots

log = logging.getLogger(__name__)

BOT_SPEED_OPTION = "bot_cards_per_minute"
DEFAULT_CARDS_PER_MINUTE = 90
RACE_PAUSE = 3.0  # seconds bots wait at the start of each race
STREAK = 8  # how many of a bot's latest moves set its pace
SLACK = 1.0  # a gap this much longer than the interval is a pause: the streak starts again
TICK_SECONDS = 0.25  # how often a race page asks for the bots' due moves


def is_real_time(engine: Any) -> bool:
    return bool(getattr(engine, "real_time", False))


def cards_per_second(match: Match, bot: str | None = None) -> float:
    """A bot's speed in this match: the pace of the bot's level (``cards_per_minute`` of the game's
    bot ``bot``) unless the match sets a speed of its own (its option ``bot_cards_per_minute``,
    other than the option's default, which the lobby's form sends as it is), else that option."""
    spec = (getattr(get_engine(match.game), "options", None) or {}).get(BOT_SPEED_OPTION)
    default = spec.default if spec is not None else DEFAULT_CARDS_PER_MINUTE
    value = (match.options or {}).get(BOT_SPEED_OPTION)
    if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
        value = default
    pace = getattr(get_bots(match.game).get(bot or ""), "cards_per_minute", None)
    if value == default and isinstance(pace, int | float) and not isinstance(pace, bool) and pace > 0:
        value = pace
    return float(value) / 60.0


# --- the pace, as pure arithmetic on times in seconds --------------------------------------


def _anchor(streak: Sequence[float], go: float, speed: float, whole: bool) -> tuple[float, int]:
    """The oldest point of the bot's unbroken streak and how many of its moves came after it.

    ``streak`` holds its move times in this race, newest first; ``whole`` says it holds all
    of them, so the race's go is where the first move's wait began.
    """
    interval = 1.0 / speed
    times = [*streak, go] if whole else list(streak)
    if not times:
        return go, 0
    run = [times[0]]
    for t in times[1:]:
        if run[-1] - t > interval + SLACK:
            break
        run.append(t)
    return run[-1], len(run) - 1


def moves_due(*, now: float, speed: float, streak: Sequence[float], go: float, whole: bool = True) -> int:
    """How many moves a bot racing at ``speed`` cards a second may make at ``now``.

    ``streak``: the times of its moves in this race, newest first (a few are enough);
    ``go``: when it may first move in this race (the race start plus the pause).
    """
    if now < go:
        return 0
    newest = streak[0] if streak else go
    if now - newest > 1.0 / speed + SLACK:
        return 1  # nobody asked for a while: start again with one move, no burst
    anchor, after = _anchor(streak, go, speed, whole)
    due = math.floor((now - anchor) * speed + 1e-9) - after
    burst = 1 if after == 0 else max(2, math.ceil(speed * 2 * TICK_SECONDS))
    return max(0, min(due, burst))


def next_move_at(*, speed: float, streak: Sequence[float], go: float, whole: bool = True) -> float:
    """When ``moves_due`` next becomes at least one (the same arguments, less ``now``)."""
    anchor, after = _anchor(streak, go, speed, whole)
    return max(go, anchor + (after + 1) / speed)


# --- the pace of a match's bots, from its move log -------------------------------------------


@dataclass(frozen=True)
class Pace:
    due: list[int]  # bot seats that may move now, lowest first
    next_at: float | None  # when the next of the others is due (a timestamp), None if none waits


_RACE_STARTS: dict[tuple[int, float, int], float] = {}
RACE_STARTS_KEPT = 1024  # then forgotten all at once (each is read again from the log)


def _race_start(match: Match, began: int, speed: float) -> float:
    """When the current race started: the time of move ``began`` (see the module docstring)."""
    key = (match.pk, match.created.timestamp(), began)
    if key in _RACE_STARTS:
        return _RACE_STARTS[key]
    number = began or 1
    row = Move.objects.filter(match=match, number=number).values_list("created", "seat").first()
    if row is None:  # the first race, before any move: the match started at its last change
        return match.updated.timestamp()
    start = row[0].timestamp()
    if not began:
        # The first race started before its first move: by the pause, and a card's time when a
        # bot made it (it had waited both); never before the match was created.
        bot = match.seat_set.filter(number=row[1]).exclude(bot="").exists()
        start = max(match.created.timestamp(), start - RACE_PAUSE - (1.0 / speed if bot else 0.0))
    if len(_RACE_STARTS) > RACE_STARTS_KEPT:
        _RACE_STARTS.clear()
    _RACE_STARTS[key] = start
    return start


def bots_pace(*, match: Match, state: Any, seats: Sequence[int], now: float | None = None) -> Pace:
    """Which of the bot ``seats`` (all able to act) may move now, each at its speed
    (``cards_per_second``: the match's, or its level's)."""
    if not seats:
        return Pace([], None)
    engine = get_engine(match.game)
    now = timezone.now().timestamp() if now is None else now
    bots = {s.number: s.bot for s in match.seat_set.all()}
    speeds = {seat: cards_per_second(match, bots.get(seat)) for seat in seats}
    began = int(getattr(engine, "race_started", lambda s: 0)(state))
    go = _race_start(match, began, max(speeds.values())) + RACE_PAUSE
    limit = (STREAK + 1) * len(seats)
    rows = list(
        Move.objects.filter(match=match, seat__in=list(seats), number__gt=began)
        .order_by("-number")
        .values_list("seat", "created")[:limit]
    )
    streaks: dict[int, list[float]] = {seat: [] for seat in seats}
    for seat, created in rows:
        streaks[seat].append(created.timestamp())
    due: list[int] = []
    waits: list[float] = []
    for seat in sorted(seats):
        streak = streaks[seat][:STREAK]
        whole = len(rows) < limit and len(streaks[seat]) <= STREAK
        speed = speeds[seat]
        if moves_due(now=now, speed=speed, streak=streak, go=go, whole=whole) > 0:
            due.append(seat)
        else:
            waits.append(next_move_at(speed=speed, streak=streak, go=go, whole=whole))
    return Pace(due, min(waits) if waits else None)


@cache
def _redis() -> Any:
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, **live.redis_options())


def _bot_seats(match: Match, state: Any) -> list[int]:
    engine = get_engine(match.game)
    bots = {s.number for s in match.seat_set.all() if s.bot}
    return sorted(seat for seat in engine.to_act(state) if seat in bots)


# --- what makes the bots move -------------------------------------------------------------


def bots_due_now(*, match_id: int) -> bool | None:
    """Whether a bot of this real-time match may move now; None for a turn-based match.

    Reads only, without a lock: after each racer's move and at each tick of a race page this
    is all it takes to see that no bot is due, without holding up the racers' moves.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not is_real_time(get_engine(match.game)):
        return None
    if match.status != Match.Status.PLAYING:
        return False
    if not match.seat_set.exclude(bot="").exists():
        return False
    state = match_state(match)
    return bool(bots_pace(match=match, state=state, seats=_bot_seats(match, state)).due)


def worker_drives_bots() -> bool:
    """Whether a worker paces the races' bots (a broker, and Redis answering for the follow-ups),
    so that a race page's tick need only see that a run of theirs is queued."""
    return (
        not settings.CELERY_TASK_ALWAYS_EAGER and bool(settings.REDIS_URL) and not live.PUBLISHING.ongoing()
    )


def bots_follow_up(*, match_id: int) -> float | None:
    """With a Celery broker, queue one run of the bots for when the next bot move is due.

    At most one such run waits per match (a Redis key that lives until it is due). Without a
    broker (eager Celery) the race page's ticks do this instead. Returns the delay, if queued.
    """
    if settings.CELERY_TASK_ALWAYS_EAGER or not settings.REDIS_URL:
        return None
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.PLAYING:
        return None
    state = match_state(match)
    pace = bots_pace(match=match, state=state, seats=_bot_seats(match, state))
    if pace.due:
        delay = 0.05
    elif pace.next_at is not None:
        delay = max(0.05, pace.next_at - timezone.now().timestamp())
    else:
        return None
    if live.PUBLISHING.ongoing():
        return None  # Redis timed out moments ago: the pages' ticks and the bot sweep drive the bots
    try:
        key, ms = f"{settings.REDIS_PREFIX}:race-bots:{match_id}", max(1, int(delay * 1000))
        if not within_deadline(live.PUBLISHING, lambda: _redis().set(key, "1", nx=True, px=ms)):
            return None  # a run is already waiting
    except Exception:  # without Redis the pages' ticks still drive the bots
        log.warning("Could not schedule the bots of match %s", match_id, exc_info=True)
        return None
    transaction.on_commit(partial(send_task_safely, run_bots, match_id, countdown=delay))
    return delay


# --- a racer's move from the race page ----------------------------------------------------
