"""Bots in online matches: who takes an empty seat, and their turns.

``match_run_bots`` lets every bot whose turn it is act, until a person must act or the game
ends: each bot thinks outside any transaction, from a snapshot of the match at a version, and
its move is applied in a short transaction of its own through the write path (``moves``) only if
the match is still at that version. In a real-time game the bots are paced instead
(``realtime``), and a race page's ``race_tick`` makes sure the moves now due are made. The
worker runs them (``tasks.run_bots``) after every move that leaves a bot to act: bots think in
the worker, never in a web request (except where there is no worker: eager Celery, local use).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from django.db import OperationalError, transaction

from games import get_bots, get_engine
from games.core import chance

from . import realtime
from .models import Match
from .moves import announce, apply_move, match_locked, match_snapshot
from .state import match_state

MAX_BOT_MOVES_PER_RUN = 2000


BUSY_RETRIES = 5  # tries of a bot move the database was too busy to take
STALE_RETRIES = 50  # bot moves in a row found stale (the match moved on while the bot thought)


def default_bot(game: str) -> str:
    """The bot that takes a seat when nobody says which: the heuristic one where the game has it."""
    bots = get_bots(game)
    return "heuristic" if "heuristic" in bots else next(iter(bots))


@dataclass(frozen=True)
class Asked:
    """A bot asked for its move at one version of a match: what it was shown, and its answer."""

    version: int
    seat: int
    bot: str
    action: Any


def _ask(match_id: int) -> tuple[Asked | None, bool]:
    """The next bot's move, thought out from a snapshot of the match read without a lock or a
    transaction (the match at a version, its state, the seat's view and legal actions, the rng of
    that version and seat); and whether the match is a real-time one. None when no bot is to act
    (or may, in a race, yet)."""
    match = match_snapshot(match_id)
    if match is None or match.status != Match.Status.PLAYING:
        return None, False
    bots = {s.number: s.bot for s in match.seat_set.all() if s.bot}
    engine = get_engine(match.game)
    state = match_state(match)
    acting = sorted(seat for seat in engine.to_act(state) if seat in bots)
    paced = realtime.is_real_time(engine)
    if paced:
        acting = realtime.bots_pace(match=match, state=state, seats=acting).due
    if not acting:
        return None, paced
    seat = acting[0]
    bot = get_bots(match.game)[bots[seat]]
    rng: random.Random = chance(match.seed, "bot", match.version, seat)
    action = bot.choose(engine.view(state, seat), engine.legal(state, seat), rng)
    return Asked(match.version, seat, bots[seat], action), paced


def match_run_bots(*, match_id: int, limit: int = MAX_BOT_MOVES_PER_RUN) -> int:
    """Let every bot whose turn it is act, until a person must act or the game ends.

    A bot thinks outside any transaction, from a snapshot of the match at a version (``_ask``):
    a search of a second holds no lock that people's moves and pages wait for. Its move is then
    applied under the match's row lock only if the match is still at that version and the seat
    still that bot's; else it is dropped and the bot asked again (``STALE_RETRIES`` times in a
    row at most: a person who keeps moving in a race outpaces a bot, which the next run or
    sweep asks again). Each move is its own short transaction, so people's moves interleave
    freely. In a real-time game (Spy vs Spy) bots are paced instead: each makes only the moves
    its speed allows by now, and the worker's follow-ups bring the next ones (see
    ``realtime``). Returns the number of moves made.
    """
    if realtime.bots_due_now(match_id=match_id) is False:
        # A real-time match with no bot move due: nothing to read (this runs after every move).
        realtime.bots_follow_up(match_id=match_id)
        return 0
    made = 0
    paced = False
    busy = 0
    stale = 0
    while made < limit:
        try:
            asked, real_time = _ask(match_id)
            paced = paced or real_time
            if asked is None:
                break
            with transaction.atomic():
                match = match_locked(match_id)
                if match.status != Match.Status.PLAYING:
                    break
                bot = next((s.bot for s in match.seat_set.all() if s.number == asked.seat), "")
                if match.version != asked.version or bot != asked.bot:
                    stale += 1  # someone moved (or took the seat) while it thought: ask again
                    if stale > STALE_RETRIES:
                        break
                    continue
                apply_move(match, asked.seat, asked.action)
                announce(match)
        except OperationalError:
            # The database was busy (SQLite lets one writer at a time, and its shared-cache test
            # database refuses rather than waits): nothing was applied, so try that move again.
            # Bots that stopped here would leave a game where only bots can act stuck for good.
            busy += 1
            if busy > BUSY_RETRIES:
                raise
            time.sleep(0.05 * busy)
            continue
        busy = stale = 0
        made += 1
    if paced:
        realtime.bots_follow_up(match_id=match_id)
    return made


def race_tick(*, match_id: int) -> int:
    """A race page's tick: the bots of a real-time match make the moves now due.

    Where a worker drives the bots (a broker, and Redis answering), the tick only makes sure one
    run of theirs is queued (``realtime.bots_follow_up``: at most one waits a match) and the
    request thinks for no bot; without one (eager Celery, local use) or with Redis away, the
    moves are made here, as the worker would. Returns the number of moves made here (0 for a
    turn-based match: its bots need no ticks).
    """
    if not realtime.bots_due_now(match_id=match_id):
        return 0
    if realtime.worker_drives_bots():
        realtime.bots_follow_up(match_id=match_id)
        return 0
    return match_run_bots(match_id=match_id)
