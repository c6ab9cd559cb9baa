from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games import games

from .models import Match


def lobby(request: HttpRequest) -> HttpResponse:
    recent = Match.objects.order_by("-created")[:20]
    return render(request, "play/lobby.html", {"games": games(), "matches": recent})


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    return render(request, "play/match.html", {"match": match})
