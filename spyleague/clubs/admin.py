from typing import Any

from django.contrib import admin

from .models import Club, Membership, Player


class MembershipInline(admin.TabularInline[Membership, Any]):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "city", "created"]
    search_fields = ["name", "city"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "user", "guest_of", "created"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin[Membership]):
    list_display = ["player", "club", "role", "joined"]
    list_filter = ["role", "club"]
    search_fields = ["player__name", "club__name"]
