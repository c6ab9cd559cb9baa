from typing import Any

from django.contrib import admin

from .models import Result, ResultChange, ResultLine, Scorepad, ScorepadChange, ScorepadDeal, ScorepadSeat


class ResultLineInline(admin.TabularInline[ResultLine, Any]):
    model = ResultLine
    extra = 0
    raw_id_fields = ["player"]


class ResultChangeInline(admin.TabularInline[ResultChange, Any]):
    model = ResultChange
    extra = 0
    readonly_fields = ["who", "when", "action", "before", "after", "note"]
    can_delete = False


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin[Result]):
    list_display = ["__str__", "game", "club", "source", "status", "played"]
    list_filter = ["game", "status", "source"]
    inlines = [ResultLineInline, ResultChangeInline]
    raw_id_fields = ["table"]


class ScorepadSeatInline(admin.TabularInline[ScorepadSeat, Any]):
    model = ScorepadSeat
    extra = 0
    raw_id_fields = ["player"]


class ScorepadDealInline(admin.TabularInline[ScorepadDeal, Any]):
    model = ScorepadDeal
    extra = 0
    readonly_fields = ["number", "points", "taken", "choice", "entered_by", "created"]


@admin.register(Scorepad)
class ScorepadAdmin(admin.ModelAdmin[Scorepad]):
    list_display = ["__str__", "club", "status", "created"]
    list_filter = ["status"]
    inlines = [ScorepadSeatInline, ScorepadDealInline]
    raw_id_fields = ["table", "result"]


@admin.register(ScorepadChange)
class ScorepadChangeAdmin(admin.ModelAdmin[ScorepadChange]):
    list_display = ["scorepad", "deal", "action", "who", "when"]
