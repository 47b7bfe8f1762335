"""Django admin for staff: tables, matches and their logs."""

from django.contrib import admin

from games.models import ChatMessage, Match, MatchEvent, MatchPlayer, Seat, Table


class _UserRowsInline(admin.TabularInline):
    """A table's or match's rows of users: edited in place, the user picked by id (there are many)."""

    extra = 0
    raw_id_fields = ("user",)


class SeatInline(_UserRowsInline):
    model = Seat


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "seats", "status", "ranked", "host", "created_at")
    list_filter = ("game", "status", "ranked")
    search_fields = ("host__username",)
    raw_id_fields = ("host", "current_match")
    inlines = [SeatInline]


class PlayerInline(_UserRowsInline):
    model = MatchPlayer


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "seq", "ranked", "started_at", "ended_at")
    list_filter = ("game", "status", "ranked")
    raw_id_fields = ("table",)
    readonly_fields = ("state", "seq", "outcome", "seed")
    inlines = [PlayerInline]


@admin.register(MatchEvent)
class MatchEventAdmin(admin.ModelAdmin):
    list_display = ("match", "seq", "t_ms", "kind", "seat")
    list_filter = ("kind",)
    raw_id_fields = ("match",)


@admin.register(ChatMessage)
class ChatAdmin(admin.ModelAdmin):
    list_display = ("table", "user", "text", "created_at")
    raw_id_fields = ("table", "user")
