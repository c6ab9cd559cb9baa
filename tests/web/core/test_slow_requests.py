"""A slow answer is logged with where its time went (``core.middleware.SlowRequests``)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.test import Client

from spyleague.core import middleware


@pytest.mark.django_db
def test_a_slow_request_is_logged_with_its_queries(monkeypatch: Any, caplog: Any) -> None:
    monkeypatch.setattr(middleware, "SLOW_SECONDS", 1e-9)  # every request is "slow"
    with caplog.at_level(logging.WARNING, logger="spyleague.slow"):
        response = Client().get("/events/")
    assert response.status_code == 200
    lines = [r.getMessage() for r in caplog.records if r.name == "spyleague.slow"]
    assert len(lines) == 1
    assert lines[0].startswith("Slow request: GET /events/ -> 200 in ")
    assert "waiting for its turn; the database" in lines[0]
    assert "queries, the longest" in lines[0] and "SELECT" in lines[0]  # what the events page read


@pytest.mark.django_db
def test_a_quick_request_is_not_logged(monkeypatch: Any, caplog: Any) -> None:
    monkeypatch.setattr(middleware, "SLOW_SECONDS", 60.0)
    with caplog.at_level(logging.WARNING, logger="spyleague.slow"):
        assert Client().get("/events/").status_code == 200
    assert not [r for r in caplog.records if r.name == "spyleague.slow"]
