from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import games
from pairing.ratings import PROVISIONAL_SIGMA

from ..clubs.models import Club
from ..tournaments.models import League
from .selectors import bot_level_line, bot_level_rows, leader_lines, leaderboard_rows

# Players on a page of the leaderboard; the page is read with the SQL's LIMIT and OFFSET.
BOARD_PER_PAGE = 100
# The clubs and seasons offered in the filters: the viewer's own clubs (and the one shown).
CLUBS_OFFERED = 50
LEAGUES_OFFERED = 100
BOT_LEVELS_SHOWN = 20


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
    board: dict[str, Any] = {
        "game": game,
        "club": club.slug if club else None,
        "league": league.pk if league else None,
    }
    rows = leaderboard_rows(**board)
    # ``page`` as the address gives it: out of range or not a number, the nearest page.
    page = Paginator(rows, BOARD_PER_PAGE).get_page(request.GET.get("page"))
    clubs = list(
        Club.objects.filter(memberships__player__user_id=request.user.pk).order_by("name")[:CLUBS_OFFERED]
        if request.user.is_authenticated
        else []
    )
    if club is not None and club not in clubs:
        clubs.insert(0, club)
    return render(
        request,
        "ratings/leaderboards.html",
        {
            "games": games(),
            "game": game,
            "page": page,
            "rows": leader_lines(list(page.object_list), offset=page.start_index() - 1, **board),
            "club": club,
            "league": league,
            "clubs": clubs,
            "leagues": League.objects.filter(club=club).order_by("-starts")[:LEAGUES_OFFERED] if club else [],
            "provisional_sigma": PROVISIONAL_SIGMA,
            # A game has a few levels: the first BOT_LEVELS_SHOWN of them (the API pages them all).
            "bot_levels": [bot_level_line(r) for r in bot_level_rows(game=game)[:BOT_LEVELS_SHOWN]],
        },
    )
