"""Nothing people send can be made huge: every text and JSON field they write has a bound, the
model, its form and its serializer agree on it, the API's schema says it for every field of
every request body, lists carry excerpts rather than whole descriptions, and one account cannot
make clubs, leagues, scorepads or guests without limit.

The walks below read the models, the forms and the schema themselves, so a field added without
a bound fails them, naming it.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django import forms
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import IntegrityError, models, transaction
from django.urls import reverse
from django.utils import timezone
from rest_framework import serializers

from spyleague.clubs.models import Club, Membership, Player, Role
from spyleague.clubs.services import club_create, guest_add
from spyleague.core.limits import DESCRIPTION_MAX, EXCERPT_MAX, BoundedJSONField, excerpt
from spyleague.scores import scorepad as pads
from spyleague.scores.models import Scorepad
from spyleague.tournaments import services as events
from spyleague.tournaments.models import Event, League
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HUGE = "Spies meet on Tuesdays. " * 100_000  # 2.4 MB, as in the report


# --- every field people write has a bound ----------------------------------------------------------

# JSON fields that only the site writes (from rows it checked), each with why.
SITE_WRITTEN_JSON = {
    "sl_core.Job.params": "the ids a job was queued with, set by the services",
    "sl_core.Job.result": "what a job found, written by the job",
    "play.Match.outcome": "the engine's outcome of a finished match",
    "scores.ResultChange.before": "a copy of the result's lines and bounded data",
    "scores.ResultChange.after": "a copy of the result's lines and bounded data",
    "scores.ScorepadChange.before": "a copy of a deal's bounded points",
    "scores.ScorepadChange.after": "a copy of a deal's bounded points",
    "tournaments.Round.notes": "the pairing's own notes, in words",
    "tournaments.Standing.tiebreaks": "the standings' tiebreak figures, worked out by the site",
}


def project_fields() -> Iterator[tuple[str, models.Field[Any, Any]]]:
    for model in apps.get_models():
        if not model.__module__.startswith("spyleague."):
            continue
        for field in model._meta.concrete_fields:
            yield f"{model._meta.label}.{field.name}", field


def test_every_text_and_json_field_people_write_has_a_bound() -> None:
    """A TextField has a max_length that is checked (its validator) and kept by the database (a
    check constraint); a CharField has its max_length; a JSON field people write is a
    BoundedJSONField, and every other one is named above with why only the site writes it."""
    unbounded: list[str] = []
    for label, field in project_fields():
        if isinstance(field, models.TextField):
            checked = any(
                isinstance(v, MaxLengthValidator) and v.limit_value == field.max_length
                for v in field.validators
            )
            kept = any(
                isinstance(c, models.CheckConstraint) and field.name in str(c.condition)
                for c in field.model._meta.constraints
            )
            if field.max_length is None or not checked or not kept:
                unbounded.append(
                    f"{label}: a TextField needs max_length, its validator and a check constraint"
                )
        elif isinstance(field, models.CharField) and not field.max_length:
            unbounded.append(f"{label}: a CharField without max_length")
        elif (
            isinstance(field, models.JSONField)
            and not isinstance(field, BoundedJSONField)
            and label not in SITE_WRITTEN_JSON
        ):
            unbounded.append(f"{label}: a JSONField people may write must be a BoundedJSONField")
    assert not unbounded, "\n".join(unbounded)
    known = {label for label, _ in project_fields()}
    assert not set(SITE_WRITTEN_JSON) - known, "a field named above is gone: take it off the list"


def _form_classes() -> list[type[forms.Form]]:
    import spyleague.clubs.forms
    import spyleague.core.forms
    import spyleague.play.forms
    import spyleague.tournaments.event_settings
    import spyleague.tournaments.forms

    found = []
    for module in (
        spyleague.clubs.forms,
        spyleague.core.forms,
        spyleague.play.forms,
        spyleague.tournaments.forms,
        spyleague.tournaments.event_settings,
    ):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, forms.BaseForm) and cls.__module__ == module.__name__:
                found.append(cls)
    return found


# Each form's text fields and the model field each one is stored in.
FORM_FIELDS: dict[str, dict[str, str]] = {
    "ClubForm": {
        "name": "clubs.Club.name",
        "city": "clubs.Club.city",
        "description": "clubs.Club.description",
    },
    "GuestForm": {"name": "clubs.Player.name"},
    "RoleForm": {},
    "SignupForm": {"name": "clubs.Player.name"},
    "ProfileForm": {"name": "clubs.Player.name"},
    "EventForm": {"name": "tournaments.Event.name"},
    "LeagueForm": {"name": "tournaments.League.name", "description": "tournaments.League.description"},
    "EventSettingsForm": {"name": "tournaments.Event.name"},
}


def _model_field(label: str) -> models.Field[Any, Any]:
    app_model, name = label.rsplit(".", 1)
    return apps.get_model(app_model)._meta.get_field(name)  # type: ignore[return-value]


def test_the_forms_bound_their_text_as_the_models_do() -> None:
    """Every text field of every form is bounded, and as its model field is; a form not listed in
    FORM_FIELDS fails here, so that a new one says where its text is kept."""
    problems: list[str] = []
    for form in _form_classes():
        if form.__name__ not in FORM_FIELDS:
            if any(isinstance(f, forms.CharField) for f in form.base_fields.values()):
                problems.append(f"{form.__name__}: say in FORM_FIELDS where its text fields are kept")
            continue
        stored = FORM_FIELDS[form.__name__]
        for name, field in form.base_fields.items():
            if not isinstance(field, forms.CharField) or isinstance(
                field, forms.EmailField | forms.SlugField | forms.URLField
            ):
                continue
            if "password" in name or name == "username":
                continue  # Django's own, bounded by Django (the username) or never stored
            if field.max_length is None:
                problems.append(f"{form.__name__}.{name}: a text field without max_length")
            elif name in stored and field.max_length != _model_field(stored[name]).max_length:
                problems.append(
                    f"{form.__name__}.{name}: max_length {field.max_length}, but "
                    f"{stored[name]} keeps {_model_field(stored[name]).max_length}"
                )
    assert not problems, "\n".join(problems)


def test_the_serializers_bound_their_text_as_the_models_do() -> None:
    """Every writable text field of every model serializer of the API has its model field's
    max_length."""
    import spyleague.api.serializers as module

    problems: list[str] = []
    checked = 0
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if not issubclass(cls, serializers.ModelSerializer) or cls is serializers.ModelSerializer:
            continue
        model = cls.Meta.model
        for name, field in cls().fields.items():
            if field.read_only or not isinstance(field, serializers.CharField):
                continue
            try:
                model_field = model._meta.get_field(field.source)
            except Exception:
                continue
            if isinstance(model_field, models.CharField | models.TextField):
                checked += 1
                if field.max_length != model_field.max_length:
                    problems.append(
                        f"{cls.__name__}.{name}: max_length {field.max_length}, the model keeps "
                        f"{model_field.max_length}"
                    )
    assert checked >= 5
    assert not problems, "\n".join(problems)


def _schema() -> dict[str, Any]:
    from django.test import Client

    response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    return json.loads(response.content)


def _unbounded(schema: dict[str, Any], node: dict[str, Any], path: str, out: list[str]) -> None:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    for key in ("allOf", "oneOf", "anyOf"):
        for i, sub in enumerate(node.get(key, [])):
            _unbounded(schema, sub, f"{path}/{key}{i}", out)
    kind = node.get("type")
    if kind == "string" and not any(k in node for k in ("enum", "format", "pattern", "maxLength")):
        out.append(f"{path}: a string without maxLength")
    if kind == "array":
        if "maxItems" not in node:
            out.append(f"{path}: an array without maxItems")
        _unbounded(schema, node.get("items", {}), f"{path}[]", out)
    for name, sub in node.get("properties", {}).items():
        if not sub.get("readOnly"):
            _unbounded(schema, sub, f"{path}.{name}", out)
    extra = node.get("additionalProperties")
    if extra not in (None, False):
        if "maxProperties" not in node:
            out.append(f"{path}: an object of any keys without maxProperties")
        if extra:
            _unbounded(schema, extra, f"{path}{{}}", out)


def test_every_field_of_every_request_body_has_a_bound() -> None:
    """The API's schema gives every string a maxLength (or a choice, a format, a pattern), every
    list a maxItems, every object of free keys a maxProperties, in every request body: the
    serializers enforce what the schema says (the schema fuzz sends the values just beyond)."""
    schema = _schema()
    out: list[str] = []
    bodies = 0
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for media, content in (operation.get("requestBody") or {}).get("content", {}).items():
                bodies += 1
                _unbounded(schema, content["schema"], f"{method.upper()} {path} ({media})", out)
    assert bodies > 30
    assert not out, "\n".join(out)


# --- the bounds hold -----------------------------------------------------------------------------------


def test_a_huge_description_is_refused_in_words_on_the_page_and_in_the_api(
    client: Any, api_client: Any
) -> None:
    user = UserFactory(username="dora")
    client.force_login(user)
    page = client.post(reverse("clubs:create"), {"name": "Huge Club", "description": HUGE})
    assert page.status_code == 200
    assert f"at most {DESCRIPTION_MAX}" in page.content.decode().replace(",", "")
    api_client.force_authenticate(user)
    answer = api_client.post("/api/clubs/", {"name": "Huge Club", "description": HUGE}, format="json")
    assert answer.status_code == 400
    assert "description" in answer.json()
    club = club_create(user=user, name="Small Club")
    changed = api_client.patch(f"/api/clubs/{club.slug}/", {"description": HUGE}, format="json")
    assert changed.status_code == 400
    league = api_client.post(
        "/api/leagues/", {"club": club.slug, "name": "Season", "description": HUGE}, format="json"
    )
    assert league.status_code == 400 and "description" in league.json()
    assert not Club.objects.filter(name="Huge Club").exists()
    club.refresh_from_db()
    assert club.description == "" and not League.objects.exists()


def test_the_database_keeps_a_description_within_its_limit(organiser: Any) -> None:
    club = club_create(user=organiser, name="Kept Club")
    with pytest.raises(ValidationError, match="at most"):
        club_create(user=organiser, name="Other Club", description="x" * (DESCRIPTION_MAX + 1))
    with transaction.atomic(), pytest.raises(IntegrityError):
        Club.objects.filter(pk=club.pk).update(description="x" * (DESCRIPTION_MAX + 1))
    with pytest.raises(ValidationError):
        Club(name="Third", slug="third", description="x" * (DESCRIPTION_MAX + 1)).full_clean()


def test_a_bounded_json_field_refuses_to_store_too_much_on_every_path(club: Any, organiser: Any) -> None:
    event = events.event_create(club=club, user=organiser, name="Bounded", game="black-spy", table_size=4)
    big = {"youngest_first": list(range(5000))}
    with pytest.raises(ValidationError, match="holds too much"), transaction.atomic():
        Scorepad.objects.create(options=big)
    with pytest.raises(ValidationError, match="holds too much"), transaction.atomic():
        Event.objects.filter(pk=event.pk).update(options=big)
    event.options = big
    with pytest.raises(ValidationError, match="holds too much"), transaction.atomic():
        Event.objects.bulk_update([event], ["options"])
    event.refresh_from_db()
    assert event.options == {}


def test_the_lists_carry_an_excerpt_of_each_description(client: Any, api_client: Any, organiser: Any) -> None:
    long = "A club for spies. " * 110  # about 2,000 characters
    for n in range(3):
        club = club_create(user=organiser, name=f"Long Club {n}", description=long[: DESCRIPTION_MAX - n])
        events.league_create(
            user=organiser, club=club, name=f"Season {n}", description=long[:DESCRIPTION_MAX]
        )
    listed = api_client.get("/api/clubs/").json()["results"]
    assert len(listed) == 3
    assert all(len(row["description"]) <= EXCERPT_MAX and row["description"].endswith("…") for row in listed)
    one = api_client.get(f"/api/clubs/{listed[0]['slug']}/").json()
    assert len(one["description"]) > 1900
    leagues = api_client.get("/api/leagues/").json()["results"]
    assert all(len(row["description"]) <= EXCERPT_MAX for row in leagues)
    assert len(api_client.get(f"/api/leagues/{leagues[0]['id']}/").json()["description"]) > 1900
    page = client.get(reverse("clubs:list")).content.decode()
    assert long[:300] not in page and "A club for spies." in page


def test_an_excerpt_is_short_and_says_it_was_cut() -> None:
    assert excerpt("Short.") == "Short."
    cut = excerpt("word " * 100)
    assert len(cut) <= EXCERPT_MAX and cut.endswith("…") and "  " not in cut
    assert len(excerpt("x" * 1000)) == EXCERPT_MAX


# --- one account cannot make things without limit -----------------------------------------------------


@pytest.fixture
def small_quotas(settings: Any) -> dict[str, int]:
    settings.SPYLEAGUE_QUOTAS = {
        "clubs_per_account": 2,
        "leagues_per_club": 2,
        "scorepads_per_day": 2,
        "guests_per_club_per_day": 3,
    }
    return settings.SPYLEAGUE_QUOTAS  # type: ignore[no-any-return]


def test_an_account_organises_a_limited_number_of_clubs(
    small_quotas: Any, client: Any, api_client: Any
) -> None:
    user = UserFactory(username="cleo")
    for n in range(2):
        club_create(user=user, name=f"Cleo's Club {n}")
    client.force_login(user)
    page = client.post(reverse("clubs:create"), {"name": "One Too Many"})
    assert page.status_code == 200 and "the most one account may" in page.content.decode()
    api_client.force_authenticate(user)
    answer = api_client.post("/api/clubs/", {"name": "One Too Many"}, format="json")
    assert answer.status_code == 400 and "the most one account may" in json.dumps(answer.json())
    assert not Club.objects.filter(name="One Too Many").exists()


def test_a_club_has_a_limited_number_of_leagues(
    small_quotas: Any, client: Any, api_client: Any, club: Any, organiser: Any
) -> None:
    for n in range(2):
        events.league_create(user=organiser, club=club, name=f"Season {n}")
    client.force_login(organiser)
    page = client.post(reverse("tournaments:league-create", args=[club.slug]), {"name": "Season 3"})
    assert page.status_code in (200, 400) and "the most a club may have" in page.content.decode()
    api_client.force_authenticate(organiser)
    answer = api_client.post("/api/leagues/", {"club": club.slug, "name": "Season 3"}, format="json")
    assert answer.status_code == 400 and "the most a club may have" in json.dumps(answer.json())
    assert club.leagues.count() == 2


def test_an_account_opens_a_limited_number_of_scorepads_a_day(
    small_quotas: Any, api_client: Any, organiser: Any
) -> None:
    me = organiser.player
    for _ in range(2):
        pads.scorepad_open(user=organiser, players=[me, Player(name="Kim"), Player(name="Lou")])
    api_client.force_authenticate(organiser)
    body = {"players": [{"player": me.pk}, {"name": "Max"}, {"name": "Ned"}]}
    answer = api_client.post("/api/scorepads/", body, format="json")
    assert answer.status_code == 400 and "the most one account may open" in json.dumps(answer.json())
    assert Scorepad.objects.count() == 2 and not Player.objects.filter(name="Max").exists()
    # A day later there is room again.
    Scorepad.objects.update(created=timezone.now() - timedelta(days=1, minutes=1))
    assert api_client.post("/api/scorepads/", body, format="json").status_code == 201


def test_a_club_adds_a_limited_number_of_guests_a_day(
    small_quotas: Any, client: Any, api_client: Any, club: Any, organiser: Any
) -> None:
    for name in ("Ann", "Bea", "Cy"):
        guest_add(user=organiser, club=club, name=name)
    client.force_login(organiser)
    page = client.post(reverse("clubs:guest-add", args=[club.slug]), {"name": "Dee"})
    assert page.status_code == 400 and "Try again tomorrow" in page.content.decode()
    api_client.force_authenticate(organiser)
    answer = api_client.post(f"/api/clubs/{club.slug}/guests/", {"name": "Dee"}, format="json")
    assert answer.status_code == 400 and "Try again tomorrow" in json.dumps(answer.json())
    assert not Player.objects.filter(name="Dee").exists()
    assert Membership.objects.filter(club=club, role=Role.PLAYER).count() == 3
