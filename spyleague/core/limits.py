"""How much people may store: the longest texts, the largest JSON, and how many things one
account may make.

Every text a person types has a length the model, its form and its serializer agree on, and
every JSON value a person sends is stored in a ``BoundedJSONField``, which refuses to write one
larger than its bound whatever the path (a service, the admin, a bulk update). The checks that
come first (forms, serializers, services) say what is wrong beside the field; the bound here is
the last word, so nothing oversized ever reaches the database.
``tests/web/test_limits.py`` walks every model field and fails on one that people can write
without such a bound.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

# A club's or a league's description: a few paragraphs.
DESCRIPTION_MAX = 2000
# What a list shows of a description (the detail shows it all).
EXCERPT_MAX = 200
# The most rounds a scorepad keeps: far more than any game at a table takes (a Black Spy game
# ends within a few dozen deals), so that a pad's rounds and the result they become stay small.
PAD_ROUNDS_MAX = 200


def excerpt(text: str, length: int = EXCERPT_MAX) -> str:
    """The start of ``text``, at most ``length`` characters, cut at a word with "…" when cut."""
    text = " ".join(text.split())
    if len(text) <= length:
        return text
    cut = text[: length - 1]
    if " " in cut[length // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,.;:") + "…"


def json_chars(value: Any, encoder: type[json.JSONEncoder] | None = None) -> int:
    """How many characters ``value`` takes written out as compact JSON."""
    return len(json.dumps(value, cls=encoder, ensure_ascii=False, separators=(",", ":")))


def json_size_problem(value: Any, *, max_chars: int, what: str) -> str | None:
    """Why ``value`` is too large to keep (``what`` names it, as a sentence starts), or None."""
    try:
        size = json_chars(value)
    except (TypeError, ValueError):
        return f"{what} could not be written out as JSON."
    if size > max_chars:
        return f"{what} holds too much: at most {max_chars:,} characters written out, not {size:,}."
    return None


class BoundedJSONField(models.JSONField):
    """A JSONField that refuses to store a value larger than ``max_chars`` (as compact JSON),
    with a ValidationError in words: on ``full_clean`` and on every write to the database."""

    def __init__(self, *args: Any, max_chars: int, **kwargs: Any) -> None:
        self.max_chars = max_chars
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        kwargs["max_chars"] = self.max_chars
        return name, path, args, kwargs

    def _problem(self, value: Any) -> str | None:
        if value is None or hasattr(value, "resolve_expression"):
            return None
        what = str(self.verbose_name).capitalize()
        return json_size_problem(value, max_chars=self.max_chars, what=what)

    def validate(self, value: Any, model_instance: Any) -> None:
        super().validate(value, model_instance)
        if problem := self._problem(value):
            raise ValidationError(problem, code="too_large")

    def get_db_prep_save(self, value: Any, connection: Any) -> Any:
        if problem := self._problem(value):
            raise ValidationError({self.name: [problem]}, code="too_large")
        return super().get_db_prep_save(value, connection)


# --- how many things one account may make ------------------------------------------------------


def quota(name: str) -> int:
    """The limit called ``name`` in ``settings.SPYLEAGUE_QUOTAS`` (see settings)."""
    return int(settings.SPYLEAGUE_QUOTAS[name])


def quota_exempt(user: Any) -> bool:
    """The site's staff make what they need."""
    return bool(getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))
