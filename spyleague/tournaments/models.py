"""Events (tournaments and league nights), entrants, rounds and tables.

A ``League`` is a season of many events. An ``Event`` is played in rounds; each round
seats entrants at ``Table``s of 2 to 6 ``Seat``s (Spy vs Spy, for any number, at larger ones
too). A table's result comes from a score sheet, the Black Spy scorepad or an online match, and
feeds the standings.

An event's settings are checked on every save (``Event.settings_problems``), among them what
to do when the players do not fill tables of the chosen size (``Event.uneven``): byes, or
tables one seat shorter or longer, as far as the game's range of players allows (Black Spy 3-6,
Mister Spy 2-6, Spies! 2-5 ...). A bracket of tables of 2 (a knockout, or the knockout after
groups) always gives its byes to the top seeds, so it takes byes only.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse

from games import game_info
from pairing.tables import MAX_TABLE, MIN_TABLE

from ..core.limits import DESCRIPTION_MAX, BoundedJSONField

MAX_ROUNDS = 30


def table_range(info: Any) -> tuple[int, int]:
    """The smallest and largest tables of a game (its ``GameInfo``): its range of players, within
    the tables pairing seats (Spy vs Spy, for any number, takes tables above 6)."""
    return max(MIN_TABLE, info.seats.start), min(MAX_TABLE, info.seats.stop - 1)


def table_size_problem(*, game: str, table_size: object) -> str | None:
    """Why a game cannot be played at tables of that size, or None."""
    info = game_info(game)
    low, high = table_range(info)
    if isinstance(table_size, int) and not isinstance(table_size, bool) and low <= table_size <= high:
        return None
    return f"{info.title} is played at tables of {low} to {high}."


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


class League(models.Model):
    """A season: its table adds up its events' standings by the rule below (``RULE``)."""

    RULE = (
        "League points are the sum of the tournament points of each event of the season, as the "
        "event's standings have them: a bye counts as the event scored it. Wins are outright first "
        "places at a table; a shared first place is not a win. Players are ranked by points, then "
        "by wins; players level on both share a place."
    )

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=30, blank=True, help_text="Leave blank for a season of several games.")
    starts = models.DateField(null=True, blank=True)
    ends = models.DateField(null=True, blank=True)
    description = models.TextField(
        blank=True, max_length=DESCRIPTION_MAX, validators=[MaxLengthValidator(DESCRIPTION_MAX)]
    )

    class Meta:
        ordering = ["-starts", "name"]
        constraints = [
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("description"), DESCRIPTION_MAX),
                name="league_description_length",
                violation_error_message=f"A league's description has at most {DESCRIPTION_MAX} characters.",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", "Tournament"
        LEAGUE_NIGHT = "league", "League night"

    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss"
        ROUND_ROBIN = "round_robin", "Round robin"
        KNOCKOUT = "knockout", "Knockout"
        GROUPS_KNOCKOUT = "groups_knockout", "Groups, then knockout"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class ByeRule(models.TextChoices):
        WIN = "win", "Points for a win"
        DRAW = "draw", "Points for a draw"
        AVERAGE = "average", "Average points per table"
        ZERO = "zero", "No points"

    class Uneven(models.TextChoices):
        BYES = "byes", "Byes: only tables of the chosen size"
        SHORTER = "shorter", "Shorter tables (one seat fewer)"
        LONGER = "longer", "Longer tables (one seat more)"

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="events")
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=30)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.TOURNAMENT)
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.SWISS)
    rounds = models.PositiveSmallIntegerField(default=5)
    table_size = models.PositiveSmallIntegerField(default=4)
    points_by_place = BoundedJSONField(
        default=list, blank=True, max_chars=4000, help_text="Tournament points for 1st, 2nd, ..."
    )
    tiebreaks = BoundedJSONField(default=list, blank=True, max_chars=1000)
    bye_rule = models.CharField(max_length=10, choices=ByeRule.choices, default=ByeRule.WIN)
    uneven = models.CharField(
        max_length=10,
        choices=Uneven.choices,
        default=Uneven.BYES,
        help_text="When the players do not fill tables of the chosen size.",
    )
    advance = models.PositiveSmallIntegerField(
        default=2, help_text="Knockout heats and groups: how many of each table or group go through."
    )
    groups = models.PositiveSmallIntegerField(
        default=0, help_text="Groups, then knockout: the number of groups (0: groups of about four)."
    )
    options = BoundedJSONField(
        default=dict, blank=True, max_chars=2000, help_text="The game's variants and settings."
    )
    status = models.CharField(max_length=14, choices=Status.choices, default=Status.REGISTRATION)
    seed = models.PositiveIntegerField(default=1)
    starts = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Nothing malformed is ever stored: the settings are checked on every save (the
        forms and the API check them first, to say so beside the field)."""
        fields = kwargs.get("update_fields")
        problems = self.settings_problems()
        if fields is not None:
            problems = {f: m for f, m in problems.items() if f in fields}
        if problems:
            raise ValidationError(problems)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("tournaments:event", args=[self.pk])

    def settings_problems(self) -> dict[str, str]:
        """What is wrong with the event's settings, by field, in words (empty when all is well)."""
        from games.core import InvalidOptions, validate_options
        from pairing.standings import TIEBREAKS

        problems: dict[str, str] = {}
        try:
            info = game_info(self.game)
        except LookupError:
            return {"game": f"No game is called {self.game!r}."}
        for field, choices in (
            ("kind", self.Kind),
            ("format", self.Format),
            ("status", self.Status),
            ("bye_rule", self.ByeRule),
            ("uneven", self.Uneven),
        ):
            if getattr(self, field) not in choices.values:
                problems[field] = f"Choose one of {', '.join(choices.values)}."
        if problem := table_size_problem(game=self.game, table_size=self.table_size):
            problems["table_size"] = problem
        if not isinstance(self.rounds, int) or not 1 <= self.rounds <= MAX_ROUNDS:
            problems["rounds"] = f"An event has 1 to {MAX_ROUNDS} rounds."
        points = self.points_by_place
        if not isinstance(points, list) or not all(_is_number(p) for p in points):
            problems["points_by_place"] = "Points by place are a list of numbers, first place first."
        elif points and len(points) != self.table_size:
            problems["points_by_place"] = f"Give {self.table_size} numbers, one for each place at a table."
        tiebreaks = self.tiebreaks
        if (
            not isinstance(tiebreaks, list)
            or not all(isinstance(t, str) and t in TIEBREAKS for t in tiebreaks)
            or len(set(tiebreaks)) != len(tiebreaks)
        ):
            problems["tiebreaks"] = f"Name tiebreaks once each, from {', '.join(TIEBREAKS)}."
        if not isinstance(self.options, dict):
            problems["options"] = "The game's options are a JSON object."
        elif info.has_engine:
            from games import get_engine

            try:
                validate_options(self.options, getattr(get_engine(self.game), "options", {}) or {})
            except InvalidOptions as exc:
                problems["options"] = str(exc)
        if not isinstance(self.advance, int) or not 1 <= self.advance <= 5:
            problems["advance"] = "Between 1 and 5 players of each table or group go through."
        if not isinstance(self.groups, int) or not 0 <= self.groups <= 64:
            problems["groups"] = "Give 0 (groups of about four) to 64 groups."
        if problems:
            return problems
        bracket = self.format == self.Format.GROUPS_KNOCKOUT or (
            self.format == self.Format.KNOCKOUT and self.table_size == 2
        )
        if self.format == self.Format.GROUPS_KNOCKOUT and self.table_size != 2:
            problems["format"] = "Groups then knockout is played at tables of 2."
        elif self.format == self.Format.KNOCKOUT and self.table_size > 2 and self.advance >= self.table_size:
            problems["advance"] = (
                f"At tables of {self.table_size}, between 1 and {self.table_size - 1} go through."
            )
        if bracket and self.uneven != self.Uneven.BYES:
            problems["uneven"] = "A bracket of tables of 2 gives its byes to the top seeds: choose byes."
        elif self.uneven != self.Uneven.BYES:
            from pairing.tables import TableSizeError, uneven_sizes

            try:
                uneven_sizes(self.table_size, self.uneven, info.seats)
            except TableSizeError:
                other = self.table_size + (1 if self.uneven == self.Uneven.LONGER else -1)
                low, high = table_range(info)
                problems["uneven"] = (
                    f"{info.title} has no tables of {other} (it is played at tables of {low} to {high}): "
                    "choose byes or the other kind of table."
                )
        return problems

    @property
    def table_sizes(self) -> tuple[int, ...]:
        """The table sizes this event's rounds may use (see ``uneven``)."""
        from pairing.tables import uneven_sizes

        return uneven_sizes(self.table_size, self.uneven, game_info(self.game).seats)

    @property
    def game_title(self) -> str:
        return game_info(self.game).title


class Entrant(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="entries")
    rating = models.FloatField(null=True, blank=True, help_text="Rating when seeded.")
    checked_in = models.BooleanField(default=False)
    joined_round = models.PositiveSmallIntegerField(default=1, help_text="A late entry joins at this round.")
    dropped_after = models.PositiveSmallIntegerField(null=True, blank=True)
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    registered = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "player__name"]
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="one_entry_per_event")]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"

    @property
    def active(self) -> bool:
        return self.dropped_after is None


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft (not published)"
        PUBLISHED = "published", "Published"
        COMPLETE = "complete", "Complete"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=20, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    notes = models.JSONField(default=list, blank=True, help_text="Why the pairing is as it is.")
    published = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_round_number")]

    def __str__(self) -> str:
        return f"{self.event}, round {self.number}"


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for a result"
        REPORTED = "reported", "Reported, to confirm"
        CONFIRMED = "confirmed", "Confirmed"

    class Source(models.TextChoices):
        NONE = "", "None yet"
        SHEET = "sheet", "Score sheet"
        SCOREPAD = "scorepad", "Black Spy scorepad"
        ONLINE = "online", "Online match"
        BYE = "bye", "Bye"
        OVERRIDE = "override", "Organiser override"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    is_bye = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    source = models.CharField(max_length=10, choices=Source.choices, blank=True, default=Source.NONE)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="one_table_number")]

    def __str__(self) -> str:
        return f"{self.round}, table {self.number}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="0 deals or starts.")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True, help_text="Game points, in the game's own terms.")
    points = models.FloatField(null=True, blank=True, help_text="Tournament points.")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_entrant_per_position"),
            models.UniqueConstraint(fields=["table", "entrant"], name="one_seat_per_entrant"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant.player} at {self.table}"


class Standing(models.Model):
    """The standings as last computed (by a Celery job after each confirmed result)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="standings")
    # A knockout's place (by the stage reached first); 0 in the other formats, whose place is
    # worked out as the rows are read (``standings.standings_ranked``).
    rank = models.PositiveIntegerField()
    points = models.FloatField(default=0)
    game_points = models.FloatField(default=0)
    opponents_average = models.FloatField(default=0)
    wins = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    byes = models.PositiveIntegerField(default=0)
    # None: stored before these figures were kept (the next update then recomputes the event).
    sonneborn_berger = models.FloatField(null=True, blank=True)
    buchholz_cut1 = models.FloatField(null=True, blank=True)
    # Among the players tied before it; None where head to head is not among the tiebreaks (or
    # the row was stored before it was kept: the next update then recomputes the event).
    head_to_head = models.FloatField(null=True, blank=True)
    tiebreaks = models.JSONField(default=list, blank=True)
    after_round = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["event", "rank", "pk"]
        constraints = [models.UniqueConstraint(fields=["event", "entrant"], name="one_standing_per_entrant")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entrant}"
