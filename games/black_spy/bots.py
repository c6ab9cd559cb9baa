"""Bots for Black Spy. They see only ``view(state, seat)`` and ``legal(state, seat)``.

``BOTS["random"]`` plays a uniformly random legal action. ``BOTS["heuristic"]`` plays the
way a careful beginner does: it passes its most dangerous cards (Black Spies, high black
cards, high cards), leads low, ducks under the winning card when it can, sheds its most
dangerous card when it cannot follow (a card that cannot win is a free discard), and when
it must take a trick it takes it with its highest safe card.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import Action, Bot, RandomBot

BLACK_POINTS = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 10, 8: 2, 9: 3, 10: 4, 11: 5}


def parse(code: str) -> tuple[str, int]:
    colour, rank = code.split("-")
    return colour, int(rank)


def points(code: str, no_good_spies: bool) -> int:
    """Deal points of one card taken."""
    colour, rank = parse(code)
    if colour == "black":
        return BLACK_POINTS[rank]
    return -5 if rank == 7 and not no_good_spies else 0


def danger(code: str) -> int:
    """How much a card threatens its holder: Black Spies most, then high black, then high cards."""
    colour, rank = parse(code)
    if colour == "black":
        return 100 if rank == 7 else 40 + 2 * BLACK_POINTS[rank] + rank
    if rank == 7:
        return rank - 6  # a coloured Spy is worth taking: keep it, never feed it to the winner
    return rank


class HeuristicBot:
    name = "heuristic"
    label = "Beginner"

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError("The bot was asked to act with no legal action.")
        kind = legal[0]["type"]
        if kind == "pass":
            return max(legal, key=lambda a: (danger(a["card"]), rng.random()))
        if kind == "mole":
            return min(legal, key=lambda a: (sum(danger(c) for c in a["cards"]), rng.random()))
        if kind == "call":
            return self._call(view, legal)
        if kind == "all_black":
            return self._all_black(view, legal)
        return self._play(view, legal, rng)

    def _call(self, view: dict[str, Any], legal: list[Action]) -> Action:
        # Call a colour I am short in: others must lead it and I may shed on it.
        hand = [parse(code) for code in view["hand"]]

        def weight(action: Action) -> tuple[int, int]:
            ranks = [rank for colour, rank in hand if colour == action["color"]]
            return (len(ranks), max(ranks, default=0))

        return min(legal, key=weight)

    def _all_black(self, view: dict[str, Any], legal: list[Action]) -> Action:
        seat = view["seat"]
        scores = list(view["scores"])
        given = [score + (0 if s == seat else 60) for s, score in enumerate(scores)]
        # Give 60 to everyone else when that ends the game with me alone in the lead.
        if any(score >= view["end_value"] for score in given) and all(
            given[seat] < score for s, score in enumerate(given) if s != seat
        ):
            return next(a for a in legal if a["choice"] == "give")
        return next(a for a in legal if a["choice"] == "subtract")

    def _play(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        trick = view["trick"]
        cards = [a["card"] for a in legal]
        no_good_spies = bool(view["options"].get("no_good_spies"))
        if not trick:
            # Lead low, in colour; black only when there is nothing else.
            coloured = [c for c in cards if parse(c)[0] != "black"]
            pool = coloured or cards
            choice = min(
                pool, key=lambda c: (danger(c) if parse(c)[0] == "black" else parse(c)[1], rng.random())
            )
            return legal[cards.index(choice)]
        led = parse(trick[0]["card"])[0]
        best = max(parse(t["card"])[1] for t in trick if parse(t["card"])[0] == led)
        at_stake = sum(points(t["card"], no_good_spies) for t in trick)
        last = len(trick) == view["players"] - 1

        def wins(code: str) -> bool:
            colour, rank = parse(code)
            return colour == led and rank > best

        losing = [c for c in cards if not wins(c)]
        winning = [c for c in cards if wins(c)]
        if last and winning and at_stake < 0:
            # Take a trick of coloured Spies with my highest safe card.
            safe = [c for c in winning if parse(c)[0] != "black"] or winning
            choice = max(safe, key=lambda c: (parse(c)[1], rng.random()))
        elif losing:
            # Duck: shed the most dangerous card that does not take the trick.
            choice = max(losing, key=lambda c: (danger(c), rng.random()))
        elif last:
            # The trick is mine anyway: take it with my highest card that adds no points.
            choice = max(winning, key=lambda c: (-points(c, no_good_spies), parse(c)[1], rng.random()))
        else:
            # Play low and hope a later player goes over.
            choice = min(winning, key=lambda c: (points(c, no_good_spies), parse(c)[1], rng.random()))
        return legal[cards.index(choice)]


BOTS: dict[str, Bot] = {"random": RandomBot(), "heuristic": HeuristicBot()}
