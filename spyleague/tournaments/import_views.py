"""The organiser's page for importing players from a CSV file: upload, preview, confirm.

``events/<id>/import/``: a GET shows the upload form; a POST reads the file (or the pasted lines)
and shows the preview, writing nothing. ``events/<id>/import/confirm/`` applies the previewed
plan (``imports.plan_confirm``) and goes back to the event page saying what was done; when the
club or the event changed since the preview it shows the new preview instead (409), and a
preview too old or not readable is refused (400) with the upload form again.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from ..core.inputs import reasons
from ..core.locks import Conflict
from . import imports, services
from .entrants import registration_closed
from .models import Event


class PlayerFileForm(forms.Form):
    file = forms.FileField(
        required=False,
        label="A CSV file",
        help_text="Save the sheet from your spreadsheet as CSV (comma or semicolon separated; "
        "UTF-8 if it asks).",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,.tsv,text/csv,text/plain"}),
    )
    text = forms.CharField(
        required=False,
        strip=False,
        label="Or paste the lines",
        help_text="The first line names the columns, for example: name;rating",
        widget=forms.Textarea(
            attrs={"rows": 6, "spellcheck": "false", "placeholder": "name\nAda Lovelace\n"}
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload, text = data.get("file"), data.get("text") or ""
        if upload and text.strip():
            raise ValidationError("Choose a file or paste the lines, not both.")
        if upload:
            too_big = imports.size_problem(upload.size or 0)
            if too_big:
                raise ValidationError(too_big)
            data["data"] = bytes(upload.read())
        elif text.strip():
            data["data"] = text.encode()
            too_big = imports.size_problem(len(data["data"]))
            if too_big:
                raise ValidationError(too_big)
        else:
            raise ValidationError("Choose a CSV file of players, or paste its lines, then press Preview.")
        return data


def _event(request: HttpRequest, pk: int) -> Event:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    services.require_organiser(user=request.user, event=event)
    return event


def _upload_page(
    request: HttpRequest, event: Event, form: PlayerFileForm, *, problem: str = "", status: int = 200
) -> HttpResponse:
    context = {
        "event": event,
        "form": form,
        "problem": problem,
        "closed": registration_closed(event=event),
        "columns": imports.COLUMNS,
        "max_lines": imports.MAX_LINES,
        "max_mb": imports.MAX_FILE_BYTES // 1_000_000,
    }
    return render(request, "tournaments/import.html", context, status=status)


def _preview_page(
    request: HttpRequest, event: Event, plan: imports.Plan, *, problem: str = "", status: int = 200
) -> HttpResponse:
    refused = [line.line for line in plan.lines if line.outcome == imports.Outcome.REFUSED]
    context = {
        "event": event,
        "plan": plan,
        "counts": plan.counts,
        "refused_lines": refused,
        "problem": problem,
        "minutes": imports.TOKEN_MAX_AGE // 60,
    }
    return render(request, "tournaments/import_preview.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def player_import(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)
    if request.method == "GET":
        return _upload_page(request, event, PlayerFileForm())
    form = PlayerFileForm(request.POST, request.FILES)
    if not form.is_valid():
        return _upload_page(request, event, form, status=400)
    try:
        plan = imports.preview(user=request.user, event=event, data=form.cleaned_data["data"])
    except ValidationError as exc:
        status = 409 if isinstance(exc, Conflict) else 400  # someone finished the event meanwhile
        return _upload_page(request, event, form, problem=reasons(exc), status=status)
    return _preview_page(request, event, plan)


@login_required
@require_POST
def player_import_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)
    token = request.POST.get("token", "")
    check_in = request.POST.get("check_in", "") in ("on", "1", "true", "yes")
    try:
        done = imports.plan_confirm(user=request.user, event=event, token=token, check_in=check_in)
    except imports.PlanChanged as exc:
        return _preview_page(request, event, exc.plan, problem=reasons(exc), status=409)
    except ValidationError as exc:
        status = 409 if isinstance(exc, Conflict) else 400
        return _upload_page(request, event, PlayerFileForm(), problem=reasons(exc), status=status)
    messages.success(request, done.says())
    return redirect(event)
