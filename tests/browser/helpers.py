"""What the browser tests do again and again: log in, open a match with bots, act on the board."""

from __future__ import annotations

import json
from typing import Any

from spyleague.play import services
from spyleague.play.models import Match

PASSWORD = "correct-horse-battery"  # make_user's password
BOARD_KEY = "document.getElementById('board').dataset.key"


def log_in_as(page: Any, username: str) -> None:
    """Log an existing user in through the login page."""
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/")


def log_in(page: Any, make_user: Any, username: str) -> Any:
    """A new user, logged in."""
    user = make_user(username=username)
    log_in_as(page, username)
    return user


def open_match(
    page: Any,
    user: Any,
    game: str,
    board: str,
    *,
    seed: int,
    seats: int = 4,
    options: dict[str, Any] | None = None,
) -> Match:
    """A match the user created, started from its page with bots in the empty seats."""
    match = services.match_create(user=user, game=game, seats=seats, seed=seed, options=options or {})
    page.goto(f"/play/matches/{match.pk}/")
    page.get_by_role("button", name="Start (empty seats get bots)").click()
    page.wait_for_selector(board)
    return match


def wait_for_change(page: Any, key: str | None) -> None:
    page.wait_for_function(f"v => {BOARD_KEY} !== v", arg=key, timeout=15_000)


def act(
    page: Any, strategy: Any, *, forms: str = "#board form:has(input[name=action])", idle: bool = False
) -> dict[str, Any] | None:
    """Click the button of the action the strategy likes best (lowest key) among those the page
    offers, and wait for the board to change; None when the page offers no action (and, with
    ``idle``, only once the board has changed: the bots moved and the page followed by itself)."""
    key = page.evaluate(BOARD_KEY)  # before the forms: a board that changes meanwhile is not missed
    found = page.locator(forms)
    values = found.evaluate_all("fs => fs.map(f => f.querySelector('input[name=action]').value)")
    if not values:
        if idle:
            wait_for_change(page, key)
        return None
    actions = [json.loads(v) for v in values]
    best = min(range(len(actions)), key=lambda i: strategy(actions[i]))
    found.nth(best).locator("button").click()
    wait_for_change(page, key)
    return actions[best]


def leave(page: Any) -> None:
    """Close the live-update stream, and let its server thread notice, before the database goes."""
    page.goto("about:blank")
    page.wait_for_timeout(800)
