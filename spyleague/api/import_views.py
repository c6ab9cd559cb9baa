"""API for many players at once: importing a CSV file of players, registering a list of players,
checking a list of entrants in. Organisers only; each all or nothing, its refusals in words."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.decorators import api_view, parser_classes, permission_classes
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from ..core.inputs import MAX_ID
from ..tournaments import imports, services
from ..tournaments.entrants import MAX_AT_ONCE, ItemsRefused, entrants_check_in_many, entrants_register_many
from ..tournaments.models import Event
from .errors import DetailField, error_responses, service_call
from .parsers import JSONParser, MultiPartParser
from .serializers import EntrantSerializer

# --- importing a file -----------------------------------------------------------------------------


class ImportFileSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(
        help_text=f"The CSV file (at most {imports.MAX_FILE_BYTES // 1_000_000} MB, {imports.MAX_LINES:,} "
        f"lines of players). {imports.ACCEPTED}"
    )


class ImportTextSerializer(serializers.Serializer[Any]):
    csv = serializers.CharField(
        trim_whitespace=False,
        max_length=imports.MAX_FILE_BYTES,
        error_messages={"max_length": imports.too_big(imports.MAX_FILE_BYTES + 1)},
        help_text=f"The file's text, as it would be uploaded. {imports.ACCEPTED}",
    )


class ImportLineSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField(help_text="The line's number in the file (the column names are line 1).")
    name = serializers.CharField(
        help_text="The guest to create, or the player matched (the file's when refused)."
    )
    outcome = serializers.ChoiceField(
        choices=[(o.value, o.value) for o in imports.Outcome],
        help_text="guest: a new guest of the club, registered; matched: a player the club has, "
        "registered; registered: entered already, stays as they are; refused: not imported (says why).",
    )
    says = serializers.CharField(help_text="What happens to the line, in words.")
    player = serializers.IntegerField(allow_null=True, help_text="The matched player's id.")
    rating = serializers.FloatField(allow_null=True, help_text="The seeding rating from the file.")


class ImportCountsSerializer(serializers.Serializer[Any]):
    guest = serializers.IntegerField()
    matched = serializers.IntegerField()
    registered = serializers.IntegerField()
    refused = serializers.IntegerField()


class ImportPreviewSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField()
    lines = ImportLineSerializer(many=True, help_text="Every line of players, in the file's order.")
    counts = ImportCountsSerializer(help_text="How many lines of each outcome.")
    columns = serializers.DictField(
        child=serializers.CharField(),
        help_text="The columns read (name, username, email, rating...) and their header.",
    )
    ignored_columns = serializers.ListField(child=serializers.CharField(), help_text="Columns not used.")
    notes = serializers.ListField(child=serializers.CharField(), help_text="What to check, in words.")
    token = serializers.CharField(
        help_text="Send it to the confirm operation to apply this plan (good for "
        f"{imports.TOKEN_MAX_AGE // 60} minutes, for you and this event)."
    )


class ImportConfirmSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(
        trim_whitespace=False,
        max_length=imports.TOKEN_MAX_CHARS,
        error_messages={"max_length": imports.UNREADABLE_TOKEN},
        help_text="The preview's token.",
    )
    check_in = serializers.BooleanField(default=False, help_text="Check in the players registered now.")


class ImportedSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(help_text="What was done, in words.")
    guests_created = serializers.IntegerField()
    registered = serializers.IntegerField(help_text="Players registered now (the new guests among them).")
    checked_in = serializers.IntegerField(help_text="Of those, how many were checked in.")
    entrants = EntrantSerializer(many=True, help_text="The entries made now, in the file's order.")
    lines = ImportLineSerializer(many=True, help_text="The plan applied, line by line.")


class PlanChangedSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(help_text="Why, in words.")
    preview = ImportPreviewSerializer(
        help_text="What importing the same file would do now: confirm its token."
    )


def _event(pk: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club"), pk=pk)


@extend_schema(
    operation_id="events_import_preview",
    summary="Import players from a CSV file: the preview (organisers); nothing is written",
    description=f"{imports.ACCEPTED} Send the file as multipart (`file`) or its text as JSON (`csv`). "
    "The answer says what each line would become (a new guest, a player of the club, registered already, "
    "or refused and why); confirm its token to apply it. A file that cannot be read, is too big or has "
    "too many lines, or an event that takes no entries now, is refused (400).",
    request={"multipart/form-data": ImportFileSerializer, "application/json": ImportTextSerializer},
    responses={200: ImportPreviewSerializer, **error_responses(403, 404)},
)
@api_view(["POST"])
@parser_classes([MultiPartParser, JSONParser])
@permission_classes([permissions.IsAuthenticated])
def event_import(request: Request, pk: int) -> Response:
    event = _event(pk)
    service_call(services.require_organiser, user=request.user, event=event)
    plan = service_call(imports.preview, user=request.user, event=event, data=_file_of(request))
    return Response(ImportPreviewSerializer(plan.as_dict()).data)


def _file_of(request: Request) -> bytes:
    """The file sent (multipart ``file``), or the text sent (JSON or a form's ``csv``)."""
    upload = request.FILES.get("file") if request.content_type.startswith("multipart/") else None
    if upload is not None:
        too_big = imports.size_problem(upload.size or 0)
        if too_big:
            raise ValidationError({"file": [too_big]})
        return bytes(upload.read())
    if not isinstance(request.data, dict) or "csv" not in request.data:
        raise ValidationError(
            {"detail": "Send the CSV file as “file” (a multipart upload), or its text as “csv” (JSON)."}
        )
    body = ImportTextSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    text: str = body.validated_data["csv"]
    return text.encode()


@extend_schema(
    operation_id="events_import_confirm",
    summary="Import players from a CSV file: confirm the preview (organisers)",
    description="Applies exactly the plan of the preview whose token is sent: the new guests are added "
    "to the club, and the players registered in the event (and checked in, with `check_in`), in one "
    "transaction. When the club or the event changed since the preview (a player added or registered "
    "meanwhile), nothing is written and the answer is 409 with the new preview. A token that is too "
    "old or not this event's is refused (400).",
    request=ImportConfirmSerializer,
    responses={
        200: ImportedSerializer,
        **error_responses(403, 404),
        409: OpenApiResponse(
            PlanChangedSerializer,
            description="The club or the event changed since the preview: nothing was written; "
            "here is the new preview, to check and confirm.",
        ),
    },
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def event_import_confirm(request: Request, pk: int) -> Response:
    event = _event(pk)
    body = ImportConfirmSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    try:
        done = service_call(
            imports.plan_confirm,
            user=request.user,
            event=event,
            token=body.validated_data["token"],
            check_in=body.validated_data["check_in"],
        )
    except ValidationError as exc:
        if isinstance(exc.__cause__, imports.PlanChanged):
            changed = exc.__cause__
            again = {"detail": changed.messages[0], "preview": changed.plan.as_dict()}
            return Response(PlanChangedSerializer(again).data, status=status.HTTP_409_CONFLICT)
        raise
    data: dict[str, Any] = {
        "detail": done.says(),
        "guests_created": len(done.guests),
        "registered": len(done.entrants),
        "checked_in": done.checked_in,
        "entrants": done.entrants,
        "lines": [asdict(line) for line in done.plan.lines],
    }
    return Response(ImportedSerializer(data).data)


# --- many entrants at once ------------------------------------------------------------------------


@extend_schema_field(
    {
        "oneOf": [
            {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
            {"type": "array", "items": {"type": "string"}},
        ]
    }
)
class ItemErrorsField(serializers.JSONField):
    """Each refused item's reasons by its place in the list (0 first), or the list's own."""


class ManyRefusedSerializer(serializers.Serializer[Any]):
    """Nothing was done: why, in words, and which items are wrong."""

    detail = DetailField(required=False, help_text="Why, in words.")
    players = ItemErrorsField(required=False, help_text="By item (0 first): why that player cannot be.")
    entrants = ItemErrorsField(required=False, help_text="By item (0 first): why that entrant cannot be.")


def _many_refused(exc: DjangoValidationError, field: str) -> ValidationError:
    if isinstance(exc, ItemsRefused):
        items = {str(i): [why] for i, why in exc.items.items()}
        return ValidationError({"detail": exc.messages, field: items})
    return ValidationError({"detail": exc.messages})


def _bad_request(what: str) -> dict[int, OpenApiResponse]:
    return {
        400: OpenApiResponse(
            ManyRefusedSerializer,
            description=f"Nothing was done: the body could not be read, the event takes no {what} "
            "now, or some items are wrong (each said under its place in the list).",
        )
    }


def _ids(what: str, *, required: bool = True) -> serializers.ListField:
    return serializers.ListField(
        required=required,
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        min_length=1,
        max_length=MAX_AT_ONCE,
        help_text=f"{what} ids, at most {MAX_AT_ONCE:,}.",
    )


class RegisterManySerializer(serializers.Serializer[Any]):
    players = _ids("Players'")
    check_in = serializers.BooleanField(default=False, help_text="Check in the players registered now.")


class RegisteredManySerializer(serializers.Serializer[Any]):
    registered = serializers.IntegerField(help_text="How many were registered now.")
    checked_in = serializers.IntegerField(help_text="How many of those were checked in.")
    entrants = EntrantSerializer(
        many=True, help_text="Every player's entry, in the order given (those entered already as they are)."
    )


class CheckInManySerializer(serializers.Serializer[Any]):
    entrants = _ids("Entrants' (leave it out for everyone)", required=False)


class CheckedInManySerializer(serializers.Serializer[Any]):
    checked_in = serializers.IntegerField(help_text="How many were checked in now (the others were already).")


def _many(field: str, fn: Any, **kwargs: Any) -> Any:
    """Call a service that acts on a list; its refusal item by item is answered under ``field``."""
    try:
        return service_call(fn, **kwargs)
    except ValidationError as exc:
        if isinstance(exc.__cause__, DjangoValidationError):
            raise _many_refused(exc.__cause__, field) from exc
        raise


@extend_schema(
    operation_id="events_entrants_register_many",
    summary="Register many players at once (organisers)",
    description="All or nothing, by the rules of registering one: players of the club (members or its "
    "guests), not dropped out; once the event runs, only a Swiss takes late entries, and a finished "
    "event none. Players entered already stay as they are. A draft round is paired again with the "
    "new entries (unless check-in has begun).",
    request=RegisterManySerializer,
    responses={200: RegisteredManySerializer, **error_responses(403, 404), **_bad_request("entries")},
)
@api_view(["POST"])
@parser_classes([JSONParser])  # a list of ids is JSON (a form's fields are at most 1,000)
@permission_classes([permissions.IsAuthenticated])
def entrants_register(request: Request, pk: int) -> Response:
    event = _event(pk)
    body = RegisterManySerializer(data=request.data)
    body.is_valid(raise_exception=True)
    done = _many(
        "players",
        entrants_register_many,
        user=request.user,
        event=event,
        player_ids=body.validated_data["players"],
        check_in=body.validated_data["check_in"],
    )
    data = {
        "registered": len(done.created),
        "checked_in": done.checked_in,
        "entrants": done.entrants,
    }
    return Response(RegisteredManySerializer(data).data)


@extend_schema(
    operation_id="events_entrants_check_in_many",
    summary="Check in many entrants at once, or everyone (organisers)",
    description="With `entrants`, those entrants of the event, all or nothing (not one who dropped "
    "out); without, everyone registered who has not dropped out. Those checked in already stay so. "
    "A finished event is refused.",
    request=CheckInManySerializer,
    responses={200: CheckedInManySerializer, **error_responses(403, 404), **_bad_request("check-ins")},
)
@api_view(["POST"])
@parser_classes([JSONParser])  # a list of ids is JSON (a form's fields are at most 1,000)
@permission_classes([permissions.IsAuthenticated])
def entrants_check_in(request: Request, pk: int) -> Response:
    event = _event(pk)
    body = CheckInManySerializer(data=request.data)
    body.is_valid(raise_exception=True)
    count = _many(
        "entrants",
        entrants_check_in_many,
        user=request.user,
        event=event,
        entrant_ids=body.validated_data.get("entrants"),
    )
    return Response(CheckedInManySerializer({"checked_in": count}).data)
