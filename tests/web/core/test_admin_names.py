"""The admin names every section in words: no "Sl_Core", no "Axes"."""

from __future__ import annotations

import re
from typing import Any

from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User

# The admin's sections as a club's administrator reads them.
SECTIONS = {
    "API tokens",
    "Authentication and Authorization",
    "Background jobs",
    "Clubs and players",
    "Events and leagues",
    "Login lockouts",
    "Online play",
    "Ratings and leaderboards",
    "Results and scorepads",
}


def test_every_app_of_the_project_names_itself() -> None:
    """A new app must say what it is called (its label would otherwise show, capitalised)."""
    unnamed = [
        config.name
        for config in apps.get_app_configs()
        if config.name.startswith("spyleague.") and "verbose_name" not in type(config).__dict__
    ]
    assert not unnamed, f"apps without a verbose_name in their apps.py: {unnamed}"


def test_every_section_of_the_admin_is_named_in_words(client: Any, db: Any) -> None:
    client.force_login(User.objects.create_superuser("root", "root@example.org", "a-Long-pass-2031"))
    page = client.get("/admin/").content.decode()
    shown = set(re.findall(r'<caption>\s*<a [^>]*class="section"[^>]*>([^<]+)</a>', page))
    registered = {apps.get_app_config(model._meta.app_label).verbose_name for model in admin.site._registry}
    assert shown == registered  # (every section the admin has is read here)
    assert shown == SECTIONS
    for name in shown:
        assert "_" not in name and name[:1].isupper(), name
