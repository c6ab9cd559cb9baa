import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from spyleague.clubs.models import Club, Membership
from spyleague.core.models import Job
from spyleague.tournaments.models import Event


@pytest.mark.django_db
def test_health_reports_database_and_broker(client: Any) -> None:
    data = client.get(reverse("health")).json()
    assert data["ok"] is True
    assert data["database"]["ok"] is True
    assert data["broker"]["ok"] is True


@pytest.mark.django_db(transaction=True)
def test_demo_job_runs_end_to_end_and_shows_progress(client: Any, settings: Any) -> None:
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("the live-worker version of this test is in tests/services")
    response = client.post(reverse("demo-load"), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    job = Job.objects.get(kind="demo-data")
    assert job.status == Job.Status.DONE
    assert job.progress == 100
    assert "Demo data loaded" in job.message
    assert Club.objects.count() == 1
    assert Event.objects.filter(status=Event.Status.FINISHED).count() == 1
    assert Event.objects.filter(status=Event.Status.RUNNING).count() == 1
    # The fragment the page polls shows the finished job.
    fragment = client.get(reverse("job", args=[job.pk])).content.decode()
    assert "100%" in fragment
    assert "hx-trigger" not in fragment  # no more polling once done


@pytest.mark.django_db
def test_demo_data_is_idempotent() -> None:
    from spyleague.core.demo import demo_data_load

    assert demo_data_load()["created"] is True
    counts = (Club.objects.count(), Event.objects.count(), User.objects.count())
    assert demo_data_load()["created"] is False
    assert (Club.objects.count(), Event.objects.count(), User.objects.count()) == counts


@pytest.mark.django_db
def test_demo_load_is_refused_to_strangers_once_the_site_has_clubs(client: Any, club: Any) -> None:
    response = client.post(reverse("demo-load"))
    assert response.status_code == 403
    assert not Job.objects.exists()


@pytest.mark.django_db
def test_a_failing_job_is_marked_failed_with_a_readable_message() -> None:
    from spyleague.core.jobs import run_job

    job = Job.objects.create(kind="test", label="Count the spies")

    def work(reporter: Any, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        reporter.progress(1, 2, "half way")
        raise ValueError("the deck is missing a card")

    with pytest.raises(ValueError):
        run_job(job.pk, work)
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert job.message == "Count the spies failed: the deck is missing a card"
    assert job.progress == 50


@pytest.mark.django_db
def test_a_done_job_is_not_run_twice() -> None:
    from spyleague.core.jobs import run_job

    job = Job.objects.create(kind="test", label="Once", status=Job.Status.DONE, progress=100)
    calls: list[int] = []
    run_job(job.pk, lambda r, p: (calls.append(1), ("x", {}))[1])  # type: ignore[func-returns-value]
    assert calls == []


@pytest.mark.django_db
def test_the_demo_command_makes_the_admin_the_readme_promises_and_the_button_does_not(client: Any) -> None:
    from django.core.management import call_command

    from spyleague.core.demo import DEMO_PASSWORD

    client.post(reverse("demo-load"))  # the button: the demo club, no administrator
    assert not User.objects.filter(is_staff=True).exists()
    client.login(username="olivia", password=DEMO_PASSWORD)
    assert client.get("/admin/").status_code == 302  # an organiser is not the site's staff
    call_command("demo_data", stdout=io.StringIO())
    admin = User.objects.get(username="admin")
    assert admin.is_superuser
    assert not Membership.objects.filter(player__user=admin).exists()  # in no club
    client.logout()
    assert client.login(username="admin", password=DEMO_PASSWORD)
    assert client.get("/admin/").status_code == 200
