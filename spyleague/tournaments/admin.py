from typing import Any

from django.contrib import admin

from .models import Entrant, Event, League, Round, Seat, Table


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin[League]):
    list_display = ["name", "club", "game", "starts", "ends"]
    list_filter = ["club"]


class EntrantInline(admin.TabularInline[Entrant, Any]):
    model = Entrant
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin[Event]):
    list_display = ["name", "club", "game", "format", "status", "created"]
    list_filter = ["status", "format", "game"]
    search_fields = ["name"]
    inlines = [EntrantInline]


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin[Entrant]):
    list_display = ["player", "event", "checked_in", "dropped_after"]
    raw_id_fields = ["player", "event"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ["event", "number", "status"]


class SeatInline(admin.TabularInline[Seat, Any]):
    model = Seat
    extra = 0
    raw_id_fields = ["entrant"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ["round", "number", "status", "source"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin[Seat]):
    list_display = ["table", "entrant", "position", "place", "score", "points"]
    raw_id_fields = ["table", "entrant"]
