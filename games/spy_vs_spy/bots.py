"""Bots for Spy vs Spy. They see only their own ``view`` and answer at once.

How fast a bot races is up to the web layer (the option ``bot_cards_per_minute``
sets it online); ``choose`` itself does a handful of comparisons.

Levels: a race is won by speed and by judgement (which pile a card goes on, which pile is
taken), so every level has a pace, ``cards_per_minute``, and a ``judgement``: the share of
its choices made by the heuristic's reasoning, the rest at random.

- ``random`` (Novice): 30 cards a minute, no judgement.
- ``heuristic`` (Beginner): 45 cards a minute, the heuristic's choices.
- ``intermediate`` (Intermediate): 60 cards a minute, the heuristic's choices.
- ``expert`` (Expert): 90 cards a minute, the heuristic's choices.

``paced_game`` plays a whole game with each bot at its own pace on a simulated clock
(every action of a seat takes it ``60 / cards_per_minute`` seconds), so that the levels can be
compared as they would race, with no real time spent.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import Action, Bot, RandomBot, chance

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
    cards_per_minute = 45
    judgement = 1.0

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


class RacingRandomBot(RandomBot):
    """The random bot, at a slow pace."""

    cards_per_minute = 30
    judgement = 0.0


class LevelBot:
    """A racer of a given pace and judgement (see the module docstring)."""

    def __init__(self, name: str, label: str, cards_per_minute: int, judgement: float) -> None:
        if not 0.0 <= judgement <= 1.0:
            raise ValueError("A judgement is a share, from 0 to 1.")
        self.name, self.label = name, label
        self.cards_per_minute, self.judgement = cards_per_minute, judgement
        self._heuristic = HeuristicBot()

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError("The bot was asked to act with no legal action.")
        if self.judgement >= 1.0 or rng.random() < self.judgement:
            return self._heuristic.choose(view, legal, rng)
        return legal[rng.randrange(len(legal))]


BOTS: dict[str, Bot] = {
    "random": RacingRandomBot(),
    "heuristic": HeuristicBot(),
    "intermediate": LevelBot("intermediate", "Intermediate", 60, 1.0),
    "expert": LevelBot("expert", "Expert", 90, 1.0),
}


def paced_game(
    bots: list[Bot], seed: int, options: dict[str, Any] | None = None, *, max_moves: int = 200_000
) -> Any:
    """Play a game with each bot racing at its ``cards_per_minute`` on a simulated clock; the outcome.

    Each seat's next action is due ``60 / cards_per_minute`` seconds after its last; of the
    seats that may act, the one due first acts (the lowest seat on a tie).
    """
    from .engine import ENGINE

    state = ENGINE.start(len(bots), seed, options or {})
    rngs = [chance(seed, "paced", seat) for seat in range(len(bots))]
    due = [0.0] * len(bots)
    for _ in range(max_moves):
        outcome = ENGINE.outcome(state)
        if outcome is not None:
            return outcome
        acting = ENGINE.to_act(state)
        seat = min(acting, key=lambda s: (due[s], s))
        bot = bots[seat]
        action = bot.choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rngs[seat])
        race = ENGINE.race_started(state)
        state = ENGINE.apply(state, seat, action)
        due[seat] += 60.0 / getattr(bot, "cards_per_minute", 60)
        if ENGINE.race_started(state) != race:  # a new race: everyone starts together
            due = [max(due)] * len(bots)
    raise RuntimeError(f"No end after {max_moves} moves.")
