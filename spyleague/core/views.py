from __future__ import annotations

import logging
import sys
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from games import games

from ..clubs.models import Club
from ..clubs.selectors import clubs_of, player_for_user
from ..clubs.services import player_ensure_for_user
from ..tournaments.models import Event
from .auth import BACKEND
from .database import RETRY_AFTER, Trouble, trouble
from .forms import ProfileForm, SignupForm
from .middleware import unavailable
from .models import Job
from .queue import BROKER, within_deadline

log = logging.getLogger(__name__)

DATABASE_WORDS = {
    Trouble.AWAY: "The database does not answer.",
    Trouble.BUSY: "The database is too busy to answer: every connection was in use.",
}


def home(request: HttpRequest) -> HttpResponse:
    """The home page: the viewer's own clubs, and what everyone sees (the games, the latest
    events, how many clubs and events there are) rendered once per version of the events' list
    and the site's names (``core.cache``)."""
    from . import cache

    player = player_for_user(request.user)
    found = cache.versions("site", "events")
    keys = None if found is None else {"listing": f"home:{found['site']}.{found['events']}"}
    listing = cache.parts(keys, {"listing": _home_listing})["listing"]
    context: dict[str, Any] = {
        **listing,
        "games": games(),
        "my_clubs": clubs_of(player) if player else [],
    }
    if listing["club_count"] == 0 or request.user.is_staff:  # the demo's card is shown to them only
        context["demo_job"] = Job.objects.filter(kind="demo-data").first()
    return render(request, "core/home.html", context)


def _home_listing() -> dict[str, Any]:
    """What the home page shows everyone: the latest events (their parts rendered), and counts."""
    from django.template.loader import get_template

    recent = Event.objects.select_related("club").order_by("-created")[:6]
    return {
        "recent_html": get_template("core/home.html#recent").render({"recent_events": recent}),
        "club_count": Club.objects.count(),
        "event_count": Event.objects.count(),
    }


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user, player = form.save_account()
        login(request, user, backend=BACKEND)
        messages.success(request, f"Welcome to Spy League, {player.name}.")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    player = player_ensure_for_user(user=user)
    form = ProfileForm(
        request.POST or None,
        initial={"name": player.name, "email": user.email, "birth_year": player.birth_year},
    )
    if request.method == "POST" and form.is_valid():
        player.name = form.cleaned_data["name"]
        player.birth_year = form.cleaned_data["birth_year"]
        player.save(update_fields=["name", "birth_year"])
        user.email = form.cleaned_data["email"] or ""
        user.save(update_fields=["email"])
        messages.success(request, "Profile saved.")
        return redirect("profile")
    token = Token.objects.filter(user=user).first()
    return render(
        request,
        "core/profile.html",
        {"form": form, "player": player, "clubs": clubs_of(player), "token": token},
    )


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    Token.objects.filter(user=request.user).delete()  # type: ignore[misc]
    Token.objects.create(user=request.user)  # type: ignore[misc]
    messages.success(request, "A new API token was made; the old one no longer works.")
    return redirect("profile")


def health(request: HttpRequest) -> JsonResponse:
    """Reports whether the database and the Celery broker answer (503 when one does not).

    A database that is away is reported at once (the backend knows, or tries one fresh connection,
    refused at once by a stopped server, or after its connect timeout), a busy one after the pool's
    timeout; in words either way, not the driver's."""
    report: dict[str, Any] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        report["database"] = {"ok": True, "vendor": connection.vendor}
    except Exception as exc:  # a health check reports every failure
        kind = trouble(exc)
        words = DATABASE_WORDS[kind] if kind else "The database answered with an error (see the log)."
        if kind is None:
            log.warning("Health: the database answered with an error", exc_info=True)
        report["database"] = {"ok": False, "error": words}
    if settings.CELERY_TASK_ALWAYS_EAGER:
        report["broker"] = {"ok": True, "mode": "eager", "detail": "tasks run in the web process"}
    else:
        from spyleague.celery import app

        def connect() -> str:
            with app.connection_for_write() as conn:
                # One try: a broker that is away answers "not ok" at once, not after a retry.
                conn.ensure_connection(max_retries=0, timeout=2)
                return str(conn.transport_cls)

        try:
            # A broker that does not answer at all is reported as soon as any call to it gives up.
            transport = within_deadline(BROKER, connect)
            report["broker"] = {"ok": True, "mode": "broker", "transport": transport}
        except Exception as exc:
            report["broker"] = {"ok": False, "mode": "broker", "error": str(exc)}
    ok = all(part["ok"] for part in report.values())
    response = JsonResponse({"ok": ok, **report}, status=200 if ok else 503)
    if not ok:
        response["Retry-After"] = str(RETRY_AFTER[Trouble.AWAY])
    return response


def job_status(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(Job, pk=pk)
    if job.created_by_id and job.created_by_id != request.user.pk and not request.user.is_staff:
        # Jobs carry nothing secret, but only their owner and staff follow them.
        raise PermissionDenied("This job belongs to someone else.")
    reload = bool(request.GET.get("reload"))
    response = render(request, "core/job.html", {"job": job, "reload": reload})
    if reload and not job.is_active:
        response["HX-Refresh"] = "true"  # the page shows what the job made
    return response


@require_POST
def demo_load(request: HttpRequest) -> HttpResponse:
    """Queue the demo-data loader. Staff only; also offered on an empty site to its first visitor."""
    if not (request.user.is_staff or Club.objects.count() == 0):
        raise PermissionDenied("Only staff may load the demo data once the site has clubs.")
    from .services import demo_data_queue

    job = demo_data_queue(user=request.user)
    if request.htmx:  # type: ignore[attr-defined]
        return render(request, "core/job.html", {"job": job})
    messages.info(request, "Loading the demo data in the background.")
    return redirect("home")


def handler404(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):  # an address under the API that names nothing: JSON too
        return JsonResponse({"detail": "Not found."}, status=404)
    return render(request, "404.html", {"reason": str(exception) if settings.DEBUG else ""}, status=404)


def handler403(request: HttpRequest, exception: Exception) -> HttpResponse:
    # htmx swaps a 403 in place (see base.html): it gets the reason alone, not a whole page.
    template = "403.html#reason" if getattr(request, "htmx", False) else "403.html"
    return render(request, template, {"reason": str(exception)}, status=403)


def handler500(request: HttpRequest) -> HttpResponse:
    # An error of the database's (too busy, or away) is a 503 that needs no database; the 500
    # page below would need it (its menu shows the user).
    kind = trouble(sys.exc_info()[1])
    if kind is not None:
        return unavailable(request, kind)
    return render(request, "500.html", status=500)
