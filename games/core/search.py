"""Search bots: flat Monte Carlo over hidden states sampled consistently with a seat's view.

A ``SearchBot`` sees what every bot sees, its seat's ``view`` and the legal actions. To judge
an action it asks the game's ``determinize(view, rng)`` for full engine states that the game
could be in (every hidden part sampled; ``engine.view(state, view["seat"]) == view``), applies
the action in each and plays on with ``policy`` in every seat (``rollout``), and takes the
action with the best mean utility. The same view and the same ``rng`` state give the same
move: every sample draws from a generator seeded from ``rng``, nothing reads the clock except
the safety cap ``max_seconds`` (a decision stops sampling once it has used it, after at least
one sample, so a slow machine plays weaker rather than slower).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from .bots import Bot
from .protocol import Action

Determinize = Callable[[dict[str, Any], random.Random], Any]
Rollout = Callable[..., float]

#: A rollout that has not ended after this many moves counts as a draw for everyone.
MAX_ROLLOUT_MOVES = 2_000


def utility(places: tuple[int, ...], seat: int) -> float:
    """A finished game's worth to ``seat`` in [0, 1]: 1 for a lone first, 0 for a lone last."""
    n = len(places)
    if n < 2:
        return 1.0
    place = places[seat]
    tied = sum(1 for p in places if p == place)
    # the tied seats share the places from ``place`` to ``place + tied - 1``
    mean_place = place + (tied - 1) / 2
    return (n - mean_place) / (n - 1)


def play_rollout(engine: Any, state: Any, seat: int, policy: Bot, rng: random.Random) -> float:
    """Play to the end with ``policy`` in every seat (the lowest seat to act first); ``seat``'s utility."""
    for _ in range(MAX_ROLLOUT_MOVES):
        outcome = engine.outcome(state)
        if outcome is not None:
            return utility(tuple(outcome.places), seat)
        acting = min(engine.to_act(state))
        legal = engine.legal(state, acting)
        state = engine.apply(state, acting, policy.choose(engine.view(state, acting), legal, rng))
    return 0.5


class SearchBot:
    """Chooses by sampling hidden states and playing each legal action out (see the module)."""

    def __init__(
        self,
        engine: Any,
        determinize: Determinize,
        *,
        name: str,
        label: str,
        policy: Bot,
        samples: int,
        max_seconds: float = 1.0,
        rollout: Rollout | None = None,
    ) -> None:
        if samples < 1:
            raise ValueError("A search bot needs at least one sample.")
        self.engine = engine
        self.determinize = determinize
        self.name = name
        self.label = label
        self.policy = policy
        self.samples = samples
        self.max_seconds = max_seconds
        self.rollout: Rollout = rollout or play_rollout
        self.last_samples = 0  # samples the last decision used (for tests and benchmarks)

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError("The bot was asked to act with no legal action.")
        self.last_samples = 0
        if len(legal) == 1:
            return legal[0]
        seat = view["seat"]
        base = rng.getrandbits(64)
        totals = [0.0] * len(legal)
        started = time.monotonic()
        for i in range(self.samples):
            if i and time.monotonic() - started >= self.max_seconds:
                break
            sample_rng = random.Random(base + i)
            state = self.determinize(view, sample_rng)
            for k, action in enumerate(legal):
                after = self.engine.apply(state, seat, action)
                totals[k] += self.rollout(self.engine, after, seat, self.policy, random.Random(base + i))
            self.last_samples = i + 1
        best = max(range(len(legal)), key=lambda k: (totals[k], -k))
        return legal[best]


class GuidedSearchBot:
    """A policy's choice, unless a search (``SearchBot``) finds a better one among ``options``.

    The policy's action is put first among the actions searched, so that the search keeps it on
    a tie (every action is judged on the same samples, so that only real differences count). A
    game's expert says which actions are worth weighing against the policy's (``options``): all
    the others by default; none plays the policy's choice without searching.
    """

    def __init__(
        self,
        engine: Any,
        determinize: Determinize,
        *,
        name: str,
        label: str,
        policy: Bot,
        samples: int,
        max_seconds: float = 1.0,
        rollout: Rollout | None = None,
    ) -> None:
        self.name, self.label = name, label
        self.policy = policy
        self.search = SearchBot(
            engine,
            determinize,
            name=name,
            label=label,
            policy=policy,
            samples=samples,
            max_seconds=max_seconds,
            rollout=rollout,
        )

    def options(self, view: dict[str, Any], legal: list[Action], guess: Action) -> list[Action]:
        """The actions weighed against the policy's ``guess`` (none: ``guess`` is played)."""
        return [a for a in legal if a != guess]

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        guess = self.policy.choose(view, legal, rng)
        others = self.options(view, legal, guess)
        if not others:
            self.search.last_samples = 0
            return guess
        return self.search.choose(view, [guess, *others], rng)
