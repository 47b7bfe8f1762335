from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "email", "is_bot", "bot_level", "is_staff", "date_joined")
    list_filter = ("is_bot", "is_staff")
    fieldsets = (*UserAdmin.fieldsets, ("Platform", {"fields": ("is_bot", "bot_level", "language")}))
