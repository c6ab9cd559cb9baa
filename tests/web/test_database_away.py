"""A database that cannot answer is a 503 in words that needs no database: every page and API call.

The database is made to refuse every query (``refusing``: as PostgreSQL's driver fails when the
server is stopped), and the whole site is asked through the permission matrix's routes and world
(``tests/web/matrix``): every page and API operation, with each method it takes, as a visitor and
as a logged-in organiser (whose session the site would read first). Each answers 503 with
``Retry-After`` and the reason in words (JSON under /api/), or, where it needs no database at all,
as usual; never a 500, and after the one refused query nothing else is tried (the answer reads
neither the session, nor the user, nor messages). A form that was sent comes back on the page,
ready to send again. The real outage, on real processes, is tests/faults/test_database_outage.py.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlencode

import psycopg
import pytest
from django.db import OperationalError, connection, transaction
from django.test import Client, override_settings
from django.urls import reverse

from spyleague.core.database import REASONS, RETRY_AFTER, Trouble
from tests.web.matrix.api import OPERATIONS
from tests.web.matrix.cells import ask, client_for
from tests.web.matrix.pages import PAGES
from tests.web.matrix.world import ANONYMOUS, ORGANISER, World, race_to_ten_unregister, world_build

AWAY_WORDS = REASONS[Trouble.AWAY]


@contextmanager
def refusing(kind: type[psycopg.Error] = psycopg.OperationalError) -> Iterator[list[str]]:
    """Every query on this thread's connection fails as the driver fails when the server is gone
    (Django's OperationalError raised from psycopg's); yields the queries that were tried."""
    tried: list[str] = []

    def refuse(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        tried.append(sql)
        cause = kind("connection failed: connection to server at 127.0.0.1, port 5432 failed: refused")
        raise OperationalError(*cause.args) from cause

    with connection.execute_wrapper(refuse):
        yield tried


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield world_build()
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            race_to_ten_unregister()


@pytest.fixture
def quiet_logs() -> Iterator[None]:
    """Hundreds of refusals are expected: their warnings would bury the failures."""
    logging.disable(logging.ERROR)
    yield
    logging.disable(logging.NOTSET)


def _url(template: str, kwargs: dict[str, Any]) -> str:
    url = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m.group(1)]), template)
    return re.sub(r"\{(\w+)\}", lambda m: str(kwargs[m.group(1)]), url)


def _typed(data: Any) -> list[tuple[str, str]]:
    """What a page's form sends that the 503 must send again (not the passwords)."""
    pairs = []
    for name, value in (data or {}).items():
        for one in value if isinstance(value, list | tuple) else [value]:
            if "password" not in name and not hasattr(one, "read"):
                pairs.append((name, str(one)))
    return pairs


def judge(response: Any, tried: list[str], *, api: bool, method: str, data: Any) -> str:
    """What is wrong with an answer given while the database refuses everything ('' if nothing)."""
    status = response.status_code
    if status == 503 and response["Content-Type"] == "application/json" and "database" in response.json():
        # The health check's own answer: what is wrong, in words (tests/web/core/test_health_and_jobs.py).
        return "" if response.json()["database"]["ok"] is False and len(tried) == 1 else "health"
    if status != 503:
        if status < 500 and not tried:
            return ""  # a page that needs no database answers as usual
        return f"{status} (tried {len(tried)} queries)"
    if len(tried) != 1:
        return f"503 after {len(tried)} queries: the answer itself went to the database"
    if response.get("Retry-After") != str(RETRY_AFTER[Trouble.AWAY]):
        return f"503 with Retry-After {response.get('Retry-After')!r}"
    body = response.content.decode()
    if api:
        return "" if response.json() == {"detail": AWAY_WORDS} else f"503 with {body[:200]}"
    if AWAY_WORDS not in body or 'role="alert"' not in body:
        return "503 without the reason in words"
    if method == "POST":
        if "Send it again" not in body:
            return "503 to a form without the form to send again"
        for name, value in _typed(data):
            if f'name="{name}" value="{html_escape(value)}"' not in body:
                return f"503 to a form that lost {name}={value!r}"
    return ""


def html_escape(value: str) -> str:
    from django.utils.html import escape

    return str(escape(value))


def test_every_page_and_api_operation_answers_503_in_words_while_the_database_is_away(
    world: World, db: Any, quiet_logs: None
) -> None:
    clients = {role: client_for(world.user(role)) for role in (ANONYMOUS, ORGANISER)}
    asked = 0
    failures = []
    entries: list[tuple[str, Any, bool]] = [(f"/{route}", cases[0], False) for route, cases in PAGES.items()]
    entries += [(path, cases[0], True) for (_method, path), cases in OPERATIONS.items()]
    for template, case, api in entries:
        url = _url(template, case.kwargs(world))
        if case.query is not None:
            url += "?" + urlencode(case.query(world))
        for method in case.expect:
            for role, client in clients.items():
                spec = case.data.get(method)
                data = spec(world, role) if callable(spec) else spec
                with transaction.atomic():
                    with refusing() as tried:
                        response, _ = ask(client, method, url, data, api)
                    transaction.set_rollback(True)
                asked += 1
                json_answer = api or url.startswith("/api/")  # the API's pages too, as its refusals
                wrong = judge(response, tried, api=json_answer, method=method, data=None if api else data)
                if wrong:
                    failures.append(f"{method:6} {url} as {role}: {wrong}")
    assert asked > 300
    assert not failures, f"{len(failures)} answers are wrong:\n" + "\n".join(failures)


# --- the answer itself --------------------------------------------------------------------------


@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG off", "DEBUG on"])
def test_the_page_is_the_same_with_debug_on_and_off(client: Client, db: Any, debug: bool) -> None:
    with override_settings(DEBUG=debug), refusing() as tried:
        response = client.get(reverse("tournaments:list"))
    assert response.status_code == 503 and len(tried) == 1
    body = response.content.decode()
    assert "<h1>The site cannot reach its database</h1>" in body and AWAY_WORDS in body
    assert "Traceback" not in body and "OperationalError" not in body
    assert response["Retry-After"] == "5" and response["Cache-Control"] == "no-store"


def test_a_busy_pool_is_a_503_that_says_busy(api_client: Any, db: Any) -> None:
    from psycopg_pool import PoolTimeout

    with refusing(PoolTimeout):
        response = api_client.get("/api/events/")
    assert response.status_code == 503
    assert response.json() == {"detail": REASONS[Trouble.BUSY]}
    assert response["Retry-After"] == str(RETRY_AFTER[Trouble.BUSY])


def test_a_form_comes_back_with_what_was_typed_but_not_passwords(client: Client, db: Any) -> None:
    typed = {
        "username": "ann",
        "password": "not shown anywhere",
        "note": 'Round 3 <b>"late"</b>',
        "score_0": "12",
        "score_1": "",
    }
    with refusing():
        response = client.post(reverse("login") + "?next=/events/", typed)
    assert response.status_code == 503
    body = response.content.decode()
    assert '<form method="post" action="/accounts/login/?next=/events/">' in body
    assert 'name="username" value="ann"' in body
    assert 'name="note" value="Round 3 &lt;b&gt;&quot;late&quot;&lt;/b&gt;"' in body
    assert 'name="score_1" value=""' in body  # sent again as it was, empty
    assert "not shown anywhere" not in body and 'name="password"' not in body
    assert '<th scope="row">Score, seat 1</th><td>12</td>' in body  # and shown in words
    assert "What you sent is kept below" in body


def test_a_file_that_was_sent_is_said_to_be_lost(client: Client, db: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("players.csv", b"name\nAnn\n", content_type="text/csv")
    with refusing():
        response = client.post("/clubs/alpha-club/", {"file": upload, "kind": "guests"})
    assert response.status_code == 503
    assert "The file you chose could not be kept: choose it again." in response.content.decode()


def test_htmx_gets_the_notice_at_the_top_of_its_page_and_a_poll_changes_nothing(
    client: Client, db: Any
) -> None:
    with refusing():
        posted = client.post("/play/matches/1/act/", {"action": '"pass"'}, HTTP_HX_REQUEST="true")
        polled = client.get("/play/matches/1/board/", HTTP_HX_REQUEST="true")
    assert posted.status_code == 503
    assert posted["HX-Retarget"] == "#main" and posted["HX-Reswap"] == "afterbegin"
    fragment = posted.content.decode()
    # Only the notice (the board, and what was chosen on it, stay as they were), in place of an
    # earlier one.
    assert fragment.startswith('<div id="site-unavailable" hx-swap-oob="delete"></div>')
    assert AWAY_WORDS in fragment and "<html" not in fragment and "<form" not in fragment
    assert "What you did is still on the page: do it again once the site answers." in fragment
    assert polled.status_code == 503 and polled["HX-Reswap"] == "none"


def test_htmx_swaps_a_503_where_the_answer_says() -> None:
    """base.html's htmx configuration swaps a 503 (its headers say where: the top of the page)."""
    from pathlib import Path

    config = re.search(r'name="htmx-config" content=\'([^\']+)\'', Path("templates/base.html").read_text())
    assert config is not None
    import json

    handling = json.loads(config.group(1))["responseHandling"]
    swapped = next(h for h in handling if re.fullmatch(h["code"], "503"))
    assert swapped["swap"] is True


# --- an error outside the view ------------------------------------------------------------------


@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG off", "DEBUG on"])
def test_a_database_error_in_another_middleware_is_a_503_too(
    make_user: Any, debug: bool, settings: Any
) -> None:
    """The CSRF failure page shows the user (the session, the database): met there, the error
    is past the view's reach; it is a 503 all the same, never a 500."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.force_login(make_user(username="ann-at-the-door"))
    settings.DEBUG = debug
    with refusing():
        response = client.post(reverse("profile"), {"name": "Olga"})  # no CSRF token
    assert response.status_code == 503
    assert AWAY_WORDS in response.content.decode()


def test_the_500_page_does_not_need_the_database_when_the_error_was_the_databases(rf: Any, db: Any) -> None:
    import sys

    from spyleague.core.views import handler500

    request = rf.get("/")
    with refusing() as tried:
        try:
            raise OperationalError("server closed the connection unexpectedly") from psycopg.OperationalError(
                "server closed the connection unexpectedly"
            )
        except OperationalError:
            assert sys.exc_info()[0] is OperationalError
            response = handler500(request)
    assert response.status_code == 503 and not tried


def test_other_database_errors_stay_errors(client: Client, db: Any) -> None:
    """A refusal of the database's own (here a unique constraint) is not an outage: not a 503."""
    from psycopg import errors

    with refusing(errors.UniqueViolation), pytest.raises(OperationalError):
        client.get(reverse("tournaments:list"))


# --- health -------------------------------------------------------------------------------------


def test_health_says_503_in_words_when_the_database_is_away(client: Client, db: Any) -> None:
    with refusing():
        response = client.get(reverse("health"))
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False, "error": "The database does not answer."}
