"""Shared fixtures: people, clubs and API clients."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spyleague.settings")


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    from tests.factories import UserFactory

    def make(**kwargs: Any) -> Any:
        return UserFactory(**kwargs)

    return make


@pytest.fixture
def organiser(make_user: Callable[..., Any]) -> Any:
    return make_user(username="olga", player_name="Olga Organiser")


@pytest.fixture
def club(organiser: Any) -> Any:
    from spyleague.clubs.services import club_create

    return club_create(user=organiser, name="Test Club", city="Bath")


@pytest.fixture
def api_client() -> Any:
    from rest_framework.test import APIClient

    return APIClient()
