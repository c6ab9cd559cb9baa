"""A replayed move in words ("Noor plays Blue 7 (Spy)"), for the replay page.

The words come from the same place as the board's: the games that keep an event log
(Mister Spy, Spycatcher, Spies!) are told by the events the move added to the spectator's
view, in the board's own words for them; Black Spy and Spy vs Spy, whose views keep no log,
by the action itself, in the words of their cards. A replay is a spectator's, so a move that
hides a card (a Black Spy pass, a card taken from The Mole) is told without it.
"""

from __future__ import annotations

from typing import Any

from django import template

from .cards import bs_card, seat_name

register = template.Library()

BLACK_SPY_WORDS = {
    "pass": "passes a card",
    "mole": "takes three cards from The Mole",
}


def _new_events(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events ``after`` has beyond ``before`` (both the newest events of one log, capped)."""
    for overlap in range(min(len(before), len(after)), 0, -1):
        if before[-overlap:] == after[:overlap]:
            return after[overlap:]
    return after


def _black_spy(action: dict[str, Any], who: str) -> str:
    kind = action.get("type")
    if kind == "play":
        return f"{who} plays {bs_card(str(action.get('card')))['label']}."
    if kind == "pass":
        cards = action.get("cards")
        count = len(cards) if isinstance(cards, list) else 1
        return f"{who} passes {'a card' if count == 1 else f'{count} cards'}."
    if kind == "call":
        return f"{who} calls {str(action.get('color')).capitalize()} for the first lead."
    if kind == "all_black":
        if action.get("choice") == "subtract":
            return f"{who} took every black card and subtracts 60 from their own score."
        return f"{who} took every black card and gives 60 to every other player."
    return f"{who} {BLACK_SPY_WORDS.get(str(kind), str(kind).replace('_', ' '))}."


def _spy_vs_spy(action: dict[str, Any], who: str, seat: int, before: dict[str, Any]) -> str:
    from games.spy_vs_spy.cards import card_name

    kind = action.get("type")
    pile = action.get("pile")
    number = pile + 1 if isinstance(pile, int) else pile
    players = before.get("players") or []
    card = players[seat].get("card") if 0 <= seat < len(players) else None
    if kind == "place":
        what = f"the {card_name(card)}" if card else "a card"
        return f"{who} puts {what} on pile {number}."
    if kind == "take":
        return f"{who} adds pile {number} to their points."
    if kind == "finish":
        return f"{who} says finished!"
    return f"{who}: {str(kind).replace('_', ' ')}."


def move_words(*, game: str, seat: int, action: dict[str, Any], before: Any, after: Any) -> list[str]:
    """The move ``action`` of ``seat``, between the spectator's pictures ``before`` and ``after``."""
    seats = after.seats
    who = seat_name(seats, seat)
    if game == "black-spy":
        return [_black_spy(action, who)]
    if game == "spy-vs-spy":
        return [_spy_vs_spy(action, who, seat, before.view or {})]
    events = _new_events((before.view or {}).get("events") or [], (after.view or {}).get("events") or [])
    if game == "mister-spy":
        from .mister_spy import ms_event

        return [str(ms_event(event, seats)) for event in events] or [f"{who} answers."]
    if game == "spycatcher":
        from .spycatcher import sc_event

        return [str(sc_event(event, after)) for event in events] or [f"{who} answers."]
    if game == "spies":
        from .spies import _Table, event_words

        table = _Table(after.view or {})
        return [event_words(event, table) for event in events] or [f"{who} acts."]
    kind = str(action.get("type", "")).replace("_", " ")
    rest = ", ".join(f"{key} {value}" for key, value in action.items() if key != "type")
    return [f"{who}: {kind}{' (' + rest + ')' if rest else ''}."]
