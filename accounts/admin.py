from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "email", "is_bot", "bot_level", "is_staff", "date_joined")
    list_filter = ("is_bot", "is_staff")
    # A bot's identity (game, level, number) is how the platform finds it; the model's clean() refuses
    # a person's name in the bots' `bot-` namespace here as on the sign-up page.
    fieldsets = (*UserAdmin.fieldsets, ("Platform", {"fields": ("is_bot", "bot_game", "bot_level", "bot_number", "language")}))
