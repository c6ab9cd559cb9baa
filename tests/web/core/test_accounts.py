from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from spyleague.clubs.models import Player

pytestmark = pytest.mark.django_db


def test_sign_up_creates_an_account_and_a_player_and_logs_in(client: Any) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "ann",
            "name": "Ann Smith",
            "email": "",
            "password1": "spy-league-42x",
            "password2": "spy-league-42x",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="ann")
    assert Player.objects.get(user=user).name == "Ann Smith"
    home = client.get(reverse("home"))
    assert "Ann Smith" in home.content.decode()


def test_sign_up_explains_mismatched_passwords_and_keeps_what_was_typed(client: Any) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "ann",
            "name": "Ann Smith",
            "password1": "spy-league-42x",
            "password2": "other-pass-42x",
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "match" in page and "password" in page.lower()
    assert "The two password fields didn" in page
    assert 'value="Ann Smith"' in page
    assert not User.objects.filter(username="ann").exists()


def test_log_in_and_out(client: Any, make_user: Any) -> None:
    make_user(username="bob")
    response = client.post(reverse("login"), {"username": "bob", "password": "correct-horse-battery"})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200
    client.post(reverse("logout"))
    assert client.get(reverse("profile")).status_code == 302


def test_profile_edits_name_and_birth_year(client: Any, make_user: Any) -> None:
    user = make_user(username="cat")
    client.force_login(user)
    response = client.post(
        reverse("profile"), {"name": "Cat Jones", "email": "cat@example.org", "birth_year": 1990}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.player.name == "Cat Jones"
    assert user.player.birth_year == 1990
    assert user.email == "cat@example.org"


def test_profile_needs_login(client: Any) -> None:
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_api_token_is_made_on_request(client: Any, make_user: Any) -> None:
    user = make_user(username="dan")
    client.force_login(user)
    client.post(reverse("token-create"))
    page = client.get(reverse("profile")).content.decode()
    from rest_framework.authtoken.models import Token

    assert Token.objects.get(user=user).key in page


def pages_without_arguments(patterns: Any = None, prefix: str = "") -> list[str]:
    """The name of every URL of the site that takes no argument (the admin's own aside)."""
    from django.urls import URLPattern, URLResolver, get_resolver

    names: list[str] = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace != "admin" and not entry.pattern.converters:
                space = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
                names += pages_without_arguments(entry.url_patterns, space)
        elif isinstance(entry, URLPattern) and entry.name and not entry.pattern.converters:
            # (a regular expression's named group is an argument too)
            names += [prefix + entry.name] if "(?P<" not in str(entry.pattern) else []
    return names


def test_every_main_page_renders(client: Any, make_user: Any) -> None:
    from spyleague.core.demo import demo_data_load

    demo_data_load()
    client.force_login(User.objects.get(username="olivia"))
    for name in ["home", "clubs:list", "tournaments:list", "play:lobby", "ratings:leaderboards", "profile"]:
        assert client.get(reverse(name)).status_code == 200, name
    # Every page without an argument, as each demo role and as a stranger: never a server error.
    names = pages_without_arguments()
    assert {"scores:pads", "play:lobby", "api-schema"} <= set(names), names
    for username in ["olivia", "sam", "pat", None]:
        client.logout()
        if username:
            client.force_login(User.objects.get(username=username))
        for name in names:
            status = client.get(reverse(name)).status_code
            assert status < 500, (username, name, status)
    client.force_login(User.objects.get(username="pat"))  # a user with a player profile
    assert client.get(reverse("scores:pads")).status_code == 200


def test_unknown_page_is_a_friendly_404(client: Any) -> None:
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Go to the home page" in response.content.decode()
