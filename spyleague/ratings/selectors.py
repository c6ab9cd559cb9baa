"""Leaderboards per game, per club and per season, and each player's rating history."""

from __future__ import annotations

from typing import Any

from pairing.ratings import is_provisional

from ..clubs.models import Player
from .models import Rating, RatingPoint


def leaderboard(
    *, game: str, club: str | None = None, league: int | None = None, limit: int = 200
) -> list[dict[str, Any]]:
    """Players by rating (mu - 3 sigma). ``club`` keeps that club's members; ``league`` those who
    played a confirmed result in one of that season's events."""
    rows = Rating.objects.filter(game=game).select_related("player")
    if club:
        rows = rows.filter(player__memberships__club__slug=club)
    if league is not None:
        rows = rows.filter(player__result_lines__result__table__round__event__league_id=league).distinct()
    return [
        {
            "rank": i,
            "player_id": r.player_id,
            "name": r.player.name,
            "rating": r.ordinal,
            "mu": r.mu,
            "sigma": r.sigma,
            "games": r.games,
            "provisional": is_provisional(r.sigma),
        }
        for i, r in enumerate(rows.order_by("-ordinal", "player__name")[:limit], start=1)
    ]


def rating_history(*, player: Player, game: str) -> list[dict[str, Any]]:
    return [
        {
            "when": p.when,
            "rating": p.ordinal,
            "mu": p.mu,
            "sigma": p.sigma,
            "provisional": is_provisional(p.sigma),
        }
        for p in RatingPoint.objects.filter(player=player, game=game).order_by("when", "pk")
    ]


def history_chart(
    points: list[dict[str, Any]], *, width: int = 640, height: int = 180
) -> dict[str, Any] | None:
    """Screen coordinates of a rating history for an inline SVG line chart (no JavaScript)."""
    if not points:
        return None
    values = [p["rating"] for p in points]
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    pad = 24
    step = (width - 2 * pad) / max(1, len(values) - 1)

    def y(value: float) -> float:
        return float(round(height - pad - (value - low) / (high - low) * (height - 2 * pad), 1))

    coords = [(round(pad + i * step, 1), y(v)) for i, v in enumerate(values)]
    return {
        "width": width,
        "height": height,
        "line": " ".join(f"{x},{yy}" for x, yy in coords),
        "dots": coords[-30:],
        "low": round(low, 1),
        "high": round(high, 1),
        "y_low": y(low),
        "y_high": y(high),
        "first": points[0]["when"],
        "last": points[-1]["when"],
        "current": round(values[-1], 1),
        "games": len(values),
    }


NEW_PLAYER_RATING = 0.0  # a new player's rating (mu 25 - 3 sigma 25/3), before their first result


def result_rating_changes(*, result_id: int, game: str) -> dict[int, dict[str, float]]:
    """Each player's rating before and after one rated result, by player id: ``{"before",
    "after", "change"}``. Empty while the result is not rated (or its rating is still being
    worked out by a recompute)."""
    from django.db.models import Q

    out: dict[int, dict[str, float]] = {}
    for point in RatingPoint.objects.filter(result_id=result_id, game=game):
        earlier = (
            RatingPoint.objects.filter(player_id=point.player_id, game=game)
            .filter(Q(when__lt=point.when) | Q(when=point.when, pk__lt=point.pk))
            .order_by("-when", "-pk")
            .values_list("ordinal", flat=True)
            .first()
        )
        before = NEW_PLAYER_RATING if earlier is None else earlier
        out[point.player_id] = {
            "before": round(before, 1),
            "after": round(point.ordinal, 1),
            "change": round(point.ordinal - before, 1),
        }
    return out
