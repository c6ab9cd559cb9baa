from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games import engines, games

from . import services
from .forms import MatchForm
from .live import channel
from .models import Match
from .selectors import match_picture

STREAM_SECONDS = 300  # a stream ends after this; the browser reconnects by itself


def lobby(request: HttpRequest) -> HttpResponse:
    recent = Match.objects.prefetch_related("seat_set__player").order_by("-created")[:20]
    return render(
        request,
        "play/lobby.html",
        {
            "games": games(),
            "matches": recent,
            "form": MatchForm(),
            "playable": [{"engine": e, "options": option_fields(e.slug)} for e in engines()],
        },
    )


@login_required
@require_POST
def match_new(request: HttpRequest) -> HttpResponse:
    form = MatchForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a game and a number of seats.")
        return redirect("play:lobby")
    data = form.cleaned_data
    options = options_from_post(data["game"], request.POST)
    try:
        match = services.match_create(
            user=request.user, game=data["game"], seats=data["seats"], options=options
        )
        if data["fill_with_bots"]:
            services.match_start(user=request.user, match_id=match.pk, fill_with=data["bot"])
    except services.MoveRejected as exc:
        messages.error(request, exc.reason)
        return redirect("play:lobby")
    return redirect(match)


def option_fields(game: str) -> list[dict[str, Any]]:
    """The engine's options as form fields (checkboxes and numbers)."""
    from games import get_engine

    schema = getattr(get_engine(game), "options", {}) or {}
    fields = []
    for name, spec in schema.items():
        if spec.kind not in (bool, int):
            continue  # options such as seat orders are for the API
        fields.append(
            {
                "name": f"opt-{game}-{name}",
                "kind": spec.kind.__name__,
                "default": spec.default,
                "help": spec.help,
            }
        )
    return fields


def options_from_post(game: str, post: Any) -> dict[str, Any]:
    from games import get_engine

    schema = getattr(get_engine(game), "options", {}) or {}
    options: dict[str, Any] = {}
    for name, spec in schema.items():
        raw = post.get(f"opt-{game}-{name}")
        if spec.kind is bool:
            if raw is not None:
                options[name] = raw in ("on", "true", "1")
        elif spec.kind is int and raw not in (None, ""):
            try:
                options[name] = int(raw)
            except ValueError:
                options[name] = raw  # the engine explains what is wrong with it
    return options


def _close_if_due(match: Match) -> Match:
    """A reaction window past its deadline is closed before anyone looks at the match."""
    from django.utils import timezone

    if match.deadline is not None and match.deadline <= timezone.now():
        services.match_timeouts_close(match_id=match.pk)
        match.refresh_from_db()
    return match


def _picture(request: HttpRequest, match: Match, upto: int | None = None) -> Any:
    if upto is None:
        _close_if_due(match)
    seat = services.seat_of(match=match, user=request.user)
    return match_picture(match=match, seat=seat, upto=upto)


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    picture = _picture(request, match)
    return render(request, "play/match.html", {"p": picture, "match": match})


def match_board(request: HttpRequest, pk: int) -> HttpResponse:
    """The board fragment; 204 (no swap) when the version the page has is still current."""
    match = _close_if_due(get_object_or_404(Match, pk=pk))
    seen = request.GET.get("v")
    if seen is not None and seen == f"{match.version}-{match.status}-{match.updated.timestamp():.3f}":
        return HttpResponse(status=204)
    return render(request, "play/match.html#board", {"p": _picture(request, match), "match": match})


def _board_response(request: HttpRequest, match_id: int, error: str = "", status: int = 200) -> HttpResponse:
    match = Match.objects.get(pk=match_id)
    context = {"p": _picture(request, match), "match": match, "error": error}
    if request.htmx:  # type: ignore[attr-defined]
        response = render(request, "play/match.html#board", context)
        # Errors keep the board in place and are shown in it; no traceback, nothing changed.
        return response
    if error:
        messages.error(request, error)
    return redirect("play:match", pk=match_id)


@require_POST
def match_act(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Match, pk=pk)
    try:
        action = json.loads(request.POST.get("action", ""))
    except json.JSONDecodeError:
        return _board_response(request, pk, "That action could not be read; nothing was changed.")
    # Multi-card choices (three cards from The Mole) arrive as ticked boxes: find the legal
    # action with exactly those cards, whatever order the engine lists them in.
    if isinstance(action, dict) and action.get("cards") == "__chosen__":
        action = _chosen_cards_action(pk, request, action["type"], request.POST.getlist("cards"))
    version = request.POST.get("version")
    try:
        services.match_move_submit(
            match_id=pk, user=request.user, action=action, version=int(version) if version else None
        )
    except services.MoveRejected as exc:
        return _board_response(request, pk, exc.reason)
    except ValueError:
        return _board_response(request, pk, "That action could not be read; nothing was changed.")
    return _board_response(request, pk)


def _chosen_cards_action(pk: int, request: HttpRequest, kind: str, cards: list[str]) -> dict[str, Any]:
    match = Match.objects.get(pk=pk)
    picture = _picture(request, match)
    for action in picture.legal:
        if action.get("type") == kind and sorted(action.get("cards", [])) == sorted(cards):
            return dict(action)
    return {"type": kind, "cards": cards}  # not legal: the engine says why


@login_required
@require_POST
def match_join(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        services.match_join(user=request.user, match_id=pk)
    except services.MoveRejected as exc:
        messages.error(request, exc.reason)
    return redirect("play:match", pk=pk)


def match_invite(request: HttpRequest, code: str) -> HttpResponse:
    match = Match.objects.filter(invite=code).first()
    if match is None:
        raise Http404("This invitation link is not valid.")
    if request.user.is_authenticated and match.status == Match.Status.OPEN:
        try:
            services.match_join(user=request.user, match_id=match.pk)
        except services.MoveRejected as exc:
            messages.info(request, exc.reason)
        else:
            messages.success(request, "You have a seat. The match starts when its creator says so.")
    elif not request.user.is_authenticated:
        messages.info(request, "Log in or sign up to take your seat.")
        return redirect(f"{settings.LOGIN_URL and '/accounts/login/'}?next={request.path}")
    return redirect(match)


@login_required
@require_POST
def match_start(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        services.match_start(user=request.user, match_id=pk, fill_with=request.POST.get("bot") or None)
    except services.MoveRejected as exc:
        messages.error(request, exc.reason)
    return redirect("play:match", pk=pk)


@login_required
@require_POST
def match_bot(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        services.match_set_bot(
            user=request.user,
            match_id=pk,
            seat=int(request.POST.get("seat", "-1")),
            bot=request.POST.get("bot", ""),
        )
    except (services.MoveRejected, ValueError) as exc:
        messages.error(request, getattr(exc, "reason", "Choose a seat."))
    return redirect("play:match", pk=pk)


def match_replay(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    if match.status != Match.Status.FINISHED:
        messages.info(request, "A match can be replayed once it is over.")
        return redirect(match)
    try:
        step = max(0, min(int(request.GET.get("step", match.version)), match.version))
    except ValueError:
        step = match.version
    picture = match_picture(match=match, seat=None, upto=step)
    move = match.moves.filter(number=step).first() if step else None
    context = {"p": picture, "match": match, "step": step, "move": move}
    template = "play/replay.html#frame" if request.htmx else "play/replay.html"  # type: ignore[attr-defined]
    return render(request, template, context)


# --- live updates: server-sent events ---------------------------------------------------------


def _version_key(match_id: int) -> str | None:
    row = Match.objects.filter(pk=match_id).values_list("version", "status", "updated").first()
    return None if row is None else f"{row[0]}-{row[1]}-{row[2].timestamp():.3f}"


def _sse(event: str, data: str) -> str:
    return f"event: {event}\ndata: {data}\n\n"


def _sync_stream(match_id: int, seen: str | None) -> Iterator[str]:
    yield "retry: 2000\n\n"
    end = time.monotonic() + STREAM_SECONDS
    while time.monotonic() < end:
        try:
            key = _version_key(match_id)
        except Exception:  # the database went away (shutdown): end the stream, the browser reconnects
            return
        if key is None:
            return
        if key != seen:
            seen = key
            yield _sse("update", key)
        else:
            yield ": still here\n\n"
        time.sleep(0.5 if not settings.REDIS_URL else 1.0)


async def _async_stream(match_id: int, seen: str | None) -> AsyncIterator[str]:
    yield "retry: 2000\n\n"
    version_key = sync_to_async(_version_key)
    end = time.monotonic() + STREAM_SECONDS
    pubsub = None
    if settings.REDIS_URL:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(settings.REDIS_URL)
        pubsub = client.pubsub()
        await pubsub.subscribe(channel(match_id))
    try:
        while time.monotonic() < end:
            key = await version_key(match_id)
            if key is None:
                return
            if key != seen:
                seen = key
                yield _sse("update", key)
            if pubsub is not None:
                # Wake at once on a published move; check the database now and then regardless.
                await pubsub.get_message(ignore_subscribe_messages=True, timeout=5.0)
            else:
                await asyncio.sleep(0.5)
    finally:
        if pubsub is not None:
            await pubsub.unsubscribe()
            await pubsub.aclose()  # type: ignore[no-untyped-call]


def match_events(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    if not Match.objects.filter(pk=pk).exists():
        raise Http404("No such match.")
    seen = request.GET.get("v")
    stream: Any = _async_stream(pk, seen) if isinstance(request, ASGIRequest) else _sync_stream(pk, seen)
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
