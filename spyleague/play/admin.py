from typing import Any

from django.contrib import admin

from .models import Match, MatchSeat, Move


class MatchSeatInline(admin.TabularInline[MatchSeat, Any]):
    model = MatchSeat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ["__str__", "game", "seats", "status", "version", "created"]
    list_filter = ["game", "status"]
    inlines = [MatchSeatInline]
    raw_id_fields = ["table"]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin[Move]):
    list_display = ["match", "number", "seat", "created"]
    raw_id_fields = ["match"]

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False  # the move log is append-only
