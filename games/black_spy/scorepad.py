"""The tabletop score pad: Black Spy played with real cards and scored on the site.

Pure functions over small frozen dataclasses, for a Django view or an API to call:

- ``points_for(taken, rules)``: a player's deal points from the cards they took;
- ``deal_from_taken(takens, rules, choice)``: a whole deal from what every player took,
  with the card counts checked;
- ``check_deal(points, rules)``: is a deal as entered possible? Every problem in plain words;
- ``tally(deals, rules)``: running totals with Going Back, the end value, whether the game
  is over, the winners and places.

Players are numbered from 0 in the order of the score sheet; pass ``names`` to have the
problems name them ("Alice's 7 points ...").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from typing import Any, Literal

from games.core import InvalidOptions, validate_options

from . import scoring
from .engine import OPTIONS

Choice = Literal["give", "subtract"]
OTHER_BLACK_RANKS = frozenset((1, 2, 3, 4, 5, 6, 8, 9, 10, 11))
BLACK_SPIES = 6
COLOURED_SPIES = 4
ONES = (1, 2, 3, 4, 5, 6)  # black ranks worth 1 point each
SINGLES = (8, 9, 10, 11)  # black ranks worth 2, 3, 4, 5
SINGLE_POINTS = {8: 2, 9: 3, 10: 4, 11: 5}
ALL_SINGLES = 0b1111
CARD_RULE = (
    "black 1 to 6 score 1 each, Black Spies 10 each, black 8 to 11 score 2 to 5, coloured Spies -5 each"
)


@dataclass(frozen=True)
class ScoreRules:
    """What scoring depends on: the number of players and the scoring variants."""

    players: int
    no_good_spies: bool = False
    capture_or_release: bool = False
    going_back: bool = False
    end_value_override: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or self.players not in range(3, 7):
            raise InvalidOptions(f"Black Spy is for 3 to 6 players, not {self.players!r}.")
        if self.end_value_override is not None and self.end_value_override <= 0:
            raise InvalidOptions("The end value must be a positive whole number of points.")

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any] | None = None) -> ScoreRules:
        """From the engine's options (the ones that do not touch scoring are accepted and ignored)."""
        opts = validate_options(options, OPTIONS)
        return cls(
            players=players,
            no_good_spies=opts["no_good_spies"],
            capture_or_release=opts["capture_or_release"],
            going_back=opts["going_back"],
            end_value_override=opts["end_value"],
        )

    @property
    def end_value(self) -> int:
        return scoring.end_value_for(self.players, self.end_value_override)

    @property
    def deal_total(self) -> int:
        return scoring.deal_total(self.no_good_spies)

    @property
    def coloured_spy_points(self) -> int:
        return 0 if self.no_good_spies else -5


@dataclass(frozen=True)
class Taken:
    """The scoring cards one player took in a deal."""

    black_spies: int = 0
    black_ranks: frozenset[int] = frozenset()  # the other black cards taken, by rank: 1..6, 8..11
    coloured_spies: int = 0

    @property
    def black_cards(self) -> int:
        return self.black_spies + len(self.black_ranks)

    @property
    def all_black(self) -> bool:
        return self.black_spies == BLACK_SPIES and self.black_ranks == OTHER_BLACK_RANKS

    def problems(self) -> list[str]:
        out = []
        if not 0 <= self.black_spies <= BLACK_SPIES:
            out.append(f"There are 6 Black Spies, so {self.black_spies} cannot have been taken.")
        wrong = sorted(rank for rank in self.black_ranks if rank not in OTHER_BLACK_RANKS)
        if wrong:
            listed = ", ".join(map(str, wrong))
            out.append(f"Black ranks are 1 to 6 and 8 to 11 (the 7s are the Black Spies), not {listed}.")
        if not 0 <= self.coloured_spies <= COLOURED_SPIES:
            out.append(f"There are 4 coloured Spies, so {self.coloured_spies} cannot have been taken.")
        return out


def _raw_points(taken: Taken, rules: ScoreRules) -> int:
    ones = sum(1 for rank in taken.black_ranks if rank in ONES)
    singles = sum(SINGLE_POINTS[rank] for rank in taken.black_ranks if rank in SINGLE_POINTS)
    return ones + 10 * taken.black_spies + singles + rules.coloured_spy_points * taken.coloured_spies


def points_for(taken: Taken, rules: ScoreRules, choice: Choice | None = None) -> int:
    """A player's deal points from the cards they took.

    A player who took all 16 black cards scores 0 (``give``, the normal rule), or -60
    with Capture or Release when they choose ``subtract``. Raises ``ValueError`` with the
    reason for cards that do not exist or a choice that does not apply.
    """
    problems = taken.problems()
    if problems:
        raise ValueError(" ".join(problems))
    if taken.all_black:
        if choice == "subtract" and not rules.capture_or_release:
            raise ValueError("Subtracting 60 is only possible with the Capture or Release variant.")
        if choice is None and rules.capture_or_release:
            raise ValueError("All 16 black cards with Capture or Release: choose 'give' or 'subtract'.")
        return scoring.CAPTURE_SUBTRACT if choice == "subtract" else 0
    if choice is not None:
        raise ValueError("Give or subtract is chosen only by a player who took all 16 black cards.")
    return _raw_points(taken, rules)


@dataclass(frozen=True)
class DealCheck:
    """A deal's points and what is wrong with them (nothing, when ``ok``)."""

    points: tuple[int, ...]
    problems: tuple[str, ...] = ()
    kind: Literal["normal", "all_black_give", "all_black_subtract", "invalid"] = "normal"
    taker: int | None = None  # the player who took all 16 black cards

    @property
    def ok(self) -> bool:
        return not self.problems


def _name(player: int, names: Sequence[str] | None) -> str:
    """The player's name, or "Player 3" when ``names`` has none for them."""
    return names[player] if names is not None and 0 <= player < len(names) else f"Player {player + 1}"


def deal_from_taken(
    takens: Sequence[Taken],
    rules: ScoreRules,
    choice: Choice | None = None,
    names: Sequence[str] | None = None,
) -> DealCheck:
    """Every player's deal points from what each took, checking that the cards add up.

    Every card is taken by someone, so between them the players took the 6 Black Spies,
    each other black card exactly once and the 4 coloured Spies.
    """
    problems: list[str] = []
    if len(takens) != rules.players:
        # The count first: what each entry holds is only checked once there is one per player.
        return DealCheck(
            (), (f"Enter what each of the {rules.players} players took, not {len(takens)}.",), "invalid"
        )
    for player, taken in enumerate(takens):
        problems.extend(f"{_name(player, names)}: {p}" for p in taken.problems())
    if problems:
        return DealCheck((), tuple(problems), "invalid")
    spies = sum(t.black_spies for t in takens)
    if spies != BLACK_SPIES:
        problems.append(f"The players took {spies} Black Spies between them; there are 6.")
    for rank in sorted(OTHER_BLACK_RANKS):
        holders = [p for p, t in enumerate(takens) if rank in t.black_ranks]
        if len(holders) > 1:
            who = " and ".join(_name(p, names) for p in holders)
            problems.append(f"The black {rank} is entered for {who}; there is only one.")
        elif not holders:
            problems.append(f"Nobody took the black {rank}; every card is taken by someone.")
    coloured = sum(t.coloured_spies for t in takens)
    if coloured != COLOURED_SPIES:
        problems.append(f"The players took {coloured} coloured Spies between them; there are 4.")
    takers = [p for p, t in enumerate(takens) if t.all_black]
    if takers:
        taker = takers[0]
        if choice is None:
            choice = "give"
            if rules.capture_or_release:
                problems.append(f"{_name(taker, names)} took all 16 black cards: choose give or subtract.")
        if choice == "subtract" and not rules.capture_or_release:
            problems.append("Subtracting 60 is only possible with the Capture or Release variant.")
        points = scoring.all_black_points(rules.players, taker, choice)
        kind: Literal["all_black_give", "all_black_subtract"] = (
            "all_black_give" if choice == "give" else "all_black_subtract"
        )
        return DealCheck(points, tuple(problems), kind if not problems else "invalid", taker)
    if choice is not None:
        problems.append("Give or subtract is chosen only by a player who took all 16 black cards.")
    points = tuple(_raw_points(t, rules) for t in takens)
    return DealCheck(points, tuple(problems), "normal" if not problems else "invalid")


# -- checking entered points ----------------------------------------------------------------


SINGLE_SUMS = tuple(sum(p for i, p in enumerate((2, 3, 4, 5)) if mask >> i & 1) for mask in range(16))


def _single_sum(mask: int) -> int:
    return SINGLE_SUMS[mask]


@cache
def _takes_for(target: int, no_good_spies: bool) -> tuple[tuple[int, int, int, int], ...]:
    out = []
    spy_counts = range(1) if no_good_spies else range(COLOURED_SPIES + 1)
    for spies, mask, coloured in product(range(BLACK_SPIES + 1), range(16), spy_counts):
        ones = target - 10 * spies - SINGLE_SUMS[mask] + 5 * coloured
        if 0 <= ones <= len(ONES) and not (
            ones == len(ONES) and spies == BLACK_SPIES and mask == ALL_SINGLES
        ):
            out.append((ones, spies, mask, coloured))
    return tuple(out)


def _takes(target: int, rules: ScoreRules) -> tuple[tuple[int, int, int, int], ...]:
    """Every (ones, spies, singles mask, coloured spies) one player can take for ``target`` points.

    Taking all 16 black cards is left out: that deal is scored differently.
    """
    return _takes_for(target, rules.no_good_spies)


@cache
def _possible(no_good_spies: bool) -> frozenset[int]:
    return frozenset(t for t in range(-25, 81) if _takes_for(t, no_good_spies))


def possible_points(rules: ScoreRules) -> frozenset[int]:
    """Every number of points one player can score in a normal deal."""
    return _possible(rules.no_good_spies)


def _shareable(points: Sequence[int], rules: ScoreRules) -> bool:
    """Can the cards be shared out so that each player scores exactly their points?"""
    spy_total = 0 if rules.no_good_spies else COLOURED_SPIES
    takes = [_takes(p, rules) for p in points[:-1]]
    # States: what the players so far took between them (ones, spies, singles mask, coloured spies).
    states = {(0, 0, 0, 0)}
    for options in takes:
        nxt = set()
        for ones, spies, mask, coloured in states:
            for o, s, m, c in options:
                if ones + o <= 6 and spies + s <= 6 and not mask & m and coloured + c <= spy_total:
                    nxt.add((ones + o, spies + s, mask | m, coloured + c))
        states = nxt
        if not states:
            return False
    last = points[-1]
    for ones, spies, mask, coloured in states:
        left = (6 - ones, 6 - spies, ALL_SINGLES & ~mask, spy_total - coloured)
        if left == (6, 6, ALL_SINGLES, left[3]):
            continue  # the last player would hold all 16 black cards
        value = left[0] + 10 * left[1] + _single_sum(left[2]) + rules.coloured_spy_points * left[3]
        if value == last:
            return True
    return False


def check_deal(points: Sequence[int], rules: ScoreRules, names: Sequence[str] | None = None) -> DealCheck:
    """Check one deal's points as entered; explain every problem in plain words."""
    if len(points) != rules.players:
        return DealCheck(
            tuple(points),
            (f"Enter points for each of the {rules.players} players, not {len(points)}.",),
            "invalid",
        )
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in points):
        return DealCheck(tuple(points), ("Points are whole numbers.",), "invalid")
    pts = tuple(points)
    n = rules.players
    for taker in range(n):
        if pts == scoring.all_black_points(n, taker, "give"):
            return DealCheck(pts, (), "all_black_give", taker)
        if pts == scoring.all_black_points(n, taker, "subtract"):
            if rules.capture_or_release:
                return DealCheck(pts, (), "all_black_subtract", taker)
            return DealCheck(
                pts,
                (
                    f"{_name(taker, names)} has -60 and everyone else 0: that is the Capture or Release "
                    "choice after taking all 16 black cards, and this game does not use that variant.",
                ),
                "invalid",
                taker,
            )
    problems: list[str] = []
    total = sum(pts)
    if total != rules.deal_total:
        why = (
            "with No Good Spies, the black cards' 80"
            if rules.no_good_spies
            else "80 for black cards, -20 for Spies"
        )
        problems.append(f"A deal's points add up to {rules.deal_total} ({why}); these add up to {total}.")
        if 0 in pts and 60 in pts and total > rules.deal_total:
            problems.append(
                "When one player takes all 16 black cards, they score 0 and every other player 60."
            )
    possible = possible_points(rules)
    for player, p in enumerate(pts):
        if p == 80:
            problems.append(
                f"{_name(player, names)}'s 80 points would mean all 16 black cards: "
                "then that player scores 0 and every other player 60."
            )
        elif p not in possible:
            problems.append(
                f"{_name(player, names)}'s {p} points cannot be made from cards ({_card_rule(rules)})."
            )
    if not problems and not _shareable(pts, rules):
        problems.append(
            "Each player's points are possible on their own, but no way of sharing out the cards "
            "gives all of them together."
        )
    return DealCheck(pts, tuple(problems), "invalid" if problems else "normal")


def _card_rule(rules: ScoreRules) -> str:
    if rules.no_good_spies:
        return CARD_RULE.replace("coloured Spies -5 each", "coloured Spies 0")
    return CARD_RULE


# -- running totals --------------------------------------------------------------------------


@dataclass(frozen=True)
class DealLine:
    """One line of the score pad."""

    deal: int  # from 1
    points: tuple[int, ...]
    totals: tuple[int, ...]  # after the deal, Going Back applied
    went_back: tuple[int, ...] = ()  # players whose score was halved


@dataclass(frozen=True)
class Tally:
    rules: ScoreRules
    lines: tuple[DealLine, ...]
    totals: tuple[int, ...]
    over: bool
    winners: tuple[int, ...] = ()  # once over: the players with the lowest score
    places: tuple[int, ...] = ()  # once over: 1 for the lowest score; ties share (1, 1, 3)
    problems: tuple[str, ...] = ()
    checks: tuple[DealCheck, ...] = field(default=(), repr=False)

    @property
    def end_value(self) -> int:
        return self.rules.end_value

    @property
    def ok(self) -> bool:
        return not self.problems


def tally(deals: Sequence[Sequence[int]], rules: ScoreRules, names: Sequence[str] | None = None) -> Tally:
    """Running totals over the deals entered so far.

    Every deal is checked; the problems of a deal are listed as "Deal 3: ...", and the
    deal still counts so the pad shows what was written. Going Back halves as the engine
    does. Deals entered after the game ended are reported and not counted.
    """
    totals = (0,) * rules.players
    lines: list[DealLine] = []
    checks: list[DealCheck] = []
    problems: list[str] = []
    over = False
    last = 0
    for number, points in enumerate(deals, start=1):
        if over:
            problems.append(f"Deal {number}: the game ended after deal {last}; this deal does not count.")
            continue
        last = number
        check = check_deal(points, rules, names)
        checks.append(check)
        problems.extend(f"Deal {number}: {p}" for p in check.problems)
        if len(points) != rules.players or not all(isinstance(p, int) for p in points):
            continue
        totals, went_back = scoring.add_deal(totals, points, rules.end_value, rules.going_back)
        lines.append(DealLine(number, tuple(points), totals, went_back))
        over = scoring.game_over(totals, rules.end_value, rules.going_back)
    winners: tuple[int, ...] = ()
    places: tuple[int, ...] = ()
    if over:
        places = scoring.places(totals)
        winners = tuple(p for p, place in enumerate(places) if place == 1)
    return Tally(rules, tuple(lines), totals, over, winners, places, tuple(problems), tuple(checks))
