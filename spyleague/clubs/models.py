"""People and clubs.

A ``Player`` is a person who plays: every user has one, and a club can add guests who
have no account (a tabletop club's regulars). A ``Membership`` gives a player a role in
a club: organiser (runs events, manages members), scorer (enters and confirms results)
or player.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse
from django.utils.text import slugify

from ..core.limits import DESCRIPTION_MAX


class Player(models.Model):
    name = models.CharField(max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    guest_of = models.ForeignKey(
        "Club",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="guests",
        help_text="The club that added this person, when they have no account.",
    )
    birth_year = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Optional; breaks ties 'youngest first' where a game's rules ask."
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("clubs:player", args=[self.pk])


class Club(models.Model):
    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    description = models.TextField(
        blank=True, max_length=DESCRIPTION_MAX, validators=[MaxLengthValidator(DESCRIPTION_MAX)]
    )
    city = models.CharField(max_length=80, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(Player, through="Membership", related_name="clubs")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("description"), DESCRIPTION_MAX),
                name="club_description_length",
                violation_error_message=f"A club's description has at most {DESCRIPTION_MAX} characters.",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: object, **kwargs: object) -> None:
        if not self.slug:
            base = slugify(self.name)[:90] or "club"
            slug, n = base, 2
            while Club.objects.filter(slug=slug).exclude(pk=self.pk).exists():
                slug, n = f"{base}-{n}", n + 1
            self.slug = slug
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def get_absolute_url(self) -> str:
        return reverse("clubs:detail", args=[self.slug])


class Role(models.TextChoices):
    ORGANISER = "organiser", "Organiser"
    SCORER = "scorer", "Scorer"
    PLAYER = "player", "Player"


ROLE_RANK = {Role.PLAYER: 1, Role.SCORER: 2, Role.ORGANISER: 3}


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.PLAYER)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "player__name"]
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="one_membership_per_club")]

    def __str__(self) -> str:
        return f"{self.player} in {self.club} ({self.get_role_display()})"

    def has_role(self, role: str) -> bool:
        return ROLE_RANK[Role(self.role)] >= ROLE_RANK[Role(role)]
