"""A new visitor signs up, starts a club and looks around, on a laptop and on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import no_sideways_scroll, shot

pytestmark = pytest.mark.django_db(transaction=True)


def sign_up(page: Any, username: str, name: str) -> None:
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_name", name)
    page.fill("#id_password1", "spy-league-test-1")
    page.fill("#id_password2", "spy-league-test-1")
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url("**/")


def test_sign_up_create_a_club_and_see_the_pages(page: Any) -> None:
    sign_up(page, "quinn", "Quinn Adler")
    assert page.locator(".site-nav").get_by_text("Quinn Adler").is_visible()
    page.get_by_role("link", name="Start a club").first.click()
    page.fill("#id_name", "The Safe House")
    page.fill("#id_city", "York")
    page.get_by_role("button", name="Create the club").click()
    page.wait_for_url("**/clubs/the-safe-house/")
    assert page.get_by_role("heading", name="The Safe House").is_visible()
    assert "you are organiser" in page.text_content(".page-head")
    shot(page, "club-detail")

    page.fill("#id_name", "Walk-in Wendy")
    page.get_by_role("button", name="Add player").click()
    assert page.get_by_text("Walk-in Wendy joined The Safe House.").is_visible()

    for path, name in [
        ("/", "home"),
        ("/clubs/", "clubs"),
        ("/events/", "events"),
        ("/play/", "play"),
        ("/leaderboards/", "leaderboards"),
        ("/accounts/profile/", "profile"),
    ]:
        page.goto(path)
        assert page.locator("h1").first.is_visible()
        shot(page, f"page-{name}")


def test_demo_data_loads_with_a_progress_bar_and_pages_fit_a_phone(page: Any, phone: Any) -> None:
    page.goto("/")
    page.get_by_role("button", name="Load demo data").click()
    page.wait_for_selector(".job.done", timeout=20_000)
    assert "Demo data loaded" in page.text_content(".job")
    shot(page, "demo-loaded")

    phone.goto("/accounts/login/")
    phone.fill("#id_username", "olivia")
    phone.fill("#id_password", "spyleague")
    phone.click("main button[type=submit]")
    phone.wait_for_url("**/")
    for path, name in [
        ("/", "home"),
        ("/clubs/baker-street-games-club/", "club"),
        ("/events/", "events"),
        ("/events/1/", "event"),
    ]:
        phone.goto(path)
        assert no_sideways_scroll(phone), f"{path} scrolls sideways on a phone"
        shot(phone, f"phone-{name}")
    # The menu folds away on a phone and opens with one tap.
    phone.goto("/")
    assert not phone.get_by_role("link", name="Leaderboards").is_visible()
    phone.get_by_text("Menu").tap()
    assert phone.get_by_role("link", name="Leaderboards").is_visible()
