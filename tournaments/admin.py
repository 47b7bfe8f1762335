from django.contrib import admin

from tournaments.models import Entry, Round, Tournament, TournamentTable


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "game", "format", "status", "organiser", "created_at"]
    list_filter = ["status", "format", "game"]
    search_fields = ["name"]
    raw_id_fields = ["organiser"]
    inlines = [EntryInline]
    exclude = ["seed"]  # the master seed decides every round's deal: shown nowhere, not to staff either


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["id", "tournament", "number", "status"]
    exclude = ["seed"]  # a live round's deal; the tournament page shows it once the round is over


@admin.register(TournamentTable)
class TournamentTableAdmin(admin.ModelAdmin):
    list_display = ["id", "round", "table", "match", "done"]
    raw_id_fields = ["table", "match"]
