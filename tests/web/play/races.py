"""Spy vs Spy races for the tests: people seated and started, a racer's race played out."""

from __future__ import annotations

from typing import Any

from games import get_engine
from spyleague.play import services
from spyleague.play.models import Match
from spyleague.play.state import match_state


def race_of_people(*users: Any, seed: int = 3, **options: Any) -> Match:
    """A race of these people (the first creates and starts it), in seat order."""
    match = services.match_create(
        user=users[0], game="spy-vs-spy", seats=len(users), seed=seed, options=options
    )
    for user in users[1:]:
        services.match_join(user=user, match_id=match.pk)
    services.match_start(user=users[0], match_id=match.pk)
    match.refresh_from_db()
    return match


def race_out(match: Match, user: Any, seat: int) -> None:
    """Play ``seat``'s race to its end through the service, on the first legal move each time."""
    engine = get_engine("spy-vs-spy")
    while True:
        state = match_state(Match.objects.get(pk=match.pk))
        legal = engine.legal(state, seat)
        if not legal or state.phase != "race":
            return
        services.match_move_submit(match_id=match.pk, user=user, action=legal[0])
