"""How often the password-reset form may send an e-mail, and the sign-up form make an account.

Two limits in one sliding window (settings PASSWORD_RESET_*): per requesting address, so
one client cannot mail-bomb many people, and per e-mail address asked for, so nobody's
mailbox fills with links. The second counts the address typed, whether or not an account
uses it, so its refusal tells nothing about which addresses have accounts. Only accepted
requests count: refused ones cannot stretch the window.

Sign-ups are limited per client address in a sliding window too (settings SIGNUP_*): one
script could otherwise make accounts by the thousand (each a fresh name on the leaderboards,
a fresh five log-in tries, a fresh set of tables). A household or a school behind one address
still signs up several people an hour. Only accounts made count.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import PasswordResetRequest, SignUpRecord

TOO_MANY_FROM_ADDRESS = (
    "Too many password-reset requests came from your network in the last {minutes} minutes. "
    "Please try again later."
)
TOO_MANY_FOR_EMAIL = (
    "Reset links were already sent {limit} times in the last {minutes} minutes for this "
    "e-mail address, if an account uses it. Use the newest one (look in the spam folder too), "
    "or ask again later."
)


TOO_MANY_SIGN_UPS = (
    "Too many accounts were made from your network in the last {minutes} minutes. "
    "Please try again later, or log in to an account you have."
)


def email_digest(email: str) -> str:
    return hashlib.sha256(email.strip().lower().encode()).hexdigest()


@transaction.atomic
def admit_password_reset(*, address: str, email: str) -> str | None:
    """Record the request and return None, or return why it is refused (nothing recorded)."""
    now = timezone.now()
    window: timedelta = settings.PASSWORD_RESET_WINDOW
    minutes = int(window.total_seconds() // 60)
    recent = PasswordResetRequest.objects.filter(requested_at__gte=now - window)
    PasswordResetRequest.objects.filter(requested_at__lt=now - window).delete()
    if recent.filter(address=address).count() >= settings.PASSWORD_RESET_LIMIT_PER_ADDRESS:
        return TOO_MANY_FROM_ADDRESS.format(minutes=minutes)
    digest = email_digest(email)
    limit = settings.PASSWORD_RESET_LIMIT_PER_EMAIL
    if recent.filter(email_digest=digest).count() >= limit:
        return TOO_MANY_FOR_EMAIL.format(limit=limit, minutes=minutes)
    PasswordResetRequest.objects.create(address=address, email_digest=digest, requested_at=now)
    return None


def signup_refusal(*, address: str, now: datetime | None = None) -> str | None:
    """Why a sign-up from ``address`` is refused now (too many accounts made from it in the
    window), or None. Nothing is recorded: ``record_signup`` does that once the account is
    made, so a form with a mistake in it does not count."""
    now = now or timezone.now()
    window: timedelta = settings.SIGNUP_WINDOW
    SignUpRecord.objects.filter(created_at__lt=now - window).delete()
    made = SignUpRecord.objects.filter(address=address, created_at__gte=now - window).count()
    if made >= settings.SIGNUP_LIMIT_PER_ADDRESS:
        return TOO_MANY_SIGN_UPS.format(minutes=int(window.total_seconds() // 60))
    return None


def record_signup(*, address: str) -> None:
    SignUpRecord.objects.create(address=address)
