"""Signing up, checking a password and making a token are throttled per client address, on the
pages and in the API alike: past the rate a 429 in words with ``Retry-After`` (a page for the
pages, JSON for the API), and nothing done; the window's end lets the address in again; another
address is counted apart; and a Redis that is away or silent lets every request through quickly.

The tests set the rates they test (the suite runs with rates too high to meet, see
tests/conftest.py), and move the throttle's clock rather than wait.
"""

from __future__ import annotations

import inspect
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from spyleague.api.throttles import AddressThrottle
from spyleague.core import throttles
from spyleague.core.middleware import THROTTLED_POSTS
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

RATE = 3  # what the tests allow each scope in an hour


@pytest.fixture
def rates(settings: Any) -> None:
    settings.SPYLEAGUE_RATES = {"signup": f"{RATE}/h", "password": f"{RATE}/h", "token": f"{RATE}/h"}


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The throttle's time, which a test moves by hand: ``clock[0]``."""
    now = [1_800_000_000.0]  # the start of a window of an hour
    monkeypatch.setattr(throttles, "clock", lambda: now[0])
    return now


@dataclass(frozen=True)
class Door:
    """A throttled thing: how to knock once (``knock(client, n)``, the n-th time) and what it did."""

    name: str
    scope: str
    api: bool
    knock: Callable[[Any, int], Any]
    made: Callable[[], int]  # how many rows the knocks left (accounts, tokens)


def _signup_page(client: Any, n: int) -> Any:
    password = f"long-pass-{n}-spyleague"
    return client.post(
        reverse("signup"),
        {"username": f"page{n}", "name": f"Page {n}", "password1": password, "password2": password},
    )


def _signup_api(client: Any, n: int) -> Any:
    body = {"username": f"api{n}", "name": f"Api {n}", "password": f"long-pass-{n}-spyleague"}
    return client.post("/api/signup/", body, format="json")


def _login_page(client: Any, n: int) -> Any:
    return client.post(reverse("login"), {"username": f"nobody{n}", "password": "not-it"})


def _admin_login(client: Any, n: int) -> Any:
    return client.post(reverse("admin:login"), {"username": f"nobody{n}", "password": "not-it"})


def _token_page(client: Any, n: int) -> Any:
    return client.post(reverse("token-create"))


def _token_api(client: Any, n: int) -> Any:
    return client.post("/api/token/", {"username": "tess", "password": PASSWORD}, format="json")


DOORS = [
    Door("the sign-up page", "signup", False, _signup_page, lambda: User.objects.count()),
    Door("POST /api/signup/", "signup", True, _signup_api, lambda: User.objects.count()),
    Door("the login page", "password", False, _login_page, lambda: 0),
    Door("the admin's login page", "password", False, _admin_login, lambda: 0),
    Door("a new token on the profile page", "token", False, _token_page, lambda: Token.objects.count()),
    Door("POST /api/token/", "password", True, _token_api, lambda: Token.objects.count()),
]


@pytest.fixture
def tess(db: Any) -> Any:
    return UserFactory(username="tess")


def _client(door: Door, user: Any, address: str = "127.0.0.1") -> Any:
    client = APIClient(REMOTE_ADDR=address) if door.api else Client(REMOTE_ADDR=address)
    if door.name == "a new token on the profile page":
        client.force_login(user)
    return client


@pytest.mark.parametrize("door", DOORS, ids=[d.name for d in DOORS])
def test_past_the_rate_a_429_in_words_with_retry_after_and_nothing_done(
    door: Door, rates: None, clock: list[float], tess: Any
) -> None:
    client = _client(door, tess)
    for n in range(RATE):
        assert client_ok(door.knock(client, n)), n
    made = door.made()
    refused = door.knock(client, RATE)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "3600"  # the window is an hour, and it has just begun
    words = refused.json()["detail"] if door.api else refused.content.decode()
    assert "from your address in a short time" in words and "again in about an hour" in words
    if not door.api:
        assert "Too many tries from your address" in words  # the page, not a bare line
    assert door.made() == made  # no account, no token


def client_ok(response: Any) -> bool:
    """Not throttled: what the page or the API does with the request (a login's wrong password is
    a 200 with the form's error, a token asked of the API for a locked-out username a 429 of its
    own, which never happens here)."""
    return response.status_code in (200, 201, 302)


@pytest.mark.parametrize("door", DOORS, ids=[d.name for d in DOORS])
def test_the_window_ends_and_other_addresses_are_counted_apart(
    door: Door, rates: None, clock: list[float], tess: Any
) -> None:
    client = _client(door, tess)
    for n in range(RATE):
        door.knock(client, n)
    assert door.knock(client, RATE).status_code == 429
    assert client_ok(door.knock(_client(door, tess, "10.0.0.7"), RATE + 1))
    clock[0] += 3599
    refused = door.knock(client, RATE + 2)
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    clock[0] += 1
    assert client_ok(door.knock(client, RATE + 3))


def test_an_ipv6_client_is_counted_by_its_network(rates: None, clock: list[float]) -> None:
    for n in range(RATE):
        address = f"2001:db8:1:2::{n + 1}"
        assert _signup_page(Client(REMOTE_ADDR=address), n).status_code == 302
    refused = _signup_page(Client(REMOTE_ADDR="2001:db8:1:2:ffff::9"), RATE)
    assert refused.status_code == 429
    assert _signup_page(Client(REMOTE_ADDR="2001:db8:1:3::1"), RATE + 1).status_code == 302
    assert throttles.client_address(Client().request().wsgi_request) == "127.0.0.1"


def test_an_htmx_post_gets_the_reason_alone(rates: None, clock: list[float]) -> None:
    client = Client()
    for n in range(RATE):
        _login_page(client, n)
    refused = client.post(reverse("login"), {"username": "x", "password": "y"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429 and "<html" not in refused.content.decode()
    assert "Too many logins were tried" in refused.content.decode()


def test_the_rates_are_read_in_words() -> None:
    assert throttles.Rate.parse("10/h") == throttles.Rate(10, 3600)
    assert throttles.Rate.parse("30/10m") == throttles.Rate(30, 600)
    assert throttles.Rate.parse(" 5 / day ") == throttles.Rate(5, 86400)
    with pytest.raises(ValueError, match="such as 10/h"):
        throttles.Rate.parse("ten an hour")
    assert throttles.in_words(1) == "1 second"
    assert throttles.in_words(61) == "about 2 minutes"
    assert throttles.in_words(5400) == "about 2 hours"


def test_a_rate_mistyped_in_the_settings_lets_requests_through_and_says_so(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.SPYLEAGUE_RATES = {"signup": "ten an hour", "password": "1/h", "token": "1/h"}
    for n in range(3):
        assert _signup_page(Client(), n).status_code == 302
    assert "has no rate it can read" in caplog.text


def test_every_view_that_hashes_a_password_or_makes_a_token_is_throttled() -> None:
    """Read from the URL resolver: a view whose code makes an account, checks a password or makes
    an API token is in the pages' throttled posts, or (an API view) has an address throttle."""
    needles = ("save_account", "authenticate(", "Token.objects.create", "get_or_create(user", "create_user")
    missing: list[str] = []

    def walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[tuple[str, Any]]:
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
                yield from walk(p.url_patterns, prefix + str(p.pattern), ns)
            elif isinstance(p, URLPattern):
                yield (f"{namespace}{p.name}" if p.name else prefix + str(p.pattern)), p.callback

    found = 0
    for name, callback in walk(get_resolver().url_patterns):
        view = getattr(callback, "view_class", None) or getattr(callback, "cls", None) or callback
        parts = [
            view,
            *(getattr(view, m) for m in ("get", "post", "put", "patch", "create") if hasattr(view, m)),
        ]
        source = "".join(_source(part) for part in parts)
        if name == "login" or name == "admin:login" or any(needle in source for needle in needles):
            found += 1
            api_throttled = any(
                issubclass(t, AddressThrottle)
                for t in getattr(getattr(callback, "cls", None), "throttle_classes", [])
            )
            if name not in THROTTLED_POSTS and not api_throttled:
                missing.append(name)
    assert found >= 6
    assert not missing, f"not throttled: {missing}"


def _source(code: Any) -> str:
    """The code's source, with that of the functions it wraps (an API view's handler)."""
    inner = [
        c.cell_contents
        for c in getattr(code, "__closure__", None) or ()
        if inspect.isfunction(c.cell_contents)
    ]
    try:
        own = inspect.getsource(code)
    except (OSError, TypeError):  # made at run time (an API view's class), or not Python's
        own = ""
    return own + "".join(_source(f) for f in inner)


# --- a Redis away or silent lets requests through, quickly -------------------------------------------


@pytest.fixture
def throttle_on(settings: Any) -> Callable[[str], None]:
    def use(location: str) -> None:
        settings.CACHES = {
            **settings.CACHES,
            "throttle": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": location,
                "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
            },
        }

    return use


@pytest.fixture
def silent_redis() -> Iterator[str]:
    """An address that takes connections and never answers (the kernel accepts them for a socket
    that listens and never reads), as a Redis whose host stopped does."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(64)
        yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_redis_away_lets_every_request_through_at_once(
    rates: None, throttle_on: Callable[[str], None], caplog: pytest.LogCaptureFixture
) -> None:
    throttle_on(f"redis://127.0.0.1:{_free_port()}/0")  # nothing listens there
    client = APIClient()
    for n in range(RATE + 2):
        started = time.monotonic()
        assert _signup_api(client, n).status_code == 201
        assert time.monotonic() - started < 0.5
    assert User.objects.count() == RATE + 2
    assert "could not count a request" in caplog.text


def test_a_silent_redis_holds_a_request_up_half_a_second_at_most_then_is_left_alone(
    rates: None, throttle_on: Callable[[str], None], silent_redis: str
) -> None:
    throttle_on(silent_redis)
    client = Client()
    started = time.monotonic()
    assert _signup_page(client, 0).status_code == 302
    assert time.monotonic() - started < 0.9  # half a second for the count, the rest for the page
    started = time.monotonic()
    for n in range(1, RATE + 2):
        assert _signup_page(client, n).status_code == 302
    assert time.monotonic() - started < 0.2 * (RATE + 1)  # not asked again meanwhile
    assert throttles.THROTTLE_REDIS.ongoing()


def test_without_redis_the_counts_are_the_process_own(settings: Any) -> None:
    assert "locmem" in settings.CACHES["throttle"]["BACKEND"].lower()
    assert caches[throttles.CACHE].get("anything") is None
