"""Leaderboards per game, per club and per season, and each player's rating history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Exists, F, OuterRef, QuerySet

from pairing.ratings import is_provisional

from ..clubs.models import Membership, Player
from ..play.levels import level_of
from ..scores.models import ResultLine
from .models import BotRating, Rating, RatingPoint

# The board's order: best rating first, equal ratings by the player's id, which makes it total
# (a place is the same on every page, and a page never repeats or skips a player) and is the
# order of the index ``rating_board``: a page is read from the index, never sorted whole.
BOARD_ORDER = (F("ordinal").desc(), F("player_id").asc())
BOARD_COLUMNS = ("player_id", "ordinal", "mu", "sigma", "games")


def _board(*, game: str, club: str | None, league: int | None) -> QuerySet[Rating]:
    rows = Rating.objects.filter(game=game)
    if club:
        rows = rows.filter(
            Exists(Membership.objects.filter(player_id=OuterRef("player_id"), club__slug=club))
        )
    if league is not None:
        played = ResultLine.objects.filter(
            player_id=OuterRef("player_id"), result__table__round__event__league_id=league
        )
        rows = rows.filter(Exists(played))
    return rows


def leaderboard_rows(*, game: str, club: str | None = None, league: int | None = None) -> QuerySet[Any]:
    """The board as a query, best first, to be sliced a page at a time (the slice is the SQL's
    LIMIT and OFFSET, read from the index in the board's order). ``leader_lines`` turns a page
    of it into the lines shown, ranked in the whole board.

    ``club`` keeps that club's members; ``league`` those who played a result in one of that
    season's events."""
    rows: QuerySet[Any] = _board(game=game, club=club, league=league).order_by(*BOARD_ORDER)
    return rows.values(*BOARD_COLUMNS)


def leader_lines(
    page: Sequence[dict[str, Any]],
    *,
    offset: int,
    game: str,
    club: str | None = None,
    league: int | None = None,
) -> list[dict[str, Any]]:
    """A page of ``leaderboard_rows`` (its first row at ``offset`` in the board) as lines: each
    with its ``rank``, its place in the whole board (one more than the players rated higher:
    equal ratings share a place), the player's name and whether the rating is provisional. Two
    queries whatever the board's size: the count of players rated higher than the page's first
    (from the index), and the page's names."""
    if not page:
        return []
    better = _board(game=game, club=club, league=league).filter(ordinal__gt=page[0]["ordinal"]).count()
    names = dict(Player.objects.filter(pk__in=[row["player_id"] for row in page]).values_list("pk", "name"))
    lines: list[dict[str, Any]] = []
    rank = better + 1  # the page may start among equals: their place is before the page
    for index, row in enumerate(page):
        if lines and row["ordinal"] != lines[-1]["rating"]:
            rank = offset + index + 1  # everyone before it in the board is rated higher
        lines.append(
            {
                "rank": rank,
                "player_id": row["player_id"],
                "name": names.get(row["player_id"], ""),
                "rating": row["ordinal"],
                "mu": row["mu"],
                "sigma": row["sigma"],
                "games": row["games"],
                "provisional": is_provisional(row["sigma"]),
            }
        )
    return lines


def leaderboard(
    *, game: str, club: str | None = None, league: int | None = None, limit: int = 200
) -> list[dict[str, Any]]:
    """The top ``limit`` of the board (see ``leaderboard_rows``)."""
    page = list(leaderboard_rows(game=game, club=club, league=league)[:limit])
    return leader_lines(page, offset=0, game=game, club=club, league=league)


def rating_history_rows(*, player: Player, game: str) -> QuerySet[Any]:
    """A player's rating after each rated result in a game, oldest first, as a query to slice."""
    return (
        RatingPoint.objects.filter(player=player, game=game)
        .order_by("when", "pk")
        .values("when", "mu", "sigma", rating=F("ordinal"))
    )


def history_point(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "provisional": is_provisional(row["sigma"])}


# The chart on a player's page draws the latest points (its dots the last 30 of them).
CHART_POINTS = 200


def rating_history(*, player: Player, game: str, last: int = CHART_POINTS) -> list[dict[str, Any]]:
    """The ``last`` points of a player's rating history in a game, oldest first."""
    newest = rating_history_rows(player=player, game=game).order_by("-when", "-pk")[:last]
    return [history_point(row) for row in reversed(newest)]


def history_chart(
    points: list[dict[str, Any]], *, width: int = 640, height: int = 180, games: int | None = None
) -> dict[str, Any] | None:
    """Screen coordinates of a rating history for an inline SVG line chart (no JavaScript).
    ``games``: how many rated games there are in all (the chart may show the latest only)."""
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
        "games": max(games or 0, len(values)),
        "shown": len(values),
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


def bot_level_rows(*, game: str) -> QuerySet[BotRating]:
    """The game's bot levels by rating, best first (a query, paged like every list)."""
    return BotRating.objects.filter(game=game).order_by("-ordinal", "bot")


def bot_level_line(rating: BotRating) -> dict[str, Any]:
    """A bot level's line of the board: its name and level in words, its rating and games."""
    return {
        "bot": rating.bot,
        "level": level_of(rating.game, rating.bot),
        "rating": round(rating.ordinal, 1),
        "mu": rating.mu,
        "sigma": rating.sigma,
        "games": rating.games,
        "provisional": rating.provisional,
    }
