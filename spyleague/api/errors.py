"""One error shape for the whole API: ``{"detail": "...", "errors": {...}}``."""

from typing import Any

from django.core.exceptions import BadRequest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import APIException, PermissionDenied, UnsupportedMediaType, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games import IllegalAction, InvalidOptions

from ..core.locks import Conflict


class ConflictError(APIException):
    """Someone acted first: the state the request acts on has changed (409, with what happened)."""

    status_code = 409
    default_detail = "Someone changed this a moment before: nothing was applied."
    default_code = "conflict"


def service_call(fn: Any, **kwargs: Any) -> Any:
    """Call a service; its refusals become the API's 403 and 400 with the reasons in words."""
    try:
        return fn(**kwargs)
    except DjangoPermissionDenied as exc:
        raise PermissionDenied(str(exc)) from exc
    except Conflict as exc:
        raise ConflictError(" ".join(exc.messages)) from exc
    except DjangoValidationError as exc:
        raise ValidationError({"detail": exc.messages}) from exc


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, IllegalAction | InvalidOptions | BadRequest):
        return Response({"detail": str(exc)}, status=400)
    if isinstance(exc, UnsupportedMediaType):
        # A body the API cannot read (no Content-Type, or text/plain): a 400 like any other body
        # it cannot read, as the schema documents, rather than DRF's 415.
        unread = "The body could not be read: send it as JSON (Content-Type: application/json) or as a form."
        return Response({"detail": unread}, status=400)
    if isinstance(exc, Conflict):
        return Response({"detail": " ".join(exc.messages)}, status=409)
    if isinstance(exc, DjangoValidationError):
        # A service's refusal that a view did not translate: still a 400 in words, never a 500.
        errors = exc.message_dict if hasattr(exc, "error_dict") else None
        return Response({"detail": " ".join(exc.messages), **({"errors": errors} if errors else {})}, 400)
    return drf_exception_handler(exc, context)


# --- the error responses as the schema documents them --------------------------------------


@extend_schema_field({"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]})
class DetailField(serializers.JSONField):
    """The reason in words: one sentence, or a list of them when there are several."""


class ErrorSerializer(serializers.Serializer[Any]):
    """A refusal, in words."""

    detail = serializers.CharField(help_text="Why, in words.")


class BadRequestSerializer(serializers.Serializer[Any]):
    """What was wrong with the request. A body that does not fit the operation's fields is
    answered field by field, under each field's name (``{"table_size": ["..."]}``, nested as
    the body is); a request the site refuses as a whole says why in ``detail``."""

    detail = DetailField(required=False, help_text="Why, in words.")
    # DRF takes declared fields off the class, so this documents the "errors" key without hiding
    # Serializer.errors (which mypy cannot know).
    errors = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="The problems by field, in words."
    )


_REASONS: dict[int, tuple[type[serializers.Serializer[Any]], str]] = {
    400: (
        BadRequestSerializer,
        "Refused: the request could not be read (not JSON, a NUL character, nesting too deep) "
        "or breaks a rule; nothing was changed.",
    ),
    403: (ErrorSerializer, "Not logged in, or not allowed to (no role for it in the club, not your seat)."),
    404: (ErrorSerializer, "There is no such object."),
    409: (
        ErrorSerializer,
        "Someone acted first: the match has moved on since the version sent, the draft was published "
        "or discarded, the event finished, the result was entered ... Nothing was applied; the answer "
        "says what happened.",
    ),
    429: (
        ErrorSerializer,
        "Too many tries from this address (sign-ups, logins, tokens), or too many wrong passwords "
        "for this username from it: paused for a while. The answer says how long, in words and in "
        "its Retry-After header (seconds).",
    ),
}


def error_responses(*codes: int) -> dict[int, OpenApiResponse]:
    """The documented error responses of an operation: 400 always (any address or body with a
    NUL character is refused), and the other ``codes`` it can answer."""
    return {
        code: OpenApiResponse(_REASONS[code][0], description=_REASONS[code][1])
        for code in sorted({400, *codes})
    }


def conflicts_documented(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A drf-spectacular postprocessing hook: every operation that writes (POST, PUT, PATCH,
    DELETE) can meet a state someone changed a moment before, and says so with a 409."""
    body = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if method in ("post", "put", "patch", "delete"):
                operation.setdefault("responses", {}).setdefault(
                    "409", {"content": body, "description": _REASONS[409][1]}
                )
    return result
