from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import get_template
from django.views.decorators.http import require_POST

from games import engines, game_info, games, get_engine

from ..core.inputs import MAX_ID, Refused, json_value, whole_number
from . import bots, live, race_moves, race_view, services
from .forms import MatchForm
from .levels import all_levels
from .live import channel
from .models import Match
from .realtime import is_real_time
from .rules_data import rules_facts
from .selectors import game_rulings, has_rules, lobby_matches, match_picture, with_seats

STREAM_SECONDS = 300  # a stream ends after this; the browser reconnects by itself

log = logging.getLogger(__name__)


def lobby(request: HttpRequest, form: MatchForm | None = None, status: int = 200) -> HttpResponse:
    form = form or MatchForm()
    playable: list[dict[str, Any]] = [{"engine": e, "options": option_fields(e.slug)} for e in engines()]
    # What was chosen stays chosen when the form comes back with an error.
    chosen = form["game"].value() if form.is_bound else None
    if chosen not in {g["engine"].slug for g in playable}:
        chosen = playable[0]["engine"].slug if playable else None
    if form.is_bound:
        for g in playable:
            for option in g["options"]:
                if option["kind"] == "bool":
                    option["value"] = option["name"] in form.data
                else:
                    option["value"] = form.data.get(option["name"], option["default"])
    return render(
        request,
        "play/lobby.html",
        {
            "games": games(),
            "rules": [g.slug for g in games() if has_rules(g.slug)],
            "lists": lobby_matches(user=request.user),
            "form": form,
            "chosen": chosen,
            "seats_value": form["seats"].value() if form.is_bound else form.fields["seats"].initial,
            "fill_value": bool(form.data.get("fill_with_bots")) if form.is_bound else True,
            "bot_value": form["bot"].value() if form.is_bound else "heuristic",
            "bot_levels": all_levels(),
            "playable": playable,
        },
        status=status,
    )


@login_required
@require_POST
def match_new(request: HttpRequest) -> HttpResponse:
    form = MatchForm(request.POST)
    if not form.is_valid():
        return lobby(request, form, status=400)
    data = form.cleaned_data
    options = options_from_post(data["game"], request.POST)
    try:
        with transaction.atomic():  # a match that cannot start is not left behind
            match = services.match_create(
                user=request.user, game=data["game"], seats=data["seats"], options=options
            )
            if data["fill_with_bots"]:
                services.match_start(user=request.user, match_id=match.pk, fill_with=data["bot"])
    except services.MoveRejected as exc:
        form.add_error(None, exc.reason)
        return lobby(request, form, status=exc.status)
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
    seats = with_seats(match)
    seat = services.seat_of(match=match, user=request.user)
    return match_picture(match=match, seat=seat, upto=upto, seats=seats)


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
    """The board after an action; a refused one answers its 4xx with the reason in the board
    (htmx swaps it in place) or, without JavaScript, on the match page. Nothing was changed."""
    match = Match.objects.get(pk=match_id)
    context = {"p": _picture(request, match), "match": match, "error": error}
    if request.htmx:  # type: ignore[attr-defined]
        return render(request, "play/match.html#board", context, status=status)
    if error:
        return render(request, "play/match.html", context, status=status)
    return redirect("play:match", pk=match_id)


@require_POST
def match_act(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Match, pk=pk)
    try:
        action = json_value(request.POST.get("action", ""), what="That action")
    except Refused as exc:
        return _board_response(request, pk, str(exc), status=400)
    # Multi-card choices (three cards from The Mole) arrive as ticked boxes: find the legal
    # action with exactly those cards, whatever order the engine lists them in.
    # (Without a "type" in words it is no such choice: the engine says what an action is.)
    if (
        isinstance(action, dict)
        and action.get("cards") == "__chosen__"
        and isinstance(action.get("type"), str)
    ):
        action = _chosen_cards_action(pk, request, action["type"], request.POST.getlist("cards"))
    version = request.POST.get("version")
    try:
        seen = whole_number(version, what="The version", high=MAX_ID) if version else None
        services.match_move_submit(match_id=pk, user=request.user, action=action, version=seen)
    except services.MoveRejected as exc:
        return _board_response(request, pk, exc.reason, status=exc.status)
    except Refused as exc:
        return _board_response(request, pk, str(exc), status=400)
    return _board_response(request, pk)


def _chosen_cards_action(pk: int, request: HttpRequest, kind: str, cards: list[str]) -> dict[str, Any]:
    match = Match.objects.get(pk=pk)
    picture = _picture(request, match)
    for action in picture.legal:
        # Only actions that take a list of cards: an empty choice never matches a one-card action.
        if action.get("type") == kind and "cards" in action and sorted(action["cards"]) == sorted(cards):
            return dict(action)
    return {"type": kind, "cards": cards}  # not legal: the engine says why


@login_required
@require_POST
def match_join(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Match, pk=pk)
    try:
        services.match_join(user=request.user, match_id=pk)
    except services.MoveRejected as exc:
        return _board_response(request, pk, exc.reason, status=exc.status)
    return redirect("play:match", pk=pk)


def match_invite(request: HttpRequest, code: str) -> HttpResponse:
    match = Match.objects.filter(invite=code).first()
    if match is None:
        raise Http404("This invitation link is not valid.")
    # Following a link changes nothing (link previews and prefetchers follow links too): the match
    # page offers the seat, and taking it is a click.
    if request.user.is_authenticated and match.status == Match.Status.OPEN:
        if services.seat_of(match=match, user=request.user) is None:
            messages.info(
                request, "You are invited: take a seat below. The match starts when its creator says so."
            )
    elif not request.user.is_authenticated:
        messages.info(request, "Log in or sign up to take your seat.")
        return redirect(f"{settings.LOGIN_URL and '/accounts/login/'}?next={request.path}")
    return redirect(match)


@login_required
@require_POST
def match_start(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Match, pk=pk)
    try:
        services.match_start(user=request.user, match_id=pk, fill_with=request.POST.get("bot") or None)
    except services.MoveRejected as exc:
        return _board_response(request, pk, exc.reason, status=exc.status)
    return redirect("play:match", pk=pk)


@login_required
@require_POST
def match_bot(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Match, pk=pk)
    try:
        services.match_set_bot(
            user=request.user,
            match_id=pk,
            seat=whole_number(request.POST.get("seat", ""), what="The seat", low=0, high=63),
            bot=request.POST.get("bot", ""),
        )
    except services.MoveRejected as exc:
        return _board_response(request, pk, exc.reason, status=exc.status)
    return redirect("play:match", pk=pk)


def _confirm_page(
    request: HttpRequest, match: Match, what: str, error: str = "", status: int = 200
) -> HttpResponse:
    picture = _picture(request, match)
    context = {"p": picture, "match": match, "what": what, "error": error}
    return render(request, "play/confirm.html", context, status=status)


@login_required
def match_resign(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what resigning means, and the button that does it; POST: resign."""
    match = get_object_or_404(Match, pk=pk)
    seated = services.seat_of(match=match, user=request.user) is not None
    if not seated and not services.has_resigned(match, request.user):
        raise PermissionDenied("Only a player seated in this match can resign it.")
    if request.method != "POST":
        if match.status != Match.Status.PLAYING or not seated:
            return redirect(match)
        return _confirm_page(request, match, "resign")
    version = request.POST.get("version")
    try:
        seen = whole_number(version, what="The version", high=MAX_ID) if version else None
        services.match_resign(user=request.user, match_id=pk, version=seen)
    except services.MoveRejected as exc:
        match.refresh_from_db()
        return _confirm_page(request, match, "resign", exc.reason, status=exc.status)
    except Refused as exc:
        return _confirm_page(request, match, "resign", str(exc), status=400)
    match.refresh_from_db()
    if match.status == Match.Status.FINISHED:
        messages.info(request, "You resigned: the match is over.")
    else:
        messages.info(request, "You resigned: a bot plays your seat on, and you are placed below the others.")
    return redirect(match)


@login_required
def match_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what abandoning means, and the button that does it; POST: abandon the match."""
    match = get_object_or_404(Match, pk=pk)
    if match.status in (Match.Status.OPEN, Match.Status.PLAYING) and not services.abandon_allowed(
        match=match, user=request.user
    ):
        raise PermissionDenied(
            "Only the player who created the match or the club's organisers can abandon it "
            "(its players too, once nobody can move)."
        )
    if request.method != "POST":
        if match.status not in (Match.Status.OPEN, Match.Status.PLAYING):
            return redirect(match)
        return _confirm_page(request, match, "abandon")
    table = match.table
    try:
        services.match_abandon(user=request.user, match_id=pk, reason=request.POST.get("reason", ""))
    except services.MoveRejected as exc:
        match.refresh_from_db()
        return _confirm_page(request, match, "abandon", exc.reason, status=exc.status)
    if table is not None:
        messages.info(request, "The match is abandoned: enter this table's result on its score sheet.")
        return redirect("tournaments:sheet", pk=table.round.event_id, table_id=table.pk)
    messages.info(request, "The match is abandoned.")
    return redirect(match)


@login_required
@require_POST
def match_rematch(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Match, pk=pk)
    try:
        rematch = services.match_rematch(user=request.user, match_id=pk)
    except services.MoveRejected as exc:
        return _board_response(request, pk, exc.reason, status=exc.status)
    if request.htmx:  # type: ignore[attr-defined]
        response = HttpResponse(status=204)
        response["HX-Redirect"] = rematch.get_absolute_url()
        return response
    return redirect(rematch)


def rules(request: HttpRequest, game: str) -> HttpResponse:
    """A game's rules in short, in our own words, and the rulings its engine plays by."""
    try:
        info = game_info(game)
    except LookupError:
        raise Http404("There are no rules here for that game.") from None
    if not has_rules(info.slug):
        raise Http404("There are no rules here for that game.")
    template = get_template(f"play/rules/{info.slug}.html")
    context = {
        "game": info,
        # Every number the page states, from the engine's own data (the template writes none).
        "r": rules_facts(info.slug),
        "rulings": game_rulings(info.slug),
        "others": [g for g in games() if has_rules(g.slug)],
    }
    return HttpResponse(template.render(context, request))


def _race(pk: int) -> Match:
    """A real-time match (Spy vs Spy), or 404: the race pages' addresses mean nothing else."""
    match = get_object_or_404(Match, pk=pk)
    if not is_real_time(get_engine(match.game)):
        raise Http404("This match is not a race.")
    return match


def match_replay(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    if match.status != Match.Status.FINISHED:
        messages.info(request, "A match can be replayed once it is over.")
        return redirect(match)
    try:
        step = max(0, min(int(request.GET.get("step", match.version)), match.version))
    except ValueError:
        step = match.version
    # Each step is the board after that many moves, rebuilt by replaying the log through the
    # engine, as its viewer saw it: a player of the match their own seat (their own hand, as they
    # held it), anyone else as a spectator. Hidden cards stay hidden even though the match is
    # over (what was secret at the table stays so). The move in words is the spectator's.
    from .templatetags.replay import move_words

    seats = list(match.seat_set.select_related("player").order_by("number"))
    mine = services.seat_of(match=match, user=request.user)
    picture = match_picture(match=match, seat=mine, upto=step, seats=seats)
    move = match.moves.filter(number=step).first() if step else None
    words: list[str] = []
    if move is not None:
        public = picture if mine is None else match_picture(match=match, seat=None, upto=step, seats=seats)
        before = match_picture(match=match, seat=None, upto=step - 1, seats=seats)
        action = move.action if isinstance(move.action, dict) else {"type": str(move.action)}
        words = move_words(game=match.game, seat=move.seat, action=action, before=before, after=public)
    context = {"p": picture, "match": match, "step": step, "move": move, "words": words, "replay": True}
    template = "play/replay.html#frame" if request.htmx else "play/replay.html"  # type: ignore[attr-defined]
    return render(request, template, context)


# --- live updates: server-sent events ---------------------------------------------------------
#
# A stream lives for minutes and mostly waits, so it holds no database connection while it waits:
# each look at the match gives its connection straight back (to the pool, or closed), and so does
# the view before the stream starts. A stream that ends, however it ends, gives back its Redis
# subscription too.


def _release_connection() -> None:
    """Give this thread's server connection back now, rather than when the response ends."""
    if connection.vendor != "sqlite" and not connection.in_atomic_block:
        connection.close()


def _version_key(match_id: int) -> str | None:
    row = Match.objects.filter(pk=match_id).values_list("version", "status", "updated").first()
    return None if row is None else f"{row[0]}-{row[1]}-{row[2].timestamp():.3f}"


def _look(match_id: int) -> str | None:
    """The match's version key (None once it is gone), holding no connection afterwards."""
    try:
        return _version_key(match_id)
    finally:
        _release_connection()


def _sse(event: str, data: str) -> str:
    return f"event: {event}\ndata: {data}\n\n"


def _sync_stream(match_id: int, seen: str | None) -> Iterator[str]:
    yield "retry: 2000\n\n"
    end = time.monotonic() + STREAM_SECONDS
    while time.monotonic() < end:
        try:
            key = _look(match_id)
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


NOTICE_WAIT_SECONDS = 5.0  # with Redis, how long a stream waits for a notice before it looks anyway
KEEPALIVE_SECONDS = 15.0  # a stream with nothing to say sends a comment this often


async def _async_stream(match_id: int, seen: str | None) -> AsyncIterator[str]:
    """Under ASGI: wakes at once on a published move (Redis), and looks at the database now and
    then regardless; while Redis is away, often (``live.Subscription``)."""
    yield "retry: 2000\n\n"
    look = sync_to_async(_look)
    end = time.monotonic() + STREAM_SECONDS
    said = time.monotonic()  # when the stream last sent something
    subscription = live.Subscription(channel(match_id)) if settings.REDIS_URL else None
    try:
        if subscription is not None:
            await subscription.open()  # before the first look: a move made meanwhile is in one or the other
        while time.monotonic() < end:
            try:
                key = await look(match_id)
            except Exception:  # the database is away: end the stream, the browser reconnects
                log.warning("Could not look at match %s for its event stream", match_id, exc_info=True)
                return
            if key is None:
                return
            if key != seen:
                seen, said = key, time.monotonic()
                yield _sse("update", key)
            elif time.monotonic() - said >= KEEPALIVE_SECONDS:
                said = time.monotonic()
                yield ": still here\n\n"  # a quiet stream stays open through proxies' read timeouts
            if subscription is not None:
                await subscription.wait(min(NOTICE_WAIT_SECONDS, max(0.0, end - time.monotonic())))
            else:
                await asyncio.sleep(0.5)
    finally:
        if subscription is not None:
            await subscription.close()


def match_events(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    if _look(pk) is None:  # and the connection is given back: the stream holds none while it waits
        raise Http404("No such match.")
    seen = request.GET.get("v")
    stream: Any = _async_stream(pk, seen) if isinstance(request, ASGIRequest) else _sync_stream(pk, seen)
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


# --- real-time races (Spy vs Spy): a racer's keys and taps, and the ticks that pace the bots ----


def _race_board(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    return render(request, "play/match.html#board", {"p": _picture(request, match), "match": match})


def _race_refusal(status: int, reason: str) -> JsonResponse:
    return JsonResponse({"t": "no", "status": status, "reason": reason}, status=status)


@require_POST
def race_act(request: HttpRequest, pk: int) -> HttpResponse:
    """A racer's move from the race page when its socket cannot open (``race_socket``): the same
    move the same way, answered in the socket's words: ``ack`` with the race's update (``u``),
    or ``no`` with the reason and the status.

    ``card`` is the flipped card the page showed (see ``race_moves.race_move_submit``).
    """
    try:
        action = json_value(request.POST.get("action", ""), what="That action")
    except Refused as exc:
        return _race_refusal(400, str(exc))
    racer = race_moves.racer_for(match_id=pk, user=request.user)
    if racer is None:
        return _race_refusal(404, "There is no such race.")
    try:
        moved = race_moves.answer_move(
            racer=racer, user=request.user, action=action, card=request.POST.get("card") or None
        )
    except services.MoveRejected as exc:
        return _race_refusal(exc.status, exc.reason)
    body = f'{moved.ack[:-1]}, "u": {moved.update}}}'
    return HttpResponse(body, content_type="application/json")


@require_POST
def race_tick(request: HttpRequest, pk: int) -> HttpResponse:
    """Asked a few times a second by a race page while bots race: the bots make their due moves.

    Answers 204 when the page (``v``, its board key) is still current, else the new board.
    """
    _race(pk)
    bots.race_tick(match_id=pk)  # each bot move publishes its update as it commits
    if request.POST.get("v") == _version_key(pk):
        return HttpResponse(status=204)
    return _race_board(request, pk)


RACE_POLL_SECONDS = 0.25  # without Redis, how often a race's event stream looks at the version


def _race_version(match_id: int, *, keep: bool = False) -> int | None:
    """The match's version, for a race stream as it opens and for the WSGI stream's looks.

    On a server database the connection goes back at once (to the pool, or closed), so an
    open race page holds no connection while it waits; unless ``keep``: the WSGI stream keeps
    it while it polls the database four times a second (without Redis, under ``runserver``).
    """
    try:
        return Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    finally:
        if not keep:
            _release_connection()


def _race_sync_stream(match_id: int, seen: int | None) -> Iterator[str]:
    yield "retry: 1000\n\n"
    end = time.monotonic() + STREAM_SECONDS
    while time.monotonic() < end:
        try:
            version = _race_version(match_id, keep=not settings.REDIS_URL)
        except Exception:  # the database went away (shutdown): end the stream, the browser reconnects
            return
        if version is None:
            return
        if version != seen:
            seen = version
            yield _sse("update", str(version))
        else:
            yield ": still here\n\n"
        time.sleep(RACE_POLL_SECONDS)


async def _race_async_stream(match_id: int, seen: int | None) -> AsyncIterator[str]:
    """Under ASGI: the race's updates from this process's feed of the match (``feeds``).

    An ``update`` names each newer version at once; a ``progress`` follows with the race itself
    (``race_view.update_message``) when it is at hand (pushed by the mover's process, or built
    once here without Redis) and not older than the newest version announced.
    """
    from .feeds import feeds

    yield "retry: 1000\n\n"
    end = time.monotonic() + STREAM_SECONDS
    sent = 0  # the version of the last progress sent
    async with feeds().watch(match_id) as (feed, news):
        while not feed.gone and time.monotonic() < end:
            news.clear()
            events = []  # sent together when both are at hand: one write to the page
            if feed.version is not None and feed.version != seen:
                seen = feed.version
                events.append(_sse("update", str(seen)))
            if feed.update is not None and feed.update[0] > sent and feed.update[0] >= (seen or 0):
                sent = feed.update[0]
                events.append(_sse("progress", feed.update[1]))
            if events:
                yield "".join(events)
            if news.is_set():
                continue
            try:
                await asyncio.wait_for(
                    news.wait(), timeout=min(KEEPALIVE_SECONDS, max(0.0, end - time.monotonic()))
                )
            except TimeoutError:
                yield ": still here\n\n"


def race_events(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    """A race page's live updates when its socket cannot open: ``update`` events carrying the
    match version, and under ASGI ``progress`` events carrying the race itself (the socket's
    ``u`` message).

    Lighter than ``match_events`` for a race, where versions change several times a second:
    the streams of a web process share one feed per match (``feeds``: one Redis subscription or
    one look at the database for all of them), and a waiting stream holds no database
    connection (so many racers can watch without exhausting the server's). Under WSGI
    (``runserver``) each stream looks at the version itself and the page fetches the progress.
    """
    if _race_version(pk) is None:  # and the connection is closed again: a stream holds none
        raise Http404("No such match.")
    try:
        seen: int | None = int(request.GET.get("v", ""))
    except ValueError:
        seen = None
    stream: Any = (
        _race_async_stream(pk, seen) if isinstance(request, ASGIRequest) else _race_sync_stream(pk, seen)
    )
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def race_progress(request: HttpRequest, pk: int) -> HttpResponse:
    """The race as it is now (``race_view.update_message``), for a page that missed an update.

    204 while the page's ``v`` (the version it shows) is still current.
    """
    match = _race(pk)
    if request.GET.get("v") == str(match.version):
        return HttpResponse(status=204)
    _, message = race_view.update_of(match)
    return HttpResponse(message, content_type="application/json")


def race_socket(request: HttpRequest, pk: int) -> HttpResponse:
    """The race's WebSocket address asked as a page: 426, it takes a socket (``race_socket``)."""
    response = HttpResponse(
        "This is the address of a race's live connection: open it as a WebSocket, from the race page.",
        status=426,
        content_type="text/plain; charset=utf-8",
    )
    return response  # (no Upgrade header: a WSGI server may not send one; the text says it)
