"""Card faces for the match pages."""

from __future__ import annotations

import json
from typing import Any

from django import template

from ..levels import bot_seat_name, level_of

register = template.Library()

BLACK_SPY_RANKS = {
    1: "Informer",
    2: "Interrogator",
    3: "Infiltrator",
    4: "Saboteur",
    5: "Assassin",
    6: "Agent",
    7: "Spy",
    8: "Double Agent",
    9: "Code Breaker",
    10: "Deputy Director",
    11: "Director",
}


# The long rank names with soft hyphens where they may break on a narrow card (a word is never
# cut anywhere else: "Interro-gator", never "INFORME/R").
BLACK_SPY_FACES = {
    2: "Interro\u00adgator",
    3: "Infil\u00adtrator",
    9: "Code Breaker",
    10: "Deputy Director",
}


@register.filter
def bs_card(code: str) -> dict[str, Any]:
    """``red-7`` -> colour, rank, name and whether it is a Spy (a Black Spy card code).

    ``label`` is the card in words, as the engine's messages say it: ``Red 7 (Spy)``.
    """
    colour, _, rank = str(code).partition("-")
    number = int(rank) if rank.isdigit() else 0
    name = BLACK_SPY_RANKS.get(number, "")
    return {
        "code": code,
        "colour": colour,
        "rank": number,
        "name": name,
        "face": BLACK_SPY_FACES.get(number, name),
        "spy": number == 7,
        "label": f"{colour.capitalize()} {number} ({name})" if name else str(code),
    }


@register.filter
def bs_names(codes: Any) -> str:
    """``["blue-1", "yellow-7"]`` -> ``Blue 1 (Informer), Yellow 7 (Spy)``."""
    return ", ".join(str(bs_card(code)["label"]) for code in codes or [])


@register.filter
def action_json(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"))


@register.filter
def seat_name(seats: list[Any], number: Any) -> str:
    for seat in seats:
        if seat.number == number:
            if seat.player is not None:
                return str(seat.player.name)
            return bot_seat_name(seat.match.game, seat.bot, number) if seat.bot else f"Seat {number + 1}"
    return f"Seat {int(number) + 1}"


@register.filter
def bot_level(seat: Any) -> str:
    """A bot's seat's level in words ("Expert")."""
    return level_of(seat.match.game, seat.bot) if seat.bot else ""


@register.filter
def seat_names(seats: list[Any], numbers: Any) -> str:
    """The seats ``numbers`` by name, in seat order, as a sentence: "Ann and Heuristic bot 3"."""
    from ...core.words import and_list

    wanted = set(numbers or ())
    return and_list([seat_name(seats, s.number) for s in seats if s.number in wanted])


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def bs_left_to_pass(passing: Any) -> int:
    """How many cards the seat has still to pass (three in all)."""
    return max(0, 3 - len(passing or []))
