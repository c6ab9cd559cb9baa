"""The rules pages state the numbers the engines play by, and no number of their own.

Each page shows a table of its figures (``data-rules-numbers``: a row per figure, with a key and
a value); the first test reads it off the rendered page and compares it with what the engine
does or holds, found here without the page's own helper (``spyleague.play.rules_data``): by
dealing a game, counting the deck, scoring with the engine's tables. The second test reads the
templates: a digit written in one is a number the engine did not supply (the Black Spy page once
said "the other black cards 2 to 5", where the engine scores the black 1 to 6 a point each).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from games import get_engine

RULES_TEMPLATES = Path("templates/play/rules")
SLUGS = ["black-spy", "mister-spy", "spy-vs-spy", "spycatcher", "spies"]


# --- what each engine has, found from the engine itself -----------------------------------------


def _black_spy() -> dict[str, int]:
    from games.black_spy import engine, scoring
    from games.black_spy.cards import BLACK_SPY, CARD_ID, COLOUR_OF, DECK, DECK_ID, IS_BLACK, VALUE

    eng = engine.ENGINE
    # How many cards one seat passes: pass until the seat is no longer asked.
    state = eng.start(4, 7, {})
    passed = 0
    while 0 in eng.to_act(state) and eng.view(state, 0)["phase"] == "pass":
        state = eng.apply(state, 0, eng.legal(state, 0)[0])
        passed += 1
    out = {
        "deck": len(DECK),
        "colour_cards": sum(1 for c in DECK if COLOUR_OF[DECK_ID[c]] == 0),
        "black_cards": sum(IS_BLACK[DECK_ID[c]] for c in DECK),
        "black_spies": DECK_ID.count(BLACK_SPY),
        "pass": passed,
        "value.coloured-spy": VALUE[CARD_ID["blue-7"]],
        "value.coloured-other": VALUE[CARD_ID["green-11"]],
        "deal_total": sum(VALUE[DECK_ID[c]] for c in DECK),
        "deal_total.no_good_spies": sum(max(0, VALUE[DECK_ID[c]]) for c in DECK),
        "all_black.taker": scoring.all_black_points(4, 2)[2],
        "all_black.others": scoring.all_black_points(4, 2)[0],
        "capture_or_release.taker": scoring.all_black_points(4, 2, "subtract")[2],
        "mole": engine.MOLE_CARDS,
    }
    assert {VALUE[CARD_ID[f"{c}-7"]] for c in ("blue", "yellow", "red", "green")} == {
        out["value.coloured-spy"]
    }
    for n in eng.seats:
        out[f"hand.{n}"] = len(eng.view(eng.start(n, 3, {}), 0)["hand"])
        out[f"end_value.{n}"] = scoring.END_VALUES[n]
    for rank in range(1, 12):
        out[f"value.black-{rank}"] = VALUE[CARD_ID[f"black-{rank}"]]
    return out


def _mister_spy() -> dict[str, int]:
    from games.mister_spy import cards
    from games.mister_spy.engine import ENGINE, Lair

    kinds = Counter(card.split("-")[0] for card in cards.DECK)
    lairs = Counter(card for card in cards.DECK if card.startswith("lair-"))
    spies = Counter(card for card in cards.DECK if card.startswith("spy-"))
    taunts = Counter(card for card in cards.DECK if card.startswith("taunt-"))
    out = {
        "deck": len(cards.DECK),
        "lair_cards": kinds["lair"],
        "taunt_cards": kinds["taunt"],
        "spy_cards": kinds["spy"],
        "taunt_letters": len(taunts),
        "taunt_copies": max(taunts.values()),
        "secret_lair": Lair("L1", "lair-4", False).size,
        "winning_points": cards.WINNING_POINTS,
    }
    out |= {f"lair.{card.split('-')[1]}": n for card, n in lairs.items()}
    out |= {f"spy.{card.split('-')[1]}": n for card, n in spies.items()}
    for n in ENGINE.seats:  # seat 1: the dealer (seat 0) has already drawn for its first turn
        out[f"hand.{n}"] = ENGINE.view(ENGINE.start(n, 5, {}), 1)["hands"][1]["cards"]
    return out


def _spy_vs_spy() -> dict[str, int]:
    from games.spy_vs_spy import cards, scoring
    from games.spy_vs_spy.engine import ENGINE

    two = ENGINE.view(ENGINE.start(2, 4, {}), 0)
    one = ENGINE.view(ENGINE.start(1, 4, {}), 0)
    half = ENGINE.view(ENGINE.start(2, 4, {"half_decks": True}), 0)
    return {
        "deck": len(cards.DECK),
        "half_deck": len(cards.DECK) // 2,
        "start_points": two["players"][0]["points_pile"],
        "start_points.single": one["players"][0]["points_pile"],
        "square": scoring.SQUARE,
        "max_piles": scoring.MAX_PILES,
        "first_removes": scoring.FIRST_REMOVES,
        "bonus": two["bonus_points"],
        "bonus.half": half["bonus_points"],
        "online.fewest": ENGINE.seats.start,
        "online.most": ENGINE.seats.stop - 1,
    }


def _spycatcher() -> dict[str, int]:
    from games.spycatcher import cards, engine

    eng = engine.ENGINE
    board = eng.boards["league"]
    kinds = Counter(square.kind for square in board.squares)
    hand = len(eng.view(eng.start(3, 2, {}), 0)["hand"])
    (other,) = set(engine.HAND_SIZES) - {hand}
    assert len(eng.view(eng.start(3, 2, {"hand_size": other}), 0)["hand"]) == other
    return {
        "influence_cards": len(cards.DECK),
        "suits": len({cards.SUIT[c] for c in cards.DECK}),
        "highest_number": max(cards.NUMBER.values()),
        "masters": sum(1 for c in cards.DECK if c.endswith("-M")) // len(cards.SUITS),
        "hand": hand,
        "hand.other": other,
        "run": len(cards.runs(["court-1", "court-2", "court-3"], "court")[0]),
        "challenge.most": max(
            len(c) for c in cards.challenges([f"court-{n}" for n in range(1, 13)], "court")
        ),
        "permissions": len(board.packs),
        "action_squares": kinds["action"],
        "challenge_squares": kinds["challenge"],
        "turn_limit": eng.view(eng.start(3, 2, {}), 0)["turn_limit"],
        "winner_score": engine.WINNER_SCORE,
    }


def _spies() -> dict[str, int]:
    from games.spies.engine import BOARD, ENGINE

    out = {
        "first_year": min(BOARD.multipliers),
        "last_year": max(BOARD.multipliers),
        "powers": len(BOARD.powers),
        "secrets": len(BOARD.secrets),
        "secret_cities": len(BOARD.secret_cities),
        "counterspies": sum(1 for s in BOARD.secrets if s.counterspy),
        "tiles.own": Counter(t.power for t in BOARD.events.values() if t.power is not None)[0],
        "tiles.random": BOARD.random_events_drawn,
        "tiles.random_pool": sum(1 for t in BOARD.events.values() if t.power is None),
        "police_per_city": BOARD.police_per_city,
        "move_spaces": BOARD.move_spaces,
        "chits_in_hand": BOARD.chits_in_hand,
        "cash_in.money": BOARD.cash_in_money,
        "cash_in.chits": BOARD.cash_in_chits,
        "sanction_marker": BOARD.sanction_marker_value,
        "offers_per_turn": ENGINE.options["offers_per_turn"].default,
    }
    out |= {f"multiplier.{y}": m for y, m in BOARD.multipliers.items()}
    out |= {f"chit_cost.{kind}": spec.cost for kind, spec in BOARD.chits.items()}
    out |= {f"bank.{p.code}": p.bank for p in BOARD.powers}
    out |= {f"spies.{p.code}": p.spies_at_start for p in BOARD.powers}
    return out


ENGINE_NUMBERS: dict[str, Callable[[], dict[str, int]]] = {
    "black-spy": _black_spy,
    "mister-spy": _mister_spy,
    "spy-vs-spy": _spy_vs_spy,
    "spycatcher": _spycatcher,
    "spies": _spies,
}


# --- the page's table ---------------------------------------------------------------------------

ROW = re.compile(
    r'<tr data-key="([^"]+)"><th scope="row">(.*?)</th><td class="num" data-value="(-?\d+)">(.*?)</td></tr>',
    re.S,
)


def page_numbers(page: str) -> dict[str, tuple[int, str]]:
    table = page[page.index("data-rules-numbers") :]
    table = table[: table.index("</table>")]
    rows = {key: (int(value), html.unescape(shown)) for key, _label, value, shown in ROW.findall(table)}
    assert rows and table.count("<tr") == len(rows), "every row of the table is read"
    return rows


def number_in_words(text: str) -> int:
    """A cell as printed: a minus sign (U+2212) before a negative number, ``£`` after money."""
    found = re.fullmatch(r"([\u2212-]?)(\d+)£?", text.strip())
    assert found, text
    return -int(found.group(2)) if found.group(1) else int(found.group(2))


@pytest.mark.parametrize("slug", SLUGS)
def test_a_rules_page_states_the_numbers_its_engine_plays_by(client: Any, slug: str) -> None:
    page = client.get(reverse("play:rules", args=[slug])).content.decode()
    shown = page_numbers(page)
    engine = ENGINE_NUMBERS[slug]()
    assert sorted(shown) == sorted(engine), "the page's figures are the engine's, no more and no fewer"
    wrong = {
        key: (value, text, engine[key])
        for key, (value, text) in shown.items()
        if value != engine[key] or number_in_words(text) != engine[key]
    }
    assert not wrong, f"figures that are not the engine's (page value, printed, engine): {wrong}"


def test_the_engines_figures_are_found_by_playing_them() -> None:
    """A check of the checker: the figures above change with the engine's data."""
    from games.black_spy import cards

    assert _black_spy()["value.black-3"] == 1 and _black_spy()["deal_total"] == 60
    real = cards.VALUE
    try:
        cards.VALUE = tuple(2 if i == cards.CARD_ID["black-3"] else v for i, v in enumerate(real))  # type: ignore[misc]
        assert _black_spy()["value.black-3"] == 2
    finally:
        cards.VALUE = real  # type: ignore[misc]


# --- the templates ------------------------------------------------------------------------------

TEMPLATE_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)


def written_digits(source: str) -> list[str]:
    """The numbers a template writes itself: outside its tags (``{{ r.deck }}``), not the level
    of an HTML heading (``<h2>``) nor a name (MI5)."""
    text = TEMPLATE_TAG.sub(" ", source)
    text = re.sub(r"(</?h)[1-6]\b", r"\1", text)
    return re.findall(r"(?<![A-Za-z\d])\d[\d.,]*", text)


def test_no_rules_template_writes_a_number_of_its_own() -> None:
    templates = sorted(RULES_TEMPLATES.glob("*.html"))
    assert len(templates) == len(SLUGS) + 1  # a page per game and their frame
    found = {t.name: digits for t in templates if (digits := written_digits(t.read_text()))}
    assert not found, f"numbers written in the rules templates (take them from the engine): {found}"
    # Inside the tags too: a number there is one the engine did not give.
    in_tags = {
        t.name: tags
        for t in templates
        if (tags := [m for m in TEMPLATE_TAG.findall(t.read_text()) if re.search(r"\d", m)])
    }
    assert not in_tags, in_tags


def test_the_check_of_the_templates_sees_a_number_written_in_words() -> None:
    assert written_digits("<p>the other black cards 2 to 5</p>") == ["2", "5"]
    assert (
        written_digits("<h2>Deal</h2><p>{{ r.deck }} cards, {% if x %}Red {{ r.card }}{% endif %}</p>") == []
    )
    assert written_digits("<p>Red 1.</p><p>Go to MI5.</p>") == ["1."]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_figure_a_rules_template_asks_for_is_supplied(slug: str) -> None:
    """``{{ r.name }}`` would print nothing for a name the view does not supply."""
    from spyleague.play.rules_data import rules_facts

    facts = rules_facts(slug)
    used = set()
    for path in (RULES_TEMPLATES / f"{slug}.html", RULES_TEMPLATES / "_page.html"):
        used |= set(re.findall(r"\br\.(\w+)", path.read_text()))
    assert used - set(facts) == set(), f"asked for but not supplied: {sorted(used - set(facts))}"


@pytest.mark.parametrize(
    ("slug", "wrong", "right"),
    [
        # What the pages once said, against the engine: black 1-6 score a point each.
        ("black-spy", "the other black cards 2 to 5", "the black 1 to 6 score 1 point each"),
        # A challenge is 1 to 3 cards of a greater total, and then nobody takes the permission.
        ("spycatcher", "The strongest run takes the permission", "nobody takes the permission card"),
        # The call comes mid-race, once there are six piles.
        (
            "spy-vs-spy",
            "You call a card at the start of each race",
            "the first card that fits nowhere is called",
        ),
    ],
)
def test_the_rules_pages_say_what_the_engines_do(client: Any, slug: str, wrong: str, right: str) -> None:
    page = re.sub(r"\s+", " ", client.get(reverse("play:rules", args=[slug])).content.decode())
    assert wrong not in page
    assert right in page


def test_the_rules_pages_head_says_who_plays_at_a_table_and_online(client: Any) -> None:
    page = client.get(reverse("play:rules", args=["spy-vs-spy"])).content.decode()
    online = get_engine("spy-vs-spy").seats
    assert f"Any number of players at a table; {online.start} to {online.stop - 1} online" in page
    assert "3 to 6 players" in client.get(reverse("play:rules", args=["black-spy"])).content.decode()
