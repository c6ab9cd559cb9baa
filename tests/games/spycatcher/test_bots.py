"""The random and heuristic bots: legal play from their own view, and the heuristic's choices."""

from __future__ import annotations

import random

from games.core import RandomBot
from games.spycatcher import ENGINE, SpycatcherState
from games.spycatcher.bots import BOTS, HeuristicBot, beat_chance, card_value, play_game
from games.spycatcher.cards import SUITS
from games.spycatcher.engine import ROLL

from .tables import table, with_die

HEURISTIC = HeuristicBot()
RUN = ["court-5", "court-6", "court-7"]


def choose(state: SpycatcherState, seat: int) -> dict[str, object]:
    return HEURISTIC.choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), random.Random(0))


def sought(
    run: list[str], others: list[list[str]], permissions: list[list[str]] | None = None
) -> SpycatcherState:
    state = table(
        [[*run, "press-1"], *others],
        positions=["court-1"] + ["c1"] * len(others),
        phase=ROLL,
        permissions=permissions,
    )
    state = ENGINE.apply(with_die(state, 1), 0, {"type": "roll"})
    return ENGINE.apply(state, 0, {"type": "seek", "cards": run})


def test_bots_are_registered_by_name_and_follow_the_bot_protocol() -> None:
    assert set(BOTS) == {"random", "heuristic", "intermediate", "expert"}
    assert isinstance(BOTS["random"], RandomBot)
    for name, bot in BOTS.items():
        assert bot.name == name and callable(bot.choose)


def test_bots_play_whole_games_for_every_player_count() -> None:
    for seats in range(2, 7):
        bots = [BOTS["heuristic"] if seat % 2 else BOTS["random"] for seat in range(seats)]
        state, moves = play_game(bots, seats, {"turn_limit": 40})  # apply() would raise on an illegal choice
        assert ENGINE.outcome(state) is not None and moves


def test_heuristic_bots_finish_their_games_at_the_centre() -> None:
    for seats, seed in ((2, 1), (4, 2), (6, 3)):
        state, _ = play_game([BOTS["heuristic"]] * seats, seed)
        outcome = ENGINE.outcome(state)
        assert outcome is not None and outcome.detail["end"] == "centre"


def test_the_heuristic_beats_random_bots() -> None:
    wins = 0
    for seed in range(6):
        bots = [BOTS["heuristic"], BOTS["random"], BOTS["random"]]
        state, _ = play_game(bots, seed, {"turn_limit": 80})
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        wins += 0 in outcome.winners
    assert wins >= 5


def test_the_heuristic_decides_from_the_view_alone() -> None:
    state = ENGINE.start(4, 12, {})
    view, legal = ENGINE.view(state, state.turn), ENGINE.legal(state, state.turn)
    assert HEURISTIC.choose(view, legal, random.Random(1)) in legal


def test_the_heuristic_keeps_runs_and_masters_of_the_suits_it_needs() -> None:
    hand = ["court-5", "court-6", "court-7", "court-M", "press-1", "press-9", "government-12"]
    needed = {"court", "press", "government"}
    values = {card: card_value(card, hand, needed) for card in hand}
    assert values["court-M"] > values["court-6"] > values["press-1"]
    assert card_value("government-12", hand, {"court"}) < 1  # a suit already held: only for challenging


def test_the_heuristic_takes_the_discard_when_it_completes_a_run() -> None:
    state = table(
        [
            ["court-5", "court-6", "press-1", "press-8", "government-2", "publisher-11", "publisher-3"],
            ["press-2"],
        ],
        discard=["court-7"],
    )
    assert choose(state, 0) == {"type": "draw", "from": "discard"}
    state = table([["court-5", "court-6", "press-1"], ["press-2"]], discard=["publisher-12"])
    assert choose(state, 0) == {"type": "draw", "from": "pack"}


def test_the_heuristic_stays_to_seek_permission_when_it_holds_a_run() -> None:
    state = table([[*RUN, "press-1"], ["press-2"]], positions=["court-4", "c1"], phase=ROLL)
    assert choose(state, 0) == {"type": "stay"}
    state = table([["court-1", "press-1"], ["press-2"]], positions=["court-4", "c1"], phase=ROLL)
    assert choose(state, 0) == {"type": "roll"}


def test_the_heuristic_seeks_with_a_high_run_and_keeps_its_master() -> None:
    state = table(
        [["court-10", "court-11", "court-12", "court-M"], ["press-2"]],
        positions=["court-4", "c1"],
        phase=ROLL,
    )
    state = ENGINE.apply(state, 0, {"type": "stay"})
    assert choose(state, 0) == {"type": "seek", "cards": ["court-10", "court-11", "court-12"]}
    state = table(
        [["court-1", "court-2", "court-3", "court-M"], ["press-2"]], positions=["court-4", "c1"], phase=ROLL
    )
    state = ENGINE.apply(state, 0, {"type": "stay"})
    assert choose(state, 0) == {"type": "seek", "cards": ["court-M"]}


def test_the_heuristic_challenges_a_leader_it_can_likely_beat_and_never_a_master() -> None:
    state = sought(
        RUN, [["court-11", "court-12"]], permissions=[["press", "government", "publisher"], ["court"]]
    )
    assert choose(state, 1) == {"type": "challenge", "cards": ["court-11", "court-12"]}
    master = sought(["court-M"], [["court-11", "court-12"]], permissions=[list(SUITS[1:]), ["court"]])
    assert choose(master, 1) == {"type": "decline"}
    weak = sought(RUN, [["court-1"]])
    assert choose(weak, 1) == {"type": "decline"}


def test_beat_chance_counts_only_the_runs_still_possible() -> None:
    assert beat_chance(34, "court", set()) == 1.0
    assert beat_chance(6, "court", set()) == 0.0
    # holding court-1 rules out 1-2-3 (total 6): the lowest run left totals 9
    assert beat_chance(9, "court", {"court-1"}) == 0.0
    assert beat_chance(10, "court", {"court-1"}) == 1 / 9


def test_the_heuristic_heads_for_the_centre_with_all_four() -> None:
    state = table(
        [["court-1"], ["press-1"]], positions=["c5", "c1"], permissions=[list(SUITS), []], phase=ROLL
    )
    state = ENGINE.apply(with_die(state, 3), 0, {"type": "roll"})  # c6 -> c7 forks: c8 or the north spoke
    assert choose(state, 0) == {"type": "move", "to": "north-1"}
