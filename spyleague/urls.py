import functools
from pathlib import Path

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.cache import cache_control
from django.views.decorators.csp import csp_override
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from .core import views as core


@functools.cache
def _icon() -> bytes | None:
    found = finders.find("img/favicon.ico")
    return Path(found).read_bytes() if isinstance(found, str) else None


@cache_control(max_age=7 * 24 * 3600, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """The site's icon where browsers and feed readers look for it, beside the pages' own link: a
    few kilobytes, read once and answered whole (a file response would be read by a thread under
    ASGI, with a warning, as the static files' middleware explains)."""
    icon = _icon()
    if icon is None:
        raise Http404("The site has no icon.")
    return HttpResponse(icon, content_type="image/x-icon")


urlpatterns = [
    path("", core.home, name="home"),
    path("favicon.ico", favicon, name="favicon"),
    path("accounts/signup/", core.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/profile/", core.profile, name="profile"),
    path("accounts/token/", core.token_create, name="token-create"),
    path("health/", core.health, name="health"),
    path("jobs/<id:pk>/", core.job_status, name="job"),
    path("demo/", core.demo_load, name="demo-load"),
    path("clubs/", include("spyleague.clubs.urls")),
    path("events/", include("spyleague.tournaments.urls")),
    path("play/", include("spyleague.play.urls")),
    path("leaderboards/", include("spyleague.ratings.urls")),
    path("scorepads/", include("spyleague.scores.urls")),
    path("api/", include("spyleague.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path(
        "api/redoc/",
        # ReDoc's own Content-Security-Policy: see API_REDOC_CSP in settings.
        csp_override(settings.API_REDOC_CSP)(SpectacularRedocView.as_view(url_name="api-schema")),
        name="api-redoc",
    ),
    path("admin/", admin.site.urls),
]

handler403 = "spyleague.core.views.handler403"
handler404 = "spyleague.core.views.handler404"
handler500 = "spyleague.core.views.handler500"
