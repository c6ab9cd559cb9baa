"""Checks a tabletop Spies! score sheet and gives the places.

Pure: given the number of players and, for each of the five powers, its victory points and its
money at the end (for the tie-break), ``check_sheet`` lists every problem in plain words and ranks
the players the way the engine does (ruling 20 of ``games/spies``):

- Every power is scored on its own, "just as though played by two players": the highest victory
  points win, a tie goes to the richest.
- With fewer than five players one player runs two powers (4 players: Germany and Italy;
  3 players: also France and Britain); that player is ranked by the better of them.
- In the two-player game Russia is scored but belongs to neither player.

What the counters allow (from ``data/counters.json``): a power's points are sums of values times
the Time and Victory Record's multipliers; no power can hold more than every secret and every
other power's spy at the highest multiplier, and the five together cannot hold more than that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from .board import POWER_CODES, Board, default_board

PLAYER_POWERS: Final[dict[int, tuple[tuple[str, ...], ...]]] = {
    5: (("G",), ("I",), ("R",), ("F",), ("B",)),
    4: (("G", "I"), ("R",), ("F",), ("B",)),
    3: (("G", "I"), ("R",), ("F", "B")),
    2: (("G", "I"), ("F", "B")),  # Russia alternates between them and belongs to neither
}
NAMES: Final = {"G": "Germany", "I": "Italy", "R": "Russia", "F": "France", "B": "Britain"}


@dataclass(frozen=True, slots=True)
class SheetProblem:
    """One thing wrong with a sheet. ``power``: the power it concerns (None: the sheet as a whole)."""

    power: str | None
    message: str


@dataclass(frozen=True, slots=True)
class SheetCheck:
    players: int
    victory_points: Mapping[str, int]
    money: Mapping[str, int]
    problems: tuple[SheetProblem, ...]
    places: tuple[int, ...]  # by player (0-based list); empty when the sheet is too broken to rank
    player_powers: tuple[tuple[str, ...], ...]
    scored_power: tuple[str, ...]  # for each player, the power it is ranked by
    power_places: Mapping[str, int]  # every power's own place

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def messages(self) -> list[str]:
        return [p.message for p in self.problems]


@cache
def _limits(board: Board) -> tuple[int, int, frozenset[int]]:
    """(most points one power can hold, most all five can hold, the reachable totals up to that)."""
    top = max(board.multipliers.values())
    secrets = sum(s.value for s in board.secrets if not s.counterspy)
    spies = [max(c.value, board.sanction_marker_value) for p in board.powers for c in p.spies]
    own_spies = [sum(max(c.value, board.sanction_marker_value) for c in p.spies) for p in board.powers]
    everything = (secrets + sum(spies)) * top
    one = (secrets + sum(spies) - min(own_spies)) * top
    # totals reachable as sums of value x multiplier (values of secrets, spies, markers)
    values = {s.value for s in board.secrets if not s.counterspy and s.value} | {
        c.value for p in board.powers for c in p.spies if c.value
    }
    if board.sanction_marker_value:
        values.add(board.sanction_marker_value)
    steps = sorted({v * m for v in values for m in board.multipliers.values() if m})
    reach = [False] * (one + 1)
    reach[0] = True
    for total in range(1, one + 1):
        reach[total] = any(step <= total and reach[total - step] for step in steps)
    return one, everything, frozenset(i for i, ok in enumerate(reach) if ok)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_sheet(
    players: int,
    victory_points: Mapping[str, Any],
    money: Mapping[str, Any],
    board: Board | None = None,
) -> SheetCheck:
    """Check a finished game's sheet: ``victory_points`` and ``money`` by power code (G, I, R, F, B)."""
    board = board or default_board()
    problems: list[SheetProblem] = []
    if players not in PLAYER_POWERS:
        problems.append(SheetProblem(None, f"Spies! is played by 2 to 5 players, not {players!r}."))
    for label, given in (("victory points", victory_points), ("money", money)):
        unknown = sorted(str(k) for k in given if k not in POWER_CODES)
        if unknown:
            problems.append(
                SheetProblem(
                    None,
                    f"The sheet gives {label} for {', '.join(unknown)}, which is not a power: "
                    "use G, I, R, F and B.",
                )
            )
        for code in POWER_CODES:
            if code not in given:
                problems.append(
                    SheetProblem(
                        code,
                        f"{NAMES[code]} has no {label} on the sheet; all five powers are scored "
                        "whatever the number of players.",
                    )
                )
    most_one, most_all, reachable = _limits(board)
    vps: dict[str, int] = {}
    cash: dict[str, int] = {}
    for code in POWER_CODES:
        name = NAMES[code]
        if code in victory_points:
            vp = victory_points[code]
            if not _whole(vp):
                problems.append(SheetProblem(code, f"{name}'s victory points {vp!r} are not a whole number."))
            elif vp < 0:
                problems.append(
                    SheetProblem(code, f"{name} has {vp} victory points, but points cannot be negative.")
                )
            elif vp > most_one:
                problems.append(
                    SheetProblem(
                        code,
                        f"{name} has {vp} victory points, more than any power can hold: every secret and "
                        f"every other power's spy at the highest multiplier make {most_one}.",
                    )
                )
            elif vp not in reachable:
                problems.append(
                    SheetProblem(
                        code,
                        f"{name}'s {vp} victory points cannot be made: points are sums of a secret's, "
                        "a spy's or a Sanctioned Spy marker's value times the year's multiplier.",
                    )
                )
            else:
                vps[code] = vp
        if code in money:
            amount = money[code]
            if not _whole(amount):
                problems.append(
                    SheetProblem(code, f"{name}'s money {amount!r} is not a whole number of pounds.")
                )
            elif amount < 0:
                problems.append(
                    SheetProblem(code, f"{name} has {amount}£, but the Bank Track never goes below 0.")
                )
            else:
                cash[code] = amount
    if len(vps) == len(POWER_CODES) and sum(vps.values()) > most_all:
        problems.append(
            SheetProblem(
                None,
                f"The powers have {sum(vps.values())} victory points together, more than all the secrets "
                f"and spies of the game can give ({most_all}).",
            )
        )
    player_powers = PLAYER_POWERS.get(players, ())
    if len(vps) < len(POWER_CODES) or len(cash) < len(POWER_CODES) or not player_powers:
        return SheetCheck(players, vps, cash, tuple(problems), (), player_powers, (), {})
    keys = {code: (vps[code], cash[code]) for code in POWER_CODES}
    power_places = {code: 1 + sum(1 for other in keys.values() if other > keys[code]) for code in POWER_CODES}
    scored = tuple(max(own, key=lambda c: (keys[c], -POWER_CODES.index(c))) for own in player_powers)
    places = tuple(1 + sum(1 for other in scored if keys[other] > keys[mine]) for mine in scored)
    return SheetCheck(players, vps, cash, tuple(problems), places, player_powers, scored, power_places)


def sheet_from_outcome(detail: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """The (victory points, money) a sheet would carry for an engine game's ``outcome().detail``."""
    powers: Mapping[str, Mapping[str, int]] = detail["powers"]
    return (
        {code: powers[code]["victory_points"] for code in POWER_CODES},
        {code: powers[code]["money"] for code in POWER_CODES},
    )


def places_of(players: int, victory_points: Sequence[int], money: Sequence[int]) -> tuple[int, ...]:
    """Places by player for points and money given in turn order (G, I, R, F, B)."""
    check = check_sheet(
        players,
        dict(zip(POWER_CODES, victory_points, strict=True)),
        dict(zip(POWER_CODES, money, strict=True)),
    )
    return check.places
