from __future__ import annotations

from copy import copy
from typing import Any

from rest_framework import serializers

from games import games

from ..clubs.models import Club, Membership, Player, Role
from ..core.models import Job
from ..tournaments.event_settings import TIEBREAK_WORDS
from ..tournaments.models import Entrant, Event, League


class PlayerSerializer(serializers.ModelSerializer[Player]):
    has_account = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "has_account"]

    def get_has_account(self, obj: Player) -> bool:
        return obj.user_id is not None


class MembershipSerializer(serializers.ModelSerializer[Membership]):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "player", "role", "joined"]


class ClubSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city", "description", "created"]
        read_only_fields = ["slug", "created"]


class RoleSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=Role.choices)


class GuestSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)


class GameSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    title = serializers.CharField()
    min_seats = serializers.IntegerField()
    max_seats = serializers.IntegerField()
    lowest_wins = serializers.BooleanField()
    has_engine = serializers.BooleanField()


class EventSerializer(serializers.ModelSerializer[Event]):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    game = serializers.ChoiceField(choices=[(g.slug, g.title) for g in games()])
    league = serializers.PrimaryKeyRelatedField(
        queryset=League.objects.all(),
        allow_null=True,
        required=False,
        help_text="The league (season) the event counts for: one of the same club's, or null.",
    )
    points_by_place = serializers.ListField(
        child=serializers.FloatField(),
        required=False,
        help_text="Tournament points for 1st, 2nd, ... place at a table: one number per seat; empty "
        "for the default of the table size.",
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=[(name, words) for name, (words, _) in TIEBREAK_WORDS.items()]),
        required=False,
        help_text="The tiebreaks in the order they apply, each once; empty for the default order. "
        + " ".join(f"{name}: {words} ({why})" for name, (words, why) in TIEBREAK_WORDS.items()),
    )

    class Meta:
        model = Event
        fields = [
            "id",
            "club",
            "name",
            "game",
            "kind",
            "format",
            "rounds",
            "table_size",
            "points_by_place",
            "tiebreaks",
            "bye_rule",
            "uneven",
            "advance",
            "groups",
            "league",
            "options",
            "status",
            "starts",
            "created",
        ]
        read_only_fields = ["status", "created"]
        # The bounds of ``Event.settings_problems``, in its words, so that the schema says them too.
        extra_kwargs = {
            "advance": {
                "min_value": 1,
                "max_value": 5,
                "help_text": "Knockout heats, and groups then knockout: how many of each table or group "
                "go through (1 to 5).",
                "error_messages": {
                    "min_value": "Between 1 and 5 players of each table or group go through.",
                    "max_value": "Between 1 and 5 players of each table or group go through.",
                },
            },
            "groups": {
                "min_value": 0,
                "max_value": 64,
                "help_text": "Groups, then knockout: the number of groups, 0 to 64 "
                "(0: groups of about four).",
                "error_messages": {
                    "min_value": "Give 0 (groups of about four) to 64 groups.",
                    "max_value": "Give 0 (groups of about four) to 64 groups.",
                },
            },
        }

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The settings are checked as the event will store them (``Event.settings_problems``)."""
        if self.instance is not None and "club" in attrs and attrs["club"] != self.instance.club:
            raise serializers.ValidationError({"club": "An event stays in the club that runs it."})
        club = attrs.get("club", self.instance.club if self.instance is not None else None)
        league = attrs.get("league")
        if league is not None and club is not None and league.club_id != club.pk:
            raise serializers.ValidationError({"league": f"Choose a league of {club.name}."})
        candidate = copy(self.instance) if self.instance is not None else Event()
        for field, value in attrs.items():
            setattr(candidate, field, value)
        if self.instance is not None and "table_size" in attrs and "points_by_place" not in attrs:
            candidate.points_by_place = []  # the new size's defaults, as ``event_update`` sets them
        problems = candidate.settings_problems()
        if problems:
            raise serializers.ValidationError(problems)
        return attrs


class EntrantSerializer(serializers.ModelSerializer[Entrant]):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Entrant
        fields = ["id", "player", "checked_in", "joined_round", "dropped_after", "rating"]


class JobSerializer(serializers.ModelSerializer[Job]):
    event = serializers.SerializerMethodField(help_text="The event a pairing or standings job is for.")
    game = serializers.SerializerMethodField(help_text="The game a ratings job is for.")
    note = serializers.CharField(
        read_only=True,
        help_text='"Restarted after its worker stopped." when a worker stopped under an earlier run, '
        "else empty. A job whose worker stopped for good has failed, and its message says so.",
    )

    class Meta:
        model = Job
        fields = [
            "id",
            "kind",
            "label",
            "status",
            "progress",
            "message",
            "note",
            "attempts",
            "result",
            "event",
            "game",
            "created",
            "finished",
        ]

    def get_event(self, job: Job) -> int | None:
        event = job.params.get("event") if isinstance(job.params, dict) else None
        return event if job.kind in ("pairing", "standings") and isinstance(event, int) else None

    def get_game(self, job: Job) -> str | None:
        game = job.params.get("game") if isinstance(job.params, dict) else None
        return game if job.kind == "ratings" and isinstance(game, str) else None


class LeagueSerializer(serializers.ModelSerializer[League]):
    club = serializers.SlugRelatedField(
        slug_field="slug", queryset=Club.objects.all(), help_text="The club's slug."
    )
    game = serializers.ChoiceField(
        choices=[(g.slug, g.title) for g in games()],
        required=False,
        allow_blank=True,
        help_text="The game of the season; empty for a season of several games.",
    )
    events = serializers.IntegerField(
        source="event_count", read_only=True, help_text="How many events count for the season."
    )

    class Meta:
        model = League
        fields = ["id", "club", "name", "game", "starts", "ends", "description", "events"]
        extra_kwargs = {"name": {"max_length": 120}}


class LeagueLineSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    player_id = serializers.IntegerField()
    points = serializers.FloatField(help_text="Tournament points over the season's events.")
    events = serializers.IntegerField(help_text="Events played in.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
