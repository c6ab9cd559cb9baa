"""Validation of engine options: unknown keys and bad values raise a clear error."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import InvalidOptions


@dataclass(frozen=True)
class Option:
    kind: type
    default: Any
    help: str
    check: Callable[[Any], str | None] | None = None  # returns a reason when the value is bad


def validate_options(given: Mapping[str, Any] | None, schema: Mapping[str, Option]) -> dict[str, Any]:
    """Return a full options dict with defaults filled in, or raise InvalidOptions."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(schema))
    if unknown:
        raise InvalidOptions(f"Unknown option(s): {', '.join(unknown)}. Known: {', '.join(sorted(schema))}.")
    out: dict[str, Any] = {}
    for name, spec in schema.items():
        value = given.get(name, spec.default)
        if value is not None:
            if spec.kind is bool and not isinstance(value, bool):
                raise InvalidOptions(f"Option {name!r} must be true or false, not {value!r}.")
            if spec.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise InvalidOptions(f"Option {name!r} must be a whole number, not {value!r}.")
            if spec.kind not in (bool, int) and not isinstance(value, spec.kind):
                raise InvalidOptions(f"Option {name!r} must be a {spec.kind.__name__}, not {value!r}.")
            if spec.check is not None:
                reason = spec.check(value)
                if reason:
                    raise InvalidOptions(f"Option {name!r}: {reason}")
        out[name] = value
    return out


def describe_options(schema: Mapping[str, Option]) -> list[dict[str, Any]]:
    """JSON-able description of an engine's options, for forms and the API."""
    return [
        {"name": name, "type": spec.kind.__name__, "default": spec.default, "help": spec.help}
        for name, spec in schema.items()
    ]
