"""Bots for Mister Spy. Both see only their own ``view`` and the legal actions.

- ``random``: a uniformly random legal action (``games.core.RandomBot``).
- ``heuristic``: captures the biggest Spy it can, steals Lairs only when it knows the result,
  builds its Lair, sets Deathtraps with spare taunts, taunts when no foil is likely (it counts
  the taunt cards it can see to find letters nobody else can hold), and keeps a foil for the
  leader or for a taunt that would decide the game.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Final

from games.core import Action, Bot, RandomBot

from .cards import KIND, LAIR, SPY, TAUNT, VALUE, WINNING_POINTS

NON_SPY_CARDS: Final = 33


def _seen_cards(view: dict[str, Any]) -> Counter[str]:
    """Every card whose face this seat can see now (its hand, the table, its own face-down cards)."""
    seen: Counter[str] = Counter(view["hand"] or [])
    seen.update(view["discard"])
    for lair in view["lairs"]:
        seen.update(card["card"] for card in lair if card["card"] is not None)
    for pile in view["score_piles"]:
        for spy in pile:
            seen[spy["card"]] += 1
            seen.update(spy.get("taunt_cards", ()))
    captive = view["captive"]
    if captive is not None:
        seen[captive["card"]] += 1
        seen.update(captive.get("taunt_cards", ()))
    if view["window"] is not None:
        seen[view["window"]["taunt"]] += 1
    return seen


def foil_risk(view: dict[str, Any], taunt: str) -> float:
    """The chance that the other ``taunt`` card is in an opponent's hand (0 when it is seen)."""
    seen = _seen_cards(view)
    if seen[taunt] >= 2:
        return 0.0
    me = view["seat"]
    unseen_non_spies = NON_SPY_CARDS - sum(n for card, n in seen.items() if KIND[card] != SPY)
    in_opponent_hands: int = sum(h["cards"] - h["spies"] for h in view["hands"] if h["seat"] != me)
    if unseen_non_spies <= 0:
        return 0.0
    return min(1.0, in_opponent_hands / unseen_non_spies)


def _lair_potential(view: dict[str, Any]) -> int:
    """The largest Spy this seat's Lair could hold after turning over all its Secret Lairs."""
    total = 0
    for card in view["lairs"][view["seat"]]:
        code = card["card"]
        total += VALUE[code] if KIND[code] == LAIR else 1
    return total


def _leader(view: dict[str, Any], exclude: int | None = None) -> int:
    scores = view["scores"]
    seats = [s for s in range(view["seats"]) if s != exclude]
    return max(seats, key=lambda s: scores[s])


class HeuristicBot:
    name = "heuristic"
    label = "Beginner"

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError("The bot was asked to act with no legal action.")
        phase = view["phase"]
        if phase == "window":
            return self._answer(view, legal)
        if phase == "captive":
            return self._taunt_or_kill(view, legal)
        if phase == "stolen":
            return self._play_stolen(view, legal)
        return self._turn(view, legal, rng)

    # A taunt against us -------------------------------------------------------

    def _answer(self, view: dict[str, Any], legal: list[Action]) -> Action:
        foil = next((a for a in legal if a["type"] == "foil"), None)
        if foil is None:
            return {"type": "let_pass"}
        window = view["window"]
        taunter, stake = window["taunter"], window["stake"]
        scores = view["scores"]
        decisive = scores[taunter] + stake >= WINNING_POINTS
        leader = scores[taunter] >= max(scores) and stake >= 8
        if decisive or leader or stake >= 16:
            return foil
        return {"type": "let_pass"}

    # Our captive ----------------------------------------------------------------

    def _taunt_or_kill(self, view: dict[str, Any], legal: list[Action]) -> Action:
        captive = view["captive"]
        me = view["seat"]
        if view["scores"][me] + captive["value"] >= WINNING_POINTS:
            return {"type": "kill"}
        taunts = [a for a in legal if a["type"] == "taunt"]
        if not taunts:
            return {"type": "kill"}
        risk, best = min((foil_risk(view, a["card"]), a["card"]) for a in taunts)
        if risk == 0.0 or risk < 0.3:
            return {"type": "taunt", "card": best}
        return {"type": "kill"}

    # After stealing a Spy -----------------------------------------------------

    def _play_stolen(self, view: dict[str, Any], legal: list[Action]) -> Action:
        capture = self._best_capture(legal)
        if capture is not None:
            return capture
        steal = self._sure_lair_steal(view, legal)
        if steal is not None:
            return steal
        return {"type": "keep"}

    # Our turn -----------------------------------------------------------------

    def _turn(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        capture = self._best_capture(legal)
        if capture is not None:
            return capture
        steal = self._sure_lair_steal(view, legal)
        if steal is not None:
            return steal
        hand = view["hand"]
        potential = _lair_potential(view)
        lairs = sorted((c for c in hand if KIND[c] == LAIR), key=lambda c: VALUE[c], reverse=True)
        biggest_spy = max((VALUE[c] for c in hand if KIND[c] == SPY), default=0)
        if lairs and (potential < 8 or potential < biggest_spy):
            return {"type": "play_lair", "card": lairs[0]}
        steals = [a for a in legal if a["type"] == "steal_spy"]
        if steals and potential >= 4:
            return self._pick_steal(view, steals)
        if lairs:
            return {"type": "play_lair", "card": lairs[0]}
        taunts = [c for c in hand if KIND[c] == TAUNT]
        if len(taunts) > 2:
            # keep the safest letters for taunting; bury the riskiest as a Deathtrap
            riskiest = max(taunts, key=lambda c: (foil_risk(view, c), c))
            return {"type": "play_lair", "card": riskiest}
        if steals:
            return self._pick_steal(view, steals)
        return {"type": "pass"}

    # Helpers ------------------------------------------------------------------

    @staticmethod
    def _best_capture(legal: list[Action]) -> Action | None:
        captures = [a for a in legal if a["type"] == "capture"]
        if not captures:
            return None
        return max(captures, key=lambda a: (VALUE[a["card"]], -sum(VALUE[c] for c in a["reveal"])))

    @staticmethod
    def _sure_lair_steal(view: dict[str, Any], legal: list[Action]) -> Action | None:
        """A Double Agent that matches a face-up Lair: the Lair and a henchman."""
        face_up = {c["id"]: c["card"] for lair in view["lairs"] for c in lair if c["face_up"]}
        matches = [
            a
            for a in legal
            if a["type"] == "steal_lair"
            and a["lair"] in face_up
            and VALUE[face_up[a["lair"]]] == VALUE[a["card"]]
        ]
        if not matches:
            return None
        return max(matches, key=lambda a: VALUE[a["card"]])

    @staticmethod
    def _pick_steal(view: dict[str, Any], steals: list[Action]) -> Action:
        me = view["seat"]
        leader = _leader(view, exclude=me)
        hands = view["hands"]

        def appeal(action: Action) -> tuple[int, int]:
            source = action["from"]
            if source == "deck":
                return (1, 0)
            return (2 if source == leader else 1, hands[source]["spies"])

        return max(steals, key=appeal)


BOTS: Final[dict[str, Bot]] = {"random": RandomBot(), "heuristic": HeuristicBot()}


def play_game(
    bots: list[Bot], seed: int, options: dict[str, Any] | None = None
) -> tuple[Any, list[tuple[int, Action]]]:
    """Play one game with one bot per seat; return the final state and the move log.

    When several seats must act at once (a reaction window), they answer in seat order,
    each from its own view.
    """
    from games.core import chance

    from .engine import ENGINE

    state = ENGINE.start(len(bots), seed, options or {})
    rngs = [chance(seed, "bot", seat) for seat in range(len(bots))]
    moves: list[tuple[int, Action]] = []
    while True:
        seats = ENGINE.to_act(state)
        if not seats:
            return state, moves
        seat = min(seats)
        action = bots[seat].choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rngs[seat])
        state = ENGINE.apply(state, seat, action)
        moves.append((seat, action))
