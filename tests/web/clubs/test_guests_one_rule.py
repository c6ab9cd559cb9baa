"""One rule for making a club's guests, wherever it happens: only its organisers and scorers may,
by the club's page, its API, a scorepad's new names (page and API) or a file of players, and all
of them go through ``clubs.services.guests_make``.

The code is read too: no other function of the site creates a player of a club (``guest_of``)."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from spyleague.clubs.models import Membership, Player, Role
from spyleague.clubs.services import club_join, guests_make, member_set_role
from spyleague.scores.models import Scorepad
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class Path_:
    """A way to add a person without an account to a club: ``add(user, club, name)`` asks it."""

    name: str
    add: Callable[[Any, Any, str], Any]


def _page(user: Any, club: Any, name: str) -> Any:
    client = Client()
    client.force_login(user)
    return client.post(reverse("clubs:guest-add", args=[club.slug]), {"name": name})


def _api(user: Any, club: Any, name: str) -> Any:
    client = APIClient()
    client.force_authenticate(user)
    return client.post(f"/api/clubs/{club.slug}/guests/", {"name": name}, format="json")


def _pad_page(user: Any, club: Any, name: str) -> Any:
    client = Client()
    client.force_login(user)
    form = {"club": str(club.pk), "player_0": str(user.player.pk), "name_1": name, "name_2": f"{name} Two"}
    return client.post(reverse("scores:pad-new"), form)


def _pad_api(user: Any, club: Any, name: str) -> Any:
    client = APIClient()
    client.force_authenticate(user)
    body = {
        "club": club.slug,
        "players": [{"player": user.player.pk}, {"name": name}, {"name": f"{name} Two"}],
    }
    return client.post("/api/scorepads/", body, format="json")


def _file(user: Any, club: Any, name: str) -> Any:
    from spyleague.tournaments import imports
    from spyleague.tournaments import services as events

    organiser = Membership.objects.filter(club=club, role=Role.ORGANISER).first()
    assert organiser is not None and organiser.player.user is not None
    event = events.event_create(club=club, user=organiser.player.user, name="Filed", game="black-spy")
    try:
        plan = imports.preview(user=user, event=event, data=f"name\n{name}\n".encode())
        return imports.plan_confirm(user=user, event=event, token=plan.token)
    except Exception as exc:  # the service's refusal, as its views turn it into a 4xx
        return exc


PATHS = [
    Path_("the club's page", _page),
    Path_("POST /api/clubs/{slug}/guests/", _api),
    Path_("a new name on the scorepad page", _pad_page),
    Path_("a new name in POST /api/scorepads/", _pad_api),
    Path_("a file of players", _file),
]


@pytest.fixture
def people(club: Any, organiser: Any) -> dict[str, Any]:
    member, scorer = UserFactory(username="mo"), UserFactory(username="sue")
    for user in (member, scorer):
        club_join(user=user, club=club)
    member_set_role(
        user=organiser, club=club, membership=Membership.objects.get(player=scorer.player), role=Role.SCORER
    )
    return {"member": member, "scorer": scorer, "organiser": organiser}


def _refused(answer: Any) -> bool:
    if isinstance(answer, Exception):
        return True
    return getattr(answer, "status_code", 200) in (400, 403)


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_a_plain_member_cannot_add_a_guest_by_any_path(
    path: Path_, club: Any, people: dict[str, Any]
) -> None:
    before = Player.objects.count(), Scorepad.objects.count()
    answer = path.add(people["member"], club, "Sneaky Guest")
    assert _refused(answer), answer
    if not isinstance(answer, Exception):
        words = answer.content.decode()
        assert "Only the organisers and scorers of Test Club" in words or "Only the club" in words
    assert (Player.objects.count(), Scorepad.objects.count()) == before
    assert not Player.objects.filter(name__startswith="Sneaky").exists()


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
@pytest.mark.parametrize("role", ["scorer", "organiser"])
def test_a_scorer_or_organiser_adds_guests_by_every_path(
    path: Path_, role: str, club: Any, people: dict[str, Any]
) -> None:
    if path.add is _file and role == "scorer":
        pytest.skip("a file of players is imported into an event, which its organisers run")
    answer = path.add(people[role], club, "Welcome Guest")
    assert not _refused(answer), getattr(answer, "content", answer)
    guest = Player.objects.get(name="Welcome Guest")
    assert guest.guest_of == club and guest.user is None
    assert Membership.objects.filter(club=club, player=guest, role=Role.PLAYER).exists()


def test_a_pad_of_ones_own_makes_players_of_nobody_s_club(people: dict[str, Any]) -> None:
    client = APIClient()
    member = people["member"]
    client.force_authenticate(member)
    body = {"players": [{"player": member.player.pk}, {"name": "Kim"}, {"name": "Lou"}]}
    assert client.post("/api/scorepads/", body, format="json").status_code == 201
    assert set(Player.objects.filter(name__in=["Kim", "Lou"]).values_list("guest_of", flat=True)) == {None}


def test_the_rule_in_words(club: Any, people: dict[str, Any]) -> None:
    from django.core.exceptions import PermissionDenied, ValidationError

    with pytest.raises(PermissionDenied, match="Only the organisers and scorers of Test Club"):
        guests_make(user=people["member"], club=club, names=["Ann"])
    with pytest.raises(ValidationError) as refused:
        guests_make(user=people["scorer"], club=club, names=["Ann", " ann ", "", "x" * 81, "Mo"])
    words = json.dumps(refused.value.message_dict)
    assert "given twice" in words and "needs a name" in words and "at most 80" in words
    assert "already a member" in words
    assert not Player.objects.filter(name="Ann").exists()


def _creates_a_club_player(node: ast.AST) -> bool:
    """A call that makes a Player with ``guest_of`` (``Player(...)``, ``.create(...)``...), or an
    assignment to a ``guest_of``."""
    if isinstance(node, ast.Call):
        keywords = {k.arg for k in node.keywords}
        if not keywords & {"guest_of", "guest_of_id"}:
            return False
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in ("Player", "create", "get_or_create", "update_or_create", "bulk_create")
    if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(isinstance(t, ast.Attribute) and t.attr in ("guest_of", "guest_of_id") for t in targets)
    return False


def test_only_guests_make_makes_a_club_s_players() -> None:
    found: list[str] = []
    for path in (ROOT / "spyleague").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                if _creates_a_club_player(node):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} in {function.name}")
    allowed = [f for f in found if f.startswith("spyleague/clubs/services.py:") and f.endswith("guests_make")]
    assert allowed, "guests_make is where a club's players are made"
    assert found == allowed, (
        f"make a club's players with clubs.services.guests_make: {set(found) - set(allowed)}"
    )
