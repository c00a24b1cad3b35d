"""Writes to accounts that need more than a form save."""

from __future__ import annotations

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.db import transaction
from django.utils import timezone

from accounts.models import User


@transaction.atomic
def account_delete(*, user: User) -> User:
    """Remove a player's personal data but keep the row, so finished games stay intact.

    Games point at the user row; they will show the anonymous name from now on. Other
    open sessions end by themselves: the new (unusable) password changes the session
    hash Django checks on every request, and the account is inactive.
    """
    old_username = user.username
    anonymous = f"deleted-{user.pk}"
    user.username = anonymous
    user.display_name = anonymous
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.set_unusable_password()
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.last_login = None
    user.deleted_at = timezone.now()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    # Login throttling keeps usernames and addresses; they are personal data too.
    for model in (AccessAttempt, AccessLog, AccessFailureLog):
        model.objects.filter(username=old_username).delete()
    return user
