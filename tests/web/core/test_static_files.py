"""Static files under ASGI are sent as they are read, not read whole into memory first."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import AsyncRequestFactory, RequestFactory, override_settings

from spyleague.core import middleware

SCRIPT = "js/race.js"

# A response's end signals request_finished, whose handler looks at this thread's connection.
pytestmark = pytest.mark.django_db


def never_called(request: Any) -> HttpResponse:
    raise AssertionError("a static file is answered by the middleware itself")


@override_settings(WHITENOISE_USE_FINDERS=True, WHITENOISE_AUTOREFRESH=True)
def static_files() -> Any:
    return middleware.StaticFiles(never_called)


def test_under_asgi_a_static_file_streams_in_blocks_read_beside_the_loop(monkeypatch: Any) -> None:
    monkeypatch.setattr(middleware, "STATIC_BLOCK", 1000)
    on_disk = (Path(settings.BASE_DIR) / "static" / SCRIPT).read_bytes()
    assert len(on_disk) > 3000  # so that it takes several blocks

    async def fetch() -> tuple[Any, list[bytes]]:
        response = static_files()(AsyncRequestFactory().get(f"/static/{SCRIPT}"))
        assert response.is_async  # Django will not read it whole first
        blocks = [block async for block in response]
        response.close()
        return response, blocks

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "must consume synchronous iterators" would raise here
        response, blocks = asyncio.run(fetch())
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert b"".join(blocks) == on_disk
    assert [len(b) for b in blocks[:-1]] == [1000] * (len(blocks) - 1)


def test_under_wsgi_a_static_file_is_whitenoise_s_as_ever() -> None:
    response = static_files()(RequestFactory().get(f"/static/{SCRIPT}"))
    assert not response.is_async and response.file_to_stream is not None
    body = b"".join(response)
    response.close()
    assert body == (Path(settings.BASE_DIR) / "static" / SCRIPT).read_bytes()


def test_a_not_modified_answer_has_no_body_under_asgi() -> None:
    first = static_files()(RequestFactory().get(f"/static/{SCRIPT}"))
    first.close()
    request = AsyncRequestFactory().get(f"/static/{SCRIPT}", headers={"if-none-match": first["ETag"]})

    async def fetch() -> tuple[Any, list[bytes]]:
        response = static_files()(request)
        assert response.is_async  # no "must consume synchronous iterators" for an empty body either
        blocks = [block async for block in response]
        response.close()
        return response, blocks

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        response, blocks = asyncio.run(fetch())
    assert response.status_code == 304 and blocks == []
