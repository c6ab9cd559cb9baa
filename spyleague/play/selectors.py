"""What a person sees of a match: only their own seat's view."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from games import game_info, get_bots, get_engine

from .models import Match, MatchSeat
from .state import match_state


@dataclass
class MatchPicture:
    match: Match
    seat: int | None  # the viewer's seat, None for a spectator
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    to_act: list[int]
    seats: list[MatchSeat]
    title: str
    outcome: dict[str, Any] | None
    bots: list[str] = field(default_factory=list)

    @property
    def board_template(self) -> str:
        return board_template(self.match.game)

    @property
    def legal_json(self) -> list[dict[str, str]]:
        return [{"json": json.dumps(a, separators=(",", ":")), "label": action_label(a)} for a in self.legal]

    @property
    def outcome_rows(self) -> list[dict[str, Any]]:
        if not self.outcome:
            return []
        rows = [
            {
                "place": self.outcome["places"][s.number],
                "score": self.outcome["scores"][s.number],
                "name": s.player.name if s.player else f"{s.bot.capitalize()} bot {s.number + 1}",
                "seat": s.number,
            }
            for s in self.seats
        ]
        return sorted(rows, key=lambda r: (r["place"], r["seat"]))

    @property
    def card_actions(self) -> dict[str, str]:
        """Card code -> the JSON of the legal action that plays or passes it."""
        return {
            a["card"]: json.dumps(a, separators=(",", ":"))
            for a in self.legal
            if isinstance(a.get("card"), str)
        }

    @property
    def choice_actions(self) -> list[dict[str, str]]:
        """Legal actions that are not about one card (a colour to call, give or subtract...)."""
        return [
            {
                "json": json.dumps(a, separators=(",", ":")),
                "label": action_label(a),
                **{k: str(v) for k, v in a.items()},
            }
            for a in self.legal
            if "card" not in a and "cards" not in a
        ]

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.match.pk,
            "game": self.match.game,
            "status": self.match.status,
            "version": self.match.version,
            "seat": self.seat,
            "to_act": self.to_act,
            "legal": self.legal,
            "view": self.view,
            "outcome": self.outcome,
            "seats": [
                {"number": s.number, "player": s.player.name if s.player else None, "bot": s.bot or None}
                for s in self.seats
            ],
            "deadline": self.match.deadline.isoformat() if self.match.deadline else None,
        }


@cache
def board_template(game: str) -> str:
    """The game's own board, or the generic one that works for any engine."""
    name = f"play/boards/{game}.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return "play/boards/generic.html"
    return name


def action_label(action: dict[str, Any]) -> str:
    rest = ", ".join(f"{k} {v}" for k, v in action.items() if k != "type")
    return f"{action['type'].replace('_', ' ').capitalize()}{': ' + rest if rest else ''}"


def match_picture(
    *, match: Match, seat: int | None, upto: int | None = None, seats: list[MatchSeat] | None = None
) -> MatchPicture:
    """What ``seat`` (None: a spectator) sees; ``seats``: the match's seats with their players, in
    order, when the caller has already read them."""
    engine = get_engine(match.game)
    if seats is None:
        seats = list(match.seat_set.select_related("player").order_by("number"))
    if match.status == Match.Status.OPEN:
        return MatchPicture(
            match, seat, {}, [], [], seats, game_info(match.game).title, None, sorted(get_bots(match.game))
        )
    state = match_state(match, upto=upto)
    live = upto is None and match.status == Match.Status.PLAYING
    return MatchPicture(
        match=match,
        seat=seat,
        view=engine.view(state, seat),
        legal=engine.legal(state, seat) if live and seat is not None else [],
        to_act=sorted(engine.to_act(state)) if upto is None or upto < match.version else [],
        seats=seats,
        title=game_info(match.game).title,
        outcome=match.outcome if upto is None else None,
        bots=sorted(get_bots(match.game)),
    )
