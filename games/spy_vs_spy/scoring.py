"""Numbers from the rule text and the end of the game, shared by the engine and the score sheet.

Every card is worth one point: a player's score is the number of cards in their
points pile ("points (cards)"), less any points removed when the pile had fewer
cards than the removal (see the Rulings in the package docstring).
"""

from __future__ import annotations

from dataclasses import dataclass

DECK_SIZE = 52
HALF_DECK_SIZE = 26
START_POINTS = 5  # "deal out 5 cards from their deck ... to begin their points pile"
START_POINTS_SINGLE = 10  # "you must deal yourself 10 cards for the start"
SQUARE = 4  # "deal out 4 cards face up from the racing hand"
MAX_PILES = 6  # "6 is the maximum number of piles"
FIRST_REMOVES = 5  # "the person that finished the race first (#1) gets to remove 5 points"
BONUS_FULL = 20  # "Full deck = -20"
BONUS_HALF = 10  # "Half deck = -10"


def deck_size(half_decks: bool) -> int:
    return HALF_DECK_SIZE if half_decks else DECK_SIZE


def bonus_points(half_decks: bool) -> int:
    return BONUS_HALF if half_decks else BONUS_FULL


def start_points(seats: int) -> int:
    return START_POINTS_SINGLE if seats == 1 else START_POINTS


@dataclass(frozen=True)
class Standing:
    """Who can still win, and who has been left behind, after each scored race.

    ``contenders`` are the seats still in the running: every seat until someone
    reaches 0 or below, then only the seats tied on the lowest score (they race
    again). ``left_out`` holds, stage by stage, the seats that dropped out of the
    running and their score at that moment. ``winner`` is set once one seat alone
    has the lowest score at 0 or below.
    """

    contenders: tuple[int, ...]
    left_out: tuple[tuple[tuple[int, int], ...], ...] = ()
    winner: int | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def tie_break(self) -> bool:
        """True when the next race is a tie-break between the tied players only."""
        return bool(self.left_out) and self.winner is None


def after_race(standing: Standing, scores: tuple[int, ...] | list[int]) -> Standing:
    """The standing once every racer's points for a race have been added up.

    "Reaching 0 or a negative number means you win the game"; a tie goes to the
    better (lower) score, and an exact tie to a new race between the tied players.
    """
    if standing.over:
        return standing
    contenders = standing.contenders
    lowest = min(scores[seat] for seat in contenders)
    if lowest > 0:
        return standing
    tied = tuple(seat for seat in contenders if scores[seat] == lowest)
    dropped = tuple((seat, scores[seat]) for seat in contenders if scores[seat] != lowest)
    left_out = (*standing.left_out, dropped)
    if len(tied) == 1:
        return Standing(contenders=tied, left_out=left_out, winner=tied[0])
    return Standing(contenders=tied, left_out=left_out)


def places(standing: Standing, seats: int) -> tuple[int, ...]:
    """Final places: the winner first, then each group left out of the running, the
    latest group first, ranked by its score at that moment (equal scores share a place)."""
    if standing.winner is None:
        raise ValueError("The game is not over.")
    out = [0] * seats
    out[standing.winner] = 1
    base = 2
    for group in reversed(standing.left_out):
        for seat, score in group:
            out[seat] = base + sum(1 for _, other in group if other < score)
        base += len(group)
    return tuple(out)
