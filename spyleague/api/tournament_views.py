"""API for running events: registration, pairing, rounds, results and standings."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
)
from rest_framework import permissions, serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from pairing.tables import MAX_TABLE

from ..clubs.models import Player, Role
from ..clubs.selectors import has_club_role
from ..core import cache
from ..core.prepared import Prepared
from ..scores import services as results
from ..scores.models import Result, ResultChange
from ..tournaments import event_parts, services
from ..tournaments.event_parts import standings_rows_kept
from ..tournaments.models import Entrant, Event, Round, Table
from ..tournaments.selectors import round_tables, rounds_listed, standing_line
from .errors import ErrorSerializer, error_responses, service_call
from .serializers import BoundedDictField, EntrantSerializer, JobSerializer, JSONObjectField

_call = service_call


class RegisterSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(required=False, help_text="Another player's id (organisers only).")


class SwapSerializer(serializers.Serializer[Any]):
    a = serializers.IntegerField(help_text="Entrant id")
    b = serializers.IntegerField(help_text="Entrant id")


class SeatOutSerializer(serializers.Serializer[Any]):
    entrant = serializers.IntegerField()
    player = serializers.CharField(help_text="The player's name.")
    player_id = serializers.IntegerField(help_text="The player's id, as a result's lines take it.")
    position = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    score = serializers.FloatField(allow_null=True)
    points = serializers.FloatField(allow_null=True)


class TableOutSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    is_bye = serializers.BooleanField()
    status = serializers.CharField()
    seats = SeatOutSerializer(many=True)


class RoundOutSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    stage = serializers.CharField(help_text='In a knockout: "heats", "group", "semi-finals", "final" ...')
    status = serializers.CharField()
    notes = serializers.ListField(child=serializers.CharField())
    table_count = serializers.IntegerField(
        help_text="How many tables the round has (byes included); they are listed, a page at a time, "
        "at /api/events/{id}/rounds/{number}/tables/."
    )


class StandingOutSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    player_id = serializers.IntegerField()
    entrant_id = serializers.IntegerField()
    points = serializers.FloatField()
    game_points = serializers.FloatField()
    opponents_average = serializers.FloatField()
    wins = serializers.IntegerField()
    games = serializers.IntegerField()
    byes = serializers.IntegerField()
    dropped = serializers.BooleanField()
    sonneborn_berger = serializers.FloatField(
        allow_null=True, help_text="Sonneborn-Berger; null for standings stored before it was kept."
    )
    buchholz_cut1 = serializers.FloatField(
        allow_null=True, help_text="Buchholz cut 1; null for standings stored before it was kept."
    )


class ResultLineInSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    score = serializers.FloatField(required=False, allow_null=True)
    place = serializers.IntegerField(required=False, allow_null=True)


class SpycatcherSheetSerializer(serializers.Serializer[Any]):
    """Documents the Spycatcher sheet; the site checks it and names every problem in words."""

    permissions = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(max_length=20), max_length=4),
        max_length=6,
        help_text="For each player in seat order, the permission cards held at the end: court, "
        "government, press, publisher (an empty list for none).",
    )
    winner = serializers.IntegerField(
        allow_null=True,
        help_text="The seat (0 first) of the player who returned to the centre with all four; "
        "null when the game was stopped.",
    )
    order = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        max_length=6,
        help_text="The finishing place of each player in seat order, checked against the places "
        "worked out; leave it out to have them worked out.",
    )


class SpiesSheetSerializer(serializers.Serializer[Any]):
    """Documents the Spies! sheet; the site checks it and names every problem in words."""

    victory_points = BoundedDictField(
        child=serializers.IntegerField(),
        max_keys=5,
        help_text="Every power's victory points, by code: G, I, R, F, B.",
    )
    money = BoundedDictField(
        child=serializers.IntegerField(), max_keys=5, help_text="Every power's money (£) at the end, by code."
    )
    run_by = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        max_length=5,
        help_text="For each group of powers a player runs (5 players: G, I, R, F, B; 4: G+I, R, F, "
        "B; 3: G+I, R, F+B; 2: G+I, F+B, Russia belonging to nobody), the seat (0 first) of the "
        "player who ran it. By default, seat order.",
    )


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="GameSheet",
        serializers=[SpycatcherSheetSerializer, SpiesSheetSerializer],
        resource_type_field_name=None,
    )
)
class GameSheetField(JSONObjectField):
    """A game's own sheet, as plain JSON; checked by the game's rules, not by the serializer
    (which only refuses one too large to be any game's sheet)."""


class ResultInSerializer(serializers.Serializer[Any]):
    lines = serializers.ListField(child=ResultLineInSerializer(), max_length=MAX_TABLE)
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        help_text="Why the result is corrected: needed to correct one, and kept in its history.",
    )
    sheet = GameSheetField(
        required=False,
        help_text="Spycatcher and Spies! only, and required for them: the game's own sheet, from which "
        "the places and scores are worked out. A line's score and place may then be left out; if "
        "given, they must agree with it.",
    )
    stopped = serializers.BooleanField(
        default=None,
        allow_null=True,
        help_text="Black Spy only: true when the table was stopped on time, before anyone reached the "
        "end value. Either way the totals must be what whole deals under the event's variants give; "
        "without it someone must have reached the end value. Kept on the result: a correction that "
        "leaves it out (or sends null) keeps the mark it has.",
    )


class ResultLineOutSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(help_text="The player's id")
    name = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    score = serializers.FloatField(allow_null=True)


class ResultOutSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Result.Status.choices)
    lines = ResultLineOutSerializer(many=True, help_text="One line for each seat, in seat order.")
    sheet = GameSheetField(required=False, help_text="The game's own sheet as entered (Spycatcher, Spies!).")


class ResultTakenSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(help_text="Why, in words.")
    result = ResultOutSerializer(help_text="The result entered first, which stands: check it or confirm it.")


class ResultDetailOutSerializer(ResultOutSerializer):
    status = serializers.CharField(  # type: ignore[assignment]
        help_text=f"One of {', '.join(Result.Status.values)}: reported waits for a confirmation."
    )
    # DRF takes declared fields off the class, so this field does not hide Field.source (mypy
    # cannot know).
    source = serializers.ChoiceField(  # type: ignore[assignment]
        choices=Result.Source.choices, help_text="Where the result came from."
    )
    stopped = serializers.BooleanField(
        allow_null=True, help_text="Black Spy: the table was stopped on time (null: not said)."
    )
    entered_by = serializers.CharField(allow_null=True, help_text="Who entered it (their name).")
    confirmed_by = serializers.CharField(allow_null=True, help_text="Who confirmed it; null until then.")


class ResultSnapshotSerializer(serializers.Serializer[Any]):
    status = serializers.CharField(help_text=f"One of {', '.join(Result.Status.values)}.")
    lines = ResultLineOutSerializer(many=True)
    sheet = GameSheetField(required=False)


class ResultChangeOutSerializer(serializers.Serializer[Any]):
    action = serializers.CharField(help_text="entered, confirmed, corrected or overridden.")
    who = serializers.CharField(allow_null=True, help_text="Who made the change (their name).")
    when = serializers.DateTimeField()
    note = serializers.CharField(allow_blank=True, help_text="Why, as the corrector wrote it.")
    before = ResultSnapshotSerializer(allow_null=True, help_text="The result before the change.")
    after = ResultSnapshotSerializer(allow_null=True, help_text="The result after it.")


class TableResultOutSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=Table.Status.choices,
        help_text="waiting (no result yet), reported (entered, to be confirmed) or confirmed.",
    )
    is_bye = serializers.BooleanField()
    result = ResultDetailOutSerializer(
        allow_null=True, help_text="The result as it stands, confirmed or not; null before one is entered."
    )
    history = ResultChangeOutSerializer(many=True, help_text="Every change to the result, oldest first.")


class SwapOutSerializer(RoundOutSerializer):
    warnings = serializers.ListField(
        child=serializers.CharField(), help_text="What the swap does that may not be wanted (a repeat)."
    )
    tables = TableOutSerializer(many=True, help_text="The tables the swap changed (one or two), in order.")


def _result_data(result: Result) -> dict[str, Any]:
    snap = results.snapshot(result)
    out = {"id": result.pk, "status": result.status, "lines": snap["lines"]}
    if "sheet" in snap:
        out["sheet"] = snap["sheet"]
    return out


def _name(user: Any) -> str | None:
    if user is None:
        return None
    player = getattr(user, "player", None)
    return player.name if player is not None else str(user.get_username())


_STANDING_RESULT = Prepared(
    lambda table: (
        Result.objects.filter(table_id=table)
        .exclude(status=Result.Status.VOID)
        .select_related("entered_by__player", "confirmed_by__player")[:1]  # the latest, as the model orders
    )
)
_CHANGES = Prepared(
    lambda result: (
        ResultChange.objects.filter(result_id=result).select_related("who__player").order_by("when", "pk")
    )
)


def table_result_get(*, table: Table) -> dict[str, Any]:
    """A table's result as it stands (reported or confirmed) and every change to it."""
    result = _STANDING_RESULT.one(table.pk)
    detail = None
    history: list[dict[str, Any]] = []
    if result is not None:
        stopped = result.data.get("stopped") if isinstance(result.data, dict) else None
        detail = {
            **_result_data(result),
            "source": result.source,
            "stopped": stopped if isinstance(stopped, bool) else None,
            "entered_by": _name(result.entered_by),
            "confirmed_by": _name(result.confirmed_by),
        }
        history = [
            {
                "action": change.action,
                "who": _name(change.who),
                "when": change.when,
                "note": change.note,
                "before": change.before,
                "after": change.after,
            }
            for change in _CHANGES.list(result.pk)
        ]
    state = table.status
    if result is not None and table.status != Table.Status.CONFIRMED:
        confirmed = result.status == Result.Status.CONFIRMED
        state = Table.Status.CONFIRMED if confirmed else Table.Status.REPORTED
    data = {"table": table.pk, "status": state, "is_bye": table.is_bye, "result": detail}
    out: dict[str, Any] = TableResultOutSerializer({**data, "history": history}).data
    return out


_TABLE = Prepared(lambda pk: Table.objects.select_related("round__event__club").filter(pk=pk)[:1])


def _table(request: Request, table_id: int) -> Table:
    """The table, or 404; a draft round's tables are the organisers' alone. (Every call of the
    scorers' desk asks: compiled once, ``core.prepared``.)"""
    table = _TABLE.one(table_id)
    if table is None:
        raise Http404("No such table.")
    if table.round.status == Round.Status.DRAFT and not has_club_role(
        user=request.user, club=table.round.event.club, role=Role.ORGANISER
    ):
        raise Http404("No such table.")
    return table


@extend_schema(request=RegisterSerializer, responses={201: EntrantSerializer, **error_responses(403, 404)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def event_register(request: Request, pk: int) -> Response:
    event = get_object_or_404(Event, pk=pk)
    body = RegisterSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    player = (
        get_object_or_404(Player, pk=body.validated_data["player"])
        if "player" in body.validated_data
        else None
    )
    entrant = _call(services.entrant_register, user=request.user, event=event, player=player)
    return Response(EntrantSerializer(entrant).data, status=status.HTTP_201_CREATED)


@extend_schema(
    methods=["POST"],
    summary="Check in: present for the next round (the entrant, or an organiser)",
    request=None,
    responses={200: EntrantSerializer, **error_responses(403, 404)},
)
@extend_schema(
    methods=["DELETE"],
    summary="Undo a check-in: not present after all (the entrant, or an organiser)",
    request=None,
    responses={200: EntrantSerializer, **error_responses(403, 404)},
)
@api_view(["POST", "DELETE"])
@permission_classes([permissions.IsAuthenticated])
def entrant_check_in(request: Request, pk: int, entrant_id: int) -> Response:
    entrant = get_object_or_404(Entrant.objects.select_related("event__club"), pk=entrant_id, event_id=pk)
    present = request.method == "POST"
    checked = _call(services.entrant_check_in, user=request.user, entrant=entrant, present=present)
    return Response(EntrantSerializer(checked).data)


@extend_schema(
    summary="Check oneself in (what the event screen's QR code opens): the signed-in player's own entry",
    description="Open until the next round is paired (a draft waits for the organiser), and while the "
    "event is not over; a round robin or knockout only before its first round. Checking in twice "
    "changes nothing. Someone not entered is refused (403), and so is a check-in while it is closed "
    "or after dropping out (409).",
    request=None,
    responses={
        200: EntrantSerializer,
        **error_responses(403, 404),
        409: OpenApiResponse(
            ErrorSerializer,
            description="Check-in is closed (the round is paired, the event is over) or you dropped "
            "out; nothing was changed.",
        ),
    },
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def event_self_check_in(request: Request, pk: int) -> Response:
    from django.core.exceptions import PermissionDenied as NotEntered
    from django.core.exceptions import ValidationError as Closed

    event = get_object_or_404(Event, pk=pk)
    try:
        entrant, _ = services.entrant_self_check_in(user=request.user, event=event)
    except NotEntered as exc:
        raise PermissionDenied(str(exc)) from exc
    except Closed as exc:
        return Response({"detail": " ".join(exc.messages)}, status=status.HTTP_409_CONFLICT)
    return Response(EntrantSerializer(entrant).data)


@extend_schema(request=None, responses={200: EntrantSerializer, **error_responses(403, 404)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def entrant_drop(request: Request, pk: int, entrant_id: int) -> Response:
    entrant = get_object_or_404(Entrant, pk=entrant_id, event_id=pk)
    return Response(EntrantSerializer(_call(services.entrant_drop, user=request.user, entrant=entrant)).data)


@extend_schema(request=None, responses={202: JobSerializer, **error_responses(403, 404)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def event_pair(request: Request, pk: int) -> Response:
    """Queue the pairing of the next round; follow the job at /api/jobs/{id}/."""
    event = get_object_or_404(Event, pk=pk)
    job = _call(services.round_pair_queue, event=event, user=request.user)
    return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


def _table_data(table: Table) -> dict[str, Any]:
    return {
        "id": table.pk,
        "number": table.number,
        "is_bye": table.is_bye,
        "status": table.status,
        "seats": [
            {
                "entrant": s.entrant_id,
                "player": s.entrant.player.name,
                "player_id": s.entrant.player_id,
                "position": s.position,
                "place": s.place,
                "score": s.score,
                "points": s.points,
            }
            for s in table.seats.all()
        ],
    }


def _round_data(rnd: Round) -> dict[str, Any]:
    """A round without its tables (they are paged on their own): ``rnd`` from ``rounds_listed``."""
    return {
        "number": rnd.number,
        "stage": rnd.stage,
        "status": rnd.status,
        "notes": rnd.notes,
        "table_count": rnd.table_count,  # type: ignore[attr-defined]
    }


def _visible_rounds(request: Request, event: Event) -> Any:
    """The event's rounds (with their table counts) that the caller may see: a draft is the
    organisers' alone."""
    rounds = rounds_listed(event=event)
    if not has_club_role(user=request.user, club=event.club, role=Role.ORGANISER):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return rounds


class EventRounds(GenericAPIView[Any]):
    """An event's rounds in order, a page at a time: the published ones for everyone, the draft
    too for the organisers. Each says how many tables it has; a round's tables and results are
    paged at /api/events/{id}/rounds/{number}/tables/."""

    permission_classes = [permissions.AllowAny]
    serializer_class = RoundOutSerializer

    @extend_schema(responses={200: RoundOutSerializer(many=True), **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
        page = self.paginate_queryset(_visible_rounds(request, event))
        return self.get_paginated_response([_round_data(r) for r in page or []])


class RoundTables(GenericAPIView[Any]):
    """A round's tables in order, with their seats and results, a page at a time (a draft's are
    the organisers' alone)."""

    permission_classes = [permissions.AllowAny]
    serializer_class = TableOutSerializer

    @extend_schema(responses={200: TableOutSerializer(many=True), **error_responses(404)})
    def get(self, request: Request, pk: int, number: int) -> Response:
        event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
        rnd = get_object_or_404(_visible_rounds(request, event), number=number)
        page = self.paginate_queryset(round_tables(rnd=rnd))
        return self.get_paginated_response([_table_data(t) for t in page or []])


@extend_schema(
    methods=["GET"],
    summary="One round: its stage, status, notes and how many tables it has (a draft is for the "
    "organisers alone); its tables are paged at /api/events/{id}/rounds/{number}/tables/",
    responses={200: RoundOutSerializer, **error_responses(404)},
)
@extend_schema(
    methods=["DELETE"],
    summary="Discard a draft round (organisers), to pair it again",
    responses={204: None, **error_responses(403, 404)},
)
@api_view(["GET", "DELETE"])
@permission_classes([permissions.IsAuthenticatedOrReadOnly])
def round_detail(request: Request, pk: int, number: int) -> Response:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    rnd = get_object_or_404(_visible_rounds(request, event), number=number)
    if request.method == "DELETE":
        _call(services.round_discard, user=request.user, rnd=rnd)
        return Response(status=status.HTTP_204_NO_CONTENT)
    return Response(_round_data(rnd))


@extend_schema(request=None, responses={200: RoundOutSerializer, **error_responses(403, 404)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def round_publish(request: Request, pk: int, number: int) -> Response:
    rnd = get_object_or_404(Round, event_id=pk, number=number)
    _call(services.round_publish, user=request.user, rnd=rnd)
    return Response(_round_data(rounds_listed(event=rnd.event).get(number=number)))


@extend_schema(request=SwapSerializer, responses={200: SwapOutSerializer, **error_responses(403, 404)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def round_swap(request: Request, pk: int, number: int) -> Response:
    rnd = get_object_or_404(Round, event_id=pk, number=number)
    body = SwapSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    a = get_object_or_404(Entrant, pk=body.validated_data["a"], event_id=pk)
    b = get_object_or_404(Entrant, pk=body.validated_data["b"], event_id=pk)
    warnings = _call(services.round_swap, user=request.user, rnd=rnd, a=a, b=b)
    changed = round_tables(rnd=rnd).filter(seats__entrant__in=[a, b]).distinct()
    return Response(
        {
            **_round_data(rounds_listed(event=rnd.event).get(number=number)),
            "warnings": warnings,
            "tables": [_table_data(t) for t in changed],
        }
    )


class EventStandings(GenericAPIView[Any]):
    """An event's standings, best first, a page at a time."""

    permission_classes = [permissions.AllowAny]
    serializer_class = StandingOutSerializer

    @extend_schema(responses={200: StandingOutSerializer(many=True), **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        event = get_object_or_404(Event, pk=pk)
        paging: Any = self.paginator  # its page kept at the event's version (tournaments.event_parts)
        rows = standings_rows_kept(
            event=event, limit=paging.get_limit(request), offset=paging.get_offset(request)
        )
        page: list[Any] = self.paginate_queryset(rows) or []
        return self.get_paginated_response([standing_line(row).__dict__ for row in page])


@extend_schema(
    methods=["GET"],
    summary="The table's result as it stands (reported or confirmed), with every change to it",
    responses={200: TableResultOutSerializer, **error_responses(404)},
)
@extend_schema(
    methods=["POST"],
    summary="Enter a table's result, or correct it (same players, same seats); places may be left out",
    request=ResultInSerializer,
    responses={
        201: OpenApiResponse(ResultOutSerializer, description="Entered: the table's first result."),
        200: OpenApiResponse(ResultOutSerializer, description="Corrected: the table already had one."),
        409: OpenApiResponse(
            ResultTakenSerializer, description="Someone entered the table's result a moment before."
        ),
        **error_responses(403, 404),
    },
)
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticatedOrReadOnly])
def table_result(request: Request, table_id: int) -> Response:
    table = _table(request, table_id)
    if request.method == "GET":  # kept at the versions of what it shows (read over and over)
        names = ("site", event_parts.table_version(table.pk))
        return Response(cache.kept(names, f"table-result:{table.pk}", lambda: table_result_get(table=table)))
    body = ResultInSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    seated = {s.entrant.player_id: s for s in table.seats.select_related("entrant__player")}
    lines = body.validated_data["lines"]
    if sorted(line["player"] for line in lines) != sorted(seated):
        raise ValidationError({"lines": "Give one line for each player seated at this table."})
    order = sorted(lines, key=lambda line: seated[line["player"]].position)
    entries = [
        results.EntryLine(seated[line["player"]].entrant.player, line.get("score"), line.get("place"))
        for line in order
    ]
    event = table.round.event
    # A game's own sheet is kept as sent; the services check it in the same words as the table sheet.
    data = {
        key: value
        for key, value in body.validated_data.items()
        if key == "sheet" or (key == "stopped" and value is not None)
    } or None
    existing = Result.objects.filter(table=table).exclude(status=Result.Status.VOID).first()
    if existing is None:
        try:
            result = _call(
                results.result_enter,
                user=request.user,
                game=event.game,
                club=event.club,
                entries=entries,
                table=table,
                data=data,
            )
        except ValidationError as exc:
            if isinstance(exc.__cause__, results.ResultExists):
                return _result_taken(exc.__cause__.result)
            raise
        return Response(_result_data(result), status=status.HTTP_201_CREATED)
    try:
        result = _call(
            results.result_correct,
            user=request.user,
            result=existing,
            entries=entries,
            note=body.validated_data.get("note", ""),
            data=data,
        )
    except ValidationError as exc:
        if not isinstance(exc.__cause__, results.NothingChanged):
            raise
        result = existing  # it already says this: answered as it stands, nothing added to its history
    except PermissionDenied:
        if any(s.entrant.player.user_id == request.user.pk for s in seated.values()):
            # A player at the table who did not enter it (and so may not correct it): whether the
            # two posted at the same moment or not, the first entry stands; here it is, to check.
            return _result_taken(existing)
        raise
    return Response(_result_data(result))


def _result_taken(first: Result) -> Response:
    detail = (
        "This table's result was entered by someone else first: check it, then confirm it, or ask a "
        "club scorer to correct it. Nothing of yours was saved."
    )
    return Response({"detail": detail, "result": _result_data(first)}, status=409)


@extend_schema(request=None, responses={200: ResultOutSerializer, **error_responses(403, 404)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def table_confirm(request: Request, table_id: int) -> Response:
    table = _table(request, table_id)
    result = Result.objects.filter(table=table).exclude(status=Result.Status.VOID).first()
    if result is None:
        raise ValidationError({"detail": "There is no result to confirm yet."})
    return Response(_result_data(_call(results.result_confirm, user=request.user, result=result)))
