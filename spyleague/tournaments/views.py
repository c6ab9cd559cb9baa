"""An event's pages: the list of events, an event (its standings, rounds and entrants, and the
organiser's section that runs it), its public screen, check-in, registration, the rounds'
actions, its exports and settings; and leagues. A table's score sheet is ``sheet_views``'.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_http_methods, require_POST

from games import game_info

from ..clubs.models import Club, Player, Role
from ..clubs.selectors import has_club_role
from ..core.cache import kept_for_visitors, with_csrf
from ..core.inputs import Refused, found, reasons, refused_page
from ..core.words import ordinal
from . import event_parts, services
from .event_settings import scoring_lines
from .forms import EventForm, LeagueForm
from .models import Entrant, Event, League, Round
from .qr import qr_svg
from .selectors import (
    check_in_count,
    current_round,
    entrants_get,
    event_jobs,
    league_line,
    league_table_rows,
    names_at_tables,
    round_tables,
    rounds_counted,
    rounds_get,
    standings_get,
    standings_page,
)


def event_index(request: HttpRequest) -> HttpResponse:
    events = Event.objects.select_related("club").order_by("-created")
    status = request.GET.get("status")
    if status in Event.Status.values:
        events = events.filter(status=status)
    # Where a new event can be made from here: each club the viewer organises.
    organised = (
        Club.objects.filter(
            memberships__player__user=request.user, memberships__role=Role.ORGANISER
        ).order_by("name")
        if request.user.is_authenticated
        else Club.objects.none()
    )
    return render(
        request,
        "tournaments/list.html",
        {"events": events[:100], "status": status, "organised": list(organised)},
    )


@login_required
def event_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not has_club_role(user=request.user, club=club, role=Role.ORGANISER):
        raise PermissionDenied("Only the club's organisers can create events.")
    form = EventForm(request.POST or None)
    leagues = list(club.leagues.all())
    if request.method == "POST" and form.is_valid():
        league = next((lg for lg in leagues if str(lg.pk) == request.POST.get("league")), None)
        try:
            event = services.event_create(club=club, user=request.user, league=league, **form.cleaned_data)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            messages.success(request, f"{event.name} is open for registration.")
            return redirect(event)
    return render(request, "tournaments/create.html", {"form": form, "club": club, "leagues": leagues})


@login_required
def league_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not has_club_role(user=request.user, club=club, role=Role.ORGANISER):
        raise PermissionDenied("Only the club's organisers can start a league.")
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.league_create(user=request.user, club=club, **form.cleaned_data)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            messages.success(request, f"{league.name} is ready: add events to it when you create them.")
            return redirect("tournaments:league", pk=league.pk)
    return render(request, "tournaments/league_create.html", {"form": form, "club": club})


LEAGUE_PER_PAGE = 100  # players on a page of a league's table


def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("club"), pk=pk)
    from ..ratings.selectors import leaderboard

    table = Paginator(league_table_rows(league=league), LEAGUE_PER_PAGE).get_page(request.GET.get("page"))
    table.object_list = [league_line(row) for row in table.object_list]

    return render(
        request,
        "tournaments/league.html",
        {
            "league": league,
            "events": league.events.order_by("starts", "created"),
            "table": table,
            "ratings": leaderboard(game=league.game, league=league.pk, limit=20) if league.game else [],
            "is_organiser": has_club_role(user=request.user, club=league.club, role=Role.ORGANISER),
        },
    )


# The event page shows the standings, the tables of one round and the entrants a page at a time
# (``?page=``, ``?round=`` with ``?tables=``, ``?entrants=``), so its size and its queries do not
# grow with the number of players; a player's own table and standings line come first. Those
# three parts are rendered once per version of the event and kept (``event_parts``); the page
# around them (the viewer's table and line, their forms) is the viewer's own, every time.


def _viewer(request: HttpRequest) -> int | None:
    """The viewer's player, if they have one (a visitor has none)."""
    me = getattr(request.user, "player", None) if request.user.is_authenticated else None
    return None if me is None else me.pk


def _standings_html(event: Event, standings: str, own: Any, asked: Any) -> str:
    """The kept standings part with the viewer's own row marked and, when their line is on
    another page, the button that leads there."""
    mine = own.mine if own else None
    link = ""
    if (
        mine is not None
        and mine.page is not None
        and mine.page != event_parts.page_shown(asked.page, mine.count)
    ):
        query = asked.query()
        query["page"] = str(mine.page)
        href = f"?{query.urlencode()}"
        fragment = reverse("tournaments:standings", args=[event.pk]) + href
        link = format_html(
            '<a class="btn small" href="{}#me" hx-get="{}" hx-target="#standings" hx-swap="outerHTML" '
            'hx-push-url="{}">My line</a>',
            href,
            fragment,
            href,
        )
    marked = event_parts.marked_mine(standings, own.entry.pk if own else None)
    return marked.replace("<!--my-line-->", link, 1)


@kept_for_visitors(event_parts.event_versions)
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_parts.event_kept(pk)
    is_organiser = has_club_role(user=request.user, club=event.club, role=Role.ORGANISER)
    kind = event_parts.ORGANISER if is_organiser else event_parts.PUBLIC
    asked = event_parts.Asked.of(request, organiser=is_organiser)
    parts = event_parts.event_parts(event=event, kind=kind, asked=asked, player=_viewer(request))
    own = parts.pop("own")
    mine = own.mine if own else None
    context: dict[str, Any] = {
        "event": event,
        "parts": {name: mark_safe(with_csrf(html, request)) for name, html in parts.items()},
        "standings_html": mark_safe(_standings_html(event, parts["standings"], own, asked)),
        "query": asked.query(),
        "mine": mine,
        "my_place": ordinal(mine.line.rank) if mine and mine.line else None,
        "is_organiser": is_organiser,
        "my_entry": own.entry if own else None,
        "my_table": own.table if own else None,
    }
    if is_organiser:  # the section that runs the event: the organisers' own, read every time
        rounds = rounds_counted(event=event)
        context["rounds"] = rounds
        context["current"] = current_round(rounds)
        context["jobs"] = event_jobs(event=event)
        if event.status != Event.Status.FINISHED:
            context["pair_blocker"] = services.pair_blocker(event=event)
            context["pair_who"] = services.pair_who(event=event)
        context.update(_candidates(request, event))
    return render(request, "tournaments/event.html", context)


# The registration picker lists this many of the club's members not yet entered; typing a name
# filters them on the page (a small script), or asks the page for those whose name holds it.
CANDIDATES_SHOWN = 200


def _candidates(request: HttpRequest, event: Event) -> dict[str, Any]:
    """The club's members who are not entered yet, whose name holds ``?find=`` (if given)."""
    find = (request.GET.get("find") or "").replace("\x00", "").strip()[:80]
    entered = Entrant.objects.filter(event=event).values("player_id")
    members = (
        event.club.memberships.exclude(player_id__in=entered)
        .select_related("player")
        .order_by("player__name")
    )
    total = members.count()
    if find:
        members = members.filter(player__name__icontains=find)
    shown = [m.player for m in members[:CANDIDATES_SHOWN]]
    return {
        "candidates": shown,
        "candidates_total": total,
        "candidates_found": members.count() if find or len(shown) == CANDIDATES_SHOWN else len(shown),
        "find": find,
    }


@kept_for_visitors(event_parts.event_versions)
def event_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """A page of the standings alone: what the event page's pager fetches with htmx."""
    event = event_parts.event_kept(pk)
    is_organiser = has_club_role(user=request.user, club=event.club, role=Role.ORGANISER)
    kind = event_parts.ORGANISER if is_organiser else event_parts.PUBLIC
    asked = event_parts.Asked.of(request, organiser=is_organiser)
    parts = event_parts.event_parts(
        event=event, kind=kind, asked=asked, player=_viewer(request), only=("standings",)
    )
    html = _standings_html(event, parts["standings"], parts["own"], asked)
    return render(request, "tournaments/event.html#standings", {"standings_html": mark_safe(html)})


def scoring_help(request: HttpRequest) -> HttpResponse:
    """How events are scored: points by place, tables of another size, byes, tiebreaks, ratings."""
    from pairing.standings import DEFAULT_POINTS, TIEBREAKS

    from .event_settings import BYE_GAME_SCORE, TIEBREAK_WORDS

    context = {
        "defaults": [(n, " ".join(f"{p:g}" for p in DEFAULT_POINTS[n])) for n in range(2, 7)],
        "bye_game_score": BYE_GAME_SCORE,
        "tiebreaks": [TIEBREAK_WORDS[t] for t in TIEBREAKS],
        "example": _scoring_example(),
    }
    return render(request, "tournaments/scoring_help.html", context)


def _scoring_example() -> list[tuple[int, str, str]]:
    """An event of 5s with tables of 4 besides: each size's points and a seat's average."""
    from pairing.standings import balanced_scheme

    scheme = balanced_scheme(5)
    return [
        (n, " ".join(f"{p:g}" for p in scheme.by_size[n]), f"{sum(scheme.by_size[n]) / n:.2f}")
        for n in (5, 4)
    ]


# The projector shows a screenful at a time and turns the page at each refresh (every 15 s):
# a page of tables, of "find your name" (two columns) and of the standings.
SCREEN_ROWS = 20
SCREEN_NAMES = 40


def _screen_page(paginator: Paginator[Any] | None, number: int) -> Any:
    """Page ``number`` of the screen's round and round: a list shorter than the others starts
    again from its top meanwhile."""
    if paginator is None:
        return None
    return paginator.get_page((number - 1) % paginator.num_pages + 1)


def event_public(request: HttpRequest, pk: int) -> HttpResponse:
    """For a projector: the current pairings, everyone's table by name and the standings,
    refreshing themselves, a page at a time (``?page=``: each refresh asks for the next, round
    and round); while players can check themselves in, the check-in link as a QR code."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    current = event.round_set.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    try:
        asked = max(1, int(request.GET.get("page") or 1))
    except ValueError:
        asked = 1
    standings = standings_page(event=event, page=asked, per_page=SCREEN_ROWS)
    tables = Paginator(round_tables(rnd=current), SCREEN_ROWS) if current else None
    names = Paginator(names_at_tables(rnd=current), SCREEN_NAMES) if current else None
    pages = max(
        standings.page.paginator.num_pages,
        tables.num_pages if tables else 1,
        names.num_pages if names else 1,
    )
    number = (asked - 1) % pages + 1
    if standings.page.number != (number - 1) % standings.page.paginator.num_pages + 1:
        # Fewer pages of standings than of tables: they start again from the top meanwhile.
        wrapped = (number - 1) % standings.page.paginator.num_pages + 1
        standings = standings_page(event=event, page=wrapped, per_page=SCREEN_ROWS)
    context: dict[str, Any] = {
        "event": event,
        "current": current,
        "tables": _screen_page(tables, number),
        "names": _screen_page(names, number),
        "standings": standings,
        "screen_page": number,
        "screen_pages": pages,
        "next_page": number % pages + 1,
    }
    if context["names"] is not None and len(context["names"]):
        page = context["names"]
        context["names_from"] = page[0][0][:1].upper()
        context["names_to"] = page[len(page) - 1][0][:1].upper()
    if services.self_check_in_closed(event=event) is None:
        link = request.build_absolute_uri(reverse("tournaments:self-check-in", args=[event.pk]))
        context["check_in"] = {
            "link": link,
            "qr": qr_svg(link, title=f"QR code: check in to {event.name}"),
            "count": check_in_count(event=event),
        }
    template = "tournaments/public.html#screen" if request.htmx else "tournaments/public.html"  # type: ignore[attr-defined]
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def self_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """The page the screen's QR code opens: a player checks themself in with one tap (a GET
    only shows the button; the POST checks in). Someone not entered is offered to enter and check
    in at once (the POST says ``enter=1``) while check-in is open; otherwise they are told they
    are not entered (403), and a player is told when check-in is closed (409: the round is
    paired, the event is over); neither changes anything."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    try:
        entrant = services.self_check_in_entrant(user=request.user, event=event)
    except PermissionDenied as exc:
        # A walk-in who is not entered yet: one more tap enters them and checks them in.
        if request.method == "POST" and request.POST.get("enter") == "1":
            try:
                services.entrant_self_enter(user=request.user, event=event)
            except ValidationError as refused:
                return _check_in_page(request, event, None, problem=reasons(refused), status=409)
            messages.success(request, f"You are entered in {event.name} and checked in.")
            return redirect("tournaments:self-check-in", pk=event.pk)
        if request.method == "GET" and services.self_enter_open(user=request.user, event=event):
            return _check_in_page(request, event, None, problem=None, status=200, enter=True)
        return _check_in_page(request, event, None, problem=str(exc), status=403)
    if request.method == "POST":
        try:
            entrant, now = services.entrant_self_check_in(user=request.user, event=event)
        except ValidationError as exc:
            return _check_in_page(request, event, entrant, problem=reasons(exc), status=409)
        if now:
            messages.success(request, f"You are checked in for {event.name}.")
        return redirect("tournaments:self-check-in", pk=event.pk)
    problem = None
    if entrant.dropped_after is not None:
        problem = services.DROPPED_OUT
    elif not entrant.checked_in:
        problem = services.self_check_in_closed(event=event)
    return _check_in_page(request, event, entrant, problem=problem, status=409 if problem else 200)


def _check_in_page(
    request: HttpRequest,
    event: Event,
    entrant: Entrant | None,
    *,
    problem: str | None,
    status: int,
    enter: bool = False,
) -> HttpResponse:
    context = {"event": event, "entrant": entrant, "problem": problem, "enter": enter}
    return render(request, "tournaments/check_in.html", context, status=status)


def round_print(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    rounds = rounds_get(event=event)
    if not has_club_role(user=request.user, club=event.club, role=Role.ORGANISER):
        rounds = rounds.exclude(status=Round.Status.DRAFT)  # a draft is the organisers' alone
    rnd = get_object_or_404(rounds, number=number)
    return render(request, "tournaments/print.html", {"event": event, "round": rnd})


@login_required
@require_POST
def entrant_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    player_ids = request.POST.getlist("player")
    players = [found(Player, player_id, what="Player") for player_id in player_ids]
    try:
        with transaction.atomic():  # everyone, or nobody when one cannot be registered
            _register(request, event, players)
    except ValidationError as exc:
        return refused_page(request, exc, event_detail, pk)
    return redirect(event)


def _register(request: HttpRequest, event: Event, players: list[Player]) -> None:
    """The user themself (no players chosen), or the players an organiser chose."""
    if not players:
        services.entrant_register(user=request.user, event=event)
        messages.success(request, "You are registered.")
    for player in players:
        services.entrant_register(user=request.user, event=event, player=player)
    if players:
        messages.success(request, f"Registered {len(players)} player{'s' if len(players) != 1 else ''}.")


@login_required
@require_POST
def entrants_check_in_all(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    try:
        count = services.entrants_check_in_all(user=request.user, event=event)
    except ValidationError as exc:
        return refused_page(request, exc, event_detail, pk)
    messages.success(
        request,
        f"Checked in {count} player{'s' if count != 1 else ''}."
        if count
        else "Everyone was already checked in.",
    )
    return redirect(event)


@login_required
@require_POST
def entrant_update(request: HttpRequest, pk: int, entrant_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    entrant = get_object_or_404(Entrant, pk=entrant_id, event=event)
    what = request.POST.get("do")
    try:
        if what == "check_in":
            services.entrant_check_in(user=request.user, entrant=entrant, present=True)
        elif what == "check_out":
            services.entrant_check_in(user=request.user, entrant=entrant, present=False)
        elif what == "drop":
            services.entrant_drop(user=request.user, entrant=entrant)
            messages.info(request, f"{entrant.player.name} has dropped; past results stay in the standings.")
        else:
            raise Refused("Choose check_in, check_out or drop.")
    except ValidationError as exc:
        return refused_page(request, exc, event_detail, pk)
    return redirect(event)


@login_required
@require_POST
def round_pair(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    try:
        job = services.round_pair_queue(event=event, user=request.user)
    except ValidationError as exc:
        if request.htmx:  # type: ignore[attr-defined]  # the reason where the job would show
            return HttpResponse(
                format_html('<p class="errorlist nonfield" role="alert">{}</p>', reasons(exc)), status=400
            )
        return refused_page(request, exc, event_detail, pk)
    if request.htmx:  # type: ignore[attr-defined]
        return render(request, "core/job.html", {"job": job, "reload": True})
    return redirect(event)


@login_required
@require_POST
def event_finish(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser ends the event by hand (the page asks first); refused in words while a
    published round still waits for results."""
    event = get_object_or_404(Event, pk=pk)
    already = event.status == Event.Status.FINISHED
    try:
        services.finish_event(user=request.user, event=event)
    except ValidationError as exc:
        return refused_page(request, exc, event_detail, pk)
    if not already:
        messages.success(request, f"{event.name} is finished: its standings are final.")
    return redirect(event)


@login_required
@require_POST
def round_action(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    rnd = get_object_or_404(Round, event=event, number=number)
    what = request.POST.get("do")
    try:
        if what == "publish":
            services.round_publish(user=request.user, rnd=rnd)
            messages.success(request, f"Round {rnd.number} is published.")
        elif what == "discard":
            services.round_discard(user=request.user, rnd=rnd)
            messages.info(request, f"The draft of round {number} was discarded.")
        elif what == "swap":
            a = found(Entrant, request.POST.get("a"), what="The first player", event=event)
            b = found(Entrant, request.POST.get("b"), what="The second player", event=event)
            warnings = services.round_swap(user=request.user, rnd=rnd, a=a, b=b)
            for warning in warnings:
                messages.warning(request, warning)
            messages.success(request, f"Swapped {a.player.name} and {b.player.name}.")
            # Back to the draft's tables (far down the page on a phone), where the notes say
            # the swap and what it costs: the next swap is a tap away.
            return redirect(f"{event.get_absolute_url()}#round-{rnd.number}")
        else:
            raise Refused("Choose publish, discard or swap.")
    except ValidationError as exc:
        return refused_page(request, exc, event_detail, pk)
    return redirect(event)


def export_csv(request: HttpRequest, pk: int, what: str) -> HttpResponse:
    """An event's entrants, pairings, results or standings as CSV, through the site's one CSV
    writer (``core.csv_export``): names that would start a spreadsheet formula are written as
    text; the numbers, a score of -5 among them, as numbers."""
    from ..core.csv_export import csv_download

    event = get_object_or_404(Event, pk=pk)
    if what not in ("entrants", "pairings", "results", "standings"):
        return HttpResponse("Choose entrants, pairings, results or standings.", status=404)
    response, writer = csv_download(f"event-{event.pk}-{what}.csv")
    if what == "entrants":
        writer.writerow(["player", "rating", "checked_in", "joined_round", "dropped_after"])
        for e in entrants_get(event=event):
            writer.writerow(
                [e.player.name, e.rating or "", e.checked_in, e.joined_round, e.dropped_after or ""]
            )
    elif what in ("pairings", "results"):
        writer.writerow(["round", "table", "seat", "player", "place", "score", "points", "bye"])
        for rnd in rounds_get(event=event).exclude(status=Round.Status.DRAFT):
            for table in rnd.tables.all():
                for seat in table.seats.all():
                    writer.writerow(
                        [
                            rnd.number,
                            table.number,
                            seat.position + 1,
                            seat.entrant.player.name,
                            seat.place if what == "results" and seat.place is not None else "",
                            seat.score if what == "results" and seat.score is not None else "",
                            seat.points if what == "results" and seat.points is not None else "",
                            table.is_bye,
                        ]
                    )
    elif what == "standings":
        writer.writerow(
            [
                "rank",
                "player",
                "points",
                "game_points",
                "opponents_average",
                "buchholz_cut1",
                "sonneborn_berger",
                "wins",
                "games",
                "byes",
            ]
        )
        for row in standings_get(event=event):
            writer.writerow(
                [
                    row.rank,
                    row.name,
                    row.points,
                    row.game_points,
                    round(row.opponents_average, 3),
                    None if row.buchholz_cut1 is None else round(row.buchholz_cut1, 3),
                    None if row.sonneborn_berger is None else round(row.sonneborn_berger, 3),
                    row.wins,
                    row.games,
                    row.byes,
                ]
            )
    return response


# The settings page's sections, and the fields in each.
SETTINGS_SECTIONS = (
    ("The event", ("name", "kind", "starts", "league")),
    ("Rounds and scoring", ("rounds", "points_by_place", "bye_rule")),
    ("Format and tables", ("format", "table_size", "uneven", "advance", "groups")),
)


@login_required
def event_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser edits the event's settings. The tiebreaks are ticked and put in order with
    up and down buttons: each posts the form and comes back with the list in its new order (a
    small script moves them in place instead); Save changes what was changed, as far as the
    event's progress allows, and the standings are ranked anew at once."""
    from .event_settings import EventSettingsForm

    event = get_object_or_404(Event.objects.select_related("club", "league"), pk=pk)
    if not has_club_role(user=request.user, club=event.club, role=Role.ORGANISER):
        raise PermissionDenied("Only the club's organisers can change the event's settings.")
    form = EventSettingsForm(request.POST if request.method == "POST" else None, event=event)
    if request.method != "POST":
        return _settings_page(request, event, form, status=200)
    valid = form.is_valid()
    if request.POST.get("move"):
        # Not saved: the list comes back in its new order, with everything else as typed.
        return _settings_page(request, event, form, status=200 if valid else 400)
    if valid:
        changes = form.changes()
        try:
            event = services.event_update(user=request.user, event=event, **changes)
        except ValidationError as exc:
            problems = exc.message_dict if hasattr(exc, "error_dict") else {None: exc.messages}
            for field, errors in problems.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            if not changes:
                messages.info(request, "Nothing was changed.")
            elif services.RANKING_SETTINGS & set(changes) and event.round_set.exists():
                messages.success(request, "Settings saved: the standings are ranked by them now.")
            else:
                messages.success(request, "Settings saved.")
            return redirect(event)
    return _settings_page(request, event, form, status=400)


def _settings_page(request: HttpRequest, event: Event, form: Any, *, status: int) -> HttpResponse:
    from .event_settings import fixed_fields

    fixed = fixed_fields(event)
    over = event.status == Event.Status.FINISHED
    sections = []
    for title, names in SETTINGS_SECTIONS:
        fields = []
        for name in names:
            bound = form[name]
            value = bound.value()
            choices = getattr(bound.field, "choices", None)
            shown = {str(k): v for k, v in choices}.get(str(value), value) if choices else value
            fields.append({"field": bound, "fixed": name in fixed, "shown": shown})
        sections.append({"title": title, "fields": fields})
    why_fixed = (
        "The event is over: this no longer changes."
        if over
        else "Fixed once the first round has been paired."
    )
    context = {
        "event": event,
        "form": form,
        "sections": sections,
        "why_fixed": why_fixed,
        "tiebreaks_fixed": "tiebreaks" in fixed,
        "rows": form.tiebreak_rows(),
        "game": game_info(event.game),
        "scoring": scoring_lines(event),
    }
    return render(request, "tournaments/settings.html", context, status=status)
