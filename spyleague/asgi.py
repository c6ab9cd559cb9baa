"""The site under ASGI: Django's pages and API, and the race pages' WebSockets (Channels).

A socket is opened by a page of this site only: its ``Origin`` must be one of ``ALLOWED_HOSTS``
(a cross-site page could otherwise open a socket with the visitor's cookies, as a cross-site
form could post one without the CSRF token), and its user is the session's.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spyleague.settings")

from spyleague.core.threads import application as django_http

# Django's ASGI handler, each request's thread lent from a pool (see spyleague.core.threads);
# sets Django up before the consumers are imported.
django_application = django_http()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from spyleague.play.race_socket import NoSuchSocket, RaceSocket  # noqa: E402
from spyleague.play.urls import RACE_SOCKET  # noqa: E402

websockets = URLRouter(
    [
        path(f"play/{RACE_SOCKET}", RaceSocket.as_asgi()),
        re_path(r"", NoSuchSocket.as_asgi()),  # any other address: refused, not an error
    ]
)

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(websockets)),
    }
)
