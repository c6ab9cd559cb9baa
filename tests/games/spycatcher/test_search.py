"""The expert's hidden-state sampling and search: views kept, play goes on legally, same rng same move."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games.core.search import SearchBot
from games.spycatcher import ENGINE, SpycatcherState
from games.spycatcher.bots import BOTS, ExpertBot, HeuristicBot, determinize, rollout
from games.spycatcher.engine import WINDOW


def positions(games: int, moves: int) -> list[tuple[SpycatcherState, int]]:
    """Positions reached by random play at 2 to 6 seats, with a seat that may act in each."""
    out = []
    for g in range(games):
        rng = random.Random(g)
        state = ENGINE.start(2 + g % 5, g, {"hand_size": 5 if g % 3 == 0 else 7})
        for _ in range(moves):
            acting = sorted(ENGINE.to_act(state))
            if not acting:
                break
            seat = rng.choice(acting)
            out.append((state, seat))
            state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal(state, seat)))
    return out


def test_a_sampled_state_has_the_same_view_and_play_goes_on_legally_from_it() -> None:
    windows = 0
    for i, (state, seat) in enumerate(positions(12, 300)):
        view = ENGINE.view(state, seat)
        sampled = determinize(view, random.Random(i))
        assert ENGINE.view(sampled, seat) == view
        windows += state.phase == WINDOW
        # the hidden parts hold the same cards as the real game's
        cards = lambda s: sorted(
            [
                *s.pack[s.top :],
                *s.discard,
                *(c for h in s.hands for c in h),
                *(s.window.cards if s.window else ()),
            ]
        )
        assert len(cards(sampled)) == len(cards(state))
        rng = random.Random(i)
        for _ in range(20):  # play on from the sample with random moves of every seat
            acting = sorted(ENGINE.to_act(sampled))
            if not acting:
                break
            who = rng.choice(acting)
            sampled = ENGINE.apply(sampled, who, rng.choice(ENGINE.legal(sampled, who)))
    assert windows > 0  # challenge windows, with their face-down cards, were sampled too


def test_samples_differ_in_what_the_view_hides() -> None:
    state, seat = next((s, t) for s, t in positions(3, 200) if s.phase != WINDOW and t == 0)
    view = ENGINE.view(state, seat)
    a, b = determinize(view, random.Random(1)), determinize(view, random.Random(2))
    assert a.hands[seat] == b.hands[seat] == state.hands[seat]
    assert a.hands[1 - seat] != b.hands[1 - seat] or a.pack != b.pack


def small(samples: int = 2) -> SearchBot:
    return SearchBot(
        ENGINE,
        determinize,
        name="expert",
        label="Expert",
        policy=HeuristicBot(),
        samples=samples,
        rollout=rollout,
    )


@pytest.mark.parametrize("name", ["random", "heuristic", "intermediate", "expert"])
def test_every_level_has_a_label_and_plays_legal_moves(name: str) -> None:
    bot = BOTS[name] if name in ("random", "heuristic") else ExpertBot(name, "Expert", 1)
    assert BOTS[name].label in {"Novice", "Beginner", "Intermediate", "Expert"}
    for i, (state, seat) in enumerate(positions(4, 60)):
        legal = ENGINE.legal(state, seat)
        assert bot.choose(ENGINE.view(state, seat), legal, random.Random(i)) in legal


def test_twins_equal_views_different_hidden_parts_give_the_same_move() -> None:
    bot = small(3)
    checked = 0
    for i, (state, seat) in enumerate(positions(4, 80)):
        legal = ENGINE.legal(state, seat)
        if len(legal) < 2:
            continue
        view = ENGINE.view(state, seat)
        twin = determinize(view, random.Random(1000 + i))
        twin = replace(twin, seed=state.seed + 1)
        assert ENGINE.view(twin, seat) == view
        assert bot.choose(view, legal, random.Random(i)) == bot.choose(
            ENGINE.view(twin, seat), ENGINE.legal(twin, seat), random.Random(i)
        )
        checked += 1
    assert checked > 10


def test_the_sample_budget_is_respected() -> None:
    calls: list[int] = []

    def counting(view: dict[str, Any], rng: random.Random) -> SpycatcherState:
        calls.append(1)
        return determinize(view, rng)

    bot = SearchBot(
        ENGINE,
        counting,
        name="t",
        label="t",
        policy=HeuristicBot(),
        samples=3,
        max_seconds=60.0,
        rollout=rollout,
    )
    for i, (state, seat) in enumerate(positions(2, 40)):
        legal = ENGINE.legal(state, seat)
        calls.clear()
        bot.choose(ENGINE.view(state, seat), legal, random.Random(i))
        assert len(calls) == (0 if len(legal) == 1 else 3) == bot.last_samples


def test_the_expert_searches_only_where_it_matters_and_keeps_the_heuristic_on_a_tie() -> None:
    expert = ExpertBot("expert", "Expert", 2)
    searched = 0
    for i, (state, seat) in enumerate(positions(3, 80)):
        view, legal = ENGINE.view(state, seat), ENGINE.legal(state, seat)
        move = expert.choose(view, legal, random.Random(i))
        assert move in legal
        if state.phase in ("draw", "discard") or len(legal) == 1:
            assert expert.search.last_samples == 0
            assert move == HeuristicBot().choose(view, legal, random.Random(i))
        else:
            assert expert.search.last_samples == 2
            searched += 1
    assert searched > 5
