"""The API's JSON parser: DRF's, refusing JSON nested deeper than the site takes."""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from ..core.inputs import MAX_JSON_DEPTH, Refused, checked_json


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return checked_json(super().parse(stream, media_type, parser_context))
        except RecursionError:
            raise ParseError(f"The JSON nests more than {MAX_JSON_DEPTH} levels deep.") from None
        except Refused as exc:
            raise ParseError(str(exc)) from None
