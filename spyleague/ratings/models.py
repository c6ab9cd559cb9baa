"""Ratings per game (openskill, Plackett-Luce), from confirmed results in the order they were played.

``Rating`` is each player's current rating in a game, ``RatingPoint`` the history (one row per
player per rated result), and ``RatingState`` one row per game saying whether the stored ratings
still follow from the results or a recompute is on its way (see ``services``).
"""

from __future__ import annotations

from django.db import models

from pairing.ratings import is_provisional


class Rating(models.Model):
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=30)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True, help_text="mu - 3 sigma: the figure leaderboards sort by.")
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(
        null=True, blank=True, help_text="When the last result counted here was played (null: unknown)."
    )
    last_result = models.BigIntegerField(null=True, blank=True, help_text="That result's id.")
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-ordinal"]
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="one_rating_per_game")]
        # A leaderboard's order (``selectors.BOARD_ORDER``): its pages are read from here.
        indexes = [models.Index(fields=["game", "-ordinal", "player"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.player} {_title(self.game)}: {self.ordinal:.1f}"

    @property
    def provisional(self) -> bool:
        """Still uncertain (its first games): shown with "?"."""
        return is_provisional(self.sigma)


class RatingPoint(models.Model):
    """A player's rating after one result: the history chart.

    Derived rows, rewritten by a recompute (hundreds of thousands at once for a busy game): the
    foreign keys are kept by Django (a deleted player or result takes its points along) rather
    than checked by the database on every row written, and the player's own index is the
    leading column of the (player, game, when) one.
    """

    player = models.ForeignKey(
        "clubs.Player",
        on_delete=models.CASCADE,
        related_name="rating_points",
        db_constraint=False,
        db_index=False,
    )
    game = models.CharField(max_length=30)
    result = models.ForeignKey(
        "scores.Result", on_delete=models.CASCADE, related_name="rating_points", db_constraint=False
    )
    when = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["player", "game", "when", "pk"]
        indexes = [models.Index(fields=["player", "game", "when"])]

    def __str__(self) -> str:
        return f"{self.player} {_title(self.game)} {self.when:%Y-%m-%d}: {self.ordinal:.1f}"


class RatingState(models.Model):
    """Whether a game's stored ratings follow from its confirmed results.

    A confirmed result played after every counted result of its players is applied on the spot.
    Anything else (a correction, a result played before one of its players' later results) asks
    for a recompute: ``pending`` is set, ``version`` goes up, ``dirty_from`` goes back to the
    earliest moment whose history may be wrong, and one job is queued however many ask. A recompute
    answers the version it read; ``written`` is the newest version written, so an older run that
    finishes later never overwrites a newer one's rows.
    """

    game = models.CharField(max_length=30, unique=True)
    pending = models.BooleanField(default=False)
    version = models.PositiveBigIntegerField(default=0)
    written = models.PositiveBigIntegerField(default=0)
    dirty_from = models.DateTimeField(null=True, blank=True, help_text="History before this is right.")
    dirty_all = models.BooleanField(default=False, help_text="Rewrite the whole history.")
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{_title(self.game)} ratings ({'recompute pending' if self.pending else 'up to date'})"


def _title(game: str) -> str:
    """The game's title, as people read it (the slug stays in ``game``)."""
    from games import game_info
    from games.core import UnknownGame

    try:
        return game_info(game).title
    except UnknownGame:
        return game


class BotRating(models.Model):
    """A bot level's rating in a game, from its finished online matches against people (as lichess
    rates its engine's levels): what a player beats when they beat it. People's own ratings do
    not move in those matches (they follow people playing people)."""

    game = models.CharField(max_length=30)
    bot = models.CharField(max_length=30, help_text="The bot's name in the game's BOTS.")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu - 3 sigma, as for players.")
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-ordinal"]
        constraints = [models.UniqueConstraint(fields=["game", "bot"], name="one_rating_per_bot_level")]

    def __str__(self) -> str:
        return f"{self.bot} bot, {_title(self.game)}: {self.ordinal:.1f}"

    @property
    def provisional(self) -> bool:
        return is_provisional(self.sigma)


class BotRatedMatch(models.Model):
    """An online match counted in its bots' ratings: each counts once, however often its end is
    reported."""

    match_id = models.BigIntegerField(unique=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Match {self.match_id}, rated for its bots"
