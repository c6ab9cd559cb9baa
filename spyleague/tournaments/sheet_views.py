"""A tournament table's score sheet: entering its result, confirming it, correcting it, and
playing the table online instead.

The sheet checks what is entered in the game's own words (``scores.checks``), keeps what was
typed when it refuses, and says who entered a result a moment before (the 409 with theirs).
The event's other pages are ``views``'.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games import game_info

from ..clubs.models import Role
from ..clubs.selectors import has_club_role
from ..core.inputs import Refused, finite_number, reasons, refused_page
from ..scores import services as results
from ..scores.checks import Problem, sheet_extras
from ..scores.forms import REASON_MAX, sheet_values
from ..scores.models import Result
from .models import Event, Round, Table
from .selectors import (
    table_for,
)
from .views import event_detail

# What a sheet form posts that is not part of the sheet itself.
_NOT_TYPED = {"csrfmiddlewaretoken", "note", "version", "confirm_now"}


def _sheet_version(result: Result | None) -> str:
    """What the sheet looked like when the form was drawn: the result and its latest change."""
    if result is None:
        return "new"
    last = result.changes.order_by("-pk").values_list("pk", flat=True).first()
    return f"{result.pk}.{last or 0}"


def _sheet_context(request: HttpRequest, event: Event, table: Table, **extra: Any) -> dict[str, Any]:
    from ..play.models import Match
    from ..play.services import abandon_allowed

    seats = list(table.seats.all())
    online = Match.objects.filter(table=table).first()
    names = [s.entrant.player.name for s in seats]
    result = Result.objects.filter(table=table).exclude(status=Result.Status.VOID).first()
    me = getattr(request.user, "player", None)
    seated = me is not None and any(s.entrant.player_id == me.pk for s in seats)
    scorer = has_club_role(user=request.user, club=event.club, role=Role.SCORER)
    extras = sheet_extras(event.game)
    # What was just typed, else the result as it stands now, so a correction starts from it.
    typed = sheet_values(result, extra.get("typed"))
    rows = [
        {
            "seat": s,
            "score": typed.get(f"score_{s.position}", ""),
            "place": typed.get(f"place_{s.position}", ""),
        }
        for s in seats
    ]
    # Black Spy's "stopped on time" box: as typed, or as stored (from the form or the API).
    stopped = bool(typed.get("stopped")) if "typed" in extra else bool(result and result.data.get("stopped"))
    game_sheet = None
    if extras is not None:
        # A game's own sheet starts from the stored sheet, whichever way it came (form or API).
        if "typed" in extra:
            values = extra["typed"]
        else:
            values = extras.form_values(result.data.get("sheet"), len(seats)) if result else {}
        problems = extra.get("problems", [])
        game_sheet = extras.form(names, values, problems)
        game_sheet["marked"] = len(game_sheet["problems"]) < len(problems)  # some sit next to a line
    can_edit = (seated or scorer) and (
        result is None
        or scorer
        or (result.status == Result.Status.REPORTED and result.entered_by_id == request.user.pk)
    )
    can_confirm = (
        result is not None
        and result.status == Result.Status.REPORTED
        and (scorer or (seated and result.entered_by_id != request.user.pk))
    )
    changes = list(result.changes.select_related("who")) if result else []
    history = [
        {
            "change": c,
            "was_sheet": extras.summary(names, c.before.get("sheet"))
            if extras is not None and c.before and "sheet" in c.before
            else [],
        }
        for c in changes
    ]
    return {
        "event": event,
        "table": table,
        "rows": rows,
        "result": result,
        "result_lines": list(result.lines.select_related("player").order_by("place", "position"))
        if result
        else [],
        "sheet_summary": extras.summary(names, result.data.get("sheet")) if extras and result else [],
        "extras": extras,
        "game_sheet": game_sheet,
        "version": _sheet_version(result),
        "can_edit": can_edit,
        "can_confirm": can_confirm,
        "online_ready": game_info(event.game).has_engine,
        # Who the buttons are for (the others would only be refused): the table's own players,
        # and the organisers (online play) or the scorers (the scorepad).
        "can_play_online": seated or has_club_role(user=request.user, club=event.club, role=Role.ORGANISER),
        "can_keep_pad": seated or scorer,
        # "We play this one at the table instead" abandons the table's match: for those who may.
        "can_free_table": online is not None and abandon_allowed(match=online, user=request.user),
        # Online, a bot plays for each player without an account (``play.services.match_for_table``).
        "table_guests": [r["seat"].entrant.player for r in rows if r["seat"].entrant.player.user_id is None],
        "table_all_guests": all(r["seat"].entrant.player.user_id is None for r in rows),
        "changes": changes,
        "history": history,
        "stopped": stopped,
        "note_max": REASON_MAX,
        **extra,
    }


def _table(request: HttpRequest, pk: int, table_id: int) -> tuple[Event, Table]:
    """The event and its table, or 404; a draft round's tables are the organisers' alone."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    table = table_for(event=event, table_id=table_id)
    if table is None or (
        table.round.status == Round.Status.DRAFT
        and not has_club_role(user=request.user, club=event.club, role=Role.ORGANISER)
    ):
        raise Http404("This event has no such table.")
    return event, table


def _sheet_taken(
    request: HttpRequest, event: Event, table: Table, typed: dict[str, Any], *, changed: bool = False
) -> HttpResponse:
    """Someone saved this sheet since the form was drawn: say so (409), show theirs, keep what was
    typed."""
    stale = (
        "This table's result was changed while you were typing (see the history)."
        if changed
        else "This table's result was entered by someone else while you were typing."
    )
    errors = [f"{stale} Nothing was saved: check your entries against it and save again."]
    context = _sheet_context(request, event, table, typed=typed, errors=errors)
    return render(request, "tournaments/sheet.html", context, status=409)


def table_sheet(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    event, table = _table(request, pk, table_id)
    if request.method != "POST":
        return render(request, "tournaments/sheet.html", _sheet_context(request, event, table))
    if not request.user.is_authenticated:
        raise PermissionDenied("Log in to enter a result.")
    typed = {k: v for k, v in request.POST.items() if k not in _NOT_TYPED}
    seats = list(table.seats.all())
    existing = Result.objects.filter(table=table).exclude(status=Result.Status.VOID).first()
    version = request.POST.get("version")
    if version is not None and version != _sheet_version(existing):
        # Someone saved this sheet since the form was drawn: say so, keep what was typed.
        return _sheet_taken(request, event, table, typed, changed=version != "new")
    extras = sheet_extras(event.game)
    errors: list[str] = []
    entries = []
    data: dict[str, Any] = {"typed": typed}
    from ..scores.checks import STOPPED_ON_TIME

    if event.game in STOPPED_ON_TIME:
        data["stopped"] = bool(request.POST.get("stopped"))  # the box on the sheet: kept on the result
    if extras is not None:
        # The game's own sheet gives the places and scores.
        data["sheet"] = extras.read_form(request.POST, len(seats))
        entries = [results.EntryLine(seat.entrant.player) for seat in seats]
    for seat in seats if extras is None else []:
        score_raw = request.POST.get(f"score_{seat.position}", "").strip()
        place_raw = request.POST.get(f"place_{seat.position}", "").strip()
        try:
            what = f"{seat.entrant.player.name}: the score"
            score = finite_number(score_raw, what=what) if score_raw else None
        except Refused as exc:
            errors.append(str(exc))
            score = None
        try:
            place = int(place_raw) if place_raw else None
        except ValueError:
            errors.append(f"{seat.entrant.player.name}: the place {place_raw!r} is not a whole number.")
            place = None
        entries.append(results.EntryLine(seat.entrant.player, score, place))
    problems: list[Problem] = []
    if not errors:
        try:
            if existing is None:
                results.result_enter(
                    user=request.user,
                    game=event.game,
                    club=event.club,
                    entries=entries,
                    table=table,
                    data=data,
                )
                messages.success(request, "Result entered. Another player at the table confirms it.")
            else:
                try:
                    results.result_correct(
                        user=request.user,
                        result=existing,
                        entries=entries,
                        note=request.POST.get("note", ""),
                        data=data,
                    )
                except results.NothingChanged as exc:
                    messages.info(request, " ".join(exc.messages))  # and no history entry
                else:
                    messages.success(request, "Result corrected: the change and why are in the history.")
            if request.POST.get("confirm_now") and has_club_role(
                user=request.user, club=event.club, role=Role.SCORER
            ):
                results.result_confirm(user=request.user, result=Result.objects.get(table=table))
        except results.ResultExists:
            return _sheet_taken(request, event, table, typed)  # entered first, a moment ago
        except results.SheetRefused as exc:
            if extras is None:
                errors.extend(p.message for p in exc.problems)
            else:
                problems = exc.problems  # shown next to the player or power they concern
        except ValidationError as exc:
            errors.extend(str(m) for m in exc.messages)
        except PermissionDenied as exc:
            context = _sheet_context(request, event, table, typed=typed, errors=[str(exc)])
            return render(request, "tournaments/sheet.html", context, status=403)
    if errors or problems:
        context = _sheet_context(request, event, table, typed=typed, errors=errors, problems=problems)
        return render(request, "tournaments/sheet.html", context, status=400)
    return redirect("tournaments:sheet", pk=event.pk, table_id=table.pk)


@login_required
@require_POST
def table_confirm(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    event, table = _table(request, pk, table_id)
    result = Result.objects.filter(table=table).exclude(status=Result.Status.VOID).first()
    try:
        if result is None:
            raise ValidationError("There is no result to confirm yet.")
        results.result_confirm(user=request.user, result=result)
    except ValidationError as exc:
        context = _sheet_context(request, event, table, errors=[reasons(exc)])
        return render(request, "tournaments/sheet.html", context, status=400)
    messages.success(request, "Result confirmed. The standings are being updated.")
    return redirect("tournaments:sheet", pk=event.pk, table_id=table.pk)


@login_required
@require_POST
def table_play_online(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    from ..play.services import MoveRejected, match_for_table, table_played_at_table

    _, table = _table(request, pk, table_id)
    try:
        if request.POST.get("where") == "table":  # "we play this one at the table"
            table_played_at_table(user=request.user, table=table)
            messages.info(
                request, "This table plays at the table: enter its result here when the game is over."
            )
            return redirect("tournaments:sheet", pk=pk, table_id=table.pk)
        match = match_for_table(user=request.user, table=table)
    except MoveRejected as exc:
        return refused_page(request, exc.reason, event_detail, pk, status=exc.status)
    return redirect(match)  # the match page says which seats bots play
