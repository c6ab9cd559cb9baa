"""A tabletop Black Spy game scored deal by deal to the end, on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from spyleague.scores.models import Scorepad

from .conftest import no_sideways_scroll, shot
from .helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_score_a_table_game_on_a_phone(phone: Any, make_user: Any) -> None:
    log_in(phone, make_user, "tabitha")
    phone.goto("/scorepads/new/")
    phone.fill("[name=name_1]", "Bea")
    phone.fill("[name=name_2]", "Cal")
    phone.fill("[name=name_3]", "Dot")
    phone.get_by_role("button", name="Start the scorepad").click()
    phone.wait_for_selector("#entry")
    assert no_sideways_scroll(phone)

    def enter(*points: int) -> None:
        for i, value in enumerate(points):
            phone.fill(f"#points_{i}", str(value))
        phone.get_by_role("button", name="Add the deal").click()
        phone.wait_for_load_state()

    enter(20, 20, 20, 10)  # 70: refused, with the reason, and the numbers stay
    assert "add up to 70" in (phone.text_content("#deal-errors") or "")
    assert phone.input_value("#points_3") == "10"
    shot(phone, "scorepad-error")
    phone.fill("#points_3", "0")
    phone.get_by_role("button", name="Add the deal").click()
    phone.wait_for_selector("text=Deal 2")
    for points in [(40, 10, 5, 5), (60, 0, 0, 0), (40, 10, 5, 5)]:
        enter(*points)
    phone.wait_for_selector(".outcome")
    assert "Game over after 4 deals" in (phone.text_content(".outcome") or "")
    assert no_sideways_scroll(phone)
    shot(phone, "scorepad-game-over")
    pad = Scorepad.objects.get()
    assert pad.status == Scorepad.Status.FINISHED and pad.result is not None
