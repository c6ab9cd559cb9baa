"""What the match page offers the person looking at it: resign, abandon, the rules."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def can_abandon(match: Any, user: Any) -> bool:
    from ..services import abandon_allowed

    return abandon_allowed(match=match, user=user)


@register.filter
def stuck(picture: Any) -> bool:
    """Nobody can move the pictured match on (as ``services.match_stuck``, from the seats and the
    seats to act the picture has read already)."""
    if picture.match.status != "playing":
        return False
    playable = {s.number for s in picture.seats if s.bot or (s.player and s.player.user_id)}
    return not playable.intersection(picture.to_act)


@register.filter
def signed(value: Any) -> str:
    """A rating change with its sign: +3.2, -1.5 (with a true minus sign), ±0."""
    number = float(value)
    if abs(number) < 0.05:
        return "±0"
    return f"+{number:.1f}" if number > 0 else f"\u2212{abs(number):.1f}"


@register.filter
def has_rules(game: str) -> bool:
    from ..selectors import has_rules as exists

    return exists(game)


@register.filter
def game_title(slug: str) -> str:
    """A game's title for people to read ("black-spy" -> "Black Spy")."""
    from games import game_info
    from games.core import UnknownGame

    try:
        return game_info(str(slug)).title
    except UnknownGame:
        return str(slug)
