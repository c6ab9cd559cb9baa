"""The API's parsers: DRF's, refusing JSON nested deeper than the site takes, and NUL
characters in any body, however it is encoded (a multipart PUT is parsed here, not by Django's
request.POST, so the BadInput middleware's look at forms does not see it)."""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from ..core.inputs import MAX_JSON_DEPTH, NUL_REFUSAL, Refused, checked_json, holds_nul


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return checked_json(super().parse(stream, media_type, parser_context))
        except RecursionError:
            raise ParseError(f"The JSON nests more than {MAX_JSON_DEPTH} levels deep.") from None
        except Refused as exc:
            raise ParseError(str(exc)) from None


def _without_nul(data: Any) -> Any:
    """A form's parsed data (a QueryDict, or DRF's DataAndFiles), refused if it holds a NUL."""
    fields = getattr(data, "data", data)
    if holds_nul({key: fields.getlist(key) for key in fields}):
        raise ParseError(NUL_REFUSAL)
    return data


class FormParser(parsers.FormParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return _without_nul(super().parse(stream, media_type, parser_context))


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return _without_nul(super().parse(stream, media_type, parser_context))
