"""API for scorepads: Black Spy kept deal by deal and Spy vs Spy race by race, as on the pad's page.

A pad is opened for a tournament table (its players are the table's) or among friends; each
round is checked as it is entered and refused with every problem in words; a saved round can
be corrected. When the game ends the pad becomes a result, reported, for another player or a
scorer to confirm.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from games import game_info, games

from ..clubs.models import Player
from ..clubs.selectors import player_for_user
from ..core.inputs import IdConverter
from ..scores import scorepad as pads
from ..scores.models import Result, Scorepad, ScorepadSeat
from ..scores.services import NothingChanged, result_confirm
from .errors import error_responses, service_call
from .serializers import ClubSlugField, JSONObjectField
from .tournament_views import _table

_call = service_call
# The most players at a pad: Spy vs Spy's (any number, as far as tables go).
MOST_PAD_PLAYERS = max(game_info(game).seats.stop - 1 for game in pads.GAMES)


# --- what comes in ---------------------------------------------------------------------------------


class PadPlayerInSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(
        required=False, min_value=1, help_text="A player of your clubs (or yourself), by id."
    )
    name = serializers.CharField(
        required=False, max_length=80, help_text="Or a new player's name: they become a guest of the club."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("player" in attrs) == ("name" in attrs):
            raise serializers.ValidationError("Give a player's id or a new player's name, not both.")
        return attrs


class ScorepadInSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(
        choices=[(g.slug, g.title) for g in games()],
        default="black-spy",
        help_text="black-spy (deal by deal) or spy-vs-spy (race by race); a table's pad keeps its "
        "event's game.",
    )
    table = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="A tournament table: its players, in seat order, are the pad's (a player seated "
        "there or a scorer of its club may open it; a table has one pad).",
    )
    club = ClubSlugField(
        required=False,
        allow_null=True,
        help_text="Without a table: the club the game is played in (you must be a member; new "
        "players become its guests). Leave out for a pad of your own.",
    )
    players = serializers.ListField(
        child=PadPlayerInSerializer(),
        required=False,
        max_length=MOST_PAD_PLAYERS,
        help_text="Without a table: the players, in seat order.",
    )
    options = JSONObjectField(
        required=False,
        max_keys=len(pads.SCORING_OPTIONS) + 4,
        max_chars=Scorepad._meta.get_field("options").max_chars,
        help_text="Black Spy's variants (no_good_spies, capture_or_release, going_back, end_value, ...); "
        "Spy vs Spy at two: half_decks.",
    )


class TakenInSerializer(serializers.Serializer[Any]):
    black_spies = serializers.IntegerField(min_value=0, max_value=16, default=0)
    black_ranks = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=16),
        default=list,
        max_length=16,
        help_text="The other black cards taken, by rank: 1 to 6 and 8 to 11.",
    )
    coloured_spies = serializers.IntegerField(min_value=0, max_value=16, default=0)


class PadRoundInSerializer(serializers.Serializer[Any]):
    points = serializers.ListField(
        child=serializers.IntegerField(allow_null=True, min_value=-100_000, max_value=100_000),
        required=False,
        max_length=MOST_PAD_PLAYERS,
        help_text="Each player's points for the round, in seat order. Spy vs Spy: null for a "
        "player who sat the race out.",
    )
    taken = serializers.ListField(
        child=TakenInSerializer(),
        required=False,
        max_length=game_info("black-spy").seats.stop - 1,
        help_text="Black Spy, instead of points: what each player took, in seat order.",
    )
    choice = serializers.ChoiceField(
        choices=[("", "none"), ("give", "give 60"), ("subtract", "subtract 60")],
        default="",
        help_text="Black Spy's Capture or Release: whoever took all 16 black cards gives or subtracts 60.",
    )
    first = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="Spy vs Spy: the seat (0 first) who raced first.",
    )
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        help_text="Why a round is corrected: needed once the game is over (the correction then "
        "corrects its result), and kept in the history.",
    )


# --- what goes out ---------------------------------------------------------------------------------


class PadSeatOutSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(help_text="The seat, 0 first.")
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()


class PadRoundOutSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    points = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    totals = serializers.ListField(child=serializers.IntegerField(), help_text="The totals after it.")
    went_back = serializers.ListField(
        child=serializers.IntegerField(), help_text="Black Spy's Going Back: the seats whose score halved."
    )


class PadChangeOutSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    action = serializers.CharField(help_text="entered or corrected.")
    who = serializers.CharField(allow_null=True)
    when = serializers.DateTimeField()
    before = serializers.ListField(child=serializers.IntegerField(allow_null=True), allow_null=True)
    after = serializers.ListField(child=serializers.IntegerField(allow_null=True), allow_null=True)
    note = serializers.CharField(allow_blank=True, help_text="Why the round was corrected, as written.")


class PadResultOutSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.CharField(help_text=f"One of {', '.join(Result.Status.values)}.")


class ScorepadSummarySerializer(serializers.Serializer[Any]):
    """A pad in a list: who sits at it and how far it has got; its rounds and totals are in its
    own answer (``/api/scorepads/{id}/``)."""

    id = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=Scorepad.Status.choices)
    club = serializers.CharField(allow_null=True, help_text="The club's slug.")
    table = serializers.IntegerField(allow_null=True, help_text="The tournament table it keeps.")
    players = PadSeatOutSerializer(many=True)
    rounds = serializers.IntegerField(help_text="How many rounds are entered.")
    result = PadResultOutSerializer(allow_null=True, help_text="The result it became, once over.")
    created = serializers.DateTimeField()


class ScorepadOutSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=Scorepad.Status.choices)
    club = serializers.CharField(allow_null=True, help_text="The club's slug.")
    table = serializers.IntegerField(allow_null=True, help_text="The tournament table it keeps.")
    options = serializers.DictField()
    players = PadSeatOutSerializer(many=True)
    rounds = PadRoundOutSerializer(many=True, help_text="Every round entered, in order.")
    totals = serializers.ListField(child=serializers.IntegerField(), help_text="The totals, in seat order.")
    over = serializers.BooleanField(help_text="The game has ended.")
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="The winning seats, once over."
    )
    places = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each seat's place, once over."
    )
    end_value = serializers.IntegerField(allow_null=True, help_text="Black Spy's end value.")
    problems = serializers.ListField(child=serializers.CharField())
    racing = serializers.ListField(
        child=serializers.IntegerField(), help_text="Spy vs Spy: the seats in the next race."
    )
    result = PadResultOutSerializer(allow_null=True, help_text="The result it became, once over.")
    changes = PadChangeOutSerializer(many=True, help_text="Every round entered or corrected: who and when.")


def _name(user: Any) -> str | None:
    if user is None:
        return None
    player = getattr(user, "player", None)
    return player.name if player is not None else str(user.get_username())


def _numbers(values: Any) -> list[int | None] | None:
    return None if values is None else [None if v is None else int(v) for v in values]


def pad_data(pad: Scorepad) -> dict[str, Any]:
    state = pads.pad_state(pad)
    seats = list(pad.seats.select_related("player").order_by("position"))
    data = {
        "id": pad.pk,
        "game": pad.game,
        "status": pad.status,
        "club": pad.club.slug if pad.club is not None else None,
        "table": pad.table_id,
        "options": pad.options,
        "players": [{"position": s.position, "player": s.player_id, "name": s.player.name} for s in seats],
        "rounds": [
            {
                "number": line.deal,
                "points": list(line.points),
                "totals": list(line.totals),
                "went_back": list(line.went_back),
            }
            for line in state.lines
        ],
        "totals": list(state.totals),
        "over": state.over,
        "winners": list(state.winners),
        "places": list(state.places),
        "end_value": state.end_value,
        "problems": list(state.problems),
        "racing": list(state.racing),
        "result": {"id": pad.result.pk, "status": pad.result.status} if pad.result is not None else None,
        "changes": [
            {
                "round": c.deal,
                "action": c.action,
                "who": _name(c.who),
                "when": c.when,
                "before": _numbers(c.before),
                "after": _numbers(c.after),
                "note": c.note,
            }
            for c in pad.changes.select_related("who__player").order_by("when", "pk")
        ],
    }
    out: dict[str, Any] = ScorepadOutSerializer(data).data
    return out


def pad_summary(pad: Scorepad) -> dict[str, Any]:
    """A pad as a list shows it: from the rows prefetched by the list's query."""
    seats = sorted(pad.seats.all(), key=lambda s: s.position)
    data = {
        "id": pad.pk,
        "game": pad.game,
        "status": pad.status,
        "club": pad.club.slug if pad.club is not None else None,
        "table": pad.table_id,
        "players": [{"position": s.position, "player": s.player_id, "name": s.player.name} for s in seats],
        "rounds": getattr(pad, "round_count", 0),
        "result": {"id": pad.result.pk, "status": pad.result.status} if pad.result is not None else None,
        "created": pad.created,
    }
    out: dict[str, Any] = ScorepadSummarySerializer(data).data
    return out


def _round(pad: Scorepad, request: Request, *, correcting: bool = False) -> dict[str, Any]:
    """The round as sent: points, or (Black Spy) what each player took; and, correcting one,
    why."""
    body = PadRoundInSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    players = pad.seats.count()
    first = data.get("first")
    if first is not None and first >= players:
        raise ValidationError({"first": f"Who raced first is a seat from 0 to {players - 1}."})
    takens = None
    if "taken" in data:
        if pad.game != "black-spy":
            raise ValidationError({"taken": "Only Black Spy is entered by what each player took."})
        takens = [
            pads.TakenEntry(t["black_spies"], tuple(t["black_ranks"]), t["coloured_spies"])
            for t in data["taken"]
        ]
    elif "points" not in data:
        raise ValidationError({"detail": "Give each player's points, or what each player took."})
    out = {"points": data.get("points"), "takens": takens, "choice": data["choice"], "first": first}
    return out | {"reason": data.get("note", "")} if correcting else out


@extend_schema_view(
    list=extend_schema(
        summary="Your scorepads (opened by you, or with you at the table), newest first",
        responses={200: ScorepadSummarySerializer(many=True), **error_responses(403)},
    ),
    retrieve=extend_schema(
        summary="A scorepad: its players, rounds, totals and the result it became",
        responses={200: ScorepadOutSerializer, **error_responses(404)},
    ),
)
class ScorepadViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Scorepad]):
    serializer_class = ScorepadOutSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    lookup_value_regex = IdConverter.regex

    def get_permissions(self) -> list[Any]:
        if self.action == "list":
            return [permissions.IsAuthenticated()]
        return list(super().get_permissions())

    def get_queryset(self) -> QuerySet[Scorepad]:
        rows = Scorepad.objects.select_related("club", "result").order_by("-created", "-pk")
        if self.action != "list" or getattr(self, "swagger_fake_view", False):
            return rows
        me = player_for_user(self.request.user)
        yours = Q(created_by_id=self.request.user.pk)
        if me is not None:
            yours |= Q(seats__player=me)
        return (
            rows.filter(pk__in=Scorepad.objects.filter(yours).values("pk"))
            .annotate(round_count=Count("deals"))
            .prefetch_related(Prefetch("seats", queryset=ScorepadSeat.objects.select_related("player")))
        )

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([pad_summary(pad) for pad in page or []])

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(pad_data(self.get_object()))

    @extend_schema(
        summary="Open a scorepad: for a tournament table, or among friends",
        request=ScorepadInSerializer,
        responses={
            201: OpenApiResponse(ScorepadOutSerializer, description="Opened."),
            200: OpenApiResponse(ScorepadOutSerializer, description="The table's pad, opened before."),
            **error_responses(403, 404),
        },
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = ScorepadInSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        options: dict[str, Any] = data.get("options") or {}
        if "table" in data:
            table = _table(request, data["table"])
            existing = Scorepad.objects.filter(table=table).first()
            event = table.round.event
            seated = table.seats.select_related("entrant__player").order_by("position")
            pad = _call(
                pads.scorepad_open,
                user=request.user,
                players=[s.entrant.player for s in seated],
                options={**event.options, **options},
                club=event.club,
                table=table,
                game=event.game,
            )
            code = status.HTTP_200_OK if existing is not None else status.HTTP_201_CREATED
            return Response(pad_data(pad), status=code)
        offered = {p.pk: p for p in pads.players_for(request.user)}
        chosen: list[Player] = []
        for i, entry in enumerate(data.get("players") or [], start=1):
            if "player" in entry:
                player = offered.get(entry["player"])
                if player is None:
                    raise ValidationError(
                        {
                            "players": f"Player {i}: choose yourself or a player of your clubs, or "
                            "give a new name."
                        }
                    )
                chosen.append(player)
            else:
                chosen.append(Player(name=entry["name"].strip()))
        pad = _call(
            pads.scorepad_open,
            user=request.user,
            players=chosen,
            options=options,
            club=data.get("club"),
            game=data["game"],
        )
        return Response(pad_data(pad), status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Add the next round; refused with every problem in words, nothing saved",
        request=PadRoundInSerializer,
        responses={201: ScorepadOutSerializer, **error_responses(403, 404)},
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def rounds(self, request: Request, pk: str) -> Response:
        pad = get_object_or_404(Scorepad, pk=pk)
        _call(pads.scorepad_deal_add, user=request.user, pad=pad, **_round(pad, request))
        pad.refresh_from_db()
        return Response(pad_data(pad), status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Correct a round already entered (the totals and the result follow)",
        parameters=[
            OpenApiParameter("number", int, OpenApiParameter.PATH, description="The round, 1 first.")
        ],
        request=PadRoundInSerializer,
        responses={200: ScorepadOutSerializer, **error_responses(403, 404)},
    )
    @action(
        detail=True,
        methods=["put"],
        url_path=r"rounds/(?P<number>[0-9]{1,4})",
        permission_classes=[permissions.IsAuthenticated],
    )
    def round_correct(self, request: Request, pk: str, number: str) -> Response:
        pad = get_object_or_404(Scorepad, pk=pk)
        if not pad.deals.filter(number=int(number)).exists():
            raise NotFound(f"There is no round {int(number)} on this pad.")
        try:
            _call(
                pads.scorepad_deal_correct,
                user=request.user,
                pad=pad,
                number=int(number),
                **_round(pad, request, correcting=True),
            )
        except ValidationError as exc:
            if not isinstance(exc.__cause__, NothingChanged):
                raise  # (a correction that changes nothing is answered as the pad stands)
        pad.refresh_from_db()
        return Response(pad_data(pad))

    @extend_schema(
        summary="Confirm the result the finished pad became (another player at the table, or a scorer)",
        request=None,
        responses={200: ScorepadOutSerializer, **error_responses(403, 404)},
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def confirm(self, request: Request, pk: str) -> Response:
        pad = get_object_or_404(Scorepad.objects.select_related("result"), pk=pk)
        if pad.result is None:
            raise ValidationError({"detail": "The game is not over yet: there is no result to confirm."})
        _call(result_confirm, user=request.user, result=pad.result)
        pad.refresh_from_db()
        return Response(pad_data(pad))
