"""Login lockouts: django-axes' per (account, address) limit, plus one per account.

Axes compares one failure count with one limit. Its pair limit (AXES_FAILURE_LIMIT, 5)
stops one address guessing; an attacker who rotates addresses never reaches it. So the
handler also sums the account's failures from every address in the cool-off window and
locks the account everywhere at AXES_ACCOUNT_FAILURE_LIMIT (20): four times the pair limit,
so a stranger cannot lock a player out with a handful of tries, and the player has a way
out at once: a password reset by e-mail clears both locks (`clear_lockouts`).
"""

from __future__ import annotations

from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import authenticate
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def account_failures(username: str | None, request: HttpRequest) -> int:
    """Wrong passwords for this username from any address, within the cool-off window."""
    if not username:
        return 0
    recent = AccessAttempt.objects.filter(
        username=username, attempt_time__gte=get_cool_off_threshold(request)
    )
    return recent.aggregate(total=Sum("failures_since_start"))["total"] or 0


class AccountLockoutHandler(AxesDatabaseHandler):
    """Axes' database handler, locked at either limit.

    `get_failures` is what axes compares with AXES_FAILURE_LIMIT, both before a login is
    tried and after it failed; reaching the account limit reports the pair limit, so every
    axes code path (the login view, the admin, the lockout page) treats it as locked.
    """

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        pair = int(super().get_failures(request, credentials))
        username = get_client_username(request, credentials)
        account_locked = account_failures(username, request) >= settings.AXES_ACCOUNT_FAILURE_LIMIT
        request.rummy_account_locked = account_locked  # type: ignore[attr-defined]
        if account_locked:
            return max(pair, get_failure_limit(request, credentials))
        return pair


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """The lockout page (AXES_LOCKOUT_CALLABLE): which lock, for how long, and the way out."""
    context = {
        "account_locked": getattr(request, "rummy_account_locked", False),
        "pair_limit": settings.AXES_FAILURE_LIMIT,
        "account_limit": settings.AXES_ACCOUNT_FAILURE_LIMIT,
        "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }
    return render(request, "accounts/locked_out.html", context, status=429)


def clear_lockouts(username: str) -> int:
    """Forget every failure for this account, from every address (after a password reset:
    whoever reset it holds the account's mailbox, and the old password no longer works)."""
    deleted, _ = AccessAttempt.objects.filter(username=username).delete()
    return deleted


def password_confirmed(request: HttpRequest, user: Any, password: str) -> bool:
    """The signed-in user's password asked again (to delete the account, change the password
    or the e-mail address), checked as a log-in is: through django-axes, so a wrong guess
    counts towards the same two locks, and a locked account or address is refused whatever
    was typed (axes' middleware then answers with the lockout page). Checked with
    `check_password` alone, these forms let anyone at an open session guess without limit."""
    found = authenticate(request, username=user.get_username(), password=password)
    return found is not None and found.pk == user.pk
