"""Who may do what: every page and API operation asked as each role, against a table of answers.

The roles: anonymous, a stranger with an account and no club, a player of club A who sits at no
table, a player of club A seated at the table asked about, club A's scorer, club B's organiser
and club A's organiser (``tests/web/matrix/world.py`` builds the world they meet). The tables
of expected answers are in ``tests/web/matrix/pages.py`` and ``tests/web/matrix/api.py``;
they say what a secure club site answers, following the rules in the services' docstrings.

- The matrix has an entry for every route of the URL resolver and every operation of the
  OpenAPI schema (what is left out, and why: ``tests/web/matrix/routes.py``): a URL added
  without one fails the first test, which names it.
- Each cell (URL, method, case, role) is asked with CSRF checks on (the client sends the
  CSRF cookie's token, as the site's pages and scripts do), in a savepoint rolled back after it,
  so every cell meets the same world. No cell may answer 5xx; a refused write (4xx, or a
  redirect with an error message) must leave the database as it was, and so must every GET
  (but an invitation link, which seats whoever follows it); every 4xx but 405 says why in
  words. Every failing cell is collected, then reported at once as a table.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import transaction
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.web.matrix.api import OPERATIONS
from tests.web.matrix.cells import Case, Failure, client_for, failures_table, fingerprint, run_cell
from tests.web.matrix.pages import PAGES
from tests.web.matrix.routes import page_routes, schema_operations
from tests.web.matrix.world import ROLES, SEATED, World, race_to_ten_unregister, world_build


def test_the_matrix_has_an_entry_for_every_page_and_api_operation() -> None:
    pages, _left_out = page_routes()
    operations = schema_operations()
    problems = [f"page without an entry in the matrix: {r!r}" for r in sorted(pages - set(PAGES))]
    problems += [f"matrix entry for a page that does not exist: {r!r}" for r in sorted(set(PAGES) - pages)]
    problems += [
        f"API operation without an entry in the matrix: {m} {p}"
        for m, p in sorted(operations - set(OPERATIONS))
    ]
    problems += [
        f"matrix entry for an API operation not in the schema: {m} {p}"
        for m, p in sorted(set(OPERATIONS) - operations)
    ]
    for key, cases in [*PAGES.items(), *OPERATIONS.items()]:
        for case in cases:
            for method, table in case.expect.items():
                if set(table) != set(ROLES):
                    problems.append(f"{key} [{case.label}] {method}: answers for {sorted(table)}")
    assert not problems, "\n".join(problems)
    # Every page is asked with GET, and with POST where it takes one.
    for route, cases in PAGES.items():
        assert any("GET" in c.expect for c in cases), f"{route}: no GET in the matrix"


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """Built once for the module, inside a transaction rolled back at its end."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield world_build()
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            race_to_ten_unregister()


def page_url(route: str, kwargs: dict[str, Any]) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m.group(1)]), route)


def api_url(path: str, kwargs: dict[str, Any]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(kwargs[m.group(1)]), path)


def test_the_fingerprint_sees_a_write_and_a_savepoint_undoes_it(db: Any) -> None:
    from spyleague.clubs.models import Player
    from tests.web.matrix.cells import changed_models, rows_written

    before = fingerprint()
    with transaction.atomic():
        written = rows_written()
        Player.objects.create(name="Written")
        assert rows_written() != written or written is None
        assert changed_models(before, fingerprint()) == ["clubs.Player"]
        transaction.set_rollback(True)
    assert fingerprint() == before


@pytest.fixture
def quiet_logs() -> Iterator[None]:
    """Hundreds of refusals are expected: their warnings (403, 404...) would bury the table of
    failing cells. Errors (a 500's traceback) are still logged."""
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


def ask_everything(world: World, entries: dict[Any, list[Case]], *, api: bool) -> tuple[int, list[Failure]]:
    clients = {role: client_for(world.user(role)) for role in ROLES}
    baseline = fingerprint()  # after logging in (which sets each user's last login)
    failures: list[Failure] = []
    cells = 0
    for key, cases in entries.items():
        route = key[1] if api else f"/{key}"
        for case in cases:
            kwargs = case.kwargs(world)
            url = api_url(key[1], kwargs) if api else page_url(key, kwargs)
            if case.query is not None:
                url += "?" + urlencode(case.query(world))
            for method in case.expect:
                for role in ROLES:
                    cells += 1
                    failures += run_cell(
                        clients[role],
                        world=world,
                        baseline=baseline,
                        url=url,
                        method=method,
                        case=case,
                        role=role,
                        api=api,
                        route=route,
                    )
    assert fingerprint() == baseline, "a cell's savepoint did not roll back: the cells are not independent"
    return cells, failures


def test_every_page_answers_each_role_as_the_matrix_says(world: World, db: Any, quiet_logs: None) -> None:
    cells, failures = ask_everything(world, PAGES, api=False)
    assert cells > 500
    assert not failures, failures_table(failures)


def test_every_api_operation_answers_each_role_as_the_matrix_says(
    world: World, db: Any, quiet_logs: None
) -> None:
    cells, failures = ask_everything(world, OPERATIONS, api=True)
    assert cells > 300
    assert not failures, failures_table(failures)


# Every query parameter a page or the API reads (``request.GET`` / ``query_params``), and the
# pagination's: a test below checks the list against the code, so a new one is fuzzed too.
QUERY_PARAMETERS = (
    "club",
    "game",
    "league",
    "reload",
    "status",
    "step",
    "table",
    "v",
    "limit",
    "offset",
    # the event page's pages: of the standings, of a round's tables (and which round), of the entrants
    "page",
    "round",
    "tables",
    "entrants",
    # the organiser's: the registration picker's search, the draft's first tapped player
    "find",
    "swap",
)
ODD_VALUES = st.one_of(
    st.sampled_from(["", " ", "abc", "-1", "0", "1", "1e309", "nan", "inf", "10" * 20, "%", "é", "<b>"]),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(max_size=40),
)


def test_the_fuzzed_query_parameters_are_all_the_code_reads() -> None:
    from pathlib import Path

    read = set()
    for path in Path("spyleague").rglob("*.py"):
        read |= set(re.findall(r"(?:GET|query_params)\.get(?:list)?\(\"(\w+)\"", path.read_text()))
    assert read <= set(QUERY_PARAMETERS), sorted(read - set(QUERY_PARAMETERS))


def test_odd_query_strings_never_break_a_page(world: World, db: Any, quiet_logs: None) -> None:
    """Every GET page and API read, as the seated player and anonymously, with query parameters
    that are not what the page expects: never a 5xx, and nothing written."""
    urls = []
    for route, cases in PAGES.items():
        case = next(c for c in cases if "GET" in c.expect)
        if not case.writes_on_get:
            urls.append(page_url(route, case.kwargs(world)))
    for (method, path), cases in OPERATIONS.items():
        if method == "GET":
            urls.append(api_url(path, cases[0].kwargs(world)))
    clients = [client_for(world.user(SEATED)), client_for(None)]
    baseline = fingerprint()

    @settings(max_examples=12, deadline=None, derandomize=True, database=None)
    @given(query=st.dictionaries(st.sampled_from(QUERY_PARAMETERS), ODD_VALUES, min_size=1, max_size=3))
    def ask(query: dict[str, str]) -> None:
        for url in urls:
            for client in clients:
                response = client.get(url + "?" + urlencode(query))
                assert response.status_code < 500, (url, query, response.status_code)
        assert fingerprint() == baseline, query

    ask()
