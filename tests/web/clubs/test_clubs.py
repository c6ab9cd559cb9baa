from typing import Any

import pytest
from django.urls import reverse

from spyleague.clubs.models import Club, Membership, Role

pytestmark = pytest.mark.django_db


def test_creating_a_club_makes_you_its_organiser(client: Any, make_user: Any) -> None:
    user = make_user(username="eve")
    client.force_login(user)
    response = client.post(
        reverse("clubs:create"), {"name": "The Dead Drop", "city": "Leeds", "description": ""}
    )
    club = Club.objects.get(name="The Dead Drop")
    assert response.status_code == 302 and response["Location"] == club.get_absolute_url()
    assert Membership.objects.get(club=club, player=user.player).role == Role.ORGANISER


def test_a_duplicate_club_name_is_explained(client: Any, club: Any, make_user: Any) -> None:
    client.force_login(make_user(username="fay"))
    response = client.post(reverse("clubs:create"), {"name": "test club"})
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert Club.objects.count() == 1


def test_join_and_leave(client: Any, club: Any, make_user: Any) -> None:
    user = make_user(username="gus")
    client.force_login(user)
    client.post(reverse("clubs:join", args=[club.slug]))
    assert Membership.objects.get(club=club, player=user.player).role == Role.PLAYER
    client.post(reverse("clubs:leave", args=[club.slug]))
    assert not Membership.objects.filter(club=club, player=user.player).exists()


def test_the_only_organiser_cannot_leave(client: Any, club: Any, organiser: Any) -> None:
    client.force_login(organiser)
    client.post(reverse("clubs:leave", args=[club.slug]))
    assert Membership.objects.filter(club=club, player=organiser.player, role=Role.ORGANISER).exists()


def test_only_an_organiser_changes_roles(client: Any, club: Any, organiser: Any, make_user: Any) -> None:
    player_user = make_user(username="hal")
    client.force_login(player_user)
    client.post(reverse("clubs:join", args=[club.slug]))
    membership = Membership.objects.get(club=club, player=player_user.player)
    response = client.post(
        reverse("clubs:member-role", args=[club.slug, membership.pk]), {"role": "organiser"}
    )
    assert response.status_code == 403
    membership.refresh_from_db()
    assert membership.role == Role.PLAYER

    client.force_login(organiser)
    client.post(reverse("clubs:member-role", args=[club.slug, membership.pk]), {"role": "scorer"})
    membership.refresh_from_db()
    assert membership.role == Role.SCORER


def test_scorers_add_guests_but_players_cannot(client: Any, club: Any, make_user: Any) -> None:
    stranger = make_user(username="ivy")
    client.force_login(stranger)
    assert client.post(reverse("clubs:guest-add", args=[club.slug]), {"name": "Walk In"}).status_code == 403
    Membership.objects.create(club=club, player=stranger.player, role=Role.SCORER)
    client.post(reverse("clubs:guest-add", args=[club.slug]), {"name": "Walk In"})
    assert club.memberships.filter(player__name="Walk In", player__user__isnull=True).exists()


def test_club_page_shows_members_and_role_controls_only_to_organisers(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    page = client.get(club.get_absolute_url()).content.decode()
    assert "Olga Organiser" in page
    assert 'name="role"' not in page
    client.force_login(organiser)
    assert 'name="role"' in client.get(club.get_absolute_url()).content.decode()


def test_an_organiser_creates_an_event_and_a_stranger_cannot(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    data = {
        "name": "Spring Open",
        "game": "black-spy",
        "kind": "tournament",
        "format": "swiss",
        "rounds": 5,
        "table_size": 4,
        "bye_rule": "win",
    }
    client.force_login(make_user(username="joe"))
    assert client.post(reverse("tournaments:create", args=[club.slug]), data).status_code == 403
    client.force_login(organiser)
    response = client.post(reverse("tournaments:create", args=[club.slug]), data)
    assert response.status_code == 302
    assert club.events.get().points_by_place == [4, 2, 1, 0]


def test_event_form_refuses_a_table_size_the_game_cannot_seat(client: Any, club: Any, organiser: Any) -> None:
    client.force_login(organiser)
    data = {
        "name": "Tiny",
        "game": "black-spy",
        "kind": "tournament",
        "format": "swiss",
        "rounds": 3,
        "table_size": 2,
        "bye_rule": "win",
    }
    response = client.post(reverse("tournaments:create", args=[club.slug]), data)
    assert response.status_code == 200
    assert "Black Spy is played at tables of 3 to 6." in response.content.decode()
    assert not club.events.exists()
