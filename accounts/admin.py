from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):  # type: ignore[type-arg]
    list_display = ("username", "display_name", "email", "is_bot", "is_staff", "deleted_at")
    list_filter = ("is_bot", "is_staff", "is_active")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Player", {"fields": ("display_name", "is_bot", "deleted_at")}),
    )
    add_fieldsets = (
        *UserAdmin.add_fieldsets,
        ("Player", {"fields": ("display_name", "email", "is_bot")}),
    )
