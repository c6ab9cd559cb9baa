"""What a game's rules page says with numbers, taken from its rules engine.

A rules page (``templates/play/rules/<slug>.html``) writes no number of its own: every card
value, hand size, count of cards, number of points, table size and winning score it states
comes from here, and everything here is read from the engine's data (its constants, its board
and counter files, a game it deals). So the page cannot say "2 to 5" when the engine scores
1 to 6. Each page also shows ``numbers``, a table of the figures it rests on, each row with a
stable key (``data-key``) and its value (``data-value``), which a test compares with the
engine's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games import game_info, get_engine
from games.registry import ANY_NUMBER


@dataclass(frozen=True)
class Number:
    """One row of a rules page's table of figures."""

    key: str
    label: str
    value: int
    unit: str = ""  # written after the number ("£" for the money of Spies!)

    @property
    def shown(self) -> str:
        """The value as the page prints it (a true minus sign for a negative number)."""
        number = f"\N{MINUS SIGN}{-self.value}" if self.value < 0 else str(self.value)
        return number + self.unit


def and_list(words: Iterable[object], last: str = "and") -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    items = [str(w) for w in words]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def span(low: object, high: object) -> str:
    """``2, 4`` -> ``"2 to 4"``; ``"A", "I"`` -> ``"A to I"``; ``3, 3`` -> ``"3"``."""
    return str(low) if low == high else f"{low} to {high}"


def by_players(counts: Sequence[tuple[int, int]], unit: str) -> str:
    """``[(3, 20), (4, 15)]`` -> ``"20 cards each with 3 players and 15 with 4"``."""
    parts = [
        f"{value} {unit} with {players} players" if i == 0 else f"{value} with {players}"
        for i, (players, value) in enumerate(counts)
    ]
    return and_list(parts)


def players_words(slug: str) -> str:
    """Who plays, for the page's heading: the table's range and, where it differs, the online one."""
    info = game_info(slug)
    table = info.players
    try:
        online = get_engine(slug).seats
    except LookupError:
        return table.capitalize()
    if online == info.seats:
        return table.capitalize()
    if info.seats.stop - 1 >= ANY_NUMBER:
        return f"{table.capitalize()} at a table; {span(online.start, online.stop - 1)} online"
    return f"{table.capitalize()}; {span(online.start, online.stop - 1)} online"


# --- Black Spy -------------------------------------------------------------------------------


def _black_value_words(values: dict[int, int], spy_rank: int) -> str:
    """The black cards' points in words, grouped as the cards run: "the black 1 to 6 score 1
    point each, each Black Spy 10 and the black 8 to 11 score 2 to 5"."""
    parts: list[str] = []
    ranks = sorted(values)
    i = 0
    while i < len(ranks):
        low = ranks[i]
        if low == spy_rank:
            parts.append(f"each Black Spy {values[low]}")
            i += 1
            continue
        j = i
        runs = j + 1 < len(ranks) and ranks[j + 1] == low + 1 and ranks[j + 1] != spy_rank
        step = values[ranks[j + 1]] - values[low] if runs else None
        if step in (0, 1):
            while (
                j + 1 < len(ranks)
                and ranks[j + 1] == ranks[j] + 1
                and ranks[j + 1] != spy_rank
                and values[ranks[j + 1]] == values[ranks[j]] + step
            ):
                j += 1
        high = ranks[j]
        if low == high:
            parts.append(f"the black {low} {_points(values[low])}")
        elif step == 0:
            parts.append(f"the black {low} to {high} {_points(values[low])} each")
        else:
            parts.append(f"the black {low} to {high} score {values[low]} to {values[high]}")
        i = j + 1
    return and_list(parts)


def _points(value: int) -> str:
    return f"score {value} point" if value == 1 else f"score {value}"


def black_spy() -> dict[str, Any]:
    from games.black_spy import engine, scoring
    from games.black_spy.cards import (
        BLACK,
        BLACK_CARDS,
        BLACK_SPY,
        CARD_ID,
        COLOURS,
        DECK,
        DECK_ID,
        RANK_OF,
        RED_1,
        VALUE,
        VALUE_NO_GOOD_SPIES,
    )

    seats = engine.ENGINE.seats
    ranks = len(engine.RANK_NAMES) - 1
    spy_rank = RANK_OF[BLACK_SPY]
    black_spies = DECK_ID.count(BLACK_SPY)
    coloured = COLOURS[:BLACK]
    hands = [(n, len(DECK) // n) for n in seats]
    ends = [(n, scoring.end_value_for(n)) for n in seats]
    black_values = {r: VALUE[CARD_ID[f"black-{r}"]] for r in range(1, ranks + 1)}
    coloured_spy = VALUE[CARD_ID[f"{coloured[0]}-{spy_rank}"]]
    others = {VALUE[CARD_ID[f"{c}-{r}"]] for c in coloured for r in range(1, ranks + 1) if r != spy_rank}
    (coloured_other,) = others  # every other coloured card scores the same (nothing)
    taker, everyone = scoring.all_black_points(seats.start, 0, "give")[:2]
    subtract = scoring.all_black_points(seats.start, 0, "subtract")[0]
    deal_total = sum(VALUE[DECK_ID[c]] for c in DECK)
    deal_total_no_good_spies = sum(VALUE_NO_GOOD_SPIES[DECK_ID[c]] for c in DECK)
    numbers = [
        Number("deck", "Cards in the deck", len(DECK)),
        Number("colour_cards", "Cards of each of the four colours", ranks),
        Number("black_cards", "Black cards", BLACK_CARDS),
        Number("black_spies", "Black Spies", black_spies),
        *(Number(f"hand.{n}", f"Cards in each hand, {n} players", size) for n, size in hands),
        Number("pass", "Cards each player passes, every deal", engine.PASS_CARDS),
        *(
            Number(f"value.black-{r}", f"Black {r} ({engine.RANK_NAMES[r]})", v)
            for r, v in black_values.items()
        ),
        Number("value.coloured-spy", f"Each blue, yellow, red or green Spy ({spy_rank})", coloured_spy),
        Number("value.coloured-other", "Every other blue, yellow, red or green card", coloured_other),
        Number("deal_total", "Points in a deal", deal_total),
        Number(
            "deal_total.no_good_spies",
            "Points in a deal with No Good Spies",
            deal_total_no_good_spies,
        ),
        Number("all_black.taker", "All the black cards: the taker scores", taker),
        Number("all_black.others", "All the black cards: every other player scores", everyone),
        Number("capture_or_release.taker", "Capture or Release: the taker may score instead", subtract),
        *(Number(f"end_value.{n}", f"End value, {n} players", v) for n, v in ends),
        Number("mole", "The Mole: cards set aside for each player", engine.MOLE_CARDS),
    ]
    return {
        "deck": len(DECK),
        "ranks": ranks,
        "lowest": f"{engine.RANK_NAMES[1]} ({1})",
        "highest": f"{engine.RANK_NAMES[ranks]} ({ranks})",
        "colours": and_list(coloured),
        "black_cards": BLACK_CARDS,
        "extra_spies": black_spies - 1,
        "black_spies": black_spies,
        "spy_rank": spy_rank,
        "hands": by_players(hands, "cards each"),
        "pass_cards": engine.PASS_CARDS,
        "first_lead": engine.describe(RED_1).split(" (")[0],
        "black_values": _black_value_words(black_values, spy_rank),
        "coloured_spy_off": -coloured_spy,
        "deal_total": deal_total,
        "deal_total_no_good_spies": deal_total_no_good_spies,
        "taker": taker,
        "others": everyone,
        "subtract_off": -subtract,
        "ends": by_players(ends, "points"),
        "mole_cards": engine.MOLE_CARDS,
        "numbers": numbers,
    }


# --- Before I Kill You, Mister Spy ----------------------------------------------------------


def mister_spy() -> dict[str, Any]:
    from games.mister_spy import cards
    from games.mister_spy.engine import ENGINE, Lair

    seats = ENGINE.seats
    lairs = len(cards.LAIR_VALUES) * cards.LAIR_COPIES
    taunts = len(cards.TAUNT_LETTERS) * cards.TAUNT_COPIES
    spies = sum(cards.SPY_COUNTS.values())
    hands = [(n, cards.HAND_SIZES[n]) for n in seats]
    secret_lair = Lair("L0", f"lair-{cards.LAIR_VALUES[-1]}", False).size
    numbers = [
        Number("deck", "Cards in the deck", len(cards.DECK)),
        Number("lair_cards", "Lair cards", lairs),
        *(Number(f"lair.{v}", f"Lair cards worth {v}", cards.LAIR_COPIES) for v in cards.LAIR_VALUES),
        Number("secret_lair", "What a face-down Lair card (a Secret Lair) is worth", secret_lair),
        Number("taunt_cards", "Taunt cards", taunts),
        Number("taunt_letters", "Taunt letters", len(cards.TAUNT_LETTERS)),
        Number("taunt_copies", "Taunt cards of each letter", cards.TAUNT_COPIES),
        Number("spy_cards", "Spies", spies),
        *(Number(f"spy.{v}", f"Spies worth {v} points", n) for v, n in cards.SPY_COUNTS.items()),
        *(Number(f"hand.{n}", f"Cards dealt to each player, {n} players", size) for n, size in hands),
        Number("winning_points", "Points that win at once", cards.WINNING_POINTS),
    ]
    spy_values = sorted(cards.SPY_COUNTS)
    return {
        "players": span(seats.start, seats.stop - 1),
        "deck": len(cards.DECK),
        "lair_cards": lairs,
        "lair_values": and_list(cards.LAIR_VALUES, "or"),
        "lair_copies": cards.LAIR_COPIES,
        "secret_lair": secret_lair,
        "taunt_cards": taunts,
        "taunt_letters": span(cards.TAUNT_LETTERS[0], cards.TAUNT_LETTERS[-1]),
        "taunt_copies": cards.TAUNT_COPIES,
        "spy_cards": spies,
        "spy_values": span(spy_values[0], spy_values[-1]),
        "hands": by_players(hands, "cards each"),
        "winning_points": cards.WINNING_POINTS,
        "numbers": numbers,
    }


# --- Spy vs Spy -----------------------------------------------------------------------------


def spy_vs_spy() -> dict[str, Any]:
    from games.spy_vs_spy import scoring
    from games.spy_vs_spy.engine import ENGINE

    online = ENGINE.seats
    numbers = [
        Number("deck", "Cards in each player's deck", scoring.DECK_SIZE),
        Number("half_deck", "Cards each with half decks (two players)", scoring.HALF_DECK_SIZE),
        Number("start_points", "Cards set aside as the points pile", scoring.START_POINTS),
        Number("start_points.single", "Cards set aside in a game for one", scoring.START_POINTS_SINGLE),
        Number("square", "Piles laid face up to start a race", scoring.SQUARE),
        Number("max_piles", "Most piles a player may have", scoring.MAX_PILES),
        Number("first_removes", "Cards the first to finish takes off", scoring.FIRST_REMOVES),
        Number("bonus", "Bonus: cards taken off", scoring.BONUS_FULL),
        Number("bonus.half", "Bonus with half decks", scoring.BONUS_HALF),
        Number("online.fewest", "Fewest racers online", online.start),
        Number("online.most", "Most racers online", online.stop - 1),
    ]
    return {
        "deck": scoring.DECK_SIZE,
        "half_deck": scoring.HALF_DECK_SIZE,
        "start_points": scoring.START_POINTS,
        "start_points_single": scoring.START_POINTS_SINGLE,
        "square": scoring.SQUARE,
        "max_piles": scoring.MAX_PILES,
        "new_piles": scoring.MAX_PILES - scoring.SQUARE,
        "first_removes": scoring.FIRST_REMOVES,
        "bonus": scoring.BONUS_FULL,
        "bonus_half": scoring.BONUS_HALF,
        "online": span(online.start, online.stop - 1),
        "numbers": numbers,
    }


# --- Spycatcher -----------------------------------------------------------------------------


def spycatcher() -> dict[str, Any]:
    from games.spycatcher import cards, engine

    board = engine.ENGINE.boards[engine.ENGINE.options["board"].default]
    kinds = [square.kind for square in board.squares]
    hand = engine.ENGINE.options["hand_size"].default
    other_hand = next(size for size in engine.HAND_SIZES if size != hand)
    numbers = [
        Number("influence_cards", "Influence cards", len(cards.DECK)),
        Number("suits", "Suits (one for each circle and permission)", len(cards.SUITS)),
        Number("highest_number", "Numbered cards in each suit (from 1)", max(cards.NUMBERS)),
        Number(
            "masters",
            "Master cards in each suit",
            sum(1 for c in cards.DECK if cards.is_master(c)) // len(cards.SUITS),
        ),
        Number("hand", "Influence cards dealt to each player", hand),
        Number("hand.other", "Or, if the match chooses", other_hand),
        Number("run", "Cards in a run to seek permission", cards.RUN),
        Number("challenge.most", "Most cards in a challenge", cards.MOST_CHALLENGE_CARDS),
        Number("permissions", "Permissions needed to win", len(board.packs)),
        Number("action_squares", "Action squares on the board", kinds.count("action")),
        Number("challenge_squares", "Challenge squares on the board", kinds.count("challenge")),
        Number(
            "turn_limit",
            "Rounds before the game stops (unless the match sets another number)",
            engine.DEFAULT_TURN_LIMIT,
        ),
        Number("winner_score", "The winner's score (four permissions and the book)", engine.WINNER_SCORE),
    ]
    return {
        "players": span(engine.ENGINE.seats.start, engine.ENGINE.seats.stop - 1),
        "influence_cards": len(cards.DECK),
        "suits": and_list(cards.SUITS),
        "suit_count": len(cards.SUITS),
        "highest_number": max(cards.NUMBERS),
        "lowest_number": min(cards.NUMBERS),
        "hand": hand,
        "hand_after_draw": hand + 1,
        "other_hand": other_hand,
        "run": cards.RUN,
        "run_example": and_list(range(min(cards.NUMBERS) + 4, min(cards.NUMBERS) + 4 + cards.RUN)),
        "challenge_cards": and_list(range(1, cards.MOST_CHALLENGE_CARDS + 1), "or"),
        "permissions": len(board.packs),
        "action_squares": kinds.count("action"),
        "turn_limit": engine.DEFAULT_TURN_LIMIT,
        "winner_score": engine.WINNER_SCORE,
        "numbers": numbers,
    }


# --- Spies! ---------------------------------------------------------------------------------


def spies() -> dict[str, Any]:
    from games.spies import board as spies_board
    from games.spies.engine import BOARD, ENGINE

    years = list(range(spies_board.FIRST_YEAR, spies_board.LAST_YEAR + 1))
    own_tiles = {p: sum(1 for t in BOARD.events.values() if t.power == p) for p in range(len(BOARD.powers))}
    (tiles_each,) = set(own_tiles.values())
    random_tiles = sum(1 for t in BOARD.events.values() if t.power is None)
    chits = BOARD.chits
    numbers = [
        Number("first_year", "The first year", years[0]),
        Number("last_year", "The last year", years[-1]),
        Number("powers", "Powers", len(BOARD.powers)),
        Number("secrets", "Secrets", len(BOARD.secrets)),
        Number("secret_cities", "SECRET cities (a secret in each)", len(BOARD.secret_cities)),
        Number(
            "counterspies", "Counterspies among the secrets", sum(1 for s in BOARD.secrets if s.counterspy)
        ),
        Number("tiles.own", "Event Tiles of each power's own", tiles_each),
        Number("tiles.random", "Random Event Tiles each power draws", BOARD.random_events_drawn),
        Number("tiles.random_pool", "Random Event Tiles in all", random_tiles),
        Number("police_per_city", "Most police of a power in a city", BOARD.police_per_city),
        Number("move_spaces", "Spaces a spy may move in a turn", BOARD.move_spaces),
        Number("chits_in_hand", "Most Action chits a power may hold", BOARD.chits_in_hand),
        Number("cash_in.money", "Money for a secret cashed in (thousands)", BOARD.cash_in_money, "£"),
        Number("cash_in.chits", "A secret cashed in also gives Action chits", BOARD.cash_in_chits),
        Number("sanction_marker", "A Sanctioned Spy marker's value", BOARD.sanction_marker_value),
        Number(
            "offers_per_turn",
            "Offers a power may make in its turn",
            ENGINE.options["offers_per_turn"].default,
        ),
        *(
            Number(f"multiplier.{y}", f"Victory points for each point of value, {y}", m)
            for y, m in sorted(BOARD.multipliers.items())
        ),
        *(
            Number(f"chit_cost.{kind}", f"Price of a {spec.name} chit (thousands)", spec.cost, "£")
            for kind, spec in chits.items()
        ),
        *(
            Number(f"bank.{p.code}", f"{p.name}'s money at the start (thousands)", p.bank, "£")
            for p in BOARD.powers
        ),
        *(
            Number(f"spies.{p.code}", f"{p.name}'s spies placed at the start, at most", p.spies_at_start)
            for p in BOARD.powers
        ),
    ]
    return {
        "first_year": years[0],
        "last_year": years[-1],
        "years": len(years),
        "powers": and_list(p.name for p in BOARD.powers),
        "power_count": len(BOARD.powers),
        "players": span(ENGINE.seats.start, ENGINE.seats.stop - 1),
        "secret_cities": len(BOARD.secret_cities),
        "own_tiles": tiles_each,
        "random_tiles": BOARD.random_events_drawn,
        "tiles": tiles_each + BOARD.random_events_drawn,
        "police_per_city": BOARD.police_per_city,
        "move_spaces": BOARD.move_spaces,
        "chits_in_hand": BOARD.chits_in_hand,
        "cash_in_money": BOARD.cash_in_money,
        "cash_in_chits": BOARD.cash_in_chits,
        "chits": [
            {"name": spec.name, "price": f"{spec.cost}£", "text": spec.text} for spec in chits.values()
        ],
        "two_players_russia": and_list(years[0::2]),
        "offers_per_turn": ENGINE.options["offers_per_turn"].default,
        "numbers": numbers,
    }


FACTS: dict[str, Callable[[], dict[str, Any]]] = {
    "black-spy": black_spy,
    "mister-spy": mister_spy,
    "spy-vs-spy": spy_vs_spy,
    "spycatcher": spycatcher,
    "spies": spies,
}


def rules_facts(slug: str) -> dict[str, Any]:
    """Everything a rules page states with a number, from the engine (empty for a game without)."""
    facts = FACTS.get(slug)
    out = facts() if facts is not None else {"numbers": []}
    out["players_words"] = players_words(slug)
    return out
