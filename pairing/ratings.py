"""Ratings per game with openskill's Plackett-Luce model, recomputed from the results in order.

A result is one table's finishing order: a sequence of ``(player, place)`` with 2 to 6 entries
(place 1 is best; equal places are ties, which Plackett-Luce handles through ``ranks``). Call
:func:`recompute_ratings` once per game with that game's results in chronological order; it
returns every player's ``mu``, ``sigma`` and ``ordinal`` (``mu - 3 * sigma``, the conservative
figure to sort leaderboards by) and, for charts, the rating of each player after each result.

Speed. Measured on this project's 2-core machine (shared with other jobs, so figures vary by
about 2x): one public ``PlackettLuce.rate`` call on a 3-6 player table costs 35-90 microseconds
with the model built once and reused (building a model is well under a microsecond, so that is
not the cost). Profiling shows about three quarters of it is ``copy.deepcopy`` of the rating
objects, which ``rate`` does on every call, and each copy draws a fresh ``uuid4`` from
``os.urandom``; argument checking is most of the rest. The Plackett-Luce maths itself
(``PlackettLuce._compute``) is about 7 microseconds. So 100,000 results take 3.5-9 seconds through
``rate``: too close to the 10-second goal on a busy machine.

``method="direct"`` (the default) therefore does exactly what ``rate`` does for ranked, unweighted
one-player teams (add ``tau`` to each sigma, stable-sort the table by rank, compute, unsort) but
calls the model's ``_compute`` on one long-lived rating object per player, which ``_compute``
updates in place: no deep copies, no new objects. A test checks that it gives the same numbers as
``rate`` to 1e-12 on random tables with ties, so an openskill upgrade that changes the internals
is caught; if ``_compute`` is missing the code falls back to ``rate``. ``method="rate"`` always
uses the public call.

One more result. :func:`rate_result` rates a single result from its players' current ``mu`` and
``sigma`` (as stored after the results before it) with the same :class:`Rater` arithmetic, so a
site can apply a new result on its own and get, to the last bit, what a recompute would give when
that result comes last, or comes anywhere after the last result of each of its players (results
of other players do not touch theirs).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

__all__ = [
    "PROVISIONAL_SIGMA",
    "PlayerRating",
    "Rater",
    "RatingPoint",
    "RatingTable",
    "is_provisional",
    "rate_result",
    "recompute_ratings",
]

Z = 3.0  # ordinal = mu - Z * sigma

# A rating is provisional while its uncertainty is above this: it starts at 25 / 3 (8.33) and,
# at tables of 2 to 4, falls below 6.5 after about ten games. Leaderboards mark a provisional
# rating with "?", as lichess does while a Glicko deviation is above 110.
PROVISIONAL_SIGMA = 6.5


def is_provisional(sigma: float) -> bool:
    """Whether a rating of this uncertainty is still provisional (see ``PROVISIONAL_SIGMA``)."""
    return sigma > PROVISIONAL_SIGMA


@dataclass(frozen=True, slots=True)
class PlayerRating:
    player: int
    mu: float
    sigma: float
    ordinal: float
    games: int


class RatingPoint(NamedTuple):
    """A player's rating right after result number ``result`` (0-based, in input order)."""

    result: int
    player: int
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True, slots=True)
class RatingTable:
    ratings: dict[int, PlayerRating]
    history: tuple[RatingPoint, ...]

    def leaderboard(self) -> list[PlayerRating]:
        """Players by ordinal, best first (ties by player id)."""
        return sorted(self.ratings.values(), key=lambda r: (-r.ordinal, r.player))

    def history_of(self, player: int) -> list[RatingPoint]:
        return [point for point in self.history if point.player == player]


class Rater:
    """One game's rating arithmetic: a table's players' ratings before a result, then after it.

    The full recompute and the rating of one new result (:func:`rate_result`) both go through
    :meth:`rate`, so a result applied on its own gives exactly the numbers a recompute gives.
    """

    def __init__(
        self,
        *,
        mu: float = 25.0,
        sigma: float = 25.0 / 3.0,
        beta: float = 25.0 / 6.0,
        tau: float = 25.0 / 300.0,
        method: Literal["direct", "rate"] = "direct",
    ) -> None:
        self.model = PlackettLuce(mu=mu, sigma=sigma, beta=beta, tau=tau)
        self.compute = getattr(self.model, "_compute", None) if method == "direct" else None
        self.tau_squared = self.model.tau * self.model.tau

    def rating(self, mu: float | None = None, sigma: float | None = None) -> PlackettLuceRating:
        """A new player's rating, or one with the given ``mu`` and ``sigma`` (as stored)."""
        return self.model.rating(mu=mu, sigma=sigma)

    def rate(self, table: list[PlackettLuceRating], places: Sequence[int]) -> list[PlackettLuceRating]:
        """The ratings after one result, in the order of ``table``. With ``method="direct"`` the
        rating objects are updated in place and returned."""
        if self.compute is not None:
            # rate() for one-player teams with ranks, minus the deep copies (see module docs).
            for rating in table:
                rating.sigma = math.sqrt(rating.sigma * rating.sigma + self.tau_squared)
            order = sorted(range(len(table)), key=places.__getitem__)
            self.compute(teams=[[table[i]] for i in order], ranks=[float(places[i]) for i in order])
            return table
        rated = self.model.rate([[r] for r in table], ranks=[float(x) for x in places])
        return [team[0] for team in rated]


def _checked(index: int, result: Sequence[tuple[int, int]]) -> tuple[list[int], list[int]]:
    if len(result) < 2:
        raise ValueError(f"result {index} has fewer than 2 players")
    players = [p for p, _ in result]
    if len(set(players)) != len(players):
        raise ValueError(f"result {index} lists a player twice")
    return players, [place for _, place in result]


def rate_result(
    result: Sequence[tuple[int, int]],
    current: Mapping[int, tuple[float, float]],
    *,
    rater: Rater | None = None,
) -> list[tuple[int, float, float]]:
    """One result rated after all the others: each player's ``(player, mu, sigma)`` afterwards.

    ``current`` holds the players' ``(mu, sigma)`` before it (a player missing there is new). Gives
    exactly what :func:`recompute_ratings` gives when this result comes last.
    """
    rater = rater or Rater()
    players, places = _checked(0, result)
    table = [rater.rating(*current[p]) if p in current else rater.rating() for p in players]
    updated = rater.rate(table, places)
    return [(p, r.mu, r.sigma) for p, r in zip(players, updated, strict=True)]


def recompute_ratings(
    results: Iterable[Sequence[tuple[int, int]]],
    *,
    mu: float = 25.0,
    sigma: float = 25.0 / 3.0,
    beta: float = 25.0 / 6.0,
    tau: float = 25.0 / 300.0,
    keep_history: bool = True,
    method: Literal["direct", "rate"] = "direct",
) -> RatingTable:
    """Rate every result in order and return final ratings (and the history if asked)."""
    rater = Rater(mu=mu, sigma=sigma, beta=beta, tau=tau, method=method)
    current: dict[int, PlackettLuceRating] = {}
    games: dict[int, int] = {}
    history: list[RatingPoint] = []
    for index, result in enumerate(results):
        players, places = _checked(index, result)
        table: list[PlackettLuceRating] = []
        for p in players:
            rating = current.get(p)
            if rating is None:
                rating = current[p] = rater.rating()
            table.append(rating)
        updated = rater.rate(table, places)
        for p, rating in zip(players, updated, strict=True):
            current[p] = rating
            games[p] = games.get(p, 0) + 1
            if keep_history:
                history.append(RatingPoint(index, p, rating.mu, rating.sigma, rating.mu - Z * rating.sigma))
    ratings = {p: PlayerRating(p, r.mu, r.sigma, r.mu - Z * r.sigma, games[p]) for p, r in current.items()}
    return RatingTable(ratings, tuple(history))
