"""Bots for Mister Spy. Every one sees only its own ``view`` and the legal actions.

- ``random``: a uniformly random legal action (``games.core.RandomBot``).
- ``heuristic``: captures the biggest Spy it can, steals Lairs only when it knows the result,
  builds its Lair, sets Deathtraps with spare taunts, taunts when no foil is likely (it counts
  the taunt cards it can see to find letters nobody else can hold), and keeps a foil for the
  leader or for a taunt that would decide the game.
- ``intermediate`` and ``expert``: the heuristic's choice unless a search finds a better one
  (``ExpertBot``): hidden states sampled consistently with the view (``determinize``), every
  action played out to the end with the heuristic in every seat (``games.core.search``); the
  expert takes more samples. Double Agent plays that the seat cannot tell apart are searched once.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Final

from games.core import Action, Bot, LogEntry, RandomBot, chance
from games.core.search import GuidedSearchBot

from .cards import DECK, KIND, LAIR, SPY, TAUNT, VALUE, WINNING_POINTS
from .engine import ENGINE, Lair, MisterSpyState, Spy, Stolen, Window

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


# The expert: search over hidden states ---------------------------------------------------


def _id_number(table_id: object) -> int:
    """``"L7"`` / ``"S12"`` -> 7 / 12 (0 for anything else)."""
    if isinstance(table_id, str) and table_id[1:].isdigit():
        return int(table_id[1:])
    return 0


def _known_cards(view: dict[str, Any]) -> Counter[str]:
    """Every card whose place this seat knows: its own cards, the table's face-up cards, the
    taunt being read, and a Spy it saw stolen (from its hand or by itself)."""
    known = _seen_cards(view)
    stolen = view["stolen"]
    if stolen is not None and stolen["card"] is not None and stolen["seat"] != view["seat"]:
        known[stolen["card"]] += 1  # taken from this seat's hand: the thief holds it
    return known


def _deal_taunts(
    slots: list[tuple[int, frozenset[str]]], pool: Counter[str], rng: random.Random
) -> list[tuple[str, ...]] | None:
    """Distinct-letter taunts for every slot (how many, letters it may not hold), drawn from
    ``pool`` (taken out of it), or ``None`` when no such deal exists."""
    if not slots:
        return []
    (count, banned), rest = slots[0], slots[1:]
    letters = [card for card, left in pool.items() if left > 0 and card not in banned]
    # a random order, each letter weighted by its copies, so that every deal can be drawn
    letters.sort(key=lambda card: rng.random() ** (1 / pool[card]), reverse=True)
    for _ in range(3):
        if len(letters) < count:
            return None
        chosen = letters[:count]
        pool.subtract(chosen)
        deal = _deal_taunts(rest, pool, rng)
        if deal is not None:
            return [tuple(chosen), *deal]
        pool.update(chosen)
        rng.shuffle(letters)
    return None


def determinize(view: dict[str, Any], rng: random.Random) -> MisterSpyState:
    """A full state the game could be in, given ``view``: ``ENGINE.view(state, seat) == view``.

    The cards this seat cannot see (other hands, whose Spy backs show; the deck, whose top back
    shows; other players' Secret Lairs; the taunts face down on their Spies and on a captive)
    are the cards it has not seen, dealt at random within what the table shows; the seed of
    the chance still to come (which Spy a steal takes) is drawn anew.
    """
    n: int = view["seats"]
    me: int = view["seat"]
    unknown = Counter(DECK)
    unknown.subtract(_known_cards(view))
    assert min(unknown.values()) >= 0, unknown
    unknown_taunts = Counter({c: k for c, k in unknown.items() if k > 0 and KIND[c] == TAUNT})

    # the taunts face down on other players' Spies and on a captive this seat does not hold
    slots: list[tuple[int, frozenset[str]]] = []
    places: list[tuple[int, int]] = []  # (pile owner, index); owner -1 for the captive
    for owner, pile in enumerate(view["score_piles"]):
        if owner == me:
            continue
        for i, spy in enumerate(pile):
            if spy["taunts"]:
                slots.append((spy["taunts"], frozenset()))
                places.append((owner, i))
    captive = view["captive"]
    window = view["window"]
    if captive is not None and captive["captor"] != me and captive["taunts"]:
        banned = frozenset([window["taunt"]]) if window is not None else frozenset()
        slots.append((captive["taunts"], banned))
        places.append((-1, 0))
    order = sorted(range(len(slots)), key=lambda k: -slots[k][0])
    deal = None
    for _ in range(20):
        pool = Counter(unknown_taunts)
        deal = _deal_taunts([slots[k] for k in order], pool, rng)
        if deal is not None:
            break
    assert deal is not None, "no deal of the hidden taunts fits the view"
    hidden_taunts: dict[tuple[int, int], tuple[str, ...]] = {
        places[k]: cards for k, cards in zip(order, deal, strict=True)
    }
    unknown.subtract(card for cards in deal for card in cards)

    spies = [c for c, k in unknown.items() for _ in range(k) if KIND[c] == SPY]
    others = [c for c, k in unknown.items() for _ in range(k) if KIND[c] != SPY]
    rng.shuffle(spies)
    rng.shuffle(others)

    # other players' Secret Lairs: any Lair card or taunt
    lairs = []
    for row in view["lairs"]:
        cards = []
        for entry in row:
            card = entry["card"]
            if card is None:
                card = others.pop()
            cards.append(Lair(entry["id"], card, entry["face_up"]))
        lairs.append(tuple(cards))

    stolen_view = view["stolen"]
    thief = view["turn"]
    hands: list[tuple[str, ...]] = []
    for entry in view["hands"]:
        seat = entry["seat"]
        if seat == me:
            hands.append(tuple(view["hand"]))
            continue
        spy_count, other_count = entry["spies"], entry["cards"] - entry["spies"]
        hand = [others.pop() for _ in range(other_count)]
        if stolen_view is not None and seat == thief and stolen_view["card"] is not None:
            hand.append(stolen_view["card"])  # taken from this seat's hand
            spy_count -= 1
        hand.extend(spies.pop() for _ in range(spy_count))
        hands.append(tuple(sorted(hand)))

    deck_view = view["deck"]
    assert len(spies) + len(others) == deck_view["cards"], (len(spies), len(others), deck_view)
    deck: list[str] = []
    if deck_view["top_is_spy"] is True:
        deck.append(spies.pop())
    elif deck_view["top_is_spy"] is False:
        deck.append(others.pop())
    rest = [*spies, *others]
    rng.shuffle(rest)
    deck.extend(rest)

    piles = []
    for owner, pile in enumerate(view["score_piles"]):
        row = []
        for i, spy in enumerate(pile):
            taunts = tuple(spy["taunt_cards"]) if owner == me else hidden_taunts.get((owner, i), ())
            row.append(Spy(spy["id"], spy["card"], taunts, spy["how"]))
        piles.append(tuple(row))

    captor: int | None = None
    spy_held: Spy | None = None
    if captive is not None:
        captor = captive["captor"]
        taunts = tuple(captive["taunt_cards"]) if captor == me else hidden_taunts.get((-1, 0), ())
        spy_held = Spy(captive["id"], captive["card"], taunts, captive["how"])
    open_window = None
    if window is not None:
        # nobody has foiled yet: a seat that could have foiled and has answered may have let it pass
        open_window = Window(window["taunter"], window["taunt"], frozenset(window["waiting"]), frozenset())
    stolen = None
    if stolen_view is not None:
        source = None if stolen_view["from"] == "deck" else stolen_view["from"]
        card = stolen_view["card"]
        if card is None:
            card = rng.choice([c for c in hands[thief] if KIND[c] == SPY])
        stolen = Stolen(card, source)

    events: list[dict[str, Any]] = view["events"]
    log: LogEntry | None = None
    for event in events:
        log = LogEntry(event, log)
    serial = max(
        [
            *(_id_number(entry["id"]) for row in view["lairs"] for entry in row),
            *(_id_number(spy["id"]) for pile in view["score_piles"] for spy in pile),
            _id_number(captive["id"]) if captive is not None else 0,
            *(_id_number(event.get(key)) for event in events for key in ("lair", "spy")),
        ]
    )
    return MisterSpyState(
        seats=n,
        seed=rng.getrandbits(63),
        dealer=view["dealer"],
        deck=tuple(deck),
        top=0,
        hands=tuple(hands),
        lairs=tuple(lairs),
        piles=tuple(piles),
        scores=tuple(view["scores"]),
        discard=tuple(view["discard"]),
        turn=view["turn"],
        phase=view["phase"],
        captor=captor,
        captive=spy_held,
        window=open_window,
        stolen=stolen,
        serial=serial,
        steals=0,
        log=log,
        end=view["end"],
    )


def _distinct(view: dict[str, Any], legal: list[Action]) -> list[Action]:
    """``legal`` less the Double Agent plays that this seat cannot tell apart: the same Spy
    against another Secret Lair of the same owner, or another face-up Lair card of the same
    value and owner (the first of each kind stays)."""
    where = {
        entry["id"]: (owner, entry["card"] if entry["face_up"] else None)
        for owner, row in enumerate(view["lairs"])
        for entry in row
    }
    kept: list[Action] = []
    seen: set[tuple[str, int, str | None]] = set()
    for action in legal:
        if action["type"] == "steal_lair":
            key = (action["card"], *where[action["lair"]])
            if key in seen:
                continue
            seen.add(key)
        kept.append(action)
    return kept


class ExpertBot(GuidedSearchBot):
    """The heuristic's choice, unless a search over hidden states finds a better one
    (``GuidedSearchBot``) among the actions this seat can tell apart (``_distinct``)."""

    def __init__(self, name: str, label: str, samples: int, max_seconds: float = 0.4) -> None:
        super().__init__(
            ENGINE,
            determinize,
            name=name,
            label=label,
            policy=HeuristicBot(),
            samples=samples,
            max_seconds=max_seconds,
        )

    def options(self, view: dict[str, Any], legal: list[Action], guess: Action) -> list[Action]:
        kept = _distinct(view, legal)
        return [] if len(kept) == 1 else [a for a in kept if a != guess]


BOTS: Final[dict[str, Bot]] = {
    "random": RandomBot(),
    "heuristic": HeuristicBot(),
    "intermediate": ExpertBot("intermediate", "Intermediate", 6),
    "expert": ExpertBot("expert", "Expert", 24),
}


def play_game(
    bots: list[Bot], seed: int, options: dict[str, Any] | None = None
) -> tuple[Any, list[tuple[int, Action]]]:
    """Play one game with one bot per seat; return the final state and the move log.

    When several seats must act at once (a reaction window), they answer in seat order,
    each from its own view.
    """
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
