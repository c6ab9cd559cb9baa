from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from ..clubs.models import Club, Role
from ..clubs.selectors import has_club_role
from .forms import EventForm
from .models import Event
from .selectors import event_rounds, standings_get


def event_index(request: HttpRequest) -> HttpResponse:
    events = Event.objects.select_related("club").order_by("-created")
    status = request.GET.get("status")
    if status in Event.Status.values:
        events = events.filter(status=status)
    return render(request, "tournaments/list.html", {"events": events[:100], "status": status})


@login_required
def event_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not has_club_role(user=request.user, club=club, role=Role.ORGANISER):
        raise PermissionDenied("Only the club's organisers can create events.")
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        from .services import event_create as create

        event = create(club=club, user=request.user, **form.cleaned_data)
        messages.success(request, f"{event.name} is open for registration.")
        return redirect(event)
    return render(request, "tournaments/create.html", {"form": form, "club": club})


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    return render(
        request,
        "tournaments/event.html",
        {
            "event": event,
            "rounds": event_rounds(event=event),
            "standings": standings_get(event=event),
            "is_organiser": has_club_role(user=request.user, club=event.club, role=Role.ORGANISER),
        },
    )
