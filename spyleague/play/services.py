"""Online matches: create, seat, start, move, time out, resign, abandon, play again.

The public face of the app's writes: the views, the API and the other apps call these. Each
goes through the write path below it (``moves``: the match's lock, the engine, ``MoveRejected``),
so two clicks, two tabs or two players acting at once can never both win: the second sees the
new state and is told so. The clocks are ``clocks``', the bots ``bots``'; ``MoveRejected``,
``seat_of`` and the bots' entry points are named here too, for the callers.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import InvalidOptions, engines, game_info, get_bots, get_engine

from ..clubs.models import Club, Player
from ..core.locks import atomic_retrying
from .bots import default_bot as default_bot
from .bots import match_run_bots as match_run_bots
from .clocks import clock_start
from .levels import all_levels, levels
from .models import Match, MatchSeat
from .moves import MoveRejected as MoveRejected
from .moves import after_change, announce, apply_move, match_locked, player_of, report_on_commit, touch
from .moves import has_resigned as has_resigned
from .moves import seat_of as seat_of
from .moves import with_resignations as with_resignations
from .state import match_state
from .sweeps import bot_turn

log = logging.getLogger(__name__)

MAX_TIMEOUT_MOVES = 100  # moves one look at an overdue match may make for the seats out of time


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
    player = player_of(user)
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
    me = player_of(user)
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
    clock_start(match)
    after_change(match)
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
    me = player_of(user)
    seated = me is not None and table.seats.filter(entrant__player=me).exists()
    if not (seated or has_club_role(user=user, club=event.club, role=Role.ORGANISER)):
        raise MoveRejected("Only the players at this table or an organiser can decide that.", status=403)
    existing = Match.objects.filter(table=table).first()
    if existing is None:
        return None
    if existing.status == Match.Status.FINISHED:
        raise MoveRejected("This table's match was played online to the end: its result is in.")
    return match_abandon(user=user, match_id=existing.pk, reason="the table plays this game at the table")


@transaction.atomic
def match_join(*, user: Any, match_id: int, seat: int | None = None) -> int:
    player = player_of(user)
    if player is None:
        raise MoveRejected("Log in to take a seat.", status=403)
    match = match_locked(match_id)
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
    touch(match)
    return free[0].number


@transaction.atomic
def match_set_bot(*, user: Any, match_id: int, seat: int, bot: str) -> None:
    match = match_locked(match_id)
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
    touch(match)


def _require_creator(match: Match, user: Any) -> None:
    if not (getattr(user, "is_authenticated", False) and (match.created_by_id == user.pk or user.is_staff)):
        raise MoveRejected("Only the player who created the match can do that.", status=403)


@transaction.atomic
def match_start(*, user: Any, match_id: int, fill_with: str | None = None) -> Match:
    """Start the match; empty seats take the bot ``fill_with`` (or the match cannot start)."""
    match = match_locked(match_id)
    _require_creator(match, user)
    if match.status != Match.Status.OPEN:
        raise MoveRejected("This match has already started.")
    empty = [s for s in match.seat_set.all() if s.player_id is None and not s.bot]
    if empty:
        bots = get_bots(match.game)
        name = fill_with or default_bot(match.game)
        if name not in bots:
            known = dict(all_levels())
            offered = ", ".join(level for _, level in levels(match.game))
            if name in known:
                raise MoveRejected(
                    f"{game_info(match.game).title} has no {known[name]} bot yet: choose {offered}."
                )
            raise MoveRejected(f"No bot is called {name!r}; choose {offered}.")
        for seat in empty:
            seat.bot = name
            seat.save(update_fields=["bot"])
    match.status = Match.Status.PLAYING
    match.bot_turn = bot_turn(match, match_state(match))
    match.save(update_fields=["status", "updated", "bot_turn"])
    clock_start(match)
    after_change(match)
    return match


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
    match = match_locked(match_id)
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
    apply_move(match, mine, action)
    after_change(match)
    return match


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
            match = match_locked(match_id)
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
                        state = apply_move(match, seat, action)
                        acted = True
                overdue = match.deadline is not None and match.deadline <= now
                if not acted or match.status != Match.Status.PLAYING or not overdue:
                    break
            closed += 1
            after_change(match)
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
    match = match_locked(match_id)
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
        after_change(match)
        return match
    leaving.save(update_fields=["resigned"])
    places = [0 if seat in {s.number for s in still} else 1 for seat in range(match.seats)]
    match.outcome = with_resignations(
        match, {"scores": _viewer_scores(match), "places": places, "detail": {"ended": "resigned"}}
    )
    extra = report_on_commit(match)
    _end(match, Match.Status.FINISHED, f"{name} resigned.", extra)
    return match


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
    match = match_locked(match_id)
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
    announce(match)


@transaction.atomic
def match_rematch(*, user: Any, match_id: int) -> Match:
    """Play a finished match again: the same game, options, seats, people and bots, a new deal.

    One click starts it for everyone (the others' pages follow to it by themselves); asked again
    (another player's click at the same moment) it gives the same new match. The rematch of a
    tournament table's match is a friendly: it belongs to no table.
    """
    match = match_locked(match_id)
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
    new = match_locked(new.pk)
    new.bot_turn = bot_turn(new, match_state(new))
    new.save(update_fields=["bot_turn"])
    clock_start(new)
    after_change(new)
    match.rematch = new
    match.save(update_fields=["rematch", "updated"])
    announce(match)
    return new
