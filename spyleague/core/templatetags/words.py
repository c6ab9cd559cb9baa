"""Sentences in templates: names joined as people write them ("Gwen and Gus")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

from ..words import and_list

register = template.Library()


@register.filter(name="and_list")
def and_list_filter(items: Iterable[Any] | None, attribute: str = "") -> str:
    """``{{ guests|and_list:"name" }}``: "Gwen", "Gwen and Gus", "Ann, Gwen and Gus" (the
    attribute, dotted, is read from each item; without one, the items themselves)."""
    said = []
    for item in items or ():
        value = item
        for part in attribute.split(".") if attribute else ():
            value = getattr(value, part)
        said.append(str(value))
    return and_list(said)
