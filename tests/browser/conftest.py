"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

Screenshots land in ``.artifacts/screenshots/`` so a person can look at the pages.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
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


# Every page of every browser test runs under the site's Content-Security-Policy, watched: a
# violation (an inline script or handler without the nonce, a style or font from elsewhere, eval)
# and htmx refusing to evaluate code (allowEval is off) are written to the console, where
# ``watch`` collects them, and the test fails. (Playwright's init scripts are not subject to the
# page's policy.)
CSP_WATCH = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || "(inline)"}`
    + ` in ${e.sourceFile || document.location.pathname}:${e.lineNumber}`
    + (e.sample ? ` (${e.sample})` : ""));
});
document.addEventListener("htmx:evalDisallowedError", (e) => {
  console.error(`CSP violation: htmx was asked to evaluate code on ${e.target.outerHTML.slice(0, 120)}`);
});
"""
CSP_SIGNS = ("CSP violation:", "Content Security Policy", "Content-Security-Policy")


def watch(page: Any) -> list[str]:
    """The page's CSP violations so far (a list that fills as they happen)."""
    found: list[str] = []

    def seen(message: Any) -> None:
        if message.type == "error" and any(sign in message.text for sign in CSP_SIGNS):
            found.append(message.text)

    page.on("console", seen)
    return found


@contextmanager
def watched_page(browser: Any, **options: Any) -> Iterator[Any]:
    context = browser.new_context(**options)
    context.add_init_script(CSP_WATCH)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.csp_violations = watch(page)
    yield page
    context.close()
    if page.csp_violations:
        pytest.fail("The Content-Security-Policy was violated:\n" + "\n".join(page.csp_violations))


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    with watched_page(browser, viewport={"width": 1280, "height": 900}, base_url=live_server.url) as page:
        yield page


@pytest.fixture
def phone(browser: Any, live_server: Any) -> Iterator[Any]:
    options = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    with watched_page(browser, base_url=live_server.url, **options) as page:
        yield page


def shot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    # A screenshot is a record for people to look at, not a check: a tall page on a busy machine
    # may take longer to capture than an action may take to happen.
    page.screenshot(path=str(path), full_page=True, timeout=30_000)
    return path


def no_sideways_scroll(page: Any) -> bool:
    """The page body fits the viewport's width (wide tables scroll inside their own box).

    Measured against the viewport the page was opened with: on a phone (``is_mobile``) the
    browser widens its layout to a page that is too wide, and ``innerWidth`` grows with it."""
    return bool(page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1)
