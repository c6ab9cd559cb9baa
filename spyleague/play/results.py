"""A finished online match reports its result like any other source."""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def match_report_result(*, match_id: int) -> None:
    """Record the finished match as a confirmed result (and on its tournament table, if any)."""
    from django.db import transaction
    from django.utils import timezone

    from ..scores.models import Result, ResultLine
    from .models import Match

    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if (
            match.outcome is None
            or Result.objects.filter(data__match=match.pk, source=Result.Source.ONLINE).exists()
        ):
            return
        seats = list(match.seat_set.select_related("player"))
        if any(seat.player is None for seat in seats):
            return  # bots play for fun: only all-human matches are rated
        result = Result.objects.create(
            game=match.game,
            club=match.club,
            table=match.table,
            source=Result.Source.ONLINE,
            status=Result.Status.CONFIRMED,
            data={"match": match.pk, "outcome": match.outcome},
            played=timezone.now(),
        )
        for seat in seats:
            assert seat.player is not None
            ResultLine.objects.create(
                result=result,
                player=seat.player,
                position=seat.number,
                place=match.outcome["places"][seat.number],
                score=match.outcome["scores"][seat.number],
            )
        from ..scores.services import result_confirmed_effects

        result_confirmed_effects(result)
