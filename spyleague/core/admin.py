from django.contrib import admin

from .models import Job


@admin.register(Job)
class JobAdmin(admin.ModelAdmin[Job]):
    list_display = ["label", "kind", "status", "progress", "created", "finished"]
    list_filter = ["status", "kind"]
    readonly_fields = ["created", "started", "finished"]
