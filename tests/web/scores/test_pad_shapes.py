"""A scorepad's round of any shape is answered in words, never a server error: counts are checked
before anything is looked up by seat (more ``taken`` entries than players, points for too many or
too few, who raced first out of range), on the API and in the service under it."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyleague.clubs.models import Player
from spyleague.core.limits import PAD_ROUNDS_MAX
from spyleague.scores import scorepad as pads
from spyleague.scores.models import ScorepadChange, ScorepadDeal

pytestmark = pytest.mark.django_db


@pytest.fixture
def pad(organiser: Any) -> Any:
    players = [organiser.player, Player(name="Kim"), Player(name="Lou"), Player(name="Max")]
    return pads.scorepad_open(user=organiser, players=players)


@pytest.fixture
def race(organiser: Any) -> Any:
    players = [organiser.player, Player(name="Ned"), Player(name="Oz")]
    return pads.scorepad_open(user=organiser, players=players, game="spy-vs-spy")


def test_more_taken_entries_than_players_one_of_them_wrong_is_a_400_in_words(
    api_client: Any, organiser: Any, pad: Any
) -> None:
    api_client.force_authenticate(organiser)
    taken = [
        {"black_spies": 6, "black_ranks": [1, 2, 3, 4, 5, 6, 8, 9, 10, 11]},
        {"coloured_spies": 4},
        {},
        {},
    ]
    body = {"taken": [*taken, {"black_ranks": [7]}]}  # a fifth entry for four players, and a 7
    answer = api_client.post(f"/api/scorepads/{pad.pk}/rounds/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"] == ["Enter what each of the 4 players took, not 5."]
    assert not ScorepadDeal.objects.filter(scorepad=pad).exists()


def test_who_raced_first_out_of_range_is_a_400(api_client: Any, organiser: Any, race: Any) -> None:
    api_client.force_authenticate(organiser)
    answer = api_client.post(
        f"/api/scorepads/{race.pk}/rounds/", {"points": [-4, 3, 6], "first": 7}, format="json"
    )
    assert answer.status_code == 400 and "seat from 0 to 2" in str(answer.json())
    with pytest.raises(ValidationError, match="seat from 0 to 2"):
        pads.scorepad_deal_add(user=organiser, pad=race, points=[-4, 3, 6], first=7)


def test_a_pad_keeps_a_bounded_number_of_rounds(organiser: Any, race: Any, monkeypatch: Any) -> None:
    import spyleague.scores.scorepad as module

    monkeypatch.setattr(module, "PAD_ROUNDS_MAX", 1)
    pads.scorepad_deal_add(user=organiser, pad=race, points=[-4, 3, 6], first=0)
    with pytest.raises(ValidationError, match="at most 1 rounds"):
        pads.scorepad_deal_add(user=organiser, pad=race, points=[3, -4, 6], first=1)
    assert PAD_ROUNDS_MAX >= 100


entry = st.builds(
    pads.TakenEntry,
    black_spies=st.integers(min_value=0, max_value=16),
    black_ranks=st.lists(st.integers(min_value=0, max_value=16), max_size=16).map(tuple),
    coloured_spies=st.integers(min_value=0, max_value=16),
)
points = st.lists(st.none() | st.integers(min_value=-100_000, max_value=100_000), max_size=9)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    points=st.none() | points,
    takens=st.none() | st.lists(entry, max_size=9),
    choice=st.sampled_from(["", "give", "subtract"]),
    first=st.none() | st.integers(min_value=-2, max_value=9),
    spy_vs_spy=st.booleans(),
)
def test_a_round_of_any_shape_is_saved_or_refused_in_words(
    organiser: Any, pad: Any, race: Any, points: Any, takens: Any, choice: str, first: Any, spy_vs_spy: bool
) -> None:
    target = race if spy_vs_spy else pad
    before = ScorepadChange.objects.count()
    try:
        pads.scorepad_deal_add(
            user=organiser, pad=target, points=points, takens=takens, choice=choice, first=first
        )
    except (ValidationError, PermissionDenied) as refused:
        assert all(isinstance(m, str) and m for m in refused.messages)
        assert ScorepadChange.objects.count() == before
    else:
        ScorepadDeal.objects.filter(scorepad=target).delete()
