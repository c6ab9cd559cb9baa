from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import games
from pairing.ratings import PROVISIONAL_SIGMA

from ..clubs.models import Club
from ..tournaments.models import League
from .selectors import leaderboard


def leaderboards(request: HttpRequest) -> HttpResponse:
    slugs = [g.slug for g in games()]
    game = request.GET.get("game") or slugs[0]
    if game not in slugs:
        game = slugs[0]
    club = Club.objects.filter(slug=request.GET.get("club") or "").first()
    league = (
        League.objects.filter(pk=request.GET.get("league") or 0).first()
        if (request.GET.get("league") or "").isdecimal()  # not isdigit: "²" is no id (it was a 500)
        else None
    )
    rows = leaderboard(
        game=game, club=club.slug if club else None, league=league.pk if league else None, limit=100
    )
    return render(
        request,
        "ratings/leaderboards.html",
        {
            "games": games(),
            "game": game,
            "rows": rows,
            "club": club,
            "league": league,
            "clubs": Club.objects.order_by("name"),
            "leagues": League.objects.filter(club=club).order_by("-starts") if club else [],
            "provisional_sigma": PROVISIONAL_SIGMA,
        },
    )
