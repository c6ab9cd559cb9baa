"""What a race's pages are sent (Spy vs Spy): the race as everyone sees it, and each seat's own.

One message per move for everyone (``update_message``): the race as a spectator sees it, the
piles as their top card and size, built once per move by the process that made it and passed
on to every race page (``feeds``). Everything in it comes from ``engine.view(state, None)``,
which hides what nobody may see (the unflipped racing hands, the faces of the points piles).
The mover's own answer (``ack_message``) adds only what is its own: which piles its card fits
on, and its choice in the pick after a race.

Below the write path (``moves`` announces each change of a race with ``update_of`` and
``publish_update``) and above the state: it reads, and writes nothing.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings

from games import get_engine

from ..core.queue import within_deadline
from . import live
from .models import Match
from .state import match_state

log = logging.getLogger(__name__)


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
    if not settings.REDIS_URL or live.PUBLISHING.ongoing():
        return
    payload = message if move is None else f"{message}\n{json.dumps(move)}"
    try:
        within_deadline(live.PUBLISHING, lambda: live._redis().publish(live.race_channel(match_id), payload))
    except Exception:
        log.warning("Could not publish the update of match %s version %s", match_id, version, exc_info=True)
    else:
        live.PUBLISHING.over()


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


def update_of(match: Match) -> tuple[int, str]:
    """The update for the match as it is (after a move the general way, or for a page that
    missed one): (version, message)."""
    engine = get_engine(match.game)
    return match.version, update_message(engine, match_state(match), match.version, match.status)
