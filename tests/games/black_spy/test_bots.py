"""The random and heuristic bots play legal moves; the heuristic bot beats random ones."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.black_spy import ENGINE
from games.black_spy import engine as bs
from games.black_spy.bots import (
    BOTS,
    ExpertBot,
    HeuristicBot,
    danger,
    determinize,
    evaluate,
    first_share,
    win_chance,
)
from games.black_spy.cards import CARD_ID, FOLLOW, LOW55, ids_of
from games.core import Bot, RandomBot

from .helpers import VARIANTS
from .test_rules import all_black_hands, rigged_play, take_all_black


def play(bots: list[Bot], seed: int, options: dict[str, Any] | None = None) -> tuple[list[int], int]:
    rng = random.Random(seed)
    state = ENGINE.start(len(bots), seed, options or {})
    while ENGINE.to_act(state):
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal(state, seat)
        action = bots[seat].choose(ENGINE.view(state, seat), legal, rng)
        assert action in legal
        state = ENGINE.apply(state, seat, action)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return [int(s) for s in outcome.scores], outcome.detail["deals"]


def test_the_bots_are_registered_under_their_names() -> None:
    assert set(BOTS) == {"random", "heuristic", "intermediate", "expert"}
    assert isinstance(BOTS["random"], RandomBot) and isinstance(BOTS["heuristic"], HeuristicBot)
    assert isinstance(BOTS["intermediate"], ExpertBot) and isinstance(BOTS["expert"], ExpertBot)
    assert all(bot.name == name for name, bot in BOTS.items())
    assert BOTS["intermediate"].label == "Intermediate" and BOTS["expert"].label == "Expert"
    assert BOTS["intermediate"].search.samples < BOTS["expert"].search.samples
    assert all(bot.search.max_seconds <= 1.0 for bot in (BOTS["intermediate"], BOTS["expert"]))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_heuristic_bot_plays_every_variant_legally(players: int) -> None:
    options = {
        "no_good_spies": True,
        "the_mole": True,
        "calling_color": True,
        "following_rank": True,
        "going_back": True,
        "capture_or_release": True,
    }
    play([BOTS["heuristic"]] * players, players, options)


def test_the_heuristic_bot_scores_far_less_than_random_bots() -> None:
    heuristic = random_points = 0.0
    for game in range(24):
        me = game % 4
        bots = [BOTS["heuristic"] if seat == me else BOTS["random"] for seat in range(4)]
        scores, deals = play(bots, 500 + game)
        heuristic += scores[me] / deals
        random_points += sum(s for seat, s in enumerate(scores) if seat != me) / deals / 3
    assert heuristic / 24 < 0.6 * random_points / 24


def test_the_heuristic_bot_passes_its_most_dangerous_cards_first() -> None:
    assert danger("black-7") > danger("black-11") > danger("black-1") > danger("red-11") > danger("red-7")
    view = {"hand": ["blue-1", "black-7", "red-11"]}
    legal = [{"type": "pass", "card": c} for c in view["hand"]]
    assert BOTS["heuristic"].choose(view, legal, random.Random(0)) == {"type": "pass", "card": "black-7"}


def test_the_heuristic_bot_sheds_a_black_spy_when_it_cannot_follow() -> None:
    view = {
        "players": 3,
        "options": {},
        "trick": [{"seat": 0, "card": "red-4"}],
        "hand": ["blue-2", "black-7", "green-11"],
    }
    legal = [{"type": "play", "card": c} for c in view["hand"]]
    assert BOTS["heuristic"].choose(view, legal, random.Random(0))["card"] == "black-7"


def test_the_heuristic_bot_ducks_under_the_winning_card() -> None:
    view = {
        "players": 4,
        "options": {},
        "trick": [{"seat": 0, "card": "red-8"}],
        "hand": ["red-2", "red-6", "red-9"],
    }
    legal = [{"type": "play", "card": c} for c in view["hand"]]
    assert BOTS["heuristic"].choose(view, legal, random.Random(0))["card"] == "red-6"


def test_the_heuristic_bot_chooses_on_all_black_cards() -> None:
    state = take_all_black(rigged_play(all_black_hands(), {"capture_or_release": True}, scores=[10, 20, 30]))
    choice = BOTS["heuristic"].choose(ENGINE.view(state, 0), ENGINE.legal(state, 0), random.Random(0))
    assert choice == {"type": "all_black", "choice": "subtract"}
    options = {"capture_or_release": True, "end_value": 150}
    state = take_all_black(rigged_play(all_black_hands(), options, scores=[10, 100, 90]))
    choice = BOTS["heuristic"].choose(ENGINE.view(state, 0), ENGINE.legal(state, 0), random.Random(0))
    assert choice == {"type": "all_black", "choice": "give"}  # 160 and 150 end the game with seat 0 lowest


# -- the expert: determinize and search ------------------------------------------------------------


def heuristic_states(players: int, seed: int, options: dict[str, Any]) -> list[bs.State]:
    """Every state of a game the heuristic bots play, from the start to the end."""
    rng = random.Random(seed)
    state = ENGINE.start(players, seed, options)
    states = [state]
    while ENGINE.to_act(state):
        seat = min(ENGINE.to_act(state))
        action = BOTS["heuristic"].choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rng)
        state = ENGINE.apply(state, seat, action)
        states.append(state)
    return states


def sampled_points() -> list[tuple[bs.State, int]]:
    """Seeded points of games at every table size and mix of variants, in every phase."""
    points: list[tuple[bs.State, int]] = []
    for game in range(8):
        players = 3 + game % 4
        options = {name: bool(game >> i & 1) for i, name in enumerate(VARIANTS)} if game else {}
        if game >= 4:
            options.update(the_mole=True, calling_color=True)
        states = heuristic_states(players, 70 + game, options)
        rng = random.Random(game)
        for state in [*rng.sample(states, 40), states[-1]]:
            points.append((state, rng.randrange(players)))
    rigged = take_all_black(rigged_play(all_black_hands(), {"capture_or_release": True}))
    points.append((rigged, 0))
    points.append((rigged, 1))
    return points


POINTS = sampled_points()


def test_the_sampled_points_cover_every_phase() -> None:
    phases = {ENGINE.view(state, seat)["phase"] for state, seat in POINTS}
    assert phases == set(bs.PHASES)


def test_determinize_gives_a_state_with_the_same_view() -> None:
    for k, (state, seat) in enumerate(POINTS):
        view = ENGINE.view(state, seat)
        for sample in range(3):
            sampled = determinize(view, random.Random(1000 * k + sample))
            assert ENGINE.view(sampled, seat) == view
            assert ENGINE.to_act(sampled) == ENGINE.to_act(state)
            for acting in ENGINE.to_act(sampled):
                if acting == seat:
                    assert ENGINE.legal(sampled, seat) == ENGINE.legal(state, seat)


def test_determinize_keeps_the_seats_own_cards_and_the_table_and_deals_every_card() -> None:
    for k, (state, seat) in enumerate(POINTS):
        sampled = determinize(ENGINE.view(state, seat), random.Random(k))
        assert sampled.hand(seat) == state.hand(seat)
        assert sampled.passes[seat] == state.passes[seat]
        assert (sampled.trick, sampled.leader, sampled.turn) == (state.trick, state.leader, state.turn)
        assert sampled.tricks[-1:] == state.tricks[-1:]
        assert sampled.deal.scores == state.deal.scores and sampled.deal.history == state.deal.history
        assert sampled.cfg.end_value == state.cfg.end_value and sampled.cfg.options == state.cfg.options
        assert sampled.cfg.seed != state.cfg.seed  # future deals reseeded
        if state.phase not in (bs.PASS, bs.MOLE, bs.ALL_BLACK) and state.passes[seat]:
            # every card is somewhere, once: in a hand, in the trick or in a trick taken
            cards = sorted(c for s in range(state.cfg.players) for c in ids_of(sampled.hand(s)))
            cards += bs.trick_cards(sampled.trick)
            cards += [c for packed in sampled.tricks for c in bs.trick_cards(packed)]
            assert sorted(cards) == sorted(bs.DECK_ID)


def test_determinize_respects_the_cards_a_seat_has_shown_it_lacks() -> None:
    checked = 0
    for k, (state, seat) in enumerate(POINTS):
        view = ENGINE.view(state, seat)
        trick = view["trick"]
        if view["phase"] != "play" or len(trick) < 2:
            continue
        lead = CARD_ID[trick[0]["card"]]
        for played in trick[1:]:
            if played["seat"] != seat and not FOLLOW[lead] >> CARD_ID[played["card"]] & 1:
                for sample in range(3):
                    sampled = determinize(view, random.Random(100 * k + sample))
                    assert not sampled.hand(played["seat"]) & FOLLOW[lead] & LOW55
                checked += 1
    assert checked > 5


def test_the_first_leader_holds_the_red_1_in_every_sample() -> None:
    state = next(
        s for s, _ in POINTS if s.phase == bs.PLAY and not s.tricks and not s.trick and s.deal.called < 0
    )
    leader = state.turn
    seat = (leader + 1) % state.cfg.players
    for sample in range(10):
        sampled = determinize(ENGINE.view(state, seat), random.Random(sample))
        assert sampled.hand(leader) >> CARD_ID["red-1"] & 1


def test_the_cards_passed_stay_with_the_seat_they_were_passed_to() -> None:
    state = next(s for s, _ in POINTS if s.phase == bs.PLAY and len(s.tricks) >= 2)
    view = ENGINE.view(state, 0)
    passed = view["passing"]
    for sample in range(10):
        sampled = determinize(view, random.Random(sample))
        held = ENGINE.view(sampled, view["pass_to"])["hand"]
        early = [c for packed in sampled.tricks[:-1] for c in bs.trick_cards(packed)]
        seen = [t["card"] for t in view["trick"]] + [t["card"] for t in view["last_trick"]["cards"]]
        for code in passed:
            assert code in held or CARD_ID[code] in early or code in seen


def decisions() -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """A few points where the first seat to act has a real choice, of each kind."""
    out = []
    for state, _ in POINTS:
        if ENGINE.to_act(state):
            seat = min(ENGINE.to_act(state))
            legal = ENGINE.legal(state, seat)
            if len(legal) > 1:
                out.append((ENGINE.view(state, seat), legal))
    return out[::9]


DECISIONS = decisions()


def test_the_expert_plays_legally_with_no_time_at_all() -> None:
    bot = ExpertBot("expert", "Expert", samples=50, max_seconds=0)
    for view, legal in DECISIONS:
        assert bot.choose(view, legal, random.Random(0)) in legal
        assert bot.search.last_samples == 1


def test_the_same_rng_gives_the_same_move() -> None:
    bot = ExpertBot("expert", "Expert", samples=3, max_seconds=60)
    for view, legal in DECISIONS[:6]:
        moves = {str(bot.choose(view, legal, random.Random(seed))) for seed in (5, 5, 5)}
        assert len(moves) == 1


def test_the_expert_decides_from_the_view_alone() -> None:
    """Two states that differ in every hidden part but look the same to the seat: the same move."""
    bot = ExpertBot("expert", "Expert", samples=3, max_seconds=60)
    for k, (view, _) in enumerate(DECISIONS[:6]):
        seat = view["seat"]
        one, two = determinize(view, random.Random(2 * k)), determinize(view, random.Random(2 * k + 1))
        assert one != two and ENGINE.view(one, seat) == ENGINE.view(two, seat) == view
        first = bot.choose(ENGINE.view(one, seat), ENGINE.legal(one, seat), random.Random(9))
        second = bot.choose(ENGINE.view(two, seat), ENGINE.legal(two, seat), random.Random(9))
        assert first == second


def test_the_expert_plays_a_whole_game_with_every_variant() -> None:
    options = dict.fromkeys(VARIANTS, True)
    expert = ExpertBot("expert", "Expert", samples=1, max_seconds=0)
    scores, deals = play([expert, BOTS["heuristic"], BOTS["heuristic"]], 3, {**options, "end_value": 40})
    assert deals >= 1 and len(scores) == 3


def test_the_win_chance_favours_the_lower_score() -> None:
    assert abs(win_chance([0, 0, 0, 0], 0, 150, 15) - 0.25) < 0.02
    assert win_chance([10, 30, 30, 30], 0, 150, 15) > 0.3 > 0.25 > win_chance([30, 10, 30, 30], 0, 150, 15)
    # near the end the lead counts for more
    assert win_chance([100, 120, 120, 140], 0, 150, 15) > win_chance([0, 20, 20, 40], 0, 150, 15)
    assert first_share((1, 1, 3), 0) == 0.5 and first_share((2, 1, 3), 0) == 0.0
    over = POINTS[-3][0]  # the last state of a game
    assert over.phase == bs.OVER
    outcome = ENGINE.outcome(over)
    assert outcome is not None
    assert evaluate(ENGINE, over, 0) == first_share(tuple(outcome.places), 0)
