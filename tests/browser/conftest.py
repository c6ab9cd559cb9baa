"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

Screenshots land in ``.artifacts/screenshots/`` so a person can look at the pages.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SHOTS = Path(__file__).resolve().parents[2] / ".artifacts" / "screenshots"

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between page actions are still synchronous, so Django may allow them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("SPYLEAGUE_REQUIRE_BROWSER"):
            pytest.fail(f"Chromium is required for the browser tests and is missing at {CHROMIUM}.")
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium).")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def phone(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, base_url=live_server.url, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


def shot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    # A screenshot is a record for people to look at, not a check: a tall page on a busy machine
    # may take longer to capture than an action may take to happen.
    page.screenshot(path=str(path), full_page=True, timeout=30_000)
    return path


def no_sideways_scroll(page: Any) -> bool:
    """The page body fits the viewport's width (wide tables scroll inside their own box)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))
