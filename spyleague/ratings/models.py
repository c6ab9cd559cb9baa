"""Ratings per game (openskill, Plackett-Luce), recomputed from confirmed results."""

from __future__ import annotations

from django.db import models


class Rating(models.Model):
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=30)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True, help_text="mu - 3 sigma: the figure leaderboards sort by.")
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-ordinal"]
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="one_rating_per_game")]

    def __str__(self) -> str:
        return f"{self.player} {self.game}: {self.ordinal:.1f}"


class RatingPoint(models.Model):
    """A player's rating after one result: the history chart."""

    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="rating_points")
    game = models.CharField(max_length=30)
    result = models.ForeignKey("scores.Result", on_delete=models.CASCADE, related_name="rating_points")
    when = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["player", "game", "when", "pk"]
        indexes = [models.Index(fields=["player", "game", "when"])]

    def __str__(self) -> str:
        return f"{self.player} {self.game} {self.when:%Y-%m-%d}: {self.ordinal:.1f}"
