"""Online matches. The move log is the truth.

A ``Match`` row holds the game's slug, seat count, seed, options and a version number;
each accepted action is an appended ``Move``. The current state is rebuilt from the
log through the engine (``games.core.replay``), so replays, audit and crash recovery
all come from the same rows. A move is applied under ``select_for_update`` and a
version check, so two clients acting at once can never both win.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from ..core.limits import BoundedJSONField


def invite_code() -> str:
    return secrets.token_urlsafe(9)


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    game = models.CharField(max_length=30)
    seats = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    options = BoundedJSONField(default=dict, blank=True, max_chars=2000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=0, help_text="The number of moves applied.")
    invite = models.CharField(max_length=20, default=invite_code, unique=True)
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    table = models.OneToOneField(
        "tournaments.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="match"
    )
    outcome = models.JSONField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, help_text="When an open reaction window closes.")
    bot_turn = models.DateTimeField(
        null=True,
        blank=True,
        db_index=True,
        help_text="While a bot is to act: when the match last moved, or its bots were last asked to. "
        "Empty while only people are. The bot sweep asks the bots of a match left so for a while.",
    )
    report_due = models.DateTimeField(
        null=True,
        blank=True,
        db_index=True,
        help_text="When the match ended with a result not yet reported; empty once reported. The "
        "bot sweep reports a match left so for a while (the report after the last move failed).",
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    end_reason = models.CharField(
        max_length=200,
        blank=True,
        help_text="Why a match ended before its game did: who resigned, who abandoned it and why.",
    )
    rematch = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_of",
        help_text="The match its players started again from this one, once over.",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]
        verbose_name_plural = "matches"
        # The lobby's lists, read by everyone: the open tables newest first, the matches under
        # way latest first. A season's finished matches are not read to find them.
        indexes = [
            models.Index(fields=["status", "-created"], name="match_status_created"),
            models.Index(fields=["status", "-updated"], name="match_status_updated"),
        ]

    def __str__(self) -> str:
        return f"{self.title} match #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("play:match", args=[self.pk])

    @property
    def still_playing(self) -> int:
        """How many seats play for themselves: not taken over after their player resigned."""
        return sum(1 for seat in self.seat_set.all() if seat.resigned is None)

    @property
    def people_playing(self) -> int:
        """How many of those are a person's (a guest's played by a bot included)."""
        return sum(1 for seat in self.seat_set.all() if seat.resigned is None and seat.player_id)

    @property
    def title(self) -> str:
        """The game's title, as people read it (the slug stays in ``game``)."""
        from games import game_info
        from games.core import UnknownGame

        try:
            return game_info(self.game).title
        except UnknownGame:
            return self.game


class MatchSeat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seat_set")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey("clubs.Player", null=True, blank=True, on_delete=models.SET_NULL)
    bot = models.CharField(
        max_length=20,
        blank=True,
        help_text="A bot's name; blank for a person. Beside a player: the bot plays for that player "
        "(a guest without an account at a tournament table played online).",
    )
    resigned = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Its player resigned, this one in order (1 first); a bot plays the seat on, and "
        "the player is placed below everyone who did not resign.",
    )

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_occupant_per_seat"),
        ]

    def __str__(self) -> str:
        who = self.player.name if self.player else (f"{self.bot} bot" if self.bot else "empty")
        if self.player and self.bot:
            who += f" (played by the {self.bot} bot)"
        return f"seat {self.number}: {who}"


class Move(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField(help_text="1 for the first move.")
    seat = models.PositiveSmallIntegerField()
    action = BoundedJSONField(max_chars=2000)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="append_only_move_numbers")]

    def __str__(self) -> str:
        return f"move {self.number} of match #{self.match_id}: seat {self.seat} {self.action}"
