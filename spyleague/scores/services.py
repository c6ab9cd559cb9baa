"""Results: entered at the table, confirmed by another player, corrected with an audit trail.

Who may do what:
- enter: a player seated in the game, or a club scorer or organiser;
- confirm: another seated player than the one who entered it, or a scorer or organiser;
- correct: the one who entered it while it is unconfirmed, or a scorer or organiser at any time
  (an organiser's correction of a confirmed result is an override and stays confirmed).
Every change is a ``ResultChange`` with who, when, before and after. Nothing is deleted. A
correction says why (its reason is kept with the change, and the history shows it); one that
leaves the result as it was is refused as ``NothingChanged`` and adds nothing to the history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from ..clubs.models import Club, Player, Role
from ..clubs.selectors import has_club_role
from ..core.locks import atomic_retrying
from ..core.prepared import Prepared
from .checks import Line, Problem, sheet_check
from .models import Result, ResultChange, ResultLine


@dataclass(frozen=True)
class EntryLine:
    player: Player
    score: float | None = None
    place: int | None = None


class NothingChanged(ValidationError):
    """A correction that leaves the result (or a scorepad's round) as it stands: nothing is
    saved, no history is added."""

    def __init__(self, result: Result | None, what: str = "the result") -> None:
        super().__init__(f"Nothing was changed: {what} already says this, so no correction was recorded.")
        self.result = result


def reason_problem(reason: str) -> str | None:
    """Why a correction's reason cannot be kept, or None: it is needed, and it has a length."""
    longest = ResultChange._meta.get_field("note").max_length or 300
    if not reason.strip():
        return "Say why the result is corrected: the reason is kept in its history."
    if len(reason.strip()) > longest:
        return f"The reason for the correction is at most {longest} characters; it has {len(reason.strip())}."
    return None


class ResultExists(ValidationError):
    """The table has a result already (someone entered it first): correct that one instead."""

    def __init__(self, result: Result) -> None:
        super().__init__(
            "This table's result was entered by someone else a moment ago: check it, then correct "
            "it or confirm it. Nothing of yours was saved."
        )
        self.result = result


def table_open_problem(table: Any) -> str | None:
    """Why no result may be entered or confirmed on this tournament table now, or None."""
    if table.is_bye:
        return "A bye has no result to enter."
    if table.round.status == "draft":
        return "This round is still a draft: results are entered once the organiser publishes it."
    return None


class SheetRefused(ValidationError):
    """A sheet with problems; each knows the row of the game's own sheet it belongs next to."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__([p.message for p in problems])
        self.problems = list(problems)


# A result's lines with their players, in order: every entry, confirmation and read asks
# (compiled once, ``core.prepared``).
_LINES = Prepared(
    lambda pk: ResultLine.objects.filter(result_id=pk).select_related("player").order_by("position")
)


def snapshot(result: Result) -> dict[str, Any]:
    out: dict[str, Any] = {
        "status": result.status,
        "lines": [
            {"player": line.player_id, "name": line.player.name, "place": line.place, "score": line.score}
            for line in _LINES.list(result.pk)
        ],
    }
    if "sheet" in result.data:
        out["sheet"] = result.data["sheet"]  # a game's own sheet (permission cards, powers' points)
    return out


def _is_seated(user: Any, players: Sequence[Player]) -> bool:
    return getattr(user, "is_authenticated", False) and any(p.user_id == user.pk for p in players)


def _can_score(user: Any, club: Club | None) -> bool:
    return club is not None and has_club_role(user=user, club=club, role=Role.SCORER)


def _check(
    game: str,
    entries: Sequence[EntryLine],
    sheet: Any,
    *,
    table: Any = None,
    data: dict[str, Any] | None = None,
) -> tuple[list[int], list[float | None]]:
    """The places and scores to record, by seat; or ``SheetRefused`` with every problem in words.

    The sheet is checked against how the table played: the variants the game was scored under (its
    scorepad's, which may add to the event's; else its tournament table's event's; unknown without
    either) and ``data["stopped"]``, the table stopped on time.
    """
    from .checks import Conditions
    from .models import Scorepad

    data = data or {}
    options = None
    if data.get("scorepad") is not None:
        options = Scorepad.objects.filter(pk=data["scorepad"]).values_list("options", flat=True).first()
    elif table is not None:
        options = table.round.event.options
    conditions = Conditions(options=options, stopped=bool(data.get("stopped", False)))
    lines = [Line(e.player.name, e.score, e.place) for e in entries]
    checked = sheet_check(game, lines, sheet, conditions=conditions)
    if checked.problems:
        raise SheetRefused(checked.problems)
    return checked.places, checked.scores


@atomic_retrying
def result_enter(
    *,
    user: Any,
    game: str,
    club: Club | None,
    entries: Sequence[EntryLine],
    table: Any = None,
    source: str = Result.Source.SHEET,
    data: dict[str, Any] | None = None,
    played: Any = None,
    checked: bool = False,
) -> Result:
    """Record a result as reported. ``checked``: the caller has already checked who may enter it.

    A game with sheet extras (Spycatcher, Spies!) is scored from ``data["sheet"]``, kept as entered.
    """
    players = [e.player for e in entries]
    if not (checked or _is_seated(user, players) or _can_score(user, club)):
        raise PermissionDenied("Only a player at this table, or a club scorer, can enter its result.")
    if table is not None:
        # One result per table: whoever comes second waits for the first, then is told (the
        # event's lock, then the table's: the order of ``core.locks``).
        from ..tournaments.services import table_locked

        table = table_locked(table.pk)
        if problem := table_open_problem(table):
            raise ValidationError(problem)
        existing = Result.objects.filter(table=table).first()
        if existing is not None:
            raise ResultExists(existing)
    places, scores = _check(game, entries, (data or {}).get("sheet"), table=table, data=data)
    result = Result.objects.create(
        game=game,
        club=club,
        table=table,
        source=source,
        status=Result.Status.REPORTED,
        data=data or {},
        played=played or timezone.now(),
        entered_by=user if getattr(user, "is_authenticated", False) else None,
    )
    for position, (entry, place, score) in enumerate(zip(entries, places, scores, strict=True)):
        ResultLine.objects.create(
            result=result, player=entry.player, position=position, place=place, score=score
        )
    ResultChange.objects.create(
        result=result, who=result.entered_by, action="entered", after=snapshot(result)
    )
    return result


def _players(result: Result) -> list[Player]:
    return [line.player for line in _LINES.list(result.pk)]


def _result_locked(result: Result) -> Result:
    """The result's row, locked, after its table's event and table (the order of ``core.locks``):
    a confirmation and a correction of one result at once take turns, and the second reads what
    the first left."""
    if result.table_id is not None:
        from ..tournaments.services import table_locked

        table_locked(result.table_id)
    return Result.objects.select_for_update(no_key=True).get(pk=result.pk)


@atomic_retrying
def result_confirm(*, user: Any, result: Result) -> Result:
    result = _result_locked(result)
    if result.status == Result.Status.VOID:
        raise ValidationError("This result was voided; enter it again.")
    seated_other = _is_seated(user, _players(result)) and result.entered_by_id != user.pk
    confirmer = result.confirmed_by_id is not None and result.confirmed_by_id == getattr(user, "pk", None)
    if not (seated_other or confirmer or _can_score(user, result.club)):
        raise PermissionDenied(
            "Another player at the table (not the one who entered it), or a club scorer, must confirm."
        )
    if result.status == Result.Status.CONFIRMED:
        return result  # confirming twice changes nothing
    if result.table_id is not None and (problem := table_open_problem(result.table)):
        raise ValidationError(problem)
    before = snapshot(result)
    result.status = Result.Status.CONFIRMED
    result.confirmed_by = user
    result.save(update_fields=["status", "confirmed_by", "updated"])
    ResultChange.objects.create(
        result=result, who=user, action="confirmed", before=before, after=snapshot(result)
    )
    result_confirmed_effects(result)
    return result


def result_correct_allowed(*, user: Any, result: Result) -> None:
    """PermissionDenied unless ``user`` may correct ``result``: the one who entered it while it is
    unconfirmed, or a scorer of its club at any time."""
    own_unconfirmed = result.status == Result.Status.REPORTED and result.entered_by_id == user.pk
    if not (_can_score(user, result.club) or own_unconfirmed):
        raise PermissionDenied(
            "Only the player who entered this result (until it is confirmed) or a club scorer can correct it."
        )


@atomic_retrying
def result_correct(
    *,
    user: Any,
    result: Result,
    entries: Sequence[EntryLine],
    note: str = "",
    data: dict[str, Any] | None = None,
) -> Result:
    result = _result_locked(result)
    result_correct_allowed(user=user, result=result)
    if [e.player.pk for e in entries] != [p.pk for p in _players(result)]:
        raise ValidationError("A correction keeps the same players in the same seats.")
    sheet = (data or {}).get("sheet", result.data.get("sheet"))
    # What the result will hold once corrected: a correction that leaves out "stopped" keeps it.
    merged = {**result.data, **(data or {})}
    places, scores = _check(result.game, entries, sheet, table=result.table, data=merged)
    lines = list(result.lines.order_by("position"))
    same_lines = all(
        line.score == score and line.place == place
        for line, place, score in zip(lines, places, scores, strict=True)
    )
    if same_lines and _says_the_same(result, merged):
        raise NothingChanged(result)
    if problem := reason_problem(note):
        raise ValidationError(problem)
    before = snapshot(result)
    for line, place, score in zip(lines, places, scores, strict=True):
        line.score, line.place = score, place
        line.save(update_fields=["score", "place"])
    result.data = merged
    overridden = result.status == Result.Status.CONFIRMED
    ResultChange.objects.create(
        result=result,
        who=user,
        action="overridden" if overridden else "corrected",
        before=before,
        after=snapshot(result),
        note=note.strip(),
    )
    result.save(update_fields=["updated", "data"])
    if overridden:
        result_confirmed_effects(result)
    return result


def _says_the_same(result: Result, data: dict[str, Any]) -> bool:
    """Whether ``data`` holds what the result's data holds, as far as the result goes: what was
    typed into the form aside, "not stopped" the same as saying nothing, and a game's own sheet
    compared as it reads (the form and the API may write the same sheet differently)."""
    from .checks import sheet_extras

    def meaning(values: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in values.items() if k not in ("typed", "sheet")}
        if not out.get("stopped"):
            out.pop("stopped", None)
        return out

    if meaning(result.data) != meaning(data):
        return False
    old, new = result.data.get("sheet"), data.get("sheet")
    extras = sheet_extras(result.game)
    if extras is None or old is None or new is None:
        return bool(old == new)
    names = [line.player.name for line in result.lines.select_related("player").order_by("position")]
    return extras.summary(names, old) == extras.summary(names, new)


def result_confirmed_effects(result: Result) -> None:
    """A confirmed (or corrected) result updates its tournament table and standings, and the
    game's ratings: in the caller's transaction without a worker, else right after it
    (``scores.effects``). A new result is rated on the spot; one that changes the past (a
    correction, a result played before its players' later ones) queues one recompute, however
    many ask for it."""
    from .effects import effects_due

    effects_due(result)
