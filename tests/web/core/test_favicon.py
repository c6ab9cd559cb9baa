"""The site has an icon: /favicon.ico answers it (browsers, the admin and the API pages ask
there), and every page links it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.conf import settings


def test_favicon_ico_is_the_sites_icon(client: Any, db: Any) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    body = response.content
    assert body == (Path(settings.BASE_DIR) / "static" / "img" / "favicon.ico").read_bytes()
    assert body[:4] == b"\x00\x00\x01\x00"  # an icon file (type 1), not a page
    count = int.from_bytes(body[4:6], "little")
    sizes = {body[6 + 16 * i] for i in range(count)}
    assert {16, 32} <= sizes
    assert "max-age" in response["Cache-Control"]


def test_every_page_links_the_icon(client: Any, db: Any) -> None:
    page = client.get("/").content.decode()
    links = dict(re.findall(r'<link rel="((?:alternate )?icon)" href="([^"]+)"', page))
    assert links["icon"].endswith("favicon.svg")  # (the board swaps it for its turn icon)
    assert links["alternate icon"] == "/favicon.ico"
    svg = Path(settings.BASE_DIR) / "static" / "img" / "favicon.svg"
    assert svg.read_text().startswith("<svg")
