"""How a cell of the matrix is written, asked and judged.

A cell is (URL, method, case, role). Its expected answer is one ``Answer`` or a tuple of
answers any of which will do. Every request runs in a savepoint that is rolled back after it,
so each cell meets the same world; refused writes are checked against a fingerprint of the
database taken from that world.
"""

from __future__ import annotations

import copy
import hashlib
import html
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib import messages as flash
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.signals import request_finished
from django.db import DatabaseError, close_old_connections, connection, transaction
from django.http import FileResponse, HttpRequest
from django.test import Client

from .world import ROLES, World

WRITES = {"POST", "PUT", "PATCH", "DELETE"}
LOGIN_PATHS = ("/accounts/login/", "/admin/login/")


@dataclass(frozen=True)
class Answer:
    """One acceptable answer.

    ``kind``: "status" (exactly ``code``; a 302 is then a redirect that is neither to the login
    page nor carrying an error message), "login" (302 to a login page), "refused" (302 back
    with an error message, or 400/409 with a message), "4xx" (any client error).
    ``unchanged``: the database must be as it was even though the answer is a success (joining
    a club one is already in, confirming a result twice). ``absent``: text the body must not hold.
    """

    kind: str
    code: int = 0
    unchanged: bool = False
    absent: str = ""

    def label(self) -> str:
        text = str(self.code) if self.kind == "status" else self.kind
        if self.unchanged:
            text += " (no change)"
        if self.absent:
            text += f" (without {self.absent!r})"
        return text


Expected = Answer | tuple[Answer, ...]
Cell = int | str | Answer | tuple[Any, ...]

LOGIN = Answer("login")
REFUSED = Answer("refused")
CLIENT_ERROR = Answer("4xx")


def status(code: int, **kw: Any) -> Answer:
    return Answer("status", code, **kw)


def same(code: int) -> Answer:
    """A success that changes nothing."""
    return status(code, unchanged=True)


def without(code: int, text: str) -> Answer:
    return status(code, absent=text)


def answer(cell: Cell) -> tuple[Answer, ...]:
    if isinstance(cell, Answer):
        return (cell,)
    if isinstance(cell, int):
        return (status(cell),)
    if isinstance(cell, tuple):
        return tuple(a for part in cell for a in answer(part))
    raise TypeError(cell)


def row(
    anonymous: Cell,
    stranger: Cell,
    player: Cell,
    seated: Cell,
    scorer: Cell,
    other_organiser: Cell,
    organiser: Cell,
) -> dict[str, tuple[Answer, ...]]:
    """One line of the table: the answer for each role, in ``ROLES`` order."""
    cells = (anonymous, stranger, player, seated, scorer, other_organiser, organiser)
    return {role: answer(cell) for role, cell in zip(ROLES, cells, strict=True)}


def everyone(cell: Cell) -> dict[str, tuple[Answer, ...]]:
    return row(cell, cell, cell, cell, cell, cell, cell)


Data = Mapping[str, Any] | Callable[[World, str], Mapping[str, Any]] | None


@dataclass
class Case:
    """One way of asking a URL: its arguments from the world, a query, a body per method, and the
    expected answers per method and role."""

    label: str
    kwargs: Callable[[World], dict[str, Any]]
    expect: dict[str, dict[str, tuple[Answer, ...]]]
    query: Callable[[World], dict[str, Any]] | None = None
    data: dict[str, Data] = field(default_factory=dict)
    writes_on_get: bool = False  # a GET that changes the database by design (an invitation link)


# --- the database's fingerprint -----------------------------------------------------------------


def _models() -> list[Any]:
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    project = [
        model
        for config in apps.get_app_configs()
        if config.name.startswith("spyleague.")
        for model in config.get_models()
    ]
    return [*project, User, Token]


def fingerprint() -> dict[str, str]:
    """Per model of the project's apps (and users and tokens): a hash of every row's values."""
    out = {}
    for model in _models():
        rows = list(model._base_manager.order_by("pk").values_list())
        out[model._meta.label] = (
            f"{len(rows)}:{hashlib.blake2b(repr(rows).encode(), digest_size=8).hexdigest()}"
        )
    return out


def changed_models(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(label for label in before if before[label] != after.get(label))


def rows_written() -> int | None:
    """SQLite's count of rows written on this connection (None elsewhere): when a request leaves
    it as it was, nothing was written and the fingerprint need not be taken."""
    if connection.vendor != "sqlite":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT total_changes()")
        return int(cursor.fetchone()[0])


# --- asking --------------------------------------------------------------------------------------


@dataclass
class Observed:
    status: int
    location: str
    body: str
    content_type: str
    error_flash: str
    exception: str
    # Answered with a file response: under ASGI Django reads it whole in a thread first (with a
    # warning), so this fails whatever the cell expects (files are the static middleware's, which
    # streams them, or small enough to answer whole). The live streams choose their kind by the
    # server they run under, and are left alone.
    sync_stream: bool = False

    @property
    def to_login(self) -> bool:
        return self.status == 302 and self.location.split("?")[0] in LOGIN_PATHS

    def got(self) -> str:
        text = str(self.status)
        if self.status in (301, 302, 303):
            text += f" -> {self.location}"
        if self.error_flash:
            text += f" [error: {self.error_flash}]"
        return text

    def excerpt(self) -> str:
        if self.exception:
            return self.exception[:200]
        if self.error_flash:
            return self.error_flash[:200]
        return excerpt(self.body, self.content_type)[:200]


def excerpt(body: str, content_type: str) -> str:
    """The part of a body that says why: the alert or error list of a page, or the JSON."""
    if "html" not in content_type:
        return re.sub(r"\s+", " ", body)
    for pattern in (
        r'<[^>]+role="alert"[^>]*>(.*?)</(?:p|ul|div)>',
        r'<ul class="messages">(.*?)</ul>',
        r'<ul class="errorlist[^"]*">(.*?)</ul>',
        r"<main[^>]*>(.*?)</main>",
    ):
        found = re.search(pattern, body, re.S)
        if found:
            return _text(found.group(1))
    return _text(body)


def _text(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


def error_flash(response: Any) -> str:
    """The error messages a redirect carries in the messages cookie."""
    cookie = response.cookies.get("messages")
    if cookie is None or not cookie.value:
        return ""
    decoded = CookieStorage(HttpRequest())._decode(cookie.value) or []  # type: ignore[attr-defined]
    return " ".join(str(m.message) for m in decoded if m.level >= flash.ERROR)


def says_why(observed: Observed, api: bool) -> bool:
    """A refusal explains itself: JSON with a detail or field errors, or a page with the reason."""
    if api or "json" in observed.content_type:
        try:
            data = json.loads(observed.body)
        except ValueError:
            return False
        if isinstance(data, dict) and data:
            detail = data.get("detail")
            if detail:
                return True
            return any(bool(v) for v in data.values())
        return False
    if observed.error_flash:
        return True
    body = observed.body
    if "html" not in observed.content_type or "<html" not in body:
        return bool(body.strip())  # plain text: the text is the reason
    return any(
        marker in body
        for marker in (
            'role="alert"',
            'class="errorlist',
            '<ul class="messages">',
            "<h1>Not found</h1>",  # the 404 page, with its reason
            "<h1>You may not do that</h1>",  # the 403 page, with its reason
        )
    )


def client_for(user: Any) -> Client:
    """A browser for one role: logged in (or not), with a CSRF cookie; CSRF checks are on."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    client.get("/accounts/login/")  # sets the CSRF cookie, as any page with a form does
    assert "csrftoken" in client.cookies
    return client


def ask(
    client: Client, method: str, url: str, data: Mapping[str, Any] | None, api: bool
) -> tuple[Any, Observed]:
    token = client.cookies["csrftoken"].value
    headers: dict[str, Any] = {"HTTP_X_CSRFTOKEN": token}
    if api:
        headers["HTTP_ACCEPT"] = "application/json"
    if method == "GET":
        response = client.get(url, **headers)
    elif api:
        body = json.dumps(data) if data is not None else ""
        response = client.generic(method, url, body, content_type="application/json", **headers)
    else:
        response = client.post(url, data or {}, **headers)
    exception = ""
    exc_info = getattr(response, "exc_info", None)
    if exc_info:
        kind, value, _ = exc_info
        exception = f"{kind.__name__}: {value}"
    sync_stream = isinstance(response, FileResponse)
    if sync_stream and not exception:
        exception = "a file response (under ASGI it is read whole in a thread first)"
    if response.streaming:
        body = ""
        # A live stream: its status is enough. Closed as the test client closes a response, without
        # closing the database connection (the world lives in its transaction).
        request_finished.disconnect(close_old_connections)
        try:
            response.close()
        finally:
            request_finished.connect(close_old_connections)
    else:
        body = response.content.decode(errors="replace")
    observed = Observed(
        status=response.status_code,
        location=response.get("Location", ""),
        body=body,
        content_type=response.get("Content-Type", ""),
        error_flash=error_flash(response),
        exception=exception,
        sync_stream=sync_stream,
    )
    return response, observed


def matches(expected: Answer, observed: Observed) -> bool:
    if observed.sync_stream:
        return False
    if expected.absent and expected.absent in observed.body:
        return False
    if expected.kind == "login":
        return observed.to_login
    if expected.kind == "refused":
        return (observed.status == 302 and bool(observed.error_flash) and not observed.to_login) or (
            observed.status in (400, 409)
        )
    if expected.kind == "4xx":
        return 400 <= observed.status < 500
    if observed.status != expected.code:
        return False
    return expected.code != 302 or (not observed.to_login and not observed.error_flash)


@dataclass
class Failure:
    url: str
    method: str
    case: str
    role: str
    expected: str
    got: str
    body: str


def run_cell(
    client: Client,
    *,
    world: World,
    baseline: dict[str, str],
    url: str,
    method: str,
    case: Case,
    role: str,
    api: bool,
    route: str,
) -> list[Failure]:
    """Ask one cell in a savepoint that is rolled back; every way it can fail."""
    data_spec = case.data.get(method)
    data = data_spec(world, role) if callable(data_spec) else data_spec
    expected = case.expect[method][role]
    cookies = copy.deepcopy(client.cookies)
    with transaction.atomic():
        written = rows_written()
        _, observed = ask(client, method, url, data, api)
        refused = (400 <= observed.status < 500) or bool(observed.error_flash)
        hit = next((a for a in expected if matches(a, observed)), None)
        must_keep = (method in WRITES and refused) or (hit is not None and hit.unchanged)
        must_keep = must_keep or (method == "GET" and not case.writes_on_get)
        changed = []
        if must_keep and (written is None or rows_written() != written):
            try:
                changed = changed_models(baseline, fingerprint())
            except DatabaseError as exc:  # the request left the transaction broken
                changed = [f"(the database could not be read: {exc})"]
        transaction.set_rollback(True)
    client.cookies = cookies
    label = " or ".join(a.label() for a in expected)

    def failure(why: str) -> Failure:
        return Failure(route, method, case.label, role, label, why, observed.excerpt())

    failures = []
    if observed.status >= 500:
        failures.append(failure(f"{observed.got()} (server error)"))
    elif hit is None:
        failures.append(failure(observed.got()))
    if changed:
        failures.append(failure(f"{observed.got()}, but the database changed: {', '.join(changed)}"))
    if 400 <= observed.status < 500 and observed.status != 405 and not says_why(observed, api):
        failures.append(failure(f"{observed.got()} without a reason in words"))
    return failures


def failures_table(failures: list[Failure]) -> str:
    lines = [f"{len(failures)} cells of the permission matrix fail:", ""]
    for f in failures:
        lines.append(f"{f.method:6} {f.url}  [{f.case}]  as {f.role}")
        lines.append(f"       expected {f.expected}; got {f.got}")
        if f.body:
            lines.append(f"       body: {f.body}")
    return "\n".join(lines)
