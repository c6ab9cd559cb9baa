"""A finished online match reports its result like any other source.

- A match with a seat nobody holds (a bot alone) is a friendly: nothing is reported.
- A match where a bot played for a person (a guest without an account at a tournament table) is
  reported, so the table and the standings take its result, but marked ``unrated``: ratings
  follow people playing people, and the guest did not play.
- A resigned match is reported with the resigning player last (``services.match_resign``); an
  abandoned one reports nothing.
"""

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
        if match.report_due is not None:  # reported (or nothing to report) once this commits
            Match.objects.filter(pk=match.pk).update(report_due=None)
        if (
            match.outcome is None
            or Result.objects.filter(data__match=match.pk, source=Result.Source.ONLINE).exists()
        ):
            return
        seats = list(match.seat_set.select_related("player"))
        if any(seat.player is None for seat in seats):
            # Bots play for fun: only all-human matches are reported. Their levels are rated
            # against the people they played (``ratings.services.bot_levels_rate``).
            from ..ratings.services import bot_levels_rate

            places = match.outcome["places"]
            # A person who resigned (a bot played on for them) counts as the person, placed last.
            played = [
                (seat.player_id, "" if seat.player_id else seat.bot, places[seat.number]) for seat in seats
            ]
            bot_levels_rate(game=match.game, match_id=match.pk, seats=played)
            return
        data = {"match": match.pk, "outcome": match.outcome}
        bots = [seat.number for seat in seats if seat.bot and seat.resigned is None]  # a resigner lost
        if bots:
            data |= {"unrated": True, "bots": bots}
        if match.end_reason:
            data["ended"] = match.end_reason
        result = Result.objects.create(
            game=match.game,
            club=match.club,
            table=match.table,
            source=Result.Source.ONLINE,
            status=Result.Status.CONFIRMED,
            data=data,
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
