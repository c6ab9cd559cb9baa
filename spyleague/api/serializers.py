from __future__ import annotations

from copy import copy
from typing import Any

from rest_framework import serializers

from games import games

from ..clubs.models import Club, Membership, Player, Role
from ..core.models import Job
from ..tournaments.models import Entrant, Event


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
            "options",
            "status",
            "starts",
            "created",
        ]
        read_only_fields = ["status", "created"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The settings are checked as the event will store them (``Event.settings_problems``)."""
        if self.instance is not None and "club" in attrs and attrs["club"] != self.instance.club:
            raise serializers.ValidationError({"club": "An event stays in the club that runs it."})
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
    class Meta:
        model = Job
        fields = ["id", "kind", "label", "status", "progress", "message", "result", "created", "finished"]
