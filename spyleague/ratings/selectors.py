"""Leaderboards per game, per club and per season, and each player's rating history."""

from __future__ import annotations

from typing import Any

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
        }
        for i, r in enumerate(rows.order_by("-ordinal", "player__name")[:limit], start=1)
    ]


def rating_history(*, player: Player, game: str) -> list[dict[str, Any]]:
    return [
        {"when": p.when, "rating": p.ordinal, "mu": p.mu, "sigma": p.sigma}
        for p in RatingPoint.objects.filter(player=player, game=game).order_by("when", "pk")
    ]
