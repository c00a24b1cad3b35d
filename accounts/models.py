"""The user model. Custom from the first migration, so later fields need no data surgery."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from accounts import sockets
from accounts.validators import DISPLAY_NAME_MAX, validate_display_name


class PlayerManager(UserManager["User"]):
    def _create_user(
        self, username: str, email: str | None, password: str | None, **extra_fields: Any
    ) -> User:
        # Bots, fixtures and createsuperuser may omit it; the username is always valid.
        extra_fields.setdefault("display_name", username)
        return super()._create_user(username, email, password, **extra_fields)


class User(AbstractUser):
    display_name = models.CharField(
        max_length=DISPLAY_NAME_MAX,
        validators=[validate_display_name],
        help_text="Shown to other players. Unique, whatever the letter case.",
    )
    is_bot = models.BooleanField(default=False, help_text="Played by the computer; cannot log in.")
    deleted_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Set when the player deleted the account; the row stays for past games.",
    )

    # Game preferences: how cards look and sound for this person, applied as classes on
    # <body> (static/css/preferences.css), so every page and table follows them.
    class CardSize(models.TextChoices):
        SMALL = "small", "Small"
        MEDIUM = "medium", "Medium"
        LARGE = "large", "Large"

    class DeckColours(models.TextChoices):
        FOUR = "four", "Four colours (♠ black, ♥ red, ♦ blue, ♣ green)"
        TWO = "two", "Two colours (♠ ♣ black, ♥ ♦ red)"

    card_size = models.CharField(
        max_length=6, choices=CardSize.choices, default=CardSize.MEDIUM, verbose_name="Card size"
    )
    deck_colours = models.CharField(
        max_length=4,
        choices=DeckColours.choices,
        default=DeckColours.FOUR,
        verbose_name="Deck colours",
    )
    sound = models.BooleanField(
        default=False,
        verbose_name="Sound",
        help_text="A short tone when it is your turn.",
    )

    objects = PlayerManager()

    REQUIRED_FIELDS = ["email"]

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                name="accounts_user_display_name_ci_unique",
                violation_error_message="That display name is taken.",
            ),
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="accounts_user_email_ci_unique",
                violation_error_message="An account with that e-mail already exists.",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.username

    @classmethod
    def from_db(cls, db: Any, field_names: Any, values: Any) -> User:
        user = super().from_db(db, field_names, values)
        # What is_active was when loaded, so that save() can tell a suspension.
        user._loaded_active = user.__dict__.get("is_active")
        return user

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.display_name:
            self.display_name = self.username
        new_password = self._password is not None and not self._state.adding
        was_active = getattr(self, "_loaded_active", None)
        super().save(*args, **kwargs)
        self._loaded_active = self.is_active
        # Open sockets were authenticated once, at their handshake: tell them (after commit).
        if was_active and not self.is_active:
            reason = sockets.REASON_ACCOUNT_DELETED if self.deleted_at else None
            sockets.close_user_sockets(self.pk, reason=reason or sockets.REASON_ACCOUNT_SUSPENDED)
        elif new_password:
            sockets.password_changed(self.pk)

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None


class PasswordResetRequest(models.Model):
    """One accepted request of the password-reset form, kept for its throttle window.

    The e-mail address asked for is stored as a digest (it may belong to nobody, and it is
    personal data when it does); accounts/throttle.py counts and prunes these rows.
    """

    address = models.CharField(max_length=45, help_text="Client address that asked.")
    email_digest = models.CharField(max_length=64, help_text="SHA-256 of the e-mail, lowercased.")
    requested_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["address", "requested_at"], name="accounts_reset_by_address"),
            models.Index(fields=["email_digest", "requested_at"], name="accounts_reset_by_email"),
        ]

    def __str__(self) -> str:
        return f"password reset asked from {self.address} at {self.requested_at:%Y-%m-%d %H:%M}"


class SignUpRecord(models.Model):
    """One account made through the sign-up form, kept for its throttle window only: the
    client address it came from (accounts/throttle.py counts and prunes these rows)."""

    address = models.CharField(max_length=45, help_text="Client address that signed up.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["address", "created_at"], name="accounts_signup_by_address"),
        ]

    def __str__(self) -> str:
        return f"sign-up from {self.address} at {self.created_at:%Y-%m-%d %H:%M}"


class Notice(models.Model):
    """One thing the site told a player ("you were moved to table 5"), kept so that nothing
    is lost while no page of theirs is open: the live copy goes out on the account's socket
    group (accounts/notices.py), this row stays for the pages that list notices.

    ``topic`` names what the notice is about in the sending app's words (for example
    ``tournament-12``): the accounts app does not know the apps above it, so it stores a
    string and lets them filter by it. ``key`` makes a notice that must go out once (a
    start reminder a periodic sweep may try again) unique per player.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=20)
    text = models.CharField(max_length=200)
    url = models.CharField(max_length=200, blank=True)
    topic = models.CharField(max_length=40, blank=True)
    key = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "topic", "created_at"], name="accounts_notice_by_topic"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key"],
                condition=~models.Q(key=""),
                name="accounts_notice_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}: {self.text}"
