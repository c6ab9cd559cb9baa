from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import games

from .models import Rating


def leaderboards(request: HttpRequest) -> HttpResponse:
    slugs = [g.slug for g in games()]
    game = request.GET.get("game") or slugs[0]
    if game not in slugs:
        game = slugs[0]
    rows = Rating.objects.filter(game=game).select_related("player").order_by("-ordinal")[:100]
    return render(request, "ratings/leaderboards.html", {"games": games(), "game": game, "rows": rows})
