"""One error shape for the whole API: ``{"detail": "...", "errors": {...}}``."""

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games import IllegalAction, InvalidOptions


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, IllegalAction | InvalidOptions):
        return Response({"detail": str(exc)}, status=400)
    return drf_exception_handler(exc, context)
