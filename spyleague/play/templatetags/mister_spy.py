"""The Mister Spy match board: cards, actions and events in words.

Everything here reads only the seat's own view (``p.view``) and its legal actions
(``p.legal``), so the board can never show more than the engine lets that seat see.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from typing import Any

from django import template
from django.utils import timezone

from .cards import seat_name

register = template.Library()

WINNING_POINTS = 33


def _kind_value(code: str) -> tuple[str, str]:
    kind, _, value = str(code).partition("-")
    return kind, value


@register.filter
def ms_card(code: str | None) -> dict[str, Any]:
    """``spy-5`` -> what a card face shows: its kind, its value or letter and a label."""
    if not code:
        return {"code": "", "kind": "back", "mark": "?", "name": "Face down", "label": "a face-down card"}
    kind, value = _kind_value(code)
    name = {"lair": "Lair", "taunt": "Taunt", "spy": "Spy"}.get(kind, kind.capitalize())
    return {"code": code, "kind": kind, "mark": value, "name": name, "label": f"{name} {value}"}


def card_words(code: str) -> str:
    """``lair-3`` -> ``Lair 3``; ``taunt-C`` -> ``Taunt C``."""
    return str(ms_card(code)["label"])


def _dump(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"))


def _lair_cards(view: dict[str, Any]) -> dict[str, tuple[int, dict[str, Any]]]:
    return {card["id"]: (owner, card) for owner, lair in enumerate(view.get("lairs") or []) for card in lair}


def _value(code: str) -> int:
    _, value = _kind_value(code)
    return int(value) if value.isdigit() else 0


def _steal_lair_item(action: dict[str, Any], view: dict[str, Any], seats: list[Any]) -> dict[str, str]:
    owner, card = _lair_cards(view).get(action["lair"], (None, {}))
    whose = f"{seat_name(seats, owner)}'s" if owner is not None else "a"
    spy = card_words(action["card"])
    if card.get("face_up") and card.get("card"):
        lair_value = _value(card["card"])
        spy_value = _value(action["card"])
        if spy_value == lair_value:
            hint = "they match: you take the Lair and a henchman"
        elif spy_value > lair_value:
            hint = "you take the Lair, the Spy escapes"
        else:
            hint = "too small: they capture your Spy"
        label = f"{spy} → {whose} {card_words(card['card'])} ({hint})"
    else:
        label = f"{spy} → {whose} Secret Lair {action['lair']} (face down: a gamble)"
    return {"json": _dump(action), "label": label, "type": "steal_lair"}


def _capture_label(action: dict[str, Any]) -> str:
    spy = card_words(action["card"])
    reveal = action.get("reveal") or []
    if not reveal:
        return f"Capture {spy}"
    return f"Capture {spy}, turning over {' + '.join(card_words(c) for c in reveal)}"


@register.filter
def ms_actions(p: Any) -> dict[str, Any]:
    """The seat's legal actions, grouped and worded for the board's buttons."""
    view: dict[str, Any] = p.view or {}
    seats = p.seats
    groups: dict[str, Any] = {
        "window": [],
        "captive": [],
        "keep": [],
        "captures": [],
        "lairs": [],
        "steal_spy": [],
        "steal_lair": [],
        "pass": [],
        "any": bool(p.legal),
    }
    captive = view.get("captive") or {}
    for action in p.legal:
        kind = action.get("type")
        item = {"json": _dump(action), "type": str(kind)}
        if kind == "foil":
            item["label"] = f"Foil it with your {card_words(action['card'])}"
            groups["window"].append(item)
        elif kind == "let_pass":
            item["label"] = "Let it pass"
            groups["window"].append(item)
        elif kind == "kill":
            value = captive.get("value")
            item["label"] = f"Kill it: +{value} points" if value else "Kill it"
            groups["captive"].append(item)
        elif kind == "taunt":
            value = captive.get("value")
            double = f" (worth {value * 2} if nobody foils)" if isinstance(value, int) else ""
            item["label"] = f"Taunt with {card_words(action['card'])}{double}"
            groups["captive"].append(item)
        elif kind == "keep":
            item["label"] = "Keep it in your hand"
            groups["keep"].append(item)
        elif kind == "capture":
            item["label"] = _capture_label(action)
            groups["captures"].append(item)
        elif kind == "play_lair":
            code = action["card"]
            if code.startswith("taunt-"):
                item["label"] = f"{card_words(code)} as a Deathtrap (a Secret Lair)"
            else:
                item["label"] = f"{card_words(code)} as a Secret Lair"
            groups["lairs"].append(item)
        elif kind == "steal_spy":
            source = action.get("from")
            if source == "deck":
                item["label"] = "Steal the Spy on top of the deck"
            else:
                hands = view.get("hands") or []
                backs = hands[source]["spies"] if isinstance(source, int) and source < len(hands) else 0
                item["label"] = (
                    f"Steal a Spy from {seat_name(seats, source)}'s hand "
                    f"({backs} Spy back{'s' if backs != 1 else ''})"
                )
            groups["steal_spy"].append(item)
        elif kind == "steal_lair":
            groups["steal_lair"].append(_steal_lair_item(action, view, seats))
        elif kind == "pass":
            item["label"] = "Pass (do nothing this turn)"
            groups["pass"].append(item)
    return groups


@register.filter
def ms_seats(p: Any) -> list[dict[str, Any]]:
    """One row per seat: what the table shows of that player."""
    view: dict[str, Any] = p.view or {}
    if not view:
        return []
    rows = []
    window = view.get("window") or {}
    waiting = set(window.get("waiting") or [])
    for s in p.seats:
        n = s.number
        hand = view["hands"][n]
        score = view["scores"][n]
        pile = view["score_piles"][n]
        rows.append(
            {
                "number": n,
                "name": seat_name(p.seats, n),
                "me": n == p.seat,
                "turn": n == view.get("turn") and not view.get("over"),
                "acting": n in p.to_act,
                "waiting": n in waiting,
                "score": score,
                "percent": min(100, round(100 * score / WINNING_POINTS)),
                "cards": hand["cards"],
                "spies": hand["spies"],
                "others": hand["cards"] - hand["spies"],
                "spy_backs": range(hand["spies"]),
                "plain_backs": range(hand["cards"] - hand["spies"]),
                "lair": view["lairs"][n],
                "lair_size": view["lair_sizes"][n],
                "pile": [{**spy, "taunt_backs": range(spy["taunts"])} for spy in pile],
            }
        )
    return rows


@register.filter
def ms_taunt_backs(count: int) -> range:
    return range(int(count or 0))


@register.simple_tag
def ms_event(event: dict[str, Any], seats: list[Any]) -> str:
    """One public event in words. Events never name a hidden card, and neither does this."""

    def who(key: str = "seat") -> str:
        return seat_name(seats, event.get(key))

    kind = event.get("event")
    points = event.get("points")
    total = event.get("score")
    if kind == "deal":
        return f"{who('dealer')} dealt {event.get('cards')} cards to each player."
    if kind == "draw":
        return f"{who()} drew a card{' (a Spy back)' if event.get('spy') else ''}."
    if kind == "pass":
        return f"{who()} passed."
    if kind == "keep":
        return f"{who()} kept the stolen Spy in hand."
    if kind == "play_lair":
        return f"{who()} played a Secret Lair."
    if kind == "capture":
        turned = [card_words(r["card"]) for r in event.get("revealed") or []]
        extra = f", turning over {' + '.join(turned)}" if turned else ""
        return f"{who()} captured {card_words(event.get('card', ''))}{extra}."
    if kind == "taunt":
        return f"{who()} taunted the captured Spy. The others may foil it."
    if kind == "taunt_succeeds":
        return f"Nobody foiled {who()}'s taunt: the Spy is now worth {event.get('value')}."
    if kind == "foil":
        return (
            f"{who()} FOILED {who('taunter')}'s taunt with the other {card_words(event.get('taunt', ''))}: "
            f"{card_words(event.get('card', ''))} escapes to the discard pile."
        )
    if kind == "kill":
        return f"{who()} killed {card_words(event.get('card', ''))} for {points} points ({total} in all)."
    if kind == "steal_lair":
        spy = card_words(event.get("card", ""))
        lair = card_words(event.get("lair_card", ""))
        owner = who("from")
        result = event.get("result")
        if result == "deathtrap":
            return f"{who()} sent {spy} as a Double Agent into {owner}'s Secret Lair: a Deathtrap!"
        if result == "smaller":
            return f"{who()} sent {spy} after {owner}'s {lair}: too small, {owner} captures it."
        if result == "larger":
            return f"{who()} stole {owner}'s {lair} with {spy}; the Spy escapes to the discard pile."
        return f"{who()} stole {owner}'s {lair} with {spy}: a perfect match."
    if kind == "deathtrap":
        return f"{who()}'s Deathtrap kills the Spy: +{points} points ({total} in all)."
    if kind == "henchman":
        return f"{who()} gains a henchman: +{points} points ({total} in all)."
    if kind == "steal_spy":
        source = event.get("from")
        where = "the top of the deck" if source == "deck" else f"{who('from')}'s hand"
        return f"{who()} stole a Spy from {where}."
    if kind == "game_over":
        if event.get("end") == "33 points":
            return f"Game over: {who()} reached 33 points."
        return f"Game over: the deck ran out at {who()}'s turn."
    return str(kind or "").replace("_", " ").capitalize()


@register.filter
def ms_recent(events: list[dict[str, Any]] | None, count: int = 12) -> list[dict[str, Any]]:
    """The last ``count`` events, newest first."""
    return list(reversed((events or [])[-int(count) :]))


@register.filter
def ms_seat_list(numbers: list[int] | None, seats: list[Any]) -> str:
    names = [seat_name(seats, n) for n in numbers or []]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


@register.filter
def ms_iso(moment: datetime | None) -> str:
    """A moment as an ISO 8601 time in UTC with milliseconds (what JavaScript's Date reads)."""
    if moment is None:
        return ""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@register.filter
def ms_seconds_left(deadline: datetime | None) -> int:
    if deadline is None:
        return 0
    return max(0, math.ceil((deadline - timezone.now()).total_seconds()))


@register.simple_tag
def ms_now() -> str:
    return ms_iso(timezone.now())


@register.filter
def ms_recent_foil(view: dict[str, Any] | None) -> dict[str, Any] | None:
    """The last foil, while it is news: until every seat has drawn once since (a full round)."""
    if not view:
        return None
    draws = 0
    events: list[dict[str, Any]] = view.get("events") or []
    for event in events[::-1]:
        if event.get("event") == "foil":
            return event
        if event.get("event") == "draw":
            draws += 1
            if draws > int(view.get("seats") or 0):
                return None
    return None
