"""Results of games played at a real table, and the audit trail of every change.

A ``Result`` is one finished game: who sat where, their places and scores. It comes from
a score sheet typed in at the table, from the Black Spy scorepad, or from an online
match; once confirmed it feeds standings and ratings. Every change is kept as a
``ResultChange`` with who and when, so nothing a user entered is ever lost.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from ..core.limits import BoundedJSONField


class Result(models.Model):
    class Status(models.TextChoices):
        REPORTED = "reported", "Reported, waiting for confirmation"
        CONFIRMED = "confirmed", "Confirmed"
        VOID = "void", "Void"

    class Source(models.TextChoices):
        SHEET = "sheet", "Score sheet"
        SCOREPAD = "scorepad", "Black Spy scorepad"
        ONLINE = "online", "Online match"
        OVERRIDE = "override", "Organiser override"

    game = models.CharField(max_length=30)
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="results"
    )
    table = models.OneToOneField(
        "tournaments.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="result"
    )
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.SHEET)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REPORTED)
    data = BoundedJSONField(
        default=dict, blank=True, max_chars=32_000, help_text="What was entered, as entered."
    )
    played = models.DateTimeField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-played", "-pk"]
        indexes = [models.Index(fields=["game", "status", "played"])]

    def __str__(self) -> str:
        return f"{_title(self.game)} result #{self.pk}"


class ResultLine(models.Model):
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="result_lines")
    position = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    score = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["result", "position"]
        constraints = [models.UniqueConstraint(fields=["result", "position"], name="one_line_per_position")]

    def __str__(self) -> str:
        return f"{self.player} placed {self.place} in result #{self.result_id}"


class ResultChange(models.Model):
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="changes")
    who = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    when = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=20)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["result", "when", "pk"]

    def __str__(self) -> str:
        return f"{self.action} of result #{self.result_id} by {self.who} at {self.when:%Y-%m-%d %H:%M}"


class PendingEffects(models.Model):
    """A confirmed (or corrected) result whose effects on its table's round and standings and on
    the game's ratings are still to be applied (``scores.effects``). Written in the confirmation's
    transaction, so it is kept if and only if the confirmation is; taken and deleted by the
    transaction that applies the effects, so it is applied exactly once."""

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"effects of result #{self.result_id} to apply"


class Scorepad(models.Model):
    """Black Spy kept deal by deal at a real table, to the end value."""

    class Status(models.TextChoices):
        OPEN = "open", "In play"
        FINISHED = "finished", "Finished"

    game = models.CharField(max_length=30, default="black-spy")
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="scorepads"
    )
    table = models.OneToOneField(
        "tournaments.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="scorepad"
    )
    options = BoundedJSONField(default=dict, blank=True, max_chars=1000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    result = models.OneToOneField(
        Result, null=True, blank=True, on_delete=models.SET_NULL, related_name="scorepad"
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        kind = "race sheet" if self.game == "spy-vs-spy" else "scorepad"  # races, not deals
        return f"{_title(self.game)} {kind} #{self.pk}"


class ScorepadSeat(models.Model):
    scorepad = models.ForeignKey(Scorepad, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="scorepad_seats")

    class Meta:
        ordering = ["scorepad", "position"]
        constraints = [
            models.UniqueConstraint(fields=["scorepad", "position"], name="one_player_per_pad_seat")
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.scorepad}"


class ScorepadDeal(models.Model):
    scorepad = models.ForeignKey(Scorepad, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    points = BoundedJSONField(max_chars=1000, help_text="Each player's points for the deal, in seat order.")
    taken = BoundedJSONField(
        null=True, blank=True, max_chars=2000, help_text="What each player took, when entered that way."
    )
    choice = models.CharField(max_length=10, blank=True, help_text="Capture or Release: give or subtract.")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["scorepad", "number"]
        constraints = [models.UniqueConstraint(fields=["scorepad", "number"], name="one_row_per_deal")]

    def __str__(self) -> str:
        return f"deal {self.number} of {self.scorepad}"


class ScorepadChange(models.Model):
    scorepad = models.ForeignKey(Scorepad, on_delete=models.CASCADE, related_name="changes")
    deal = models.PositiveSmallIntegerField()
    who = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    when = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=20)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    note = models.CharField(
        max_length=300, blank=True, help_text="Why a round was corrected once the game was over."
    )

    class Meta:
        ordering = ["scorepad", "when", "pk"]

    def __str__(self) -> str:
        return f"{self.action} deal {self.deal} of {self.scorepad}"


def _title(game: str) -> str:
    """The game's title, as people read it (the slug stays in ``game``)."""
    from games import game_info
    from games.core import UnknownGame

    try:
        return game_info(game).title
    except UnknownGame:
        return game
