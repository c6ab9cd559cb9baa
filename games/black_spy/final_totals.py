"""A Black Spy table's final totals: could whole deals have given them, the game ending there?

A table scored by hand reports only each player's total at the end. ``check_totals(totals,
rules, stopped=..., names=...)`` says whether some sequence of whole, valid deals under the
table's scoring (``ScoreRules``: the number of players, No Good Spies, Capture or Release,
Going Back and the end value) can give these totals with the game ending there; if not, it
gives every reason in plain words, naming the players (``names``, else "Player 1" ...).

The overriding rule: totals that real play can produce are never refused. Each check below is
a consequence of the rules that every real game satisfies (the property tests play random
games under every combination of the scoring variants to hold it to that); where the exact
set of reachable totals is out of reach, less is checked rather than a guess made.

What one deal can do (the rules text, ``scoring`` and ``scorepad``)
-------------------------------------------------------------------
- A normal deal adds the deal total to the sum of the scores: 60 (80 for the black cards,
  -20 for the four coloured Spies), or 80 with No Good Spies. One player scores -20 to 79 in
  it (0 to 79 with No Good Spies): 80 would take all 16 black cards, which is scored apart.
- One player takes all 16 black cards: they score 0 and every other player 60, which adds
  60 x (players - 1). With Capture or Release the taker may subtract instead: -60 for them,
  0 for everyone else, which adds -60.
- Going Back: a player whose score changed in a deal and then stands at exactly the end value
  E, or exactly E/2, is halved (rounded down), which takes E - E//2 (or E/2 - E//4) off the
  sum; the halved score is not checked again.
- The game ends after the deal in which a score reaches E (with Going Back: goes past E).

What is checked
---------------
1. The sum. Without Going Back the totals add up to exactly what their deals added: some
   k x deal total + g x 60(players - 1) - 60 s, with at least one deal (s only with Capture or
   Release, which makes every multiple of 60, or of 20 with No Good Spies, possible). With
   Going Back each halving also takes off one of its two amounts, so only what survives any
   number of halvings is checked: the sum is a multiple of the greatest common divisor of all
   these amounts (with 4 players and the end value 150 that divisor is 1: nothing is checked).
2. The end. Unless the table was stopped on time, someone reached the end value (with Going
   Back: went past it).
3. Going Back: nobody ends on exactly the end value (it is halved at once).
4. The last deal. Before it every score was below E (the game would have ended; with Going
   Back a score of E is halved at once). So a player at or past E gained at least
   total - (E - 1) in the last deal: at most 79 for one player; together, the players at or
   past E gained at most 80 (all the black cards' points), and at most the deal total less the
   least the others can have scored (without Going Back a player below E also gained at least
   total - (E - 1), which is negative or 0); or, if someone else took all 16 black cards, 60
   each.
5. How low, and how high, without Going Back and Capture or Release. With No Good Spies no
   deal takes points away, so no total is below 0 (with Going Back too: halving a positive
   score keeps it at 0 or more). The sum says how many deals there were at most (each adds at
   least the deal total), and a player scores -20 to 79 in each. Without No Good Spies, while
   a player loses at most 20 in a deal the others gain at least 60 more than that player did,
   and before the last deal each of them was below E; so after m deals that player had at
   least the larger of -20m and 60m - (players - 1)(E - 1), and the lowest total a game to E
   allows is the least of that over m, less 20 for the last deal (-120 with 4 players to 150).
6. A single deal. When the sum can only come from one deal (no Going Back or Capture or
   Release: the sum is exactly the deal total, or exactly what an all-black deal adds and no
   mix of deals gives it), the totals are that deal's points, checked as the scorepad checks
   a deal (cards that exist, shared out between the players).

What is not checked
-------------------
- Whether the totals are a sum of valid deals beyond the above: the order of the deals, two or
  more deals card by card, and with Going Back which halvings happened and when. With Going
  Back a game can last any number of deals (halvings take points off the sum), so there is
  no lower limit on a total without No Good Spies; with Capture or Release a player can
  subtract 60 any number of times, so there is none either.
- Places and ties: they follow from the totals (lowest wins) and are checked elsewhere.

Rulings (where the rules text is silent)
----------------------------------------
- Only whole deals count: a deal cut short when the time ran out is not scored, so the totals
  of a stopped table are still what whole deals give.
- "Stopped on time" means the game may have ended before anyone reached the end value; if
  someone did reach it, the game ended there anyway and the mark changes nothing.
- A result needs at least one deal: totals of a table that scored no deal at all (every total
  0, nothing played) are not a game. All totals 0 after real deals (possible only with Capture
  or Release, say a -60 and then a deal of 60 to the same player) is accepted when stopped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd

from . import scoring
from .scorepad import ScoreRules, check_deal, possible_points

BLACK_POINTS = 80  # every black card's points in one deal


@dataclass(frozen=True)
class TotalsCheck:
    """Final totals and what is wrong with them (nothing, when ``ok``)."""

    totals: tuple[int, ...]
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def check_totals(
    totals: Sequence[int],
    rules: ScoreRules,
    *,
    stopped: bool = False,
    names: Sequence[str] | None = None,
) -> TotalsCheck:
    """Can whole deals under ``rules`` give these final totals, the game ending there?

    ``stopped``: the table was stopped on time, so nobody need have reached the end value.
    Every problem is given in words; see the module docstring for what is and is not checked.
    """
    n = rules.players
    if len(totals) != n:
        return TotalsCheck(tuple(totals), (f"Give a total for each of the {n} players, not {len(totals)}.",))
    if not all(isinstance(t, int) and not isinstance(t, bool) for t in totals):
        return TotalsCheck(tuple(totals), ("Black Spy totals are whole numbers.",))
    table = _Table(tuple(totals), rules, names)
    problems = [
        *table.sum_problems(),
        *table.end_problems(stopped),
        *table.last_deal_problems(),
        *table.range_problems(),
    ]
    return TotalsCheck(table.totals, tuple(problems))


def deal_counts(total: int, deal_total: int, all_black_total: int) -> tuple[int, int] | None:
    """The fewest and the most deals, each adding ``deal_total`` or ``all_black_total``, that add
    up to ``total``; None when no number of such deals (at least one) does."""
    if total <= 0:
        return None
    period = deal_total // gcd(deal_total, all_black_total)
    first = next((g for g in range(period) if (total - g * all_black_total) % deal_total == 0), None)
    if first is None or first * all_black_total > total:
        return None
    last = first + (total - first * all_black_total) // (all_black_total * period) * period
    most = first + (total - first * all_black_total) // deal_total
    fewest = last + (total - last * all_black_total) // deal_total
    return fewest, most


def lowest_total(rules: ScoreRules) -> int | None:
    """The lowest total a game can leave a player with, or None when there is no such limit.

    Only without Going Back and Capture or Release (see point 5 of the module docstring).
    """
    if rules.going_back or rules.capture_or_release:
        return None
    low = min(possible_points(rules))
    if low >= 0:
        return 0  # No Good Spies: no deal takes points away
    room = (rules.players - 1) * (rules.end_value - 1)  # the others' most before the last deal
    gain = rules.deal_total - low  # how much more than the player the others gain in a deal
    crossing = room // gain
    before = min(max(low * m, rules.deal_total * m - room) for m in (crossing, crossing + 1))
    return min(before, 0) + low


def _and(parts: Sequence[str]) -> str:
    return " and ".join([", ".join(parts[:-1]), parts[-1]]) if len(parts) > 1 else "".join(parts)


@dataclass(frozen=True)
class _Table:
    totals: tuple[int, ...]
    rules: ScoreRules
    names: Sequence[str] | None

    def name(self, player: int) -> str:
        return self.names[player] if self.names is not None else f"Player {player + 1}"

    # -- what deals add ----------------------------------------------------------------------

    @property
    def all_black_total(self) -> int:
        return scoring.ALL_BLACK_OTHERS * (self.rules.players - 1)

    @property
    def halving_losses(self) -> tuple[int, ...]:
        end = self.rules.end_value
        losses = [end - end // 2]
        if end % 2 == 0:
            losses.append(end // 2 - end // 4)
        return tuple(losses)

    @property
    def counts(self) -> tuple[int, int] | None:
        """Without Going Back or Capture or Release: the fewest and most deals the sum allows."""
        if self.rules.going_back or self.rules.capture_or_release:
            return None
        return deal_counts(sum(self.totals), self.rules.deal_total, self.all_black_total)

    def what_deals_add(self) -> str:
        rules = self.rules
        why = (
            "the black cards' 80, the coloured Spies counting 0 with No Good Spies"
            if rules.no_good_spies
            else "80 for the black cards, -20 for the coloured Spies"
        )
        parts = [
            f"every deal adds {rules.deal_total} to them ({why}) or {self.all_black_total} (when one "
            "player takes all 16 black cards: 0 for them, 60 for each other player)"
        ]
        if rules.capture_or_release:
            parts.append("or -60 (Capture or Release: the taker subtracts 60, the others score 0)")
        text = ", ".join(parts)
        if rules.going_back:
            end = rules.end_value
            losses = self.halving_losses
            halvings = f"{losses[0]} (a score of exactly {end} halved)"
            if len(losses) > 1:
                halvings += f" or {losses[1]} (exactly {end // 2} halved)"
            text += f", and each Going Back halving takes off {halvings}"
        return text

    # -- the checks --------------------------------------------------------------------------

    def sum_problems(self) -> list[str]:
        rules, total = self.rules, sum(self.totals)
        intro = f"The totals add up to {total}; with {rules.players} players {self.what_deals_add()}"
        if rules.going_back or rules.capture_or_release:
            amounts = [rules.deal_total, self.all_black_total]
            if rules.capture_or_release:
                amounts.append(-scoring.CAPTURE_SUBTRACT)
            if rules.going_back:
                amounts.extend(self.halving_losses)
            step = gcd(*amounts)
            if total % step:
                return [f"{intro}, so the totals always add up to a multiple of {step}."]
            return []
        counts = self.counts
        if counts is None:
            return [f"{intro}, so no number of whole deals gives {total}."]
        if counts[1] == 1:
            return self.one_deal_problems(total)
        return []

    def one_deal_problems(self, total: int) -> list[str]:
        """The sum is one deal's worth and nothing else: the totals are that deal's points."""
        n = self.rules.players
        if total == self.rules.deal_total:
            check = check_deal(self.totals, self.rules, self.names)
            return [
                f"The totals add up to {total}, one deal's worth, so they are the points of that deal: {p}"
                for p in check.problems
            ]
        if any(self.totals == scoring.all_black_points(n, taker) for taker in range(n)):
            return []
        return [
            f"The totals add up to {total}, which only one deal gives: the one where a player takes "
            "all 16 black cards; then that player has 0 and every other player 60."
        ]

    def end_problems(self, stopped: bool) -> list[str]:
        rules, end = self.rules, self.rules.end_value
        problems: list[str] = []
        if rules.going_back:
            problems.extend(
                f"{self.name(p)} has exactly {end}: with Going Back a score of exactly {end} is halved "
                f"to {end // 2} at once, so no game ends with it."
                for p, total in enumerate(self.totals)
                if total == end
            )
        if stopped:
            return problems
        if rules.going_back and max(self.totals) <= end:
            problems.append(
                f"Nobody went past the end value of {end} (with Going Back the game ends only when a "
                "score goes past it): mark the table as stopped on time if the game was cut short."
            )
        elif not rules.going_back and max(self.totals) < end:
            problems.append(
                f"Nobody reached the end value of {end}: mark the table as stopped on time if the game "
                "was cut short."
            )
        return problems

    def last_deal_problems(self) -> list[str]:
        rules, end = self.rules, self.rules.end_value
        points = possible_points(rules)
        low, high = min(points), max(points)
        most = max(high, scoring.ALL_BLACK_OTHERS)  # the most one player gains in a deal
        # What each player gained at least in the last deal: before it every score was below end.
        need = [total - (end - 1) for total in self.totals]
        over = [
            p
            for p, total in enumerate(self.totals)
            if total >= end and not (rules.going_back and total == end)
        ]
        if not over:
            return []
        ends = "goes past" if rules.going_back else "reaches"
        too_high = [
            f"{self.name(p)}'s {self.totals[p]} is more than a game to {end} can give: the game ends "
            f"once a score {ends} {end}, so {self.name(p)} had at most {end - 1} before the last deal, "
            f"and one deal gives a player at most {most} points."
            for p in over
            if need[p] > most
        ]
        if too_high:
            return too_high
        others = [p for p in range(rules.players) if p not in over]
        # With Going Back a player below the end value may have been halved in the last deal.
        others_least = sum(low if rules.going_back else max(need[p], low) for p in others)
        cap = min(BLACK_POINTS, rules.deal_total - others_least)
        needed = sum(need[p] for p in over)
        normal = all(need[p] <= high for p in over) and needed <= cap
        all_black = bool(others) and all(need[p] <= scoring.ALL_BLACK_OTHERS for p in over)
        if normal or all_black:
            return []
        gains = _and([f"{need[p]} to {self.name(p)} ({self.totals[p]})" for p in over])
        return [
            f"The last deal cannot have left these totals: before it every score was below {end}, so "
            f"it gave at least {gains}, {needed} in all; one deal gives them at most {cap} between "
            f"them, or 60 to each player but the one who takes all 16 black cards."
        ]

    def range_problems(self) -> list[str]:
        """Totals below or above what the deals can give one player (point 5)."""
        rules = self.rules
        if rules.capture_or_release:
            return []
        problems = []
        points = possible_points(rules)
        low, high = min(min(points), 0), max(max(points), scoring.ALL_BLACK_OTHERS)
        counts = self.counts
        most = counts[1] if counts is not None else 0
        several = most > 1  # one deal's worth is checked card by card (point 6)
        lowest = lowest_total(rules)
        for p, total in enumerate(self.totals):
            name = self.name(p)
            if rules.no_good_spies and total < 0:
                problems.append(
                    f"{name}'s {total}: with No Good Spies no deal takes points away (the coloured Spies "
                    "count 0), so no total is below 0."
                )
            elif several and not low * most <= total <= high * most:
                problems.append(
                    f"{name}'s {total}: the totals add up to {sum(self.totals)}, at most {most} deals' "
                    f"worth, and one deal gives a player {low} to {high} points, so {low * most} to "
                    f"{high * most} in all."
                )
            elif lowest is not None and total < lowest:
                problems.append(
                    f"{name}'s {total} is lower than a game to {rules.end_value} allows: in a deal a "
                    "player loses at most 20 points while the others gain at least 60 more than that "
                    f"player between them, and the game ends once one of them reaches {rules.end_value}, "
                    f"so no total is below {lowest}."
                )
        return problems
