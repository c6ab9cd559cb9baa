"""The Spy vs Spy race board's card faces.

A race page is rendered again after every card a racer places, and the others' progress once
per move for everyone, so the faces (dozens per board) are built here in Python rather than
through a template partial that looks at the code a dozen times per card.
"""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.spy_vs_spy.cards import card_name

register = template.Library()

SUITS = {"S": ("spades", "&spades;"), "H": ("hearts", "&hearts;"), "D": ("diamonds", "&diams;")}
CLUBS = ("clubs", "&clubs;")


@register.simple_tag
def svs_card(code: str, size: str = "") -> SafeString:
    """``10H`` -> the face of the ten of hearts: rank, suit sign and its name in words.

    ``size``: ``big`` (the flipped card), ``mini`` (the others' piles) or the pile size.
    """
    code = str(code)
    rank, suit = code[:-1], code[-1:]
    _, sign = SUITS.get(suit, CLUBS)
    red = " red" if suit in "HD" else ""
    classes = f"pc {escape(size)}{red}" if size else f"pc{red}"
    rank_text = escape(rank)
    # Every part is escaped or one of the fixed words above.
    return mark_safe(
        f'<span class="{classes}" data-card="{escape(code)}" '
        f'title="{escape(card_name(code))}"><b>{rank_text}</b>'
        f'<i aria-hidden="true">{sign}</i></span>'
    )


@register.filter
def svs_fitting_piles(legal: list[dict[str, Any]]) -> set[Any]:
    """The piles the flipped card may go on: those of the seat's legal placements."""
    return {action.get("pile") for action in legal if action.get("type") == "place"}


@register.filter
def svs_name(code: str | None) -> str:
    """``QD`` -> ``Queen of Diamonds``."""
    return card_name(str(code)) if code else ""


@register.filter
def svs_you(picture: Any) -> str:
    """The seat's own part as the race page's socket sends it (``race_view.seat_part``), as JSON."""
    from ..race_view import seat_part_of

    return json.dumps(seat_part_of(picture.view, picture.legal, picture.seat))


@register.filter
def svs_names(seats: list[Any]) -> str:
    """The racers' names by seat, as JSON, for the race page's own drawing."""
    from .cards import seat_name

    return json.dumps([seat_name(seats, seat.number) for seat in seats])


@register.filter
def svs_bots(seats: list[Any]) -> str:
    """The seats bots play, as JSON."""
    return json.dumps([seat.number for seat in seats if seat.bot])
