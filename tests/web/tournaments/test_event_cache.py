"""The event page's kept parts (spyleague.core.cache, spyleague.tournaments.event_parts).

Three things hold, for every kind of viewer and every address the page takes:

- a page put together from kept parts is the page rendered without the cache, whoever filled
  the cache before (an organiser's draft, an entrant's own line and table, a form's CSRF token
  never reach another viewer);
- a second reader renders no part, and asks the database only for what is their own;
- every kind of write changes what the next reader sees (its version moves on).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from spyleague.clubs.models import Membership, Role
from spyleague.core import cache
from spyleague.scores.services import EntryLine, result_confirm, result_correct, result_enter
from spyleague.tournaments import event_parts, services
from spyleague.tournaments.models import Entrant, Round
from tests.factories import UserFactory

from .helpers import distinct_scores, make_event, play_round

pytestmark = pytest.mark.django_db

VIEWERS = ("organiser", "second organiser", "entrant", "other entrant", "scorer", "stranger", "anonymous")


@pytest.fixture(autouse=True)
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages of a few rows, so that 12 players fill several of each."""
    monkeypatch.setattr(event_parts, "STANDINGS_PER_PAGE", 5)
    monkeypatch.setattr(event_parts, "TABLES_PER_PAGE", 2)
    monkeypatch.setattr(event_parts, "ENTRANTS_PER_PAGE", 5)


@pytest.fixture
def page_cache() -> Iterator[None]:
    with override_settings(SPYLEAGUE_PAGE_CACHE=True):
        cache.PAGES.over()
        yield


class Day:
    """A 12-player event: round 1 played, round 2 published with one table confirmed, and the
    viewers (two entrants with accounts, two organisers, one of them playing, a scorer, a
    stranger and a visitor), each with a client of their own."""

    def __init__(self, club: Any, organiser: Any) -> None:
        self.organiser = organiser
        self.event = make_event(club, organiser, players=9)
        self.users: dict[str, Any] = {"organiser": organiser}
        for name, role in (
            ("second organiser", Role.ORGANISER),
            ("entrant", Role.PLAYER),
            ("other entrant", Role.PLAYER),
            ("scorer", Role.SCORER),
            ("stranger", None),
        ):
            user = UserFactory(player_name=name.title())
            if role is not None:
                Membership.objects.create(club=club, player=user.player, role=role)
            self.users[name] = user
        for name in ("organiser", "entrant", "other entrant"):
            services.entrant_register(user=organiser, event=self.event, player=self.users[name].player)
        play_round(self.event, organiser, random.Random(3))
        self.rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=self.event))
        self.confirm_one()
        self.clients: dict[str, Client] = {}
        for name in VIEWERS:
            client = Client()
            if name != "anonymous":
                client.force_login(self.users[name])
            self.clients[name] = client

    def tables_waiting(self) -> list[Any]:
        return list(self.rnd.tables.filter(is_bye=False).exclude(status="confirmed").order_by("number"))

    def confirm_one(self) -> None:
        table = self.tables_waiting()[0]
        seats = list(table.seats.select_related("entrant__player").order_by("position"))
        scores = distinct_scores(self.event, len(seats), random.Random(table.pk))
        entries = [EntryLine(s.entrant.player, float(sc)) for s, sc in zip(seats, scores, strict=True)]
        result = result_enter(
            user=self.organiser, game=self.event.game, club=self.event.club, table=table, entries=entries
        )
        result_confirm(user=self.organiser, result=result)

    def draft(self) -> Round:
        """Round 2 finished and round 3 paired as a draft."""
        while self.tables_waiting():
            self.confirm_one()
        return services.round_pair(event=self.event)

    def url(self, query: str = "") -> str:
        return reverse("tournaments:event", args=[self.event.pk]) + query


_CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"')
_NONCE = re.compile(r'nonce="[^"]*"')


def normal(html: str) -> str:
    """A page without what differs from one request to the next (CSRF tokens, nonces)."""
    return _NONCE.sub('nonce=""', _CSRF.sub(r'\1""', html))


def get(client: Client, url: str, **headers: Any) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return str(response.content.decode())


def uncached(client: Client, url: str, **headers: Any) -> str:
    with override_settings(SPYLEAGUE_PAGE_CACHE=False):
        return normal(get(client, url, **headers))


@pytest.fixture
def day(club: Any, organiser: Any) -> Day:
    return Day(club, organiser)


def addresses(day: Day) -> list[str]:
    draft_players = Entrant.objects.filter(event=day.event).values_list("pk", flat=True)
    some = str(next(iter(draft_players)))
    return [
        "",
        "?page=2",
        "?page=99",
        "?page=0",
        "?page=abc",
        "?round=1",
        "?round=1&tables=2",
        "?tables=2",
        "?entrants=2",
        "?round=2&page=3&tables=2&entrants=3",
        f"?swap={some}",
        "?find=P0&utm=x",
    ]


def test_a_page_of_kept_parts_is_the_page_rendered_without_them_for_every_viewer(
    day: Day, page_cache: None
) -> None:
    for query in addresses(day):
        url = day.url(query)
        expected = {name: uncached(day.clients[name], url) for name in VIEWERS}
        # The private views fill the cache first: whatever they leave, the others must not see.
        for name in VIEWERS:
            first = normal(get(day.clients[name], url))
            again = normal(get(day.clients[name], url))
            assert first == expected[name], (name, query)
            assert again == expected[name], (name, query)


def test_the_draft_its_notes_and_swaps_stay_the_organisers(day: Day, page_cache: None) -> None:
    draft = day.draft()
    seat = draft.tables.first().seats.first()  # type: ignore[union-attr]
    for query in ("", f"?round={draft.number}", f"?swap={seat.entrant_id}"):
        url = day.url(query)
        organiser = get(day.clients["organiser"], url)
        assert "Publish round 3" in organiser
        for name in VIEWERS[2:]:
            page = get(day.clients[name], url)
            assert normal(page) == uncached(day.clients[name], url), (name, query)
            assert "Publish round 3" not in page and "Swap by name" not in page
            assert "The organiser is preparing this round." in page
        assert normal(get(day.clients["second organiser"], url)) == uncached(
            day.clients["second organiser"], url
        )


def test_the_standings_fragment_is_the_same_kept_or_not(day: Day, page_cache: None) -> None:
    url = reverse("tournaments:standings", args=[day.event.pk])
    for query in ("?page=1", "?page=2", "?page=3", "?page=x"):
        for name in VIEWERS:
            expected = uncached(day.clients[name], url + query, HTTP_HX_REQUEST="true")
            for _ in range(2):
                got = normal(get(day.clients[name], url + query, HTTP_HX_REQUEST="true"))
                assert got == expected, (name, query)


def test_each_viewer_sees_their_own_line_and_table_and_nobody_elses(day: Day, page_cache: None) -> None:
    mine = Entrant.objects.get(event=day.event, player=day.users["entrant"].player)
    theirs = Entrant.objects.get(event=day.event, player=day.users["other entrant"].player)
    for query in ("", "?page=1", "?page=2", "?page=3"):
        url = day.url(query)
        other = get(day.clients["other entrant"], url)
        page = get(day.clients["entrant"], url)
        visitor = get(day.clients["anonymous"], url)
        assert page.count('id="me"') <= 1 and other.count('id="me"') <= 1
        assert f'data-entrant="{theirs.pk}" id="me"' not in page
        assert f'data-entrant="{mine.pk}" id="me"' not in other
        assert 'id="me"' not in visitor and "Your table" not in visitor and "You are " not in visitor
        assert "Your table" in page and "Your line in the standings" in page
    # Their own line is marked on the page it is on, and "My line" leads there from the others.
    pages = {n: get(day.clients["entrant"], day.url(f"?page={n}")) for n in (1, 2, 3)}
    marked = [n for n, html in pages.items() if f'data-entrant="{mine.pk}" id="me"' in html]
    assert len(marked) == 1
    assert all(("My line</a>" in html) == (n not in marked) for n, html in pages.items())


def test_a_kept_form_carries_the_viewers_own_csrf_token(day: Day, page_cache: None) -> None:
    day.draft()  # the organisers' parts hold the draft's forms (swap, publish, discard)
    tokens: dict[str, set[str]] = {}
    for name in ("organiser", "second organiser", "organiser", "second organiser"):
        client = day.clients[name]
        page = get(client, day.url())
        found = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
        assert found and cache.CSRF_MARK not in page
        secret = client.cookies["csrftoken"].value
        assert {_unmask_cipher_token(token) for token in found} == {secret}, name
        tokens.setdefault(name, set()).update(found)


def test_a_second_reader_renders_no_part_and_reads_only_their_own(
    day: Day, page_cache: None, monkeypatch: pytest.MonkeyPatch
) -> None:

    rendered: list[str] = []
    real = event_parts._render

    def counting(part: str, context: dict[str, Any]) -> Any:
        rendered.append(part)
        return real(part, context)

    real_line = event_parts.my_line

    def counting_line(**kwargs: Any) -> Any:
        rendered.append("own")
        return real_line(**kwargs)

    monkeypatch.setattr(event_parts, "_render", counting)
    monkeypatch.setattr(event_parts, "my_line", counting_line)
    for name in VIEWERS:
        get(day.clients[name], day.url())  # the first reader of each kind renders its parts
    rendered.clear()
    for name in VIEWERS:
        with CaptureQueriesContext(connection) as queries:
            get(day.clients[name], day.url())
        assert rendered == [], name
        sql = [q["sql"] for q in queries]
        if name == "anonymous":  # the page kept whole: nothing at all
            assert len(sql) == 0, sql
        elif name in ("entrant", "other entrant", "stranger"):
            # their session and account, the event, their player and their role in its club
            assert len(sql) <= 5, sql


def test_a_part_is_shared_by_the_addresses_that_differ_only_in_another_part_s_parameter(
    day: Day, page_cache: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each part is kept by its own parameters: another page of the standings renders the
    standings alone, another round its tables alone; the links still keep the address's other
    parameter (the page kept or not is the same, as the test of every address above says)."""
    rendered: list[str] = []
    real = event_parts._render
    monkeypatch.setattr(
        event_parts, "_render", lambda part, context: rendered.append(part) or real(part, context)
    )
    for name in VIEWERS:
        get(day.clients[name], day.url())
    for query, alone in (("?page=2", "standings_table"), ("?round=1", "rounds"), ("?entrants=2", "entrants")):
        # The standings are the same part for every kind of viewer, the others one per kind.
        firsts = ("organiser",) if alone == "standings_table" else ("organiser", "entrant")
        for name in ("organiser", "entrant", "stranger"):  # (a visitor's page is kept whole, by address)
            rendered.clear()
            page = get(day.clients[name], day.url(query))
            assert rendered == ([alone] if name in firsts else []), (name, query)
            assert normal(page) == uncached(day.clients[name], day.url(query)), (name, query)
    # The round's link in the part kept for the first page keeps the page of the standings asked.
    assert 'href="?page=2&amp;round=1' in get(day.clients["entrant"], day.url("?page=2"))


def test_the_page_renders_as_without_a_cache_when_the_cache_is_away(day: Day) -> None:
    away = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
    from django.conf import settings

    expected = {name: uncached(day.clients[name], day.url()) for name in VIEWERS}
    with override_settings(SPYLEAGUE_PAGE_CACHE=True, CACHES={**settings.CACHES, "default": away}):
        cache.PAGES.over()
        for name in VIEWERS:
            assert normal(get(day.clients[name], day.url())) == expected[name]
        services.entrant_check_in(user=day.organiser, entrant=Entrant.objects.filter(event=day.event)[0])
    cache.PAGES.over()


def _rename_player(day: Day) -> None:
    client = Client()  # a tab of their own: its "Profile saved." is not on the viewers' pages
    client.force_login(day.users["entrant"])
    response = client.post(reverse("profile"), {"name": "Renamed Entrant", "email": "", "birth_year": ""})
    assert response.status_code == 302


def _rename_club(day: Day) -> None:
    club = day.event.club
    club.name = "Renamed Club"
    club.save()


def _confirm(day: Day) -> None:
    day.confirm_one()


def _override(day: Day) -> None:
    from spyleague.scores.models import Result

    result = Result.objects.filter(table__round=day.rnd, status=Result.Status.CONFIRMED).first()
    assert result is not None
    lines = list(result.lines.select_related("player").order_by("position"))
    scores = [line.score for line in lines]
    entries = [EntryLine(line.player, score) for line, score in zip(lines, scores[::-1], strict=True)]
    result_correct(user=day.organiser, result=result, entries=entries, note="Scores were swapped")


def _register(day: Day) -> None:
    user = UserFactory(player_name="Late Comer")
    Membership.objects.create(club=day.event.club, player=user.player, role=Role.PLAYER)
    services.entrant_register(user=day.organiser, event=day.event, player=user.player)


def _drop(day: Day) -> None:
    services.entrant_drop(user=day.organiser, entrant=Entrant.objects.filter(event=day.event).first())


def _check_in_all(day: Day) -> None:
    services.entrants_check_in_all(user=day.organiser, event=day.event)


def _draft(day: Day) -> None:
    day.draft()


def _publish(day: Day) -> None:
    services.round_publish(user=day.organiser, rnd=day.draft())


def _discard(day: Day) -> None:
    draft = day.draft()
    services.round_discard(user=day.organiser, rnd=draft)


def _swap(day: Day) -> None:
    draft = day.draft()
    tables = list(draft.tables.filter(is_bye=False).order_by("number"))
    a, b = tables[0].seats.first(), tables[1].seats.first()
    services.round_swap(user=day.organiser, rnd=draft, a=a.entrant, b=b.entrant)  # type: ignore[union-attr]


def _settings(day: Day) -> None:
    services.event_update(user=day.organiser, event=day.event, name="The Renamed Open", tiebreaks=["wins"])


def _finish(day: Day) -> None:
    while day.tables_waiting():
        day.confirm_one()
    services.finish_event(user=day.organiser, event=day.event)


WRITES: dict[str, Callable[[Day], None]] = {
    "a result confirmed": _confirm,
    "a confirmed result corrected": _override,
    "a player entered": _register,
    "a player dropped": _drop,
    "everyone checked in": _check_in_all,
    "the next round paired as a draft": _draft,
    "the draft published": _publish,
    "the draft discarded": _discard,
    "two players swapped on the draft": _swap,
    "the settings changed": _settings,
    "the event finished": _finish,
    "a player renamed": _rename_player,
    "the club renamed": _rename_club,
}


def api(day: Day, query: str) -> str:
    return reverse("api-event-standings", args=[day.event.pk]) + query


API_QUERIES = ("", "?limit=10", "?limit=10&offset=10", "?limit=7&offset=3", "?offset=100000")
# The writes that change the standings the API answers.
STANDINGS_WRITES = {"a result confirmed", "a confirmed result corrected", "a player renamed"}


@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
def test_every_kind_of_write_changes_what_the_next_reader_sees(
    page_cache: None, day: Day, write: str
) -> None:
    # The day is made with the cache on, as the site makes its data: its writes, in the test's
    # one transaction, came before the write under test.
    queries = ("", "?page=2", "?entrants=2", "?round=2")
    before = {(n, q): normal(get(day.clients[n], day.url(q))) for n in VIEWERS for q in queries}
    api_before = {q: get(day.clients["anonymous"], api(day, q)) for q in API_QUERIES}
    WRITES[write](day)
    changed = False
    for name in VIEWERS:
        for query in queries:
            url = day.url(query)
            expected = uncached(day.clients[name], url)
            assert normal(get(day.clients[name], url)) == expected, (write, name, query)
            changed = changed or expected != before[(name, query)]
    assert changed, f"{write} changed none of the pages: the test shows nothing"
    api_changed = False
    for query in API_QUERIES:
        expected = uncached(day.clients["anonymous"], api(day, query))
        assert get(day.clients["anonymous"], api(day, query)) == expected, (write, query)
        api_changed = api_changed or expected != api_before[query]
    assert api_changed or write not in STANDINGS_WRITES, f"{write} changed none of the API's standings"


def test_a_version_moves_on_at_once_and_again_when_the_transaction_commits(
    page_cache: None, django_capture_on_commit_callbacks: Any
) -> None:
    from django.db import transaction

    first = cache.stamp("event:7")
    assert first is not None and cache.stamp("event:7") == first
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        cache.event_changed(7)
        inside = cache.stamp("event:7")
        assert inside != first
        # Changed again in the same transaction: moved on at once again (a reader in between
        # rendered what the first change left), and still one bump at commit.
        cache.event_changed(7)
        again = cache.stamp("event:7")
        assert again not in (first, inside)
    assert len(callbacks) == 1
    after = cache.stamp("event:7")
    assert after not in (first, inside, again)
    assert int(after) == int(again) + 1  # type: ignore[arg-type]


def test_a_bump_that_could_not_reach_the_cache_is_made_by_the_next_call(page_cache: None) -> None:
    first = cache.stamp("event:8")
    cache.PAGES.timed_out()  # the cache is left alone for a while: nothing reaches it
    cache.event_changed(8)
    assert cache.stamp("event:8") is None  # meanwhile pages are rendered for each reader
    cache.PAGES.over()
    assert cache.stamp("event:8") not in (None, first)


def test_the_api_standings_kept_are_the_standings_read(day: Day, page_cache: None) -> None:
    queries = [*API_QUERIES, "?limit=500", "?limit=600", "?limit=0", "?limit=x&offset=y", "?offset=5"]
    for query in queries:
        expected = uncached(day.clients["anonymous"], api(day, query))
        for _ in range(2):
            assert get(day.clients["anonymous"], api(day, query)) == expected, query


def _kept_parts() -> int:
    from django.core.cache import caches

    return sum(1 for key in caches["default"]._cache if ":part:" in key)  # type: ignore[attr-defined]


def test_addresses_past_the_usual_ones_are_rendered_but_not_kept(day: Day, page_cache: None) -> None:
    """So that no address makes keys of its own without end (a pager's page, a round, one at a
    time, of the first few hundred, are kept)."""
    get(day.clients["anonymous"], day.url())
    kept = _kept_parts()
    assert kept >= 3
    for query in ("?page=2&round=1", "?page=501", "?entrants=99999", "?round=1&tables=2&entrants=3"):
        url = day.url(query)
        assert normal(get(day.clients["anonymous"], url)) == uncached(day.clients["anonymous"], url)
    for query in ("?limit=7", "?limit=10&offset=5", "?limit=10&offset=100000"):
        get(day.clients["anonymous"], api(day, query))
    assert _kept_parts() == kept
    get(day.clients["anonymous"], day.url("?page=2"))
    assert _kept_parts() > kept


@pytest.mark.parametrize("players", [8, 40])
def test_a_player_s_own_is_read_in_four_queries_whatever_the_size(
    club: Any, organiser: Any, players: int, django_assert_num_queries: Any
) -> None:
    # Read for each player at each version of the event (a result confirmed every few seconds
    # on a big day): their entry, their table's seats, their line, and their place and page.
    event = make_event(club, organiser, players=players)
    play_round(event, organiser)
    play_round(event, organiser)
    entrant = Entrant.objects.filter(event=event).order_by("-pk").select_related("player").first()
    assert entrant is not None
    with django_assert_num_queries(4):
        found = event_parts.entry_of(event=event, player=entrant.player_id)
        assert found is not None
        (entry_pk, _checked_in, _dropped), table_id = found
        table = event_parts.table_of(event=event, table=table_id)
        mine = event_parts.my_line(event=event, entrant=entry_pk)
    assert entry_pk == entrant.pk
    assert table is not None and table.round_number == 2
    assert entrant.player.name in [seat.name for seat in table.seats]
    assert mine.line is not None and mine.count == players
    page = event_parts.standings_page(event=event, page=mine.page, entrant=entrant.pk)
    assert entrant.pk in [line.entrant_id for line in page.lines]
    assert mine.line.rank == next(line.rank for line in page.lines if line.entrant_id == entrant.pk)


def test_the_kept_order_gives_every_page_and_every_line_as_the_database_counts_them(
    club: Any, organiser: Any, django_assert_num_queries: Any
) -> None:
    from spyleague.tournaments.selectors import standings_order

    event = make_event(club, organiser, players=23)  # ties by name and by place on some pages
    play_round(event, organiser)
    play_round(event, organiser)
    order = standings_order(event=event)
    assert order is not None and len(order) == 23
    per_page = 5
    for page in range(1, 6):
        counted = event_parts.standings_page(event=event, page=page, per_page=per_page)
        with django_assert_num_queries(1):
            kept = order.page(event=event, page=page, per_page=per_page)
        assert kept.lines == counted.lines and kept.page.number == counted.page.number
        assert kept.page.paginator.count == counted.page.paginator.count
    for entrant in Entrant.objects.filter(event=event).values_list("pk", flat=True):
        with django_assert_num_queries(1):
            from_order = event_parts.my_line(event=event, entrant=entrant, order=lambda: order)
        assert from_order == event_parts.my_line(event=event, entrant=entrant)


def test_a_visitor_is_answered_the_kept_page_without_the_view_and_with_their_own_token(
    page_cache: None, day: Day, django_assert_num_queries: Any
) -> None:
    url = day.url("?page=2")
    first, second = Client(), Client()
    fresh = normal(get(first, url))
    with django_assert_num_queries(0):  # kept whole: no session, no user, no event read
        response = second.get(url)
    assert response.status_code == 200 and normal(response.content.decode()) == fresh
    # The page's tokens are the second visitor's own: their cookie's secret, each of them.
    secret = response.cookies["csrftoken"].value  # (the cookie holds the secret itself)
    tokens = re.findall(
        r'(?:name="csrfmiddlewaretoken" value=|"X-CSRFToken": )"([^"]*)"', response.content.decode()
    )
    assert tokens and all(_unmask_cipher_token(t) == secret for t in tokens), tokens
    assert cache.CSRF_MARK not in response.content.decode()
    # htmx's fragment of the standings is kept apart from the page.
    fragment = reverse("tournaments:standings", args=[day.event.pk]) + "?page=2"
    assert get(second, fragment, HTTP_HX_REQUEST="true") == get(first, fragment, HTTP_HX_REQUEST="true")


def test_a_visitor_with_a_message_waiting_or_a_session_gets_the_page_made_for_them(
    page_cache: None, day: Day, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = day.url("")
    get(Client(), url)  # kept
    made: list[int] = []
    parts = event_parts.event_parts
    monkeypatch.setattr(event_parts, "event_parts", lambda **kw: made.append(1) or parts(**kw))
    get(Client(), url)
    assert not made  # the kept page, without the view
    for cookie in ("messages", "sessionid"):
        client = Client()
        client.cookies[cookie] = "something"
        get(client, url)
        assert made, f"a visitor with {cookie} was answered the kept page"
        made.clear()
