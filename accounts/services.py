"""Writes to accounts that need more than a form save."""

from __future__ import annotations

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.db import transaction
from django.utils import timezone

from accounts.models import User


def anonymous_name(user_id: int) -> str:
    """The name a deleted account's past games show (the delete and privacy pages say it)."""
    return f"deleted-{user_id}"


@transaction.atomic
def account_delete(*, user: User) -> User:
    """Remove a player's personal data but keep the row, so finished games stay intact.

    Games point at the user row; they will show the anonymous name from now on, and what
    they stored by value (names in game rows, default table names) is rewritten to it
    (games.services.deleted_players.player_forget). Other open sessions end by themselves: the new
    (unusable) password changes the session hash Django checks on every request, and the
    account is inactive; its open sockets are closed by User.save (accounts/sockets.py).
    """
    from games.services.deleted_players import (
        player_forget,  # games builds on accounts, not the reverse
    )

    old_username, old_name = user.username, user.display_name
    anonymous = anonymous_name(user.pk)
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
    player_forget(user_id=user.pk, old_name=old_name, anonymous=anonymous)
    # Login throttling keeps usernames and addresses; they are personal data too.
    for model in (AccessAttempt, AccessLog, AccessFailureLog):
        model.objects.filter(username=old_username).delete()
    return user
