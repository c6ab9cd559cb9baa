from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from ..core.inputs import refused_page
from ..tournaments.models import Event
from . import services
from .forms import ClubForm, GuestForm, RoleForm
from .models import Club, Membership, Player, Role
from .selectors import club_list, club_role, has_club_role


def club_index(request: HttpRequest) -> HttpResponse:
    return render(request, "clubs/list.html", {"clubs": club_list()})


@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(user=request.user, **form.cleaned_data)  # type: ignore[arg-type]
        except ValidationError as exc:
            by_field = exc.message_dict if hasattr(exc, "error_dict") else {None: exc.messages}
            for field, errors in by_field.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            messages.success(request, f"{club.name} is ready. You are its organiser.")
            return redirect(club)
    return render(request, "clubs/create.html", {"form": form})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    role = club_role(user=request.user, club=club)
    memberships = club.memberships.select_related("player", "player__user").order_by("player__name")
    events = Event.objects.filter(club=club).order_by("-created")[:20]
    return render(
        request,
        "clubs/detail.html",
        {
            "club": club,
            "role": role,
            "is_organiser": role == Role.ORGANISER,
            "is_scorer": has_club_role(user=request.user, club=club, role=Role.SCORER),
            "memberships": memberships,
            "events": events,
            "leagues": club.leagues.all(),
            "guest_form": GuestForm(),
            "roles": Role.choices,
        },
    )


@login_required
@require_POST
def club_join(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    services.club_join(user=request.user, club=club)  # type: ignore[arg-type]
    messages.success(request, f"You joined {club.name}.")
    return redirect(club)


@login_required
@require_POST
def club_leave(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    try:
        services.club_leave(user=request.user, club=club)  # type: ignore[arg-type]
    except ValidationError as exc:
        return refused_page(request, exc, club_detail, slug)
    messages.success(request, f"You left {club.name}.")
    return redirect(club)


@login_required
@require_POST
def member_role(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not has_club_role(user=request.user, club=club, role=Role.ORGANISER):
        raise PermissionDenied("Only the club's organisers can change roles.")
    membership = get_object_or_404(Membership, pk=pk, club=club)
    form = RoleForm(request.POST)
    if not form.is_valid():
        return refused_page(request, "Choose organiser, scorer or player.", club_detail, slug)
    try:
        services.member_set_role(
            user=request.user, club=club, membership=membership, role=form.cleaned_data["role"]
        )
    except ValidationError as exc:
        return refused_page(request, exc, club_detail, slug)
    messages.success(request, f"{membership.player.name} is now {membership.get_role_display().lower()}.")
    return redirect(club)


@login_required
@require_POST
def guest_add(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not has_club_role(user=request.user, club=club, role=Role.SCORER):
        raise PermissionDenied("Only the club's organisers and scorers can add players.")
    form = GuestForm(request.POST)
    if not form.is_valid():
        problems = " ".join(str(e) for errors in form.errors.values() for e in errors)
        return refused_page(request, f"Give the player a name. {problems}", club_detail, slug)
    try:
        membership = services.guest_add(user=request.user, club=club, name=form.cleaned_data["name"])
    except ValidationError as exc:
        return refused_page(request, exc, club_detail, slug)
    messages.success(request, f"{membership.player.name} joined {club.name}.")
    return redirect(club)


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    from ..ratings.models import Rating
    from ..ratings.selectors import history_chart, rating_history

    ratings = list(Rating.objects.filter(player=player).order_by("-games"))
    game = request.GET.get("game") or (ratings[0].game if ratings else "")
    return render(
        request,
        "clubs/player.html",
        {
            "player": player,
            "memberships": player.memberships.select_related("club"),
            "ratings": ratings,
            "game": game,
            "chart": history_chart(
                rating_history(player=player, game=game),
                games=next((r.games for r in ratings if r.game == game), None),
            )
            if game
            else None,
        },
    )
