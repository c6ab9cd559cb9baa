from django.contrib import admin

from .models import Rating, RatingPoint


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = ["player", "game", "ordinal", "mu", "sigma", "games"]
    list_filter = ["game"]
    search_fields = ["player__name"]


@admin.register(RatingPoint)
class RatingPointAdmin(admin.ModelAdmin[RatingPoint]):
    list_display = ["player", "game", "when", "ordinal"]
    list_filter = ["game"]
    raw_id_fields = ["player", "result"]
