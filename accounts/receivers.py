"""Logging out and removing an account row end their open sockets too (accounts/sockets.py).

Password changes and suspensions are told by ``User.save`` itself, whichever path saved them.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete
from django.dispatch import receiver

from accounts import sockets
from accounts.models import User


@receiver(user_logged_out, dispatch_uid="accounts.sockets.logged_out")
def close_sockets_of_the_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        sockets.close_session_sockets(key)


@receiver(post_delete, sender=User, dispatch_uid="accounts.sockets.user_removed")
def close_sockets_of_a_removed_user(sender: Any, instance: User, **kwargs: Any) -> None:
    sockets.close_user_sockets(instance.pk, reason=sockets.REASON_ACCOUNT_DELETED)
