"""No ended match stays unreported: a result whose report failed after the last move is made by
the sweep (``sweeps.reports_sweep``), once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import TestCase

from spyleague.play import services
from spyleague.play.models import Match
from spyleague.play.sweeps import reports_sweep
from spyleague.scores.models import Result

from .test_play_flow import play_out, two_people

pytestmark = pytest.mark.django_db


def test_a_failed_report_is_made_by_the_sweep_once(make_user: Any, monkeypatch: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = two_people(ann, bob, target=4)

    def broken(result: Any) -> None:
        raise RuntimeError("the database went away")

    # The report after the last move fails (after the move committed): the move still stands.
    monkeypatch.setattr("spyleague.scores.services.result_confirmed_effects", broken)
    play_out(match, {0: ann, 1: bob})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.outcome is not None
    assert not Result.objects.exists() and match.report_due is not None

    # The sweep leaves it while it is fresh, and while reporting still fails it tries again later.
    assert reports_sweep(now=match.report_due) == 0
    assert reports_sweep(now=match.report_due + timedelta(minutes=1)) == 0
    match.refresh_from_db()
    assert match.report_due is not None and not Result.objects.exists()

    monkeypatch.undo()
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert reports_sweep(now=match.report_due + timedelta(minutes=1)) == 1
    match.refresh_from_db()
    assert match.report_due is None
    result = Result.objects.get()
    assert result.status == Result.Status.CONFIRMED and result.data["match"] == match.pk
    assert sorted(result.lines.values_list("place", flat=True)) == [1, 2]
    assert reports_sweep(now=match.updated + timedelta(hours=1)) == 0  # nothing twice
    assert Result.objects.count() == 1


def test_a_report_made_at_once_leaves_nothing_for_the_sweep(make_user: Any) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = two_people(ann, bob, target=4)
    play_out(match, {0: ann, 1: bob})
    match.refresh_from_db()
    assert match.report_due is None and Result.objects.count() == 1


def test_a_resignation_is_reported_by_the_sweep_when_its_report_failed(
    make_user: Any, monkeypatch: Any
) -> None:
    ann, bob = make_user(username="ann"), make_user(username="bob")
    match = two_people(ann, bob)
    monkeypatch.setattr("spyleague.scores.services.result_confirmed_effects", lambda result: 1 / 0)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.match_resign(user=bob, match_id=match.pk)
    match.refresh_from_db()
    assert match.report_due is not None and not Result.objects.exists()
    monkeypatch.undo()
    assert reports_sweep(now=match.report_due + timedelta(minutes=1)) == 1
    assert Result.objects.get().lines.get(position=1).place == 2
