from __future__ import annotations

from copy import copy
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers

from games import games
from pairing.tables import MAX_TABLE

from ..clubs.models import Club, Membership, Player, Role
from ..core.limits import EXCERPT_MAX, excerpt, json_size_problem
from ..core.models import Job
from ..tournaments.event_settings import TIEBREAK_WORDS
from ..tournaments.models import Entrant, Event, League

# --- fields that bound what is sent ------------------------------------------------------------
# Every field of a request body has a bound, which the schema says (maxLength, maxItems,
# maxProperties): tests/web/test_limits.py reads the schema and fails on one that has none.


class JSONObjectField(serializers.JSONField):
    """A JSON object of at most ``max_keys`` keys and ``max_chars`` characters written out (a
    game's options, a move): anything larger is refused in words before anything reads it."""

    default_error_messages = {
        "not_object": "Send a JSON object here ({{...}}), not {kind}.",
        "too_many": "Send at most {max_keys} keys here, not {count}.",
    }

    def __init__(self, *, max_keys: int = 20, max_chars: int = 2000, **kwargs: Any) -> None:
        self.max_keys, self.max_chars = max_keys, max_chars
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            self.fail("not_object", kind=type(value).__name__.replace("NoneType", "null"))
        if len(value) > self.max_keys:
            self.fail("too_many", max_keys=self.max_keys, count=len(value))
        if problem := json_size_problem(value, max_chars=self.max_chars, what="This"):
            raise serializers.ValidationError(problem)
        return value


class BoundedDictField(serializers.DictField):
    """A DictField of at most ``max_keys`` keys, each key at most ``key_length`` characters."""

    def __init__(self, *, max_keys: int, key_length: int = 20, **kwargs: Any) -> None:
        self.max_keys, self.key_length = max_keys, key_length
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            if len(data) > self.max_keys:
                raise serializers.ValidationError(f"Send at most {self.max_keys} keys here, not {len(data)}.")
            if any(len(str(key)) > self.key_length for key in data):
                raise serializers.ValidationError(f"A key here has at most {self.key_length} characters.")
        return super().to_internal_value(data)


class ClubSlugField(serializers.SlugRelatedField):  # type: ignore[type-arg]
    """A club, by its slug (at most as long as a slug can be)."""

    max_length = Club._meta.get_field("slug").max_length or 100

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("queryset", Club.objects.all())
        super().__init__(slug_field="slug", **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and len(data) > self.max_length:
            raise serializers.ValidationError(f"A club's slug has at most {self.max_length} characters.")
        return super().to_internal_value(data)


class JSONObjectFieldSchema(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    target_class = JSONObjectField
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": {}, "maxProperties": self.target.max_keys}


class BoundedDictFieldSchema(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    target_class = BoundedDictField
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        values = auto_schema._map_serializer_field(self.target.child, direction)
        auto_schema._insert_field_validators(self.target.child, values)
        return {"type": "object", "additionalProperties": values, "maxProperties": self.target.max_keys}


class ClubSlugFieldSchema(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    target_class = ClubSlugField
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return {"type": "string", "maxLength": self.target.max_length}


class ExcerptInLists:
    """A model serializer whose ``description`` is cut to an excerpt in a list (a page of
    clubs must not carry every club's whole description); the row's own answer has it all."""

    def to_representation(self, instance: Any) -> Any:
        data = super().to_representation(instance)  # type: ignore[misc]
        if isinstance(getattr(self, "parent", None), serializers.ListSerializer) and data.get("description"):
            data["description"] = excerpt(data["description"])
        return data


DESCRIPTION_HELP = (
    f"In a list, its first {EXCERPT_MAX} characters or so (ending … when cut); in the answer for "
    "the one row, all of it."
)


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


class ClubSerializer(ExcerptInLists, serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city", "description", "created"]
        read_only_fields = ["slug", "created"]
        extra_kwargs = {"description": {"help_text": DESCRIPTION_HELP}}


class RoleSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=Role.choices)


class GuestSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)


class BotLevelSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The bot's name, as a match's seats and `bots` take it.")
    level = serializers.CharField(help_text='Its level in words ("Beginner", "Expert").')


class GameSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    title = serializers.CharField()
    min_seats = serializers.IntegerField()
    max_seats = serializers.IntegerField()
    lowest_wins = serializers.BooleanField()
    has_engine = serializers.BooleanField()
    bots = BotLevelSerializer(many=True, help_text="The game's bots online, weakest first.")


class EventSerializer(serializers.ModelSerializer[Event]):
    club = ClubSlugField()
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
        max_length=MAX_TABLE,
        help_text="Tournament points for 1st, 2nd, ... place at a table: one number per seat; empty "
        "for the default of the table size.",
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=[(name, words) for name, (words, _) in TIEBREAK_WORDS.items()]),
        required=False,
        max_length=len(TIEBREAK_WORDS),
        help_text="The tiebreaks in the order they apply, each once; empty for the default order. "
        + " ".join(f"{name}: {words} ({why})" for name, (words, why) in TIEBREAK_WORDS.items()),
    )
    options = JSONObjectField(
        required=False,
        max_keys=20,
        max_chars=Event._meta.get_field("options").max_chars,
        help_text="The game's variants and settings (see the game's options).",
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


class LeagueSerializer(ExcerptInLists, serializers.ModelSerializer[League]):
    club = ClubSlugField(help_text="The club's slug.")
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
        extra_kwargs = {"name": {"max_length": 120}, "description": {"help_text": DESCRIPTION_HELP}}


class LeagueLineSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    player_id = serializers.IntegerField()
    points = serializers.FloatField(help_text="Tournament points over the season's events.")
    events = serializers.IntegerField(help_text="Events played in.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
