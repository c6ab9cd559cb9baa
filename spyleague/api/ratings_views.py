from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from games import games

from ..clubs.models import Player
from ..core.inputs import row_id
from ..ratings.selectors import (
    bot_level_line,
    bot_level_rows,
    history_point,
    leader_lines,
    leaderboard_rows,
    rating_history_rows,
)
from .errors import error_responses
from .views import paged


class LeaderRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="The uncertainty is still high (the first games).")


class HistoryPointSerializer(serializers.Serializer[Any]):
    when = serializers.DateTimeField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    provisional = serializers.BooleanField(help_text="The uncertainty was still high then.")


def _game_parameter() -> OpenApiParameter:
    return OpenApiParameter(
        "game", str, OpenApiParameter.PATH, enum=[g.slug for g in games()], description="The game's slug"
    )


class GameLeaderboard(GenericAPIView[Any]):
    """Players by rating (mu - 3 sigma), best first, a page at a time like every list.

    A row's ``rank`` is its place in the whole board, whatever the page (equal ratings share a
    place; among them, the player who was rated first comes first): the database reads only the
    page's rows, and counts the players rated higher."""

    permission_classes = [permissions.AllowAny]
    serializer_class = LeaderRowSerializer

    @extend_schema(
        parameters=[
            _game_parameter(),
            OpenApiParameter("club", str, description="A club's slug: only its members"),
            OpenApiParameter("league", int, description="A league (season) id: only who played in it"),
        ],
        responses={200: LeaderRowSerializer(many=True), **error_responses()},
    )
    def get(self, request: Request, game: str) -> Response:
        league = request.query_params.get("league")
        board: dict[str, Any] = {
            "game": game,
            "club": request.query_params.get("club") or None,
            "league": row_id(league, what="The league") if league else None,
        }
        rows = leaderboard_rows(**board)
        return paged(
            self,
            rows,
            LeaderRowSerializer,
            lines=lambda page: leader_lines(page, offset=getattr(self.paginator, "offset", 0), **board),
        )


class BotLevelRatingSerializer(serializers.Serializer[Any]):
    bot = serializers.CharField(help_text="The bot's name, as a match's seats take it.")
    level = serializers.CharField(help_text='Its level in words ("Expert").')
    rating = serializers.FloatField(help_text="mu - 3 sigma, as for players.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="Its finished online matches against people.")
    provisional = serializers.BooleanField(help_text="The uncertainty is still high (the first games).")


class GameBotLevels(GenericAPIView[Any]):
    """The game's bot levels by rating, best first: each rated from its online matches against
    people (people's own ratings do not move in those), so a player knows what they beat."""

    permission_classes = [permissions.AllowAny]
    serializer_class = BotLevelRatingSerializer

    @extend_schema(
        parameters=[_game_parameter()],
        responses={200: BotLevelRatingSerializer(many=True), **error_responses()},
    )
    def get(self, request: Request, game: str) -> Response:
        return paged(self, bot_level_rows(game=game), BotLevelRatingSerializer, each=bot_level_line)


class PlayerRatingHistory(GenericAPIView[Any]):
    """A player's rating in a game after each rated result, oldest first, a page at a time."""

    permission_classes = [permissions.AllowAny]
    serializer_class = HistoryPointSerializer

    @extend_schema(
        parameters=[_game_parameter()],
        responses={200: HistoryPointSerializer(many=True), **error_responses(404)},
    )
    def get(self, request: Request, pk: int, game: str) -> Response:
        player = get_object_or_404(Player, pk=pk)
        return paged(
            self, rating_history_rows(player=player, game=game), HistoryPointSerializer, each=history_point
        )
