"""The sheet extras of the games scored from more than a number per seat.

Spycatcher: the permission cards each player held at the end, who returned to the centre with all
four (or nobody, when the game was stopped) and, if the table wrote it down, the finishing order.
Spies!: every power's victory points and money at the end, and who ran which powers.

Each is checked by the game's own package (``games.<game>.scoresheet.check_sheet``), whose
messages are shown as they are, with the players' names in them. The sheet is plain JSON, the
same from the table sheet's form and from the API, and is stored as entered on the result.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from games.spies.board import POWER_CODES
from games.spies.scoresheet import NAMES as POWER_NAMES
from games.spies.scoresheet import PLAYER_POWERS
from games.spies.scoresheet import check_sheet as spies_check
from games.spycatcher.cards import SUITS
from games.spycatcher.scoresheet import WINNER_SCORE
from games.spycatcher.scoresheet import check_sheet as spycatcher_check

from ..core.words import and_list, ordinal
from .sheet_parts import Checked, Problem, SheetExtras

_WHOLE = re.compile(r"-?\d+")
_PLAYER = re.compile(r"\bPlayer (\d+)\b")


def _typed_number(raw: str | None) -> Any:
    """A whole number as typed, or what was typed (for the check to name), or None when empty."""
    text = (raw or "").strip()
    if not text:
        return None
    return int(text) if _WHOLE.fullmatch(text) else text


def _unknown_fields(game: str, sheet: Mapping[str, Any], known: Sequence[str]) -> list[Problem]:
    unknown = sorted(str(k) for k in sheet if k not in known)
    if not unknown:
        return []
    return [
        Problem(
            f"A {game} sheet has no {and_list([repr(k) for k in unknown])}: it gives {and_list(list(known))}."
        )
    ]


def _rows_left(problems: Sequence[Problem], shown: set[str]) -> list[str]:
    """Problems not shown next to a row of the form: they go at its top."""
    return [p.message for p in problems if p.row is None or p.row not in shown]


class SpycatcherSheet:
    """``{"permissions": [[kinds] per seat], "winner": seat or null, "order": [places] (optional)}``."""

    template = "tournaments/sheets/spycatcher.html"
    fields: Final = ("permissions", "winner", "order")

    def read_form(self, form: Mapping[str, str], seats: int) -> dict[str, Any]:
        sheet: dict[str, Any] = {
            "permissions": [[kind for kind in SUITS if form.get(f"perm_{i}_{kind}")] for i in range(seats)]
        }
        winner = (form.get("winner") or "").strip()
        if winner == "none":
            sheet["winner"] = None
        elif winner:
            sheet["winner"] = _typed_number(winner)
        order = [_typed_number(form.get(f"place_{i}")) for i in range(seats)]
        if any(place is not None for place in order):
            sheet["order"] = order
        return sheet

    def form_values(self, sheet: Any, seats: int) -> dict[str, str]:
        if not isinstance(sheet, Mapping):
            return {}
        values: dict[str, str] = {}
        permissions = sheet.get("permissions")
        if isinstance(permissions, list):
            for i, kinds in enumerate(permissions[:seats]):
                for kind in kinds if isinstance(kinds, list) else []:
                    values[f"perm_{i}_{kind}"] = "on"
        if "winner" in sheet:
            values["winner"] = "none" if sheet["winner"] is None else str(sheet["winner"])
        order = sheet.get("order")
        if isinstance(order, list):
            for i, place in enumerate(order[:seats]):
                values[f"place_{i}"] = "" if place is None else str(place)
        return values

    def form(
        self, names: Sequence[str], values: Mapping[str, str], problems: Sequence[Problem]
    ) -> dict[str, Any]:
        rows = [
            {
                "position": i,
                "name": name,
                "kinds": [
                    {
                        "kind": kind,
                        "label": kind.capitalize(),
                        "field": f"perm_{i}_{kind}",
                        "held": bool(values.get(f"perm_{i}_{kind}")),
                    }
                    for kind in SUITS
                ],
                "winner": values.get("winner") == str(i),
                "place": values.get(f"place_{i}", ""),
                "problems": [p.message for p in problems if p.row == str(i)],
            }
            for i, name in enumerate(names)
        ]
        return {
            "rows": rows,
            "no_winner": values.get("winner") == "none",
            "problems": _rows_left(problems, {str(i) for i in range(len(names))}),
        }

    def check(self, names: Sequence[str], sheet: Any) -> Checked:
        n = len(names)
        if not isinstance(sheet, Mapping):
            return Checked(
                [
                    Problem(
                        "A Spycatcher result needs its sheet: the permission cards each player held at "
                        "the end, and who returned to the centre with all four (or nobody)."
                    )
                ]
            )
        problems = _unknown_fields("Spycatcher", sheet, self.fields)
        permissions = sheet.get("permissions")
        if not isinstance(permissions, list):
            problems.append(
                Problem(
                    "Give the permission cards each player held at the end: a list for each player, in "
                    "seat order (an empty one for none)."
                )
            )
        if "winner" not in sheet:
            problems.append(
                Problem(
                    "Say who won: the player who returned to the centre with all four permission cards, "
                    "or nobody if the game was stopped."
                )
            )
        order = sheet.get("order")
        if order is not None:
            if not isinstance(order, list) or len(order) != n:
                given = len(order) if isinstance(order, list) else 0
                problems.append(Problem(f"The finishing order gives {given} places for {n} players."))
                order = None
            elif any(place is None for place in order):
                problems.append(
                    Problem(
                        "Give every player a place in the finishing order, or leave them all empty to "
                        "have it worked out."
                    )
                )
                order = None
            else:
                problems.extend(
                    Problem(f"{names[seat]}: the place {place!r} is not a whole number.", str(seat))
                    for seat, place in enumerate(order)
                    if isinstance(place, bool) or not isinstance(place, int)
                )
        if problems or not isinstance(permissions, list):
            return Checked(problems)
        check = spycatcher_check(n, permissions, sheet["winner"], order)
        if not check.ok:
            return Checked(
                [
                    Problem(_named(p.message, names), None if p.seat is None else str(p.seat))
                    for p in check.problems
                ]
            )
        return Checked([], list(check.places), [float(score) for score in check.scores])

    def summary(self, names: Sequence[str], sheet: Any) -> list[str]:
        if not isinstance(sheet, Mapping) or not isinstance(sheet.get("permissions"), list):
            return []
        out = []
        for seat, (name, kinds) in enumerate(zip(names, sheet["permissions"], strict=False)):
            held = [kind for kind in SUITS if kind in kinds]
            cards = f"held {and_list(held)}" if held else "held no permission card"
            won = ": returned to the centre, the winner" if sheet.get("winner") == seat else ""
            out.append(f"{name} {cards}{won}.")
        if "winner" in sheet and sheet["winner"] is None:
            out.append(f"Nobody returned to the centre with all four (a winner scores {WINNER_SCORE}).")
        return out


def _named(message: str, names: Sequence[str]) -> str:
    """The game package's "Player 2" as the player's name."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1)) - 1
        return names[seat] if 0 <= seat < len(names) else match.group(0)

    return _PLAYER.sub(name, message)


def _powers(codes: Sequence[str]) -> str:
    return and_list([POWER_NAMES[code] for code in codes])


class SpiesSheet:
    """``{"victory_points": {power: n}, "money": {power: n}, "run_by": [seat per group] (optional)}``."""

    template = "tournaments/sheets/spies.html"
    fields: Final = ("victory_points", "money", "run_by")

    def read_form(self, form: Mapping[str, str], seats: int) -> dict[str, Any]:
        sheet: dict[str, Any] = {"victory_points": {}, "money": {}}
        for code in POWER_CODES:
            for key, field in (("victory_points", "vp"), ("money", "money")):
                value = _typed_number(form.get(f"{field}_{code}"))
                if value is not None:
                    sheet[key][code] = value
        groups = PLAYER_POWERS.get(seats, ())
        run_by = [_typed_number(form.get(f"run_{g}")) for g in range(len(groups))]
        if any(seat is not None for seat in run_by):
            sheet["run_by"] = run_by
        return sheet

    def form_values(self, sheet: Any, seats: int) -> dict[str, str]:
        if not isinstance(sheet, Mapping):
            return {}
        values: dict[str, str] = {}
        for key, field in (("victory_points", "vp"), ("money", "money")):
            given = sheet.get(key)
            for code, value in given.items() if isinstance(given, Mapping) else []:
                values[f"{field}_{code}"] = str(value)
        run_by = sheet.get("run_by")
        for g, seat in enumerate(run_by if isinstance(run_by, list) else []):
            values[f"run_{g}"] = "" if seat is None else str(seat)
        return values

    def form(
        self, names: Sequence[str], values: Mapping[str, str], problems: Sequence[Problem]
    ) -> dict[str, Any]:
        groups = PLAYER_POWERS.get(len(names), ())

        def power(code: str) -> dict[str, Any]:
            return {
                "code": code,
                "name": POWER_NAMES[code],
                "vp": values.get(f"vp_{code}", ""),
                "money": values.get(f"money_{code}", ""),
                "problems": [p.message for p in problems if p.row == code],
            }

        rows = []
        for g, codes in enumerate(groups):
            chosen = values.get(f"run_{g}", str(g))
            rows.append(
                {
                    "index": g,
                    "label": _powers(codes),
                    "runner": next((n for i, n in enumerate(names) if str(i) == chosen), ""),
                    "players": [
                        {"seat": i, "name": n, "chosen": str(i) == chosen} for i, n in enumerate(names)
                    ],
                    "powers": [power(code) for code in codes],
                    "problems": [p.message for p in problems if p.row == f"run_{g}"],
                }
            )
        owned = {code for codes in groups for code in codes}
        nobody = [power(code) for code in POWER_CODES if code not in owned]
        shown = set(POWER_CODES) | {f"run_{g}" for g in range(len(groups))}
        lineup = [f"{row['runner']} runs {row['label']}" for row in rows]
        return {"groups": rows, "nobody": nobody, "lineup": lineup, "problems": _rows_left(problems, shown)}

    def check(self, names: Sequence[str], sheet: Any) -> Checked:
        n = len(names)
        groups = PLAYER_POWERS.get(n, ())
        if not isinstance(sheet, Mapping):
            return Checked(
                [
                    Problem(
                        "A Spies! result needs its sheet: every power's victory points and money at the end."
                    )
                ]
            )
        problems = _unknown_fields("Spies!", sheet, self.fields)
        given: dict[str, Mapping[str, Any]] = {}
        for key, label in (("victory_points", "victory points"), ("money", "money")):
            value = sheet.get(key, {})
            if isinstance(value, Mapping):
                given[key] = value
            else:
                problems.append(
                    Problem(f"Give every power's {label} by its code (G, I, R, F and B), not {value!r}.")
                )
        run_by = sheet.get("run_by", list(range(len(groups))))
        lineup = ", ".join(f"seat {g}: {_powers(codes)}" for g, codes in enumerate(groups))
        if not isinstance(run_by, list) or len(run_by) != len(groups):
            problems.append(
                Problem(f"Say who ran each group of powers, one player each, in this order: {lineup}.")
            )
        else:
            seen: dict[int, int] = {}
            for g, seat in enumerate(run_by):
                if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                    problems.append(Problem(f"{seat!r} is not one of the players at the table.", f"run_{g}"))
                elif seat in seen:
                    problems.append(
                        Problem(
                            f"{names[seat]} is named for both {_powers(groups[seen[seat]])} and "
                            f"{_powers(groups[g])}; each player runs one of them.",
                            f"run_{g}",
                        )
                    )
                else:
                    seen[seat] = g
        if problems:
            return Checked(problems)
        check = spies_check(n, given["victory_points"], given["money"])
        if not check.ok:
            return Checked([Problem(p.message, p.power) for p in check.problems])
        places: list[int] = [0] * n
        scores: list[float | None] = [None] * n
        for g, seat in enumerate(run_by):
            places[seat] = check.places[g]
            scores[seat] = float(check.victory_points[check.scored_power[g]])
        return Checked([], places, scores)

    def summary(self, names: Sequence[str], sheet: Any) -> list[str]:
        if not isinstance(sheet, Mapping):
            return []
        groups = PLAYER_POWERS.get(len(names), ())
        run_by = sheet.get("run_by", list(range(len(groups))))
        runner = {
            code: names[seat]
            for codes, seat in zip(groups, run_by, strict=False)
            if isinstance(seat, int) and 0 <= seat < len(names)
            for code in codes
        }
        vps, money = sheet.get("victory_points") or {}, sheet.get("money") or {}
        # Each power is scored on its own, also when one player ran two: its own place among the five.
        placed: Mapping[str, int] = {}
        if isinstance(vps, Mapping) and isinstance(money, Mapping):
            check = spies_check(len(names), vps, money)
            placed = check.power_places if check.ok else {}
        lines = []
        for code in POWER_CODES:
            place = f"; {ordinal(placed[code])} of the five powers" if code in placed else ""
            lines.append(
                f"{POWER_NAMES[code]} ({runner.get(code, 'nobody')}): {vps.get(code, '?')} victory points, "
                f"£{money.get(code, '?')}{place}."
            )
        return lines


SHEET_EXTRAS: dict[str, SheetExtras] = {"spycatcher": SpycatcherSheet(), "spies": SpiesSheet()}
