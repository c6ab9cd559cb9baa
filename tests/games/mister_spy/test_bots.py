"""The random and heuristic bots: legal play from their own view, and the heuristic's choices."""

from __future__ import annotations

import random

from games.core import RandomBot
from games.mister_spy import ENGINE, MisterSpyState
from games.mister_spy.bots import BOTS, HeuristicBot, foil_risk, play_game

from .tables import play, table

HEURISTIC = HeuristicBot()
RNG = random.Random(0)


def choose(state: MisterSpyState, seat: int) -> dict[str, object]:
    return HEURISTIC.choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), RNG)


def test_bots_are_registered_by_name_and_follow_the_bot_protocol() -> None:
    assert set(BOTS) == {"random", "heuristic"}
    assert isinstance(BOTS["random"], RandomBot)
    for name, bot in BOTS.items():
        assert bot.name == name
        assert isinstance(bot.name, str) and callable(bot.choose)


def test_bots_play_whole_games_for_every_player_count() -> None:
    for seats in range(2, 7):
        for seed in range(3):
            bots = [BOTS["heuristic"] if seat % 2 else BOTS["random"] for seat in range(seats)]
            state, moves = play_game(bots, seed)  # apply() would raise on an illegal choice
            assert ENGINE.outcome(state) is not None and moves


def test_the_heuristic_decides_from_the_view_alone() -> None:
    state = ENGINE.start(4, 12, {})
    view, legal = ENGINE.view(state, 0), ENGINE.legal(state, 0)
    first = HEURISTIC.choose(view, legal, random.Random(1))
    assert first in legal
    assert HEURISTIC.choose(view, legal, random.Random(99)) == first  # no hidden input, no luck


def test_the_heuristic_captures_the_biggest_spy_it_can() -> None:
    state = table(
        [["spy-2", "spy-5", "spy-7", "lair-4"], []], lairs=[[("lair-4", True), ("lair-2", False)], []]
    )
    assert choose(state, 0) == {"type": "capture", "card": "spy-5", "reveal": []}


def test_the_heuristic_steals_a_face_up_lair_its_spy_matches() -> None:
    state = table([["spy-3", "taunt-A"], [("lair-2")]], lairs=[[], [("lair-3", True), ("lair-4", False)]])
    assert choose(state, 0) == {"type": "steal_lair", "card": "spy-3", "lair": "L1"}


def test_the_heuristic_taunts_when_no_foil_is_possible() -> None:
    # the other taunt-B is in the discard pile: the B taunt cannot be foiled
    state = table(
        [["spy-3", "taunt-B"], ["lair-2", "lair-3", "lair-4", "taunt-C"]],
        lairs=[[("lair-3", True)], []],
        discard=["taunt-B"],
    )
    state = ENGINE.apply(state, 0, {"type": "capture", "card": "spy-3", "reveal": []})
    assert foil_risk(ENGINE.view(state, 0), "taunt-B") == 0.0
    assert choose(state, 0) == {"type": "taunt", "card": "taunt-B"}


def test_the_heuristic_kills_when_a_foil_is_likely_or_the_kill_wins() -> None:
    # the other D is unseen and the opponent holds most of the unseen cards
    hand = ["lair-2"] * 5 + ["lair-3"] * 5 + ["lair-4"] * 4 + ["taunt-A", "taunt-C", "taunt-E"]
    state = table([["spy-3", "taunt-D"], hand], lairs=[[("lair-4", True)], []])
    state = ENGINE.apply(state, 0, {"type": "capture", "card": "spy-3", "reveal": []})
    assert foil_risk(ENGINE.view(state, 0), "taunt-D") > 0.3
    assert choose(state, 0) == {"type": "kill"}
    state = table(
        [["spy-3", "taunt-B"], []],
        lairs=[[("lair-3", True)], []],
        piles=[[("spy-8", ["taunt-E", "taunt-F"])], []],
        discard=["taunt-B"],
    )
    state = ENGINE.apply(state, 0, {"type": "capture", "card": "spy-3", "reveal": []})
    assert choose(state, 0) == {"type": "kill"}  # 32 + 3 wins at once


def test_the_heuristic_keeps_its_foil_for_the_leader_or_a_decisive_taunt() -> None:
    def window(
        taunter_pile: list[tuple[str, list[str]]], other_pile: list[tuple[str, list[str]]]
    ) -> MisterSpyState:
        state = table(
            [["spy-2", "taunt-A"], ["taunt-A"], []],
            lairs=[[("lair-2", True)], [], []],
            piles=[taunter_pile, [], other_pile],
        )
        return play(
            state,
            (0, {"type": "capture", "card": "spy-2", "reveal": []}),
            (0, {"type": "taunt", "card": "taunt-A"}),
        )

    # a small stake from a player who is not ahead: let it pass, keep the card
    assert choose(window([], [("spy-6", [])]), 1) == {"type": "let_pass"}
    # the taunter would reach 33 by killing now: foil
    assert choose(window([("spy-8", ["taunt-B", "taunt-C"]), ("spy-7", [])], []), 1) == {
        "type": "foil",
        "card": "taunt-A",
    }


def test_the_heuristic_beats_random_bots() -> None:
    games, wins = 60, 0.0
    for seed in range(games):
        seat = seed % 4
        bots = [BOTS["random"]] * 4
        bots[seat] = BOTS["heuristic"]
        state, _ = play_game(bots, 1000 + seed)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
    assert wins / games > 0.4  # a random seat wins about 0.25 of 4-player games
