"""Bots for Spies!. Both see only their own ``view``, the legal actions and the public map.

- ``random``: a uniformly random legal action (``games.core.RandomBot``).
- ``heuristic``: sets up its strongest police on its secrets and its strongest spies on foreign
  secrets, placing the pieces in a random order (table ids are public, ruling 3); guards its
  secrets with police, sends spies to the nearest secret it can discover (avoiding enemy police
  on the way), carries foreign secrets home and cashes them in, searches every enemy spy it may,
  plays Papers or Escape when a search could hurt, covers its spies and secrets, plays the Event
  Tile that pays its own spies best, never offers deals and accepts only deals that give at least
  as much as they take (secrets included).
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from typing import Any, Final

from games.core import Action, Bot, RandomBot

from .board import POWER_CODES, default_board

BOARD: Final = default_board()
CODES: Final = {code: i for i, code in enumerate(POWER_CODES)}
#: How much the bot values a chit it would keep (it returns the cheapest kind first).
KEEP: Final = {"discovery": 6, "papers": 5, "escape": 4, "cover": 3, "sanction": 2, "recruit": 1}
POLICE_RISK: Final = 4  # extra cost of a path through a city with enemy police
#: What a secret in a deal is worth to the bot: one it would get (unseen, maybe a counterspy), and
#: one it would give away (20 pounds and its victory points to the other side).
SECRET_GOT: Final = 10
SECRET_GIVEN: Final = 30


def _me(view: dict[str, Any]) -> int:
    return CODES[view["acting"]]


def _info(view: dict[str, Any], power: int) -> dict[str, Any]:
    info: dict[str, Any] = view["power_info"][power]
    return info


def _path_step(start: str, goals: set[str], danger: set[str], budget: int) -> tuple[int, str | None]:
    """Cheapest way from ``start`` to a goal: (cost, first step). Cities in ``danger`` cost more."""
    if start in goals:
        return 0, None
    best: dict[str, int] = {start: 0}
    heap: list[tuple[int, str, str | None]] = [(0, start, None)]
    while heap:
        cost, node, first = heapq.heappop(heap)
        if cost > best.get(node, 1 << 30):
            continue
        if node in goals:
            return cost, first
        if cost > budget:
            break
        for nxt in BOARD.neighbours[node]:
            step = 1 + (POLICE_RISK if nxt in danger and nxt not in goals else 0)
            total = cost + step
            if total < best.get(nxt, 1 << 30):
                best[nxt] = total
                heapq.heappush(heap, (total, nxt, first or nxt))
    return 1 << 30, None


class HeuristicBot:
    name = "heuristic"
    label = "Beginner"

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError("The bot was asked to act with no legal action.")
        if len(legal) == 1:
            return legal[0]
        window = view["window"]
        if window is not None:
            return self._answer(view, legal, window)
        phase = view["phase"]
        if phase == "setup_secrets":
            return self._place_secret(view, legal, rng)
        if phase == "setup_police":
            return self._place_police(view, legal, rng)
        if phase == "setup_spies":
            return self._place_spy(view, legal, rng)
        if phase == "offer_build":
            return {"type": "offer_cancel"}
        if phase == "event":
            return self._event(view, legal)
        if phase == "police":
            return self._police(view, legal)
        if phase == "search":
            searches = [a for a in legal if a["type"] == "search"]
            return searches[0] if searches else {"type": "searches_done"}
        return self._move(view, legal, rng)

    # Windows -------------------------------------------------------------------

    def _answer(self, view: dict[str, Any], legal: list[Action], window: dict[str, Any]) -> Action:
        kinds = {a["type"]: a for a in legal}
        if window["kind"] == "arrival":
            return kinds.get("search", {"type": "decline"})
        if window["kind"] == "evade":
            spy = next(s for s in view["spies"] if s["id"] == window["spy"])
            police = [
                p for p in view["police"] if p["power"] == window["actor"] and p["where"] == spy["where"]
            ]
            strengths = [p["strength"] for p in police]
            if None not in strengths and sum(strengths) <= spy["strength"]:
                return {"type": "decline"}  # the search cannot hurt
            if spy["controls"] is not None or spy["strength"] <= 3 or None in strengths:
                for kind in ("papers", "escape"):
                    if kind in kinds:
                        return kinds[kind]
            return {"type": "decline"}
        if window["kind"] == "cover":
            if window["cause"] == "discovery":
                secret = next(s for s in view["secrets"] if s["id"] == window["target"])
                if secret["counterspy"]:
                    return {"type": "decline"}  # let the counterspy bite
            return kinds.get("cover", {"type": "decline"})
        if window["kind"] == "offer":
            offer = view["offer"]
            if "accept" in kinds and offer is not None and "give" in offer:
                gain = offer["give"]["money"] + sum(KEEP[c] for c in offer["give"]["chits"])
                gain += SECRET_GOT * len(offer["give"]["secrets"])
                loss = offer["ask"]["money"] + sum(KEEP[c] for c in offer["ask"]["chits"])
                loss += SECRET_GIVEN * len(offer["ask"]["secrets"])
                if gain >= loss and gain > 0:
                    return kinds["accept"]
            return {"type": "decline"}
        # surplus: return the chit worth least to us
        returns = [a for a in legal if a["type"] == "return_chit"]
        return min(returns, key=lambda a: (KEEP[a["chit"]], a["chit"]))

    # Set-up --------------------------------------------------------------------

    def _place_secret(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        me = _me(view)
        police_cities = set(BOARD.police_cities[me])
        guarded = [a for a in legal if a["city"] in police_cities]
        pool = guarded or legal
        return pool[rng.randrange(len(pool))]

    def _place_police(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """The strongest police on the power's own secrets, then in its capital, then in the first
        police city with room: that plan is made for all the pieces at once, and a random piece of
        it is placed now, so the table ids (given in the order pieces reach the map) say nothing of
        strengths."""
        me = _me(view)
        code = POWER_CODES[me]
        mine = {s["where"] for s in view["secrets"] if s["origin"] == code and s["status"] == "map"}
        placed = Counter((p["strength"], p["where"]) for p in view["police"] if p["power"] == code)
        strengths = [s for s, _ in placed.elements()] + list(_info(view, me)["police_reserve_list"] or [])
        plan = Counter(self._police_plan(me, mine, strengths))
        left = sorted((plan - placed).elements())
        moves = [{"type": "place_police", "strength": s, "city": c} for s, c in left]
        moves = [a for a in moves if a in legal]
        if placed - plan or not moves:  # placed by someone else: the plan no longer fits
            return self._place_strongest_police(view, legal)
        return moves[rng.randrange(len(moves))]

    @staticmethod
    def _police_plan(me: int, secret_cities: set[str], strengths: list[int]) -> list[tuple[int, str]]:
        """Where each police piece goes, strongest first (see ``_place_police``)."""
        placed: Counter[str] = Counter()
        plan = []
        for strength in sorted(strengths, reverse=True):
            room = [c for c in BOARD.police_cities[me] if placed[c] < BOARD.police_per_city]
            city = next((c for c in room if c in secret_cities and not placed[c]), None)
            if city is None:
                city = BOARD.capitals[me] if BOARD.capitals[me] in room else room[0]
            plan.append((strength, city))
            placed[city] += 1
        return plan

    def _place_strongest_police(self, view: dict[str, Any], legal: list[Action]) -> Action:
        me = _me(view)
        code = POWER_CODES[me]
        mine = {s["where"] for s in view["secrets"] if s["origin"] == code and s["status"] == "map"}
        guarded = {p["where"] for p in view["police"] if p["power"] == code}
        strongest = max(a["strength"] for a in legal)
        best = [a for a in legal if a["strength"] == strongest]
        for a in best:
            if a["city"] in mine and a["city"] not in guarded:
                return a
        for a in best:
            if a["city"] == BOARD.capitals[me]:
                return a
        return best[0]

    def _place_spy(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """The power's strongest spies, each on a foreign secret if one is left unwatched, placed
        in a random order (so the table ids say nothing of strengths)."""
        me = _me(view)
        code = POWER_CODES[me]
        places = [a for a in legal if a["type"] == "place_spy"]
        if not places:
            return {"type": "spies_done"}
        on_map = sum(1 for s in view["spies"] if s["power"] == code)
        to_place = max(1, BOARD.powers[me].spies_at_start - on_map)
        reserve = _info(view, me)["reserve_list"] or []
        kinds = sorted(((r["strength"], r["value"]) for r in reserve), reverse=True)[:to_place]
        kinds = [k for k in kinds if any((a["strength"], a["value"]) == k for a in places)]
        if not kinds:
            kinds = [max((a["strength"], a["value"]) for a in places)]
        kind = kinds[rng.randrange(len(kinds))]
        taken = {s["where"] for s in view["spies"] if s["power"] == code}
        targets = [
            s["where"]
            for s in view["secrets"]
            if s["status"] == "map" and s["origin"] != code and s["where"] not in taken
        ]
        rng.shuffle(targets)
        for city in targets:
            for a in places:
                if (a["strength"], a["value"]) == kind and a["city"] == city:
                    return a
        return next(a for a in places if (a["strength"], a["value"]) == kind)

    # Turn steps ----------------------------------------------------------------

    def _event(self, view: dict[str, Any], legal: list[Action]) -> Action:
        me = _me(view)
        code = POWER_CODES[me]
        territory = BOARD.territory[me]
        tiles = {t["id"]: t for t in _info(view, me)["tile_list"] or []}

        def worth(tile_id: str) -> float:
            tile = tiles[tile_id]
            score = 0.0
            for city in tile["cities"]:
                powers = {s["power"] for s in view["spies"] if s["status"] == "map" and s["where"] == city}
                if code in powers and city not in territory:
                    score += 1
                score -= 0.4 * len(powers - {code})
            return score

        plays = [a for a in legal if a["type"] == "play_event"]
        if plays:
            best = max(plays, key=lambda a: (worth(a["tile"]), a["tile"]))
            if worth(best["tile"]) > 0:
                return best
        year = view["year"]
        discards = [a for a in legal if a["type"] == "discard_event"]
        # discard the tile least likely to be of use: expired first, then the one playable soonest
        return min(
            discards, key=lambda a: (max(tiles[a["tile"]]["years"]) >= year, min(tiles[a["tile"]]["years"]))
        )

    def _police(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if {"type": "police_done"} in legal:
            return {"type": "police_done"}
        return next(a for a in legal if a["type"] == "police")

    def _move(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        me = _me(view)
        code = POWER_CODES[me]
        by_type: dict[str, list[Action]] = {}
        for a in legal:
            by_type.setdefault(a["type"], []).append(a)
        money = _info(view, me)["money"]
        for kind in ("cash", "guard"):
            if kind in by_type:
                return by_type[kind][0]
        secrets = {s["id"]: s for s in view["secrets"]}
        spies = {s["id"]: s for s in view["spies"]}
        for a in by_type.get("discover", []):
            secret = secrets[a["secret"]]
            if secret["counterspy"] is True or (secret["value"] == 0 and secret["counterspy"] is not None):
                continue
            return a
        for a in by_type.get("sanction", []):
            if spies[a["target"]]["controls"] is not None and money >= 12:
                return a
        if "escape" in by_type and money >= 14:
            return by_type["escape"][0]
        if "recruit" in by_type and money >= 24:
            return max(by_type["recruit"], key=lambda a: (a["strength"], a["value"]))
        moves = by_type.get("move", [])
        if moves:
            choice = self._best_step(view, moves, me, code, secrets)
            if choice is not None:
                return choice
        if "end_turn" in by_type:
            return by_type["end_turn"][0]
        return moves[rng.randrange(len(moves))] if moves else legal[0]

    def _best_step(
        self,
        view: dict[str, Any],
        moves: list[Action],
        me: int,
        code: str,
        secrets: dict[str, dict[str, Any]],
    ) -> Action | None:
        """The next step of the spy with the most to gain (the one already moving first)."""
        hand = _info(view, me)["hand"] or []
        has_discovery = "discovery" in hand
        danger = {p["where"] for p in view["police"] if p["power"] != code and p["status"] == "map"}
        capital = BOARD.capitals[me]
        targets = {
            s["where"]
            for s in view["secrets"]
            if s["status"] == "map"
            and s["where"] in BOARD.cities
            and (s["controller"] is None or not s["controller"].startswith(code + "-"))
            and s["counterspy"] is not True
            and not (s["origin"] == code and s["where"] in BOARD.territory[me] and s["controller"] is None)
        }
        own_home = {
            s["where"]
            for s in view["secrets"]
            if s["status"] == "map"
            and s["origin"] == code
            and s["controller"] is None
            and s["where"] in BOARD.territory[me]
        }
        options: dict[str, list[Action]] = {}
        for a in moves:
            options.setdefault(a["spy"], []).append(a)
        mover = view["step"]["mover"]
        order = sorted(options, key=lambda sid: (sid != mover, sid))
        for spy_id in order:
            spy = next(s for s in view["spies"] if s["id"] == spy_id)
            where = spy["where"]
            carried = secrets.get(spy["controls"]) if spy["controls"] else None
            if carried is not None:
                goals = {capital} if carried["origin"] != code else set(BOARD.home_cities[me])
            elif own_home and where in BOARD.territory[me]:
                goals = own_home
            else:
                # go for the nearest secret to discover (or wait there for a Discovery chit)
                goals = targets - {
                    s["where"] for s in view["spies"] if s["power"] == code and s["id"] != spy_id
                }
                if not has_discovery and where in targets:
                    continue
            if not goals or where in goals:
                continue
            budget = 12
            _cost, first = _path_step(where, goals, danger, budget)
            if first is None:
                continue
            for a in options[spy_id]:
                if a["to"] == first:
                    return a
        # a spy at sea must land: any legal step towards a port
        if mover is not None and mover in options:
            spy = next(s for s in view["spies"] if s["id"] == mover)
            if spy["where"] in BOARD.sea_zones:
                return options[mover][0]
        return None


BOTS: Final[dict[str, Bot]] = {"random": RandomBot(), "heuristic": HeuristicBot()}


def play_game(
    bots: list[Bot], seed: int, options: dict[str, Any] | None = None, limit: int = 100_000
) -> tuple[Any, list[tuple[int, Action]]]:
    """Play one game with one bot per seat; return the final state and the move log."""
    from games.core import chance

    from .engine import ENGINE

    state = ENGINE.start(len(bots), seed, options or {})
    rngs = [chance(seed, "bot", seat) for seat in range(len(bots))]
    moves: list[tuple[int, Action]] = []
    for _ in range(limit):
        seats = ENGINE.to_act(state)
        if not seats:
            return state, moves
        seat = min(seats)
        action = bots[seat].choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rngs[seat])
        state = ENGINE.apply(state, seat, action)
        moves.append((seat, action))
    raise RuntimeError(f"The game did not end in {limit} moves.")
