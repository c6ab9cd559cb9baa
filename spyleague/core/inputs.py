"""Reading what people send: ids, numbers and JSON, refused in words when they cannot be read.

Every page and API view reads its input through these, so a malformed value is a 400 that
says what was wrong (``Refused``, a ``BadRequest``), never a server error, and changes nothing.
``Refused`` is turned into a page by ``core.middleware.BadInput`` and into ``{"detail": ...}``
by the API's exception handler.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import BadRequest
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponse

# The largest id a database row can have (a signed 64-bit integer): larger numbers cannot name
# a row, and SQLite and PostgreSQL refuse them outright.
MAX_ID = 2**63 - 1
# How deeply JSON may nest: an action, a sheet or a set of options is a few levels deep.
MAX_JSON_DEPTH = 20


class Refused(BadRequest):
    """Input that cannot be read; the message says why, for the person who sent it."""


class IdConverter:
    """``<id:pk>`` in a URL: a row id, at most 18 digits (anything longer is no row: 404)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(value)


def whole_number(raw: Any, *, what: str, low: int | None = None, high: int | None = None) -> int:
    """``raw`` as a whole number between ``low`` and ``high``, or ``Refused`` naming ``what``."""
    if isinstance(raw, bool):
        raise Refused(f"{what} must be a whole number.")
    if isinstance(raw, int):
        value = raw
    else:
        text = str(raw).strip()
        # One sign at most, then decimal digits: int() cannot read "--5" or "²" (isdigit's, not
        # isdecimal's), and they must be refused here, not end in a server error.
        digits = text[1:] if text[:1] in ("+", "-") else text
        if not text or len(text) > 30 or not digits.isdecimal():
            shown = text if len(text) <= 30 else text[:30] + "..."
            raise Refused(f"{what} must be a whole number, not {shown!r}.")
        value = int(text)
    if low is not None and value < low:
        raise Refused(f"{what} must be at least {low}.")
    if high is not None and value > high:
        raise Refused(f"{what} must be at most {high}.")
    return value


def row_id(raw: Any, *, what: str) -> int:
    """A row id as sent in a form or a query string."""
    return whole_number(raw, what=what, low=1, high=MAX_ID)


def finite_number(raw: Any, *, what: str) -> float:
    """A number that is neither infinite nor 'not a number', or ``Refused``."""
    try:
        value = float(str(raw).strip())
    except ValueError:
        raise Refused(f"{what} {str(raw)[:30]!r} is not a number.") from None
    if not math.isfinite(value):
        raise Refused(f"{what} {str(raw)[:30]!r} is not a number that can be scored.")
    return value


def found[M: Model](model_or_rows: type[M] | QuerySet[M], raw_id: Any, *, what: str, **lookups: Any) -> M:
    """The row with id ``raw_id`` (and ``lookups``): ``Refused`` if the id is not a number,
    404 if there is no such row."""
    pk = row_id(raw_id, what=what)
    rows = model_or_rows if isinstance(model_or_rows, QuerySet) else model_or_rows._default_manager.all()
    row = rows.filter(pk=pk, **lookups).first()
    if row is None:
        raise Http404(f"There is no {what.lower()} {pk}.")
    return row


def depth_of(value: Any) -> int:
    """How deeply a JSON value nests (a scalar is 0), looked at without recursion."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


NUL_REFUSAL = "Text may not contain NUL characters; nothing was changed."


def holds_nul(value: Any) -> bool:
    """Whether a parsed value (JSON, or a form's keys and values) holds a NUL character in any
    string, key or value. No text the site keeps may hold one (PostgreSQL refuses them)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


def checked_json(value: Any) -> Any:
    """A parsed JSON value, refused if it nests deeper than anything the site takes, or holds
    a NUL character."""
    if depth_of(value) > MAX_JSON_DEPTH:
        raise Refused(f"The JSON nests more than {MAX_JSON_DEPTH} levels deep.")
    if holds_nul(value):
        raise Refused(NUL_REFUSAL)
    return value


def json_value(raw: str | bytes, *, what: str) -> Any:
    """JSON text as a value: refused in words when it is not JSON, nests too deeply, or
    uses NaN or Infinity (which JSON does not have)."""

    def no_constants(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON value")

    try:
        value = json.loads(raw, parse_constant=no_constants)
    except RecursionError:
        raise Refused(f"{what} nests more than {MAX_JSON_DEPTH} levels deep.") from None
    except ValueError:
        raise Refused(f"{what} could not be read; nothing was changed.") from None
    return checked_json(value)


def refused_page(
    request: HttpRequest,
    reason: str | Exception,
    page: Callable[..., HttpResponse],
    *args: Any,
    status: int | None = None,
) -> HttpResponse:
    """A refused form post: the page it came from, with the reason on it, answering ``status``
    (default 400; 409 for a ``Conflict``: someone acted first).

    The page is drawn as its own view draws it (``page(request, *args)``), so what the person sees
    is the page they were on and why nothing changed, not a redirect that hides the refusal.
    """
    if isinstance(reason, Exception):
        from .locks import Conflict

        status = status or (409 if isinstance(reason, Conflict) else 400)
        reason = reasons(reason)
    status = status or 400
    messages.error(request, reason)
    response = page(request, *args)
    response.status_code = status
    return response


def reasons(exc: Exception) -> str:
    """A refusal's words, whatever kind it is (a ValidationError with several messages, ...)."""
    return " ".join(str(m) for m in getattr(exc, "messages", [str(exc)]))
