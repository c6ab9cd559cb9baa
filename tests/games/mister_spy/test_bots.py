"""The bots: legal play from their own view, the heuristic's choices, and the expert's search
(hidden states sampled consistently with the view, own cards kept, same rng same move, a move
chosen from the view alone)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from games.core import RandomBot
from games.mister_spy import ENGINE, MisterSpyState
from games.mister_spy.bots import BOTS, ExpertBot, HeuristicBot, determinize, foil_risk, play_game
from games.mister_spy.cards import DECK, KIND, SPY
from games.mister_spy.engine import CAPTIVE, OVER, STOLEN, TURN, WINDOW

from .tables import all_cards, play, table

HEURISTIC = HeuristicBot()
RNG = random.Random(0)


def choose(state: MisterSpyState, seat: int) -> dict[str, object]:
    return HEURISTIC.choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), RNG)


def test_bots_are_registered_by_name_and_follow_the_bot_protocol() -> None:
    assert set(BOTS) == {"random", "heuristic", "intermediate", "expert"}
    assert isinstance(BOTS["random"], RandomBot)
    for name, bot in BOTS.items():
        assert bot.name == name
        assert isinstance(bot.name, str) and callable(bot.choose)
    labels = {name: bot.label for name, bot in BOTS.items()}
    assert labels["intermediate"] == "Intermediate" and labels["expert"] == "Expert"
    assert isinstance(BOTS["expert"], ExpertBot) and isinstance(BOTS["intermediate"], ExpertBot)
    assert BOTS["intermediate"].search.samples < BOTS["expert"].search.samples
    assert BOTS["expert"].search.max_seconds <= 1.0


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


# The expert's search ----------------------------------------------------------------------


def positions(games: int) -> list[tuple[MisterSpyState, int]]:
    """Every position of some games at 2 to 6 seats (random and heuristic play mixed, the acting
    seat picked at random in a window so that windows are seen half answered), each with every
    seat, whether it acts or not."""
    out = []
    for g in range(games):
        rng = random.Random(g)
        seats = 2 + g % 5
        state = ENGINE.start(seats, g, {"dealer": g % seats})
        bots = [HEURISTIC if rng.random() < 0.6 else BOTS["random"] for _ in range(seats)]
        while True:
            out.extend((state, seat) for seat in range(seats))
            acting = sorted(ENGINE.to_act(state))
            if not acting:
                break
            seat = rng.choice(acting)
            view = ENGINE.view(state, seat)
            state = ENGINE.apply(state, seat, bots[seat].choose(view, ENGINE.legal(state, seat), rng))
    return out


POSITIONS = positions(20)


def test_a_sampled_state_has_the_same_view_and_play_goes_on_legally_from_it() -> None:
    kinds: Counter[str] = Counter()
    for i, (state, seat) in enumerate(POSITIONS):
        view = ENGINE.view(state, seat)
        sampled = determinize(view, random.Random(i))
        assert ENGINE.view(sampled, seat) == view
        assert all_cards(sampled) == Counter(DECK)  # the hidden parts hold the cards not seen
        kinds[state.phase] += 1
        if state.window is not None and len(state.window.waiting) < state.seats - 1:
            kinds["window half answered"] += 1
        if state.stolen is not None:
            kinds["stolen from a hand" if state.stolen.source is not None else "stolen from the deck"] += 1
        if i % 7 == 0:
            rng = random.Random(i)
            for _ in range(12):  # play on from the sample with random moves
                acting = sorted(ENGINE.to_act(sampled))
                if not acting:
                    break
                who = rng.choice(acting)
                sampled = ENGINE.apply(sampled, who, rng.choice(ENGINE.legal(sampled, who)))
    for kind in (TURN, STOLEN, CAPTIVE, WINDOW, OVER, "window half answered"):
        assert kinds[kind] > 0, kind
    assert kinds["stolen from a hand"] and kinds["stolen from the deck"]


def test_a_sampled_state_keeps_what_the_seat_knows() -> None:
    hidden_seen = 0
    for i, (state, seat) in enumerate(POSITIONS[::3]):
        sampled = determinize(ENGINE.view(state, seat), random.Random(i))
        assert sampled.hands[seat] == state.hands[seat]
        assert sampled.lairs[seat] == state.lairs[seat]  # its Secret Lairs and Deathtraps too
        assert sampled.piles[seat] == state.piles[seat]  # the letters of its own taunts
        assert [len(h) for h in sampled.hands] == [len(h) for h in state.hands]
        assert [sum(KIND[c] == SPY for c in h) for h in sampled.hands] == [
            sum(KIND[c] == SPY for c in h) for h in state.hands
        ]
        if state.captor == seat:
            assert sampled.captive == state.captive
        if state.stolen is not None and seat in (state.turn, state.stolen.source):
            assert sampled.stolen == state.stolen and state.stolen.card in sampled.hands[state.turn]
        hidden_seen += sampled.hands != state.hands or sampled.deck[sampled.top :] != state.deck[state.top :]
    assert hidden_seen > 0


def test_samples_differ_in_what_the_view_hides() -> None:
    state, seat = next((s, t) for s, t in POSITIONS if s.seats == 3 and s.phase == TURN and s.top > 20)
    view = ENGINE.view(state, seat)
    a, b = determinize(view, random.Random(1)), determinize(view, random.Random(2))
    assert a.hands[seat] == b.hands[seat] == state.hands[seat]
    assert a.hands != b.hands or a.deck != b.deck
    assert determinize(view, random.Random(1)) == a


def searched_positions(limit: int) -> list[tuple[MisterSpyState, int]]:
    """Positions where the seat acts and has a choice, a few of every phase."""
    out, per_phase = [], Counter[str]()
    for state, seat in POSITIONS:
        acts = seat in ENGINE.to_act(state) and len(ENGINE.legal(state, seat)) > 1
        if acts and per_phase[state.phase] < limit:
            per_phase[state.phase] += 1
            out.append((state, seat))
    return out


def test_the_same_rng_gives_the_same_move() -> None:
    expert = ExpertBot("expert", "Expert", 3, max_seconds=60.0)
    for i, (state, seat) in enumerate(searched_positions(4)):
        view, legal = ENGINE.view(state, seat), ENGINE.legal(state, seat)
        first = expert.choose(view, legal, random.Random(i))
        assert first in legal
        assert expert.choose(view, legal, random.Random(i)) == first


def test_the_expert_answers_after_one_sample_with_no_time() -> None:
    expert = ExpertBot("expert", "Expert", 50, max_seconds=0.0)
    searched = 0
    for i, (state, seat) in enumerate(searched_positions(5)):
        legal = ENGINE.legal(state, seat)
        assert expert.choose(ENGINE.view(state, seat), legal, random.Random(i)) in legal
        assert expert.search.last_samples <= 1
        searched += expert.search.last_samples
    assert searched > 5


def test_the_expert_decides_from_the_view_alone() -> None:
    """A twin with other hidden cards but the same view gets the same move."""
    expert = ExpertBot("expert", "Expert", 3, max_seconds=60.0)
    checked = 0
    for i, (state, seat) in enumerate(searched_positions(5)):
        view = ENGINE.view(state, seat)
        twin = replace(determinize(view, random.Random(1000 + i)), seed=state.seed + 1)
        assert ENGINE.view(twin, seat) == view
        assert ENGINE.legal(twin, seat) == ENGINE.legal(state, seat)
        checked += twin.hands != state.hands or twin.lairs != state.lairs
        move = expert.choose(view, ENGINE.legal(state, seat), random.Random(i))
        assert expert.choose(ENGINE.view(twin, seat), ENGINE.legal(twin, seat), random.Random(i)) == move
    assert checked > 5


def test_the_expert_searches_only_when_there_is_a_choice() -> None:
    expert = ExpertBot("expert", "Expert", 2, max_seconds=60.0)
    single = [(s, t) for s, t in POSITIONS if t in ENGINE.to_act(s) and len(ENGINE.legal(s, t)) == 1]
    assert any(s.phase == WINDOW for s, _ in single)  # a window without the matching taunt
    for i, (state, seat) in enumerate(single[:200]):
        view, legal = ENGINE.view(state, seat), ENGINE.legal(state, seat)
        assert expert.choose(view, legal, random.Random(i)) == legal[0]
        assert expert.search.last_samples == 0
    foils = [(s, t) for s, t in searched_positions(50) if s.phase == WINDOW][:3]
    assert foils
    for i, (state, seat) in enumerate(foils):  # holding the matching taunt: foil or let it pass?
        legal = ENGINE.legal(state, seat)
        assert expert.choose(ENGINE.view(state, seat), legal, random.Random(i)) in legal
        assert expert.search.last_samples == 2


def test_search_bots_play_whole_games() -> None:
    intermediate = ExpertBot("intermediate", "Intermediate", 1, max_seconds=60.0)
    for seats in (2, 4):
        bots = [intermediate if seat % 2 == 0 else HEURISTIC for seat in range(seats)]
        state, moves = play_game(bots, seats)  # apply() would raise on an illegal choice
        assert ENGINE.outcome(state) is not None and moves
