"""Bots for Spy vs Spy. They see only their own ``view`` and answer at once.

How fast a bot races is up to the web layer (the option ``bot_cards_per_minute``
sets it online); ``choose`` itself does a handful of comparisons.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import Action, Bot, RandomBot

from .cards import RANK, RANKS


def _covered(tops: list[int], weight: list[int]) -> int:
    """How many still-unseen cards of the seat's deck would fit some pile top."""
    ranks: set[int] = set()
    for top in tops:
        ranks.update((top, (top + 1) % 13, (top - 1) % 13))
    return sum(weight[rank] for rank in ranks)


class HeuristicBot:
    """Keeps ranks together and takes the smallest pile.

    Placing: a pile whose top has the card's own rank comes first ("keep all the
    5's in one pile"), since it leaves every pile top as it was. Otherwise the card
    goes where the pile tops will then fit the most cards the bot has not seen yet
    (its deck less its face-up piles), so fewer cards will force new piles.
    Taking: the pile with the fewest cards, the fewest points.
    """

    name = "heuristic"
    label = "Beginner"

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError("The bot was asked to act with no legal action.")
        if len(legal) == 1:
            return legal[0]
        me = view["players"][view["seat"]]
        piles: list[list[str]] = me["piles"]
        if legal[0]["type"] == "take":
            return min(legal, key=lambda action: (len(piles[action["pile"]]), action["pile"]))
        card: str = me["card"]
        rank = RANK[card]
        tops = [RANK[pile[-1]] for pile in piles]
        for action in legal:
            if tops[action["pile"]] == rank:
                return action
        per_rank = 2 if view["half_decks"] else 4
        weight = [per_rank] * len(RANKS)
        weight[rank] -= 1
        for pile in piles:
            for seen in pile:
                weight[RANK[seen]] -= 1
        weight = [max(0, w) for w in weight]

        def coverage(action: Action) -> int:
            after = list(tops)
            after[action["pile"]] = rank
            return _covered(after, weight)

        return max(legal, key=lambda action: (coverage(action), -action["pile"]))


BOTS: dict[str, Bot] = {"random": RandomBot(), "heuristic": HeuristicBot()}
