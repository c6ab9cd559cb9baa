"""Ratings per game, from every confirmed result (tabletop and online alike) in the order played.

Two ways in, one arithmetic (``pairing.ratings``), so both give the same numbers to the last bit:

- ``ratings_result_apply``: called when a result is confirmed (and again when a confirmed result
  is corrected). A result played after the last counted result of each of its players is rated
  on the spot, from those players' current ratings, and its history points are appended: results
  of other players do not touch theirs, so this is exactly what a full replay gives. Anything
  else (a correction, a result played before one of its players' later results, or a recompute
  already on its way) asks for a recompute instead.
- ``ratings_recompute``: the full replay of a game's confirmed results, as one background job
  however many ask for it (``RatingState``). It reads and rates outside any lock, then writes
  under the game's lock: every rating row, and the history from the earliest moment that may have
  changed (all of it when unknown), with PostgreSQL's COPY. Idempotent: running it twice gives
  the same rows.

Each game has one lock (``job_lock("ratings:<game>")``): the writes of a confirmation and of a
recompute take turns, so they never collide on a row.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, cast

from django.db import connection, transaction
from django.db.models import Field
from django.utils import timezone

from pairing.ratings import Rater, Z, rate_result, recompute_ratings

from ..core.jobs import job_lock, job_queue
from ..core.locks import Busy
from ..core.models import Job
from ..scores.models import Result, ResultLine
from .models import BotRatedMatch, BotRating, Rating, RatingPoint, RatingState

Progress = Callable[[int, int, str], None]
RATER = Rater()


def _title(game: str) -> str:
    """The game's title for people to read (a job's label)."""
    from games import game_info
    from games.core import UnknownGame

    try:
        return game_info(game).title
    except UnknownGame:
        return game


def _lock(game: str, *, wait: bool = True) -> None:
    """The game's ratings lock, held until the transaction ends. ``wait`` False: ``Busy`` at
    once when another transaction holds it (the effects of results: see ``scores.effects``)."""
    if not job_lock(f"ratings:{game}", wait=wait):
        raise Busy(f"The {game} ratings are being updated by another run.")


def _state(game: str) -> RatingState:
    """The game's state row (call under the game's lock). A new one knows nothing of the history
    already stored, so its first recompute rewrites all of it."""
    state = RatingState.objects.filter(game=game).first()
    if state is None:
        state = RatingState.objects.create(game=game, dirty_all=True)
    return state


def _ask_recompute(state: RatingState, since: datetime | None, *, user: Any = None) -> Job:
    """Note that the stored ratings no longer follow from the results (from ``since`` on; from
    the start when None) and queue one recompute (a queued one is reused)."""
    from .tasks import recompute_ratings_task

    state.pending = True
    state.version += 1
    if since is None:
        state.dirty_all = True
    elif state.dirty_from is None or since < state.dirty_from:
        state.dirty_from = since
    state.save(update_fields=["pending", "version", "dirty_all", "dirty_from", "updated"])
    return job_queue(
        kind="ratings",
        label=f"Recompute {_title(state.game)} ratings",
        task=recompute_ratings_task,
        params={"game": state.game},
        key=f"ratings:{state.game}",
        user=user,
    )


def ratings_recompute_queue(*, game: str, user: Any = None) -> Job:
    """Queue a recompute of the whole game (history included); one job however many ask."""
    with transaction.atomic():
        _lock(game)
        return _ask_recompute(_state(game), None, user=user)


@transaction.atomic
def ratings_result_apply(*, result: Result, wait: bool = True) -> str:
    """Bring the game's ratings up to date with ``result``, just confirmed or corrected.

    Returns ``"applied"`` (rated on the spot), ``"queued"`` (a recompute will do it) or
    ``"unrated"`` (fewer than two players, or marked ``unrated`` because a bot played for
    someone: results like that are not rated).
    """
    game = result.game
    _lock(game, wait=wait)
    state = _state(game)
    if state.pending:
        _ask_recompute(state, result.played)
        return "queued"
    lines = list(
        ResultLine.objects.filter(result=result).order_by("position").values_list("player_id", "place")
    )
    if result.status != Result.Status.CONFIRMED or len(lines) < 2 or result.data.get("unrated"):
        if RatingPoint.objects.filter(result=result).exists():  # it counted before: not any more
            _ask_recompute(state, result.played)
            return "queued"
        return "unrated"
    players = [player for player, _ in lines]
    current = {r.player_id: r for r in Rating.objects.filter(game=game, player_id__in=players)}
    key = (result.played, result.pk)
    for rating in current.values():
        if rating.last_played is None or (rating.last_played, rating.last_result or 0) >= key:
            # A player has a result after this one (or this one, corrected): replay the game.
            _ask_recompute(state, result.played)
            return "queued"
    rated = rate_result(lines, {p: (r.mu, r.sigma) for p, r in current.items()}, rater=RATER)
    now = timezone.now()
    new = []
    for player, mu, sigma in rated:
        fields = {
            "mu": mu,
            "sigma": sigma,
            "ordinal": mu - Z * sigma,
            "last_played": result.played,
            "last_result": result.pk,
            "updated": now,
        }
        if player in current:  # a few players: one plain UPDATE each (cheaper than bulk_update's CASEs)
            Rating.objects.filter(pk=current[player].pk).update(games=current[player].games + 1, **fields)
        else:
            new.append(Rating(player_id=player, game=game, games=1, **fields))
    Rating.objects.bulk_create(new)
    RatingPoint.objects.bulk_create(
        [
            RatingPoint(
                player_id=player,
                game=game,
                result_id=result.pk,
                when=result.played,
                mu=mu,
                sigma=sigma,
                ordinal=mu - Z * sigma,
            )
            for player, mu, sigma in rated
        ]
    )
    return "applied"


def ratings_recompute(
    *, game: str, progress: Progress | None = None, everything: bool = False
) -> dict[str, Any]:
    """Replay every confirmed result of ``game`` and store the ratings and their history.

    The history is rewritten from the earliest moment a change since the last recompute may have
    touched (``RatingState.dirty_from``), all of it when that is unknown or ``everything``.
    """
    report = progress or (lambda done, total, message: None)
    report(0, 4, "Reading confirmed results")
    clock = [time.perf_counter()]
    with transaction.atomic():
        _lock(game)
        state = _state(game)
        state.pending = True  # from now on a confirmation asks for the next run instead of applying
        state.version += 1
        state.save(update_fields=["pending", "version", "updated"])
        version = state.version
        rewrite_all = everything or state.dirty_all
        since = None if rewrite_all else state.dirty_from

    # Read and rate outside any transaction: confirmations meanwhile only ask for the next run.
    results: list[tuple[int, datetime]] = []
    tables: list[list[tuple[int, int]]] = []
    for result_id, played, player_id, place in (
        ResultLine.objects.filter(result__game=game, result__status=Result.Status.CONFIRMED)
        # Not the results a bot played in for someone (``play.results``). (A filter, not an exclude
        # on the JSON key: that one also drops the rows without the key on some databases.)
        .exclude(result_id__in=Result.objects.filter(game=game, data__unrated=True).values("pk"))
        .order_by("result__played", "result_id", "position")
        .values_list("result_id", "result__played", "player_id", "place")
        .iterator(chunk_size=20000)
    ):
        if not results or results[-1][0] != result_id:
            results.append((result_id, played))
            tables.append([])
        tables[-1].append((player_id, place))
    kept = [i for i, t in enumerate(tables) if len(t) >= 2]
    clock.append(time.perf_counter())
    report(1, 4, f"Rating {len(kept)} results")
    rated = recompute_ratings([tables[i] for i in kept], keep_history=True)
    last: dict[int, int] = {}
    for position, i in enumerate(kept):
        for player, _ in tables[i]:
            last[player] = position
    clock.append(time.perf_counter())
    report(3, 4, "Saving ratings")

    with transaction.atomic():
        _lock(game)
        state = RatingState.objects.get(game=game)
        if state.written > version:
            # A run that read the results after this one has written already: keep its rows.
            summary = {"results": len(kept), "players": len(rated.ratings), "history": 0, "written": False}
            return {**summary, "seconds": _spent(clock)}
        now = timezone.now()
        Rating.objects.filter(game=game).delete()
        Rating.objects.bulk_create(
            [
                Rating(
                    player_id=r.player,
                    game=game,
                    mu=r.mu,
                    sigma=r.sigma,
                    ordinal=r.ordinal,
                    games=r.games,
                    last_played=results[kept[last[r.player]]][1],
                    last_result=results[kept[last[r.player]]][0],
                    updated=now,
                )
                for r in rated.ratings.values()
            ],
            batch_size=2000,
        )
        points = rated.history
        old = RatingPoint.objects.filter(game=game)
        if not rewrite_all:
            if since is None:
                points = ()
            else:
                first = next((n for n, i in enumerate(kept) if results[i][1] >= since), len(kept))
                points = tuple(p for p in points if p.result >= first)
                old = old.filter(when__gte=since)
        if rewrite_all or since is not None:
            old.delete()  # derived rows that nothing points at: one DELETE
        _history_write(
            (
                p.player,
                game,
                results[kept[p.result]][0],
                results[kept[p.result]][1],
                p.mu,
                p.sigma,
                p.ordinal,
            )
            for p in points
        )
        state.written = version
        fields = ["written", "updated"]
        if state.version == version:  # nothing changed meanwhile: the ratings follow from the results
            state.pending, state.dirty_all, state.dirty_from = False, False, None
            fields += ["pending", "dirty_all", "dirty_from"]
        state.save(update_fields=fields)
    summary = {"results": len(kept), "players": len(rated.ratings), "history": len(points), "written": True}
    return {**summary, "seconds": _spent(clock)}


def _spent(clock: list[float]) -> dict[str, float]:
    """Seconds spent reading, rating and writing (so far), for the job's result."""
    marks = [*clock, time.perf_counter()][:4]
    names = ("reading", "rating", "writing")
    return {name: round(b - a, 3) for name, a, b in zip(names, marks, marks[1:], strict=False)}


def _history_write(rows: Iterable[tuple[int, str, int, datetime, float, float, float]]) -> None:
    """Insert history rows ``(player, game, result, when, mu, sigma, ordinal)``: with COPY on
    PostgreSQL (several times faster than INSERTs for a game's whole history), else in batches."""
    meta = RatingPoint._meta
    fields = ("player", "game", "result", "when", "mu", "sigma", "ordinal")
    columns = [cast("Field[Any, Any]", meta.get_field(name)).column or name for name in fields]
    if connection.vendor == "postgresql":
        names = ", ".join(connection.ops.quote_name(c) for c in columns)
        with connection.cursor() as cursor:
            raw = cursor.cursor
            with raw.copy(f"COPY {connection.ops.quote_name(meta.db_table)} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        return
    RatingPoint.objects.bulk_create(
        (
            RatingPoint(
                player_id=player, game=game, result_id=result, when=when, mu=mu, sigma=sigma, ordinal=ordinal
            )
            for player, game, result, when, mu, sigma, ordinal in rows
        ),
        batch_size=2000,
    )


def bot_levels_rate(*, game: str, match_id: int, seats: Sequence[tuple[int | None, str, int]]) -> bool:
    """Rate the bot levels of a finished online match from its result against the people in it.

    ``seats``: for each seat (player id or None, bot name or "", place). Each bot seat is rated
    against every other seat with the people's current ratings (a person not rated yet counts as
    new); only the bots' ratings move (a level seated twice takes the mean of its two). Counted
    once a match (``BotRatedMatch``); False when there was nothing to rate (no person, no bot)."""
    people = [player for player, bot, _ in seats if player is not None and not bot]
    levels = sorted({bot for player, bot, _ in seats if bot and player is None})
    if not people or not levels:
        return False
    with transaction.atomic():
        _, created = BotRatedMatch.objects.get_or_create(match_id=match_id)
        if not created:
            return False
        for bot in levels:  # each level's row, made once, then locked in one order
            BotRating.objects.get_or_create(
                game=game,
                bot=bot,
                defaults={"mu": RATER.model.mu, "sigma": RATER.model.sigma, "ordinal": 0.0},
            )
        bots = {
            r.bot: r
            for r in BotRating.objects.select_for_update().filter(game=game, bot__in=levels).order_by("bot")
        }
        ratings = {
            r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(game=game, player_id__in=people)
        }
        current: dict[int, tuple[float, float]] = {}
        for number, (player, bot, _) in enumerate(seats):
            if bot and player is None:
                current[number] = (bots[bot].mu, bots[bot].sigma)
            elif player in ratings:
                current[number] = ratings[player]
        rated = rate_result(
            [(number, place) for number, (_, _, place) in enumerate(seats)], current, rater=RATER
        )
        after: dict[str, list[tuple[float, float]]] = {bot: [] for bot in levels}
        for number, mu, sigma in rated:
            player, bot, _ = seats[number]
            if bot and player is None:
                after[bot].append((mu, sigma))
        for bot, moved in after.items():
            rating = bots[bot]
            rating.mu = sum(mu for mu, _ in moved) / len(moved)
            rating.sigma = sum(sigma for _, sigma in moved) / len(moved)
            rating.ordinal = rating.mu - Z * rating.sigma
            rating.games += 1
            rating.save(update_fields=["mu", "sigma", "ordinal", "games", "updated"])
    return True
