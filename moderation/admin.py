from django.contrib import admin

from moderation.models import FairPlayRecord, ModerationAction, Report, Standing


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "reported", "reporter", "reason", "match", "created_at", "resolved_at")
    list_filter = ("reason",)
    raw_id_fields = ("reporter", "reported", "match", "resolved_by")


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "action", "by", "created_at")
    list_filter = ("action",)
    raw_id_fields = ("user", "by")


admin.site.register(Standing)
admin.site.register(FairPlayRecord)
