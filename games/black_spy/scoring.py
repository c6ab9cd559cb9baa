"""Scoring rules shared by the engine and the tabletop scorepad.

Everything here works on whole numbers of points and tuples of scores by seat.
"""

from __future__ import annotations

from collections.abc import Sequence

END_VALUES = {3: 200, 4: 150, 5: 120, 6: 100}
DEAL_TOTAL = 60
DEAL_TOTAL_NO_GOOD_SPIES = 80
ALL_BLACK_OTHERS = 60  # what every other player scores when one player takes all 16 black cards
CAPTURE_SUBTRACT = -60  # Capture or Release: what the taker scores instead


def end_value_for(players: int, override: int | None = None) -> int:
    """The score that ends the game: 200/150/120/100 for 3/4/5/6 players, unless overridden."""
    return override if override is not None else END_VALUES[players]


def deal_total(no_good_spies: bool) -> int:
    return DEAL_TOTAL_NO_GOOD_SPIES if no_good_spies else DEAL_TOTAL


def all_black_points(players: int, taker: int, choice: str = "give") -> tuple[int, ...]:
    """Deal points when ``taker`` collected all 16 black cards.

    ``give`` (the normal rule): the taker scores 0 and every other player 60.
    ``subtract`` (Capture or Release): the taker scores -60 and every other player 0.
    """
    if choice == "give":
        return tuple(0 if seat == taker else ALL_BLACK_OTHERS for seat in range(players))
    if choice == "subtract":
        return tuple(CAPTURE_SUBTRACT if seat == taker else 0 for seat in range(players))
    raise ValueError(f"Unknown all-black choice {choice!r}: give or subtract.")


def goes_back(score: int, end_value: int) -> bool:
    """Going Back: a score of exactly the end value, or exactly half of it, is halved."""
    return score == end_value or (end_value % 2 == 0 and score == end_value // 2)


def add_deal(
    scores: Sequence[int], points: Sequence[int], end_value: int, going_back: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """New running totals after a deal, and the seats that went back (Going Back).

    With Going Back, a player whose score changed in this deal and now stands at exactly the
    end value, or exactly half of it, has it halved, rounded down; the halved score is not
    checked again.
    """
    if len(scores) != len(points):
        raise ValueError(f"{len(points)} players' points for {len(scores)} scores.")
    totals: list[int] = []
    went_back: list[int] = []
    for seat in range(len(scores)):
        gained = points[seat]
        total = scores[seat] + gained
        if going_back and gained != 0 and goes_back(total, end_value):
            total //= 2
            went_back.append(seat)
        totals.append(total)
    return tuple(totals), tuple(went_back)


def game_over(scores: Sequence[int], end_value: int, going_back: bool) -> bool:
    """The game ends when a score reaches the end value (Going Back: exceeds it)."""
    if going_back:
        return any(score > end_value for score in scores)
    return any(score >= end_value for score in scores)


def places(scores: Sequence[int]) -> tuple[int, ...]:
    """Lowest score wins; tied scores share a place (1, 1, 3)."""
    ordered = sorted(scores)
    return tuple(ordered.index(score) + 1 for score in scores)
