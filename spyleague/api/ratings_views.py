from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from games import games

from ..clubs.models import Player
from ..core.inputs import row_id
from ..ratings.selectors import leaderboard, rating_history
from .errors import error_responses


class LeaderRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class HistoryPointSerializer(serializers.Serializer[Any]):
    when = serializers.DateTimeField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


def _game_parameter() -> OpenApiParameter:
    return OpenApiParameter(
        "game", str, OpenApiParameter.PATH, enum=[g.slug for g in games()], description="The game's slug"
    )


@extend_schema(
    parameters=[
        _game_parameter(),
        OpenApiParameter("club", str, description="A club's slug"),
        OpenApiParameter("league", int, description="A league (season) id"),
    ],
    responses={200: LeaderRowSerializer(many=True), **error_responses()},
)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def game_leaderboard(request: Request, game: str) -> Response:
    league = request.query_params.get("league")
    rows = leaderboard(
        game=game,
        club=request.query_params.get("club") or None,
        league=row_id(league, what="The league") if league else None,
    )
    return Response(LeaderRowSerializer(rows, many=True).data)


@extend_schema(
    parameters=[_game_parameter()], responses={200: HistoryPointSerializer(many=True), **error_responses(404)}
)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def player_history(request: Request, pk: int, game: str) -> Response:
    player = get_object_or_404(Player, pk=pk)
    return Response(HistoryPointSerializer(rating_history(player=player, game=game), many=True).data)
