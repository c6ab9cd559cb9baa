"""Bots in online matches: who takes an empty seat, and their turns.

``match_run_bots`` lets every bot whose turn it is act, each move its own short transaction
through the write path (``moves``), until a person must act or the game ends; in a real-time
game the bots are paced instead (``realtime``), and a race page's ``race_tick`` makes the moves
now due. The worker runs them (``tasks.run_bots``) after every move that leaves a bot to act.
"""

from __future__ import annotations

import random
import time

from django.db import OperationalError, transaction

from games import get_bots, get_engine
from games.core import chance

from . import realtime
from .models import Match
from .moves import announce, apply_move, match_locked
from .state import match_state

MAX_BOT_MOVES_PER_RUN = 2000


BUSY_RETRIES = 5  # tries of a bot move the database was too busy to take


def default_bot(game: str) -> str:
    """The bot that takes a seat when nobody says which: the heuristic one where the game has it."""
    bots = get_bots(game)
    return "heuristic" if "heuristic" in bots else next(iter(bots))


def match_run_bots(*, match_id: int, limit: int = MAX_BOT_MOVES_PER_RUN) -> int:
    """Let every bot whose turn it is act, until a person must act or the game ends.

    Each bot move is its own short transaction, so people's moves interleave freely.
    In a real-time game (Spy vs Spy) bots are paced instead: each makes only the moves its
    speed allows by now, and the race page's ticks or a follow-up run bring the next ones
    (see ``realtime``). Returns the number of moves made.
    """
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
                match = match_locked(match_id)
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
                apply_move(match, seat, action)
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
        busy = 0
        made += 1
    if paced:
        realtime.bots_follow_up(match_id=match_id)
    return made


def race_tick(*, match_id: int) -> int:
    """A race page's tick: the bots of a real-time match make the moves now due.

    Returns the number of moves made (0 for a turn-based match: its bots need no ticks).
    """
    if not realtime.bots_due_now(match_id=match_id):
        return 0
    return match_run_bots(match_id=match_id)
