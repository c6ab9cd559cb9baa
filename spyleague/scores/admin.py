from typing import Any

from django.contrib import admin

from .models import Result, ResultChange, ResultLine


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
