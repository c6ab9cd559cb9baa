"""Checking a tabletop Spy vs Spy score sheet, race by race.

A table writes down, for every race, each player's points for that race: the
change to their points pile (``+7``, ``-3``, ``-20``), and a blank (``None``) for a
player who sat out a tie-break race. It may also note who finished first.
``check_sheet`` explains every entry that cannot be right, keeps the running
totals, and says when the game ended, who won and the places, or which tied
players must race again.

What a race can do to a score (every card is one point; a player races with
``H`` cards, their deck less their points pile):

- the bonus: exactly -20 (-10 with half decks), never with the 5 on top;
- any other player adds their leftover cards and one pile of at least one card,
  and 5 piles of at least one card stay on the table: from +1 to ``H - 5``;
- the first finisher without the bonus also removes 5: from -4 to ``H - 10``, so
  at most one player per race can lose points without the bonus, and a single
  player (always first) always does;
- a player with 5 cards or fewer to race with cannot fill 6 piles and must earn
  the bonus.

Sheet rulings (the engine's Rulings apply too): a wrong entry is reported and
then counted as written, so later races are still checked; a player's points pile
is tracked in cards, with points removed beyond its cards kept as a debt, as in
the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .scoring import (
    FIRST_REMOVES,
    MAX_PILES,
    Standing,
    after_race,
    bonus_points,
    deck_size,
    places,
    start_points,
)


@dataclass(frozen=True)
class RaceEntry:
    """One race as written down: points per player (``None`` = sat out), and who finished first if noted."""

    points: tuple[int | None, ...]
    first: int | None = None


@dataclass(frozen=True)
class ScoreSheet:
    players: tuple[str, ...]
    races: tuple[RaceEntry, ...] = ()
    half_decks: bool = False


@dataclass(frozen=True)
class Problem:
    """Something on the sheet that cannot be right. ``race`` counts from 1; None: the sheet itself."""

    race: int | None
    player: int | None
    message: str


@dataclass(frozen=True)
class SheetResult:
    problems: tuple[Problem, ...]
    start: int  # every player's score before the first race
    totals: tuple[tuple[int, ...], ...]  # running scores after each race
    ended_after: int | None = None  # the race after which the game was won
    winner: int | None = None
    places: tuple[int, ...] | None = None
    replay_between: tuple[int, ...] = ()  # players tied for the win, who must race again
    next_racers: tuple[int, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def over(self) -> bool:
        return self.winner is not None


def _signed(value: int) -> str:
    return f"{value:+d}"


def check_sheet(sheet: ScoreSheet) -> SheetResult:
    names = sheet.players
    n = len(names)
    problems: list[Problem] = []

    def problem(race: int | None, player: int | None, message: str) -> None:
        problems.append(Problem(race, player, message))

    if n < 1:  # the rules set no upper limit (the package's ruling "players")
        problem(None, None, f"Spy vs Spy needs at least 1 player; this sheet has {n}.")
        return SheetResult(tuple(problems), 0, ())
    if sheet.half_decks and n != 2:
        problem(None, None, "Half decks are only for a 2 player game; every player here uses a full deck.")
    half = sheet.half_decks and n == 2
    deck = deck_size(half)
    bonus = bonus_points(half)
    other_bonus = bonus_points(not half)
    start = start_points(n)
    kind = "half deck" if half else "deck"

    cards = [start] * n  # cards in each points pile
    debt = [0] * n
    scores = [start] * n
    standing = Standing(contenders=tuple(range(n)))
    totals: list[tuple[int, ...]] = []
    ended_after: int | None = None

    for number, entry in enumerate(sheet.races, start=1):
        if standing.over:
            winner = names[standing.winner] if standing.winner is not None else "?"
            problem(
                number,
                None,
                f"The game was over after race {ended_after} ({winner} won); "
                f"race {number} should not be there.",
            )
            continue
        if len(entry.points) != n:
            problem(number, None, f"Race {number} has {len(entry.points)} entries for {n} players.")
            continue
        racers = standing.contenders
        tied = ", ".join(names[p] for p in racers)
        noted = entry.first  # who finished first, as noted: a seat of the sheet, or None
        if noted is not None and noted not in racers:
            who = names[noted] if 0 <= noted < n else f"player {noted}"
            problem(number, noted, f"{who} is noted as finishing race {number} first but did not race.")
            if not 0 <= noted < n:
                noted = None  # no seat of the sheet: reported, and not looked up by seat again
        lost_without_bonus: list[int] = []
        for p in range(n):
            value = entry.points[p]
            name = names[p]
            if p not in racers:
                if value is not None:
                    problem(
                        number,
                        p,
                        f"{name} sat out race {number}, a tie-break between {tied} only, "
                        f"but has {_signed(value)} written.",
                    )
                continue
            if value is None:
                problem(number, p, f"{name} raced in race {number} but has no points written.")
                continue
            hand = deck - cards[p]  # cards raced with
            removal = 0
            if value == -bonus:
                removal = bonus
            elif value == -(bonus + FIRST_REMOVES):
                problem(
                    number,
                    p,
                    f"{name}'s {value} in race {number} adds the 5 for finishing first to the bonus: "
                    f"the bonus is {-bonus} and the 5 never come on top of it.",
                )
                removal = bonus
            elif value == -other_bonus:
                problem(
                    number,
                    p,
                    f"{name}'s {value} in race {number}: the bonus is {-bonus} with "
                    f"{'half decks' if half else 'full decks'}, not {-other_bonus}.",
                )
                removal = bonus
            elif value < -(FIRST_REMOVES - 1):
                problem(
                    number,
                    p,
                    f"{name}'s {value} in race {number} cannot happen: without the bonus ({-bonus}) a race "
                    f"lowers a score by at most 4 (the first finisher removes 5 cards but always takes "
                    f"a pile of at least one card).",
                )
            if removal:  # the bonus
                off = min(removal, cards[p])
                cards[p] -= off
                debt[p] += removal - off
                scores[p] = cards[p] - debt[p]
                continue
            if hand < MAX_PILES:
                problem(
                    number,
                    p,
                    f"{name} raced race {number} with only {hand} cards, too few to fill {MAX_PILES} piles: "
                    f"finishing with an empty space, {name} must have earned the bonus ({-bonus}).",
                )
            first = n == 1 or noted == p or value <= 0
            if value <= 0:
                lost_without_bonus.append(p)
                if n > 1 and noted is not None and noted != p:
                    problem(
                        number,
                        p,
                        f"{name}'s {_signed(value)} in race {number}: only the first finisher removes 5 "
                        f"cards, and {names[noted]} is noted as first; everyone else takes a pile "
                        f"of at least one card.",
                    )
            most = hand - MAX_PILES + 1 - (FIRST_REMOVES if first else 0)
            if cards[p] + value > deck:
                problem(
                    number,
                    p,
                    f"{name}'s {_signed(value)} in race {number} would put {cards[p] + value} cards in "
                    f"{name}'s points pile, more than the {deck} cards of {name}'s {kind}.",
                )
            elif value > most:
                extra = ", less the 5 removed for finishing first" if first else ""
                problem(
                    number,
                    p,
                    f"{name}'s {_signed(value)} in race {number} is more than the race could add: {name} "
                    f"raced with {hand} cards and at least 5 stayed in the piles left on the table, so "
                    f"at most {hand - MAX_PILES + 1} could be added (leftover cards and one pile){extra}: "
                    f"{_signed(most)}.",
                )
            if first:
                added = cards[p] + value + FIRST_REMOVES
                off = min(FIRST_REMOVES, max(added, 0))
                cards[p] = added - off
                debt[p] += FIRST_REMOVES - off
            else:
                cards[p] += value
            if cards[p] < 0:  # only after an entry already reported as impossible
                debt[p] -= cards[p]
                cards[p] = 0
            scores[p] = cards[p] - debt[p]
        if n > 1 and len(lost_without_bonus) > 1:
            who = " and ".join(names[p] for p in lost_without_bonus)
            problem(
                number,
                None,
                f"In race {number} {who} all lost points without the bonus, but only one player "
                f"finishes first and removes 5 cards.",
            )
        totals.append(tuple(scores))
        standing = after_race(standing, scores)
        if standing.over:
            ended_after = number
    return SheetResult(
        problems=tuple(problems),
        start=start,
        totals=tuple(totals),
        ended_after=ended_after,
        winner=standing.winner,
        places=places(standing, n) if standing.over else None,
        replay_between=standing.contenders if standing.tie_break else (),
        next_racers=() if standing.over else standing.contenders,
    )
