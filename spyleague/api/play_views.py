"""API for online matches: the same actions as the match page."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response

from games import most_seats_online

from ..play import services
from ..play.models import Match
from ..play.selectors import match_picture, with_seats
from .errors import error_responses
from .serializers import BoundedDictField, JSONObjectField


class Rejected(APIException):
    status_code = 400
    default_detail = "The action was refused."

    def __init__(self, reason: str, status_code: int) -> None:
        super().__init__(reason)
        self.status_code = status_code


def _call(fn: Any, **kwargs: Any) -> Any:
    try:
        return fn(**kwargs)
    except services.MoveRejected as exc:
        raise Rejected(exc.reason, exc.status) from exc


class MatchInSerializer(serializers.Serializer[Any]):
    game = serializers.CharField(max_length=30)
    seats = serializers.IntegerField(min_value=1, max_value=most_seats_online())
    options = JSONObjectField(required=False, max_keys=20, max_chars=2000)
    bots = BoundedDictField(
        child=serializers.CharField(max_length=40),
        max_keys=most_seats_online(),
        required=False,
        help_text='Seat number to bot name, e.g. {"1": "heuristic"}',
    )
    start = serializers.BooleanField(default=False, help_text="Start now; empty seats take bots.")
    fill_with = serializers.CharField(
        required=False, max_length=40, help_text="The bot for empty seats (default heuristic)."
    )


class ActionInSerializer(serializers.Serializer[Any]):
    action = JSONObjectField(
        max_keys=10, max_chars=2000, help_text='For example {"type": "play", "card": "red-1"}'
    )
    version = serializers.IntegerField(
        required=False, help_text="The version you saw; a stale one is refused."
    )


class StartInSerializer(serializers.Serializer[Any]):
    fill_with = serializers.CharField(
        required=False, max_length=40, help_text="The bot for empty seats (default heuristic)."
    )


class ResignInSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(
        required=False, min_value=0, help_text="The version you saw; a stale one is refused (409)."
    )


class AbandonInSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=120, help_text="Why, in words (shown on the match)."
    )


class MatchSeatOutSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(help_text="The seat, 0 first.")
    player = serializers.CharField(
        allow_null=True, help_text="Who sits there; null for a bot or a free seat."
    )
    bot = serializers.CharField(allow_null=True, help_text="The bot that plays the seat, if any.")


class MatchOutSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.CharField(help_text=f"One of {', '.join(Match.Status.values)}.")
    version = serializers.IntegerField(help_text="Moves applied so far.")
    seat = serializers.IntegerField(allow_null=True, help_text="Your seat; null when you watch.")
    to_act = serializers.ListField(child=serializers.IntegerField(), help_text="The seats to act now.")
    legal = serializers.ListField(child=serializers.DictField(), help_text="Your legal actions now.")
    view = serializers.DictField(help_text="What your seat may see.")
    outcome = serializers.DictField(allow_null=True, help_text="Places and scores by seat, once over.")
    seats = MatchSeatOutSerializer(many=True)
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the seats to act run out of time.")
    title = serializers.CharField(help_text="The game's title, for people to read (``game`` is its id).")
    ended = serializers.CharField(
        allow_null=True, help_text="Why the match ended early (a resignation, an abandonment), in words."
    )
    rematch = serializers.IntegerField(allow_null=True, help_text="The id of the rematch, once started.")


class MoveOutSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.DictField()


class ReplayOutSerializer(MatchOutSerializer):
    step = serializers.IntegerField(help_text="Moves applied in this picture.")
    moves = MoveOutSerializer(many=True, help_text="The whole move log.")


def _picture(request: Request, match: Match, upto: int | None = None) -> dict[str, Any]:
    # A replay's step too is seen from the viewer's own seat, as on the replay page.
    seats = with_seats(match)
    seat = services.seat_of(match=match, user=request.user)
    return match_picture(match=match, seat=seat, upto=upto, seats=seats).as_dict()


@extend_schema(request=MatchInSerializer, responses={201: MatchOutSerializer, **error_responses(403)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_create(request: Request) -> Response:
    body = MatchInSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    try:
        bots = {int(seat): name for seat, name in (data.get("bots") or {}).items()}
    except ValueError as exc:
        raise Rejected("Bot seats are numbers.", 400) from exc
    with transaction.atomic():  # a match that cannot start as asked is not left behind
        match = _call(
            services.match_create,
            user=request.user,
            game=data["game"],
            seats=data["seats"],
            options=data.get("options") or {},
            bots=bots,
        )
        if data["start"]:
            _call(services.match_start, user=request.user, match_id=match.pk, fill_with=data.get("fill_with"))
    match.refresh_from_db()
    return Response(_picture(request, match), status=status.HTTP_201_CREATED)


@extend_schema(responses={200: MatchOutSerializer, **error_responses(404)})
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def match_detail(request: Request, pk: int) -> Response:
    """The match as your seat sees it (a spectator's view when you have no seat)."""
    return Response(_picture(request, get_object_or_404(Match, pk=pk)))


@extend_schema(request=None, responses={200: MatchOutSerializer, **error_responses(403, 404)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_join(request: Request, pk: int) -> Response:
    _call(services.match_join, user=request.user, match_id=pk)
    return Response(_picture(request, get_object_or_404(Match, pk=pk)))


@extend_schema(request=StartInSerializer, responses={200: MatchOutSerializer, **error_responses(403, 404)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_start(request: Request, pk: int) -> Response:
    fill_with = request.data.get("fill_with") if isinstance(request.data, dict) else None
    _call(services.match_start, user=request.user, match_id=pk, fill_with=fill_with)
    return Response(_picture(request, get_object_or_404(Match, pk=pk)))


@extend_schema(
    request=ActionInSerializer, responses={200: MatchOutSerializer, **error_responses(403, 404, 409)}
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_act(request: Request, pk: int) -> Response:
    """Apply one of your legal actions. Refused with a reason (400), not your seat (403) or stale (409)."""
    body = ActionInSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    _call(
        services.match_move_submit,
        match_id=pk,
        user=request.user,
        action=body.validated_data["action"],
        version=body.validated_data.get("version"),
    )
    return Response(_picture(request, get_object_or_404(Match, pk=pk)))


@extend_schema(
    parameters=[OpenApiParameter("step", int, description="Moves applied (0 = the start)")],
    responses={200: ReplayOutSerializer, **error_responses(404)},
)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def match_replay(request: Request, pk: int) -> Response:
    """A finished match after ``step`` moves, as a spectator saw it, with the move log."""
    match = get_object_or_404(Match, pk=pk)
    if match.status != Match.Status.FINISHED:
        raise Rejected("A match can be replayed once it is over.", 400)
    try:
        step = max(0, min(int(request.query_params.get("step", match.version)), match.version))
    except ValueError as exc:
        raise Rejected("step is a number of moves.", 400) from exc
    moves = list(match.moves.order_by("number").values("number", "seat", "action"))
    return Response({**_picture(request, match, upto=step), "step": step, "moves": moves})


@extend_schema(
    request=ResignInSerializer, responses={200: MatchOutSerializer, **error_responses(403, 404, 409)}
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_resign(request: Request, pk: int) -> Response:
    """Resign your seat: you are placed below everyone who did not resign. With two or more
    others still playing, a bot plays your seat on and they play the game out; else the match
    ends and the last one playing wins.

    The result is reported like any finished match (a tournament table's standings take it; a
    match between people is rated)."""
    body = ResignInSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    _call(services.match_resign, user=request.user, match_id=pk, version=body.validated_data.get("version"))
    return Response(_picture(request, get_object_or_404(Match, pk=pk)))


@extend_schema(request=AbandonInSerializer, responses={200: MatchOutSerializer, **error_responses(403, 404)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_abandon(request: Request, pk: int) -> Response:
    """Abandon the match without a result (its creator or the club's organisers; its players too,
    once nobody can move). Nothing is reported or rated; a tournament table goes back to its sheet."""
    body = AbandonInSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    _call(
        services.match_abandon, user=request.user, match_id=pk, reason=body.validated_data.get("reason", "")
    )
    return Response(_picture(request, get_object_or_404(Match, pk=pk)))


@extend_schema(request=None, responses={201: MatchOutSerializer, **error_responses(403, 404)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_rematch(request: Request, pk: int) -> Response:
    """Start the finished match again with the same seats, people and bots (one for everyone:
    asked again, the same rematch is given)."""
    rematch = _call(services.match_rematch, user=request.user, match_id=pk)
    return Response(_picture(request, rematch), status=status.HTTP_201_CREATED)
