"""No page shows a form that its viewer cannot use.

Every page of the permission matrix is asked as each of its roles; every form it shows that
posts is then sent as it stands (its first button pressed), as that role, in a savepoint rolled
back after it. A form whose answer is a refusal for who is asking (403, or a trip to the login
page) should not have been shown to them: they get the result, or what they may do, and a way to
log in, instead (a signed-out visitor once met a table's result entry form it could only be
refused by). A refusal of what was typed (400, a message) is the form working; what the form
sends as it stands may well be incomplete.
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import transaction

from tests.web.matrix.cells import LOGIN_PATHS, ask, client_for
from tests.web.matrix.forms import Form, page_forms, path_of
from tests.web.matrix.pages import PAGES
from tests.web.matrix.world import ROLES, World, race_to_ten_unregister, world_build


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
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


def page_url(route: str, kwargs: dict[str, Any]) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m.group(1)]), route)


def refusal(status: int, location: str) -> str | None:
    """Why an answer refuses the asker themself (not what they typed), or None."""
    if status in (401, 403):
        return f"{status}"
    if status in (301, 302, 303) and location.split("?")[0] in LOGIN_PATHS:
        return "sent to log in"
    if status == 405:
        return "405 (the address takes no POST)"
    return None


def send(client: Any, form: Form) -> tuple[int, str]:
    """Send a form in a savepoint rolled back after it, the browser's cookies kept as they were
    (the header's "Log out" is a form too)."""
    cookies = copy.deepcopy(client.cookies)
    with transaction.atomic():
        _, observed = ask(client, "POST", path_of(form.action), form.data(), api=False)
        transaction.set_rollback(True)
    client.cookies = cookies
    return observed.status, observed.location


def test_no_page_shows_a_form_its_viewer_would_be_refused(world: World, db: Any, quiet_logs: None) -> None:
    clients = {role: client_for(world.user(role)) for role in ROLES}
    problems: list[str] = []
    pages = forms = 0
    for route, cases in PAGES.items():
        for case in cases:
            if "GET" not in case.expect or case.writes_on_get:
                continue
            url = page_url(route, case.kwargs(world))
            if case.query is not None:
                url += "?" + urlencode(case.query(world))
            for role in ROLES:
                client = clients[role]
                with transaction.atomic():
                    _, page = ask(client, "GET", url, None, api=False)
                    transaction.set_rollback(True)
                if page.status != 200 or "html" not in page.content_type:
                    continue
                pages += 1
                for form in page_forms("http://testserver" + url, page.body):
                    forms += 1
                    status, location = send(client, form)
                    why = refusal(status, location)
                    if why:
                        problems.append(
                            f"{url} [{case.label}] as {role}: the form {form.label()!r} "
                            f"(POST {path_of(form.action)}) is shown, and sending it is refused: {why}"
                        )
    assert pages > 150 and forms > 40, (pages, forms)
    assert not problems, f"{len(problems)} forms shown to someone who cannot use them:\n" + "\n".join(
        problems
    )


def test_the_forms_are_read_as_a_browser_sends_them() -> None:
    html = """
    <form method="get" action="/search/"><input name="q"></form>
    <form method="post" action="/a/"><input type="hidden" name="csrfmiddlewaretoken" value="t">
      <input name="name" value="Ann"><input name="off" value="x" disabled>
      <input type="checkbox" name="tick" value="1" checked><input type="checkbox" name="no" value="1">
      <select name="pick"><option value="a">A<option value="b" selected>B</select>
      <select name="first"><option>One</option><option>Two</option></select>
      <textarea name="why">Because</textarea>
      <button type="submit" name="do" value="go">Go <b>now</b></button>
      <button name="other" value="x">No</button>
    </form>
    <form hx-post="/b/"><button>Send</button></form>
    <form method="post"><button type="button">Not a submit</button></form>
    """
    found = page_forms("http://testserver/page/?x=1", html)
    assert [f.action for f in found] == [
        "http://testserver/a/",
        "http://testserver/b/",
        "http://testserver/page/?x=1",
    ]
    assert found[0].data() == {
        "csrfmiddlewaretoken": ["t"],
        "name": ["Ann"],
        "tick": ["1"],
        "pick": ["b"],
        "first": ["One"],
        "why": ["Because"],
        "do": ["go"],
    }
    assert found[0].label() == "Go now"
    assert found[2].buttons == []


def test_a_refusal_of_the_asker_is_told_from_a_refusal_of_what_was_typed() -> None:
    assert refusal(403, "") and refusal(302, "/accounts/login/?next=/x/") and refusal(405, "")
    assert refusal(400, "") is None and refusal(302, "/events/1/") is None and refusal(409, "") is None
