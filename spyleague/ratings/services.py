"""Ratings per game, recomputed from every confirmed result (tabletop and online alike).

A recompute replays all of a game's confirmed results in the order they were played with
openskill's Plackett-Luce model (``pairing.ratings``), then replaces the game's rating rows
in one transaction. Running it twice gives the same rows: it is idempotent by design.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from pairing.ratings import recompute_ratings

from ..core.jobs import job_queue
from ..core.models import Job
from ..scores.models import Result, ResultLine
from .models import Rating, RatingPoint

Progress = Callable[[int, int, str], None]


def ratings_recompute_queue(*, game: str, user: Any = None) -> Job:
    from .tasks import recompute_ratings_task

    return job_queue(
        kind="ratings",
        label=f"Recompute {game} ratings",
        task=recompute_ratings_task,
        params={"game": game},
        key=f"ratings:{game}",
        user=user,
    )


def ratings_recompute(*, game: str, progress: Progress | None = None) -> dict[str, int]:
    report = progress or (lambda done, total, message: None)
    report(0, 4, "Reading confirmed results")
    results = list(
        Result.objects.filter(game=game, status=Result.Status.CONFIRMED)
        .order_by("played", "pk")
        .values_list("pk", "played")
    )
    index = {pk: i for i, (pk, _) in enumerate(results)}
    tables: list[list[tuple[int, int]]] = [[] for _ in results]
    for result_id, player_id, place in ResultLine.objects.filter(
        result__game=game, result__status=Result.Status.CONFIRMED
    ).values_list("result_id", "player_id", "place"):
        tables[index[result_id]].append((player_id, place))
    report(1, 4, f"Rating {len(results)} results")
    rated = recompute_ratings([t for t in tables if len(t) >= 2], keep_history=True)
    kept = [i for i, t in enumerate(tables) if len(t) >= 2]
    report(3, 4, "Saving ratings")
    with transaction.atomic():
        Rating.objects.filter(game=game).delete()
        RatingPoint.objects.filter(game=game).delete()
        Rating.objects.bulk_create(
            [
                Rating(
                    player_id=r.player, game=game, mu=r.mu, sigma=r.sigma, ordinal=r.ordinal, games=r.games
                )
                for r in rated.ratings.values()
            ],
            batch_size=2000,
        )
        RatingPoint.objects.bulk_create(
            [
                RatingPoint(
                    player_id=point.player,
                    game=game,
                    result_id=results[kept[point.result]][0],
                    when=results[kept[point.result]][1],
                    mu=point.mu,
                    sigma=point.sigma,
                    ordinal=point.ordinal,
                )
                for point in rated.history
            ],
            batch_size=5000,
        )
    return {"results": len(kept), "players": len(rated.ratings)}
