"""Every list pages in the database: the SQL of every page and API read has a real LIMIT.

Each GET page of the URL conf and each GET operation of the API schema (the permission matrix
has an entry for every one, and fails on a new URL without one) is asked as the organiser of
the matrix's world, who sees the most (drafts included), and every query it runs is judged by
``tests/web/sql_lists.py``: a query that reads a list's rows must carry a LIMIT of at most a
page (500 rows), unless it reads one row, given rows, or children bounded by the rules (the
seats of a table). A new list read whole, or with a huge LIMIT, fails here, naming the URL and
the query.

What is whole by design, and why, is in ``WHOLE_BY_DESIGN``; the lists that still wait for
their paging (outside this change) in ``NOT_YET_PAGED``, which must shrink, never grow: an entry
that no longer reads a whole list fails the test until it is taken out.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tests.web.matrix.api import OPERATIONS
from tests.web.matrix.cells import client_for
from tests.web.matrix.pages import PAGES
from tests.web.matrix.routes import schema_operations
from tests.web.matrix.world import ORGANISER, World, race_to_ten_unregister, world_build
from tests.web.sql_lists import judge
from tests.web.test_permission_matrix import api_url, page_url

# Pages that give the whole of something by design.
WHOLE_BY_DESIGN = {
    "events/<id:pk>/export/<str:what>.csv": "a CSV export is the whole event, as the organiser asked",
    "events/<id:pk>/rounds/<id:number>/print/": "the printed pairings and score slips of the whole round",
    "admin/login/": "Django's admin: its permission lists are the staff user's own",
    "play/matches/<id:pk>/replay/": "the board at a step is rebuilt from the moves before it",
    "/api/matches/{id}/replay/": "a replay is the match's move log, as long as its game",
}

# Pages whose lists are still read whole: each to be paged, then taken out of this list.
NOT_YET_PAGED = {
    "": "the home page lists every club of the signed-in player",
    "accounts/profile/": "the profile lists every club of the signed-in player",
    "clubs/": "the directory lists every club",
    "clubs/<slug:slug>/": "the club's page lists every member and league",
    "clubs/players/<id:pk>/": "the player's page lists every club of the player",
    "events/": "the events page lists every club the viewer organises",
    "events/new/<slug:slug>/": "the new event form offers every league of the club",
    "events/<id:pk>/settings/": "the settings form offers every league of the club",
    "events/<id:pk>/": "the event page reads a draft's every table, and every entrant for the organiser",
    "events/leagues/<id:pk>/": "works out the table whole while an event's standings are not stored",
    "scorepads/new/": "the new scorepad form offers every player of the viewer's clubs",
    "scorepads/<id:pk>/": "the scorepad lists every deal and every change",
    "/api/scorepads/{id}/": "a scorepad's detail lists every deal and every change",
    "/api/tables/{table_id}/result/": "a result's detail lists every change to it",
    "events/<id:pk>/tables/<id:table_id>/": "the score sheet lists every change to its result",
}


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


def _urls(world: World) -> list[tuple[str, str]]:
    """(the route or API path, a URL of it) for every GET page and API read."""
    urls = []
    for route, cases in PAGES.items():
        for case in cases:
            if "GET" in case.expect and not case.writes_on_get:
                urls.append((route, page_url(route, case.kwargs(world))))
    for (method, path), cases in OPERATIONS.items():
        if method == "GET":
            urls += [(path, api_url(path, case.kwargs(world))) for case in cases]
    return urls


def _unbounded(client: Any, url: str) -> list[str]:
    """The queries of one GET that read a list's rows without a page's LIMIT."""
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        client.get(url)
        transaction.set_rollback(True)
    dialect = "postgres" if connection.vendor == "postgresql" else "sqlite"
    out = []
    for query in queries.captured_queries:
        verdict = judge(query["sql"], dialect=dialect)
        if not verdict.ok:
            out.append(f"{verdict.why}: {query['sql'][:300]}")
    return out


def test_every_list_page_and_api_read_pages_in_the_database(world: World, db: Any) -> None:
    client = client_for(world.user(ORGANISER))
    found: dict[str, list[str]] = {}
    for route, url in _urls(world):
        if route.startswith("admin/") and route not in WHOLE_BY_DESIGN:
            continue
        if problems := _unbounded(client, url):
            found.setdefault(route, []).extend(f"{url}: {p}" for p in problems)
    unexpected = {r: p for r, p in found.items() if r not in WHOLE_BY_DESIGN and r not in NOT_YET_PAGED}
    assert not unexpected, "lists read whole:\n" + "\n".join(
        f"{route}\n  " + "\n  ".join(problems) for route, problems in unexpected.items()
    )
    paged_now = sorted(set(NOT_YET_PAGED) - set(found))
    assert not paged_now, f"these page in the database now: take them out of NOT_YET_PAGED: {paged_now}"


def test_every_api_list_is_paged() -> None:
    """A GET of the schema that answers a list answers it a page at a time (count, next,
    previous, results), with ``limit`` and ``offset``; the games are the one short list."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    bare = []
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        if get is None:
            continue
        body = get["responses"].get("200", {}).get("content", {}).get("application/json", {})
        shape = body.get("schema", {})
        if "$ref" in shape:
            shape = schema["components"]["schemas"][shape["$ref"].rsplit("/", 1)[1]]
        names = {p["name"] for p in get.get("parameters", [])}
        if shape.get("type") == "array" and path != "/api/games/":
            bare.append(f"{path}: a list without pages")
        if "results" in shape.get("properties", {}) and not {"limit", "offset"} <= names:
            bare.append(f"{path}: paged without limit and offset")
    assert not bare, bare
    assert ("GET", "/api/events/{id}/rounds/{number}/tables/") in schema_operations()


@pytest.mark.parametrize("dialect", ["postgres", "sqlite"])
def test_the_judge_reads_a_query_through_a_server_side_cursor_as_the_query_itself(dialect: str) -> None:
    whole = 'SELECT "clubs_club"."id" FROM "clubs_club" ORDER BY "clubs_club"."name" ASC'
    paged = f"{whole} LIMIT 50"
    for sql in (whole, paged):
        for cursor in ("", 'DECLARE "_django_curs_1_sync_2" NO SCROLL CURSOR WITH HOLD FOR '):
            assert judge(cursor + sql, dialect=dialect).ok is (sql == paged), cursor + sql
