"""Sign-up and settings forms, built on django.contrib.auth's so password rules stay Django's."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.http import HttpRequest

from accounts.lockout import password_confirmed
from accounts.models import User
from accounts.validators import RESERVED_PREFIX


class _UniqueNameAndEmailMixin(forms.ModelForm):  # type: ignore[type-arg]
    """Case-insensitive uniqueness, checked here so the error sits next to the field."""

    instance: User

    def _others(self) -> Any:
        others = User.objects.all()
        if self.instance.pk:
            others = others.exclude(pk=self.instance.pk)
        return others

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        if self._others().filter(display_name__iexact=name).exists():
            raise forms.ValidationError("That display name is taken.", code="taken")
        return name

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip()
        if self._others().filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with that e-mail already exists.", code="taken")
        return email


class SignUpForm(_UniqueNameAndEmailMixin, UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        help_text="Only used to reset your password. Never shown to other players."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")
        help_texts = {
            "username": "For logging in. Letters, digits and @ . + - _ only.",
            "display_name": "What other players see: 3-24 letters, digits, spaces, _ - .",
        }

    def clean_username(self) -> str | None:
        username: str | None = super().clean_username()  # None: already taken
        if username and username.lower().startswith(RESERVED_PREFIX):
            raise forms.ValidationError(
                "Usernames starting with “deleted-” are kept for removed accounts.",
                code="reserved",
            )
        return username


class PlayerLoginForm(AuthenticationForm):
    """Django's login form; bot accounts are refused even with a working password.

    A bot account is played by the computer (``User.is_bot``). Bots made by the site have
    no usable password, but an account can be made a bot in the admin, or a bot given a
    password there: the login form is where "cannot log in" is kept.
    """

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        if getattr(user, "is_bot", False):
            raise forms.ValidationError(
                "This is a bot account, played by the computer: it cannot log in.",
                code="bot_account",
            )


class AccountSettingsForm(_UniqueNameAndEmailMixin):
    """Display name and e-mail. A new e-mail address needs the current password: it is where
    password resets go, so whoever changes it can take the account over with a reset. Without
    the check anyone at an open session (a shared computer, a stolen cookie) could."""

    email = forms.EmailField(help_text="Only used to reset your password.")
    current_password = forms.CharField(
        label="Your password",
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text="Only needed to change your e-mail address.",
    )

    class Meta:
        model = User
        fields = ("display_name", "email")

    def __init__(self, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request
        self.email_before = self.instance.email

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        email = data.get("email")
        changed = email is not None and email.lower() != (self.email_before or "").lower()
        password = data.get("current_password") or ""
        if changed and not password_confirmed(self.request, self.instance, password):
            self.add_error(
                "current_password",
                forms.ValidationError(
                    "Enter your password to change your e-mail address.",
                    code="password_needed",
                ),
            )
        return data


class GamePreferencesForm(forms.ModelForm):  # type: ignore[type-arg]
    """How cards look and sound; a form of its own so saving it never touches name or e-mail."""

    class Meta:
        model = User
        fields = ("card_size", "deck_colours", "sound")
        widgets = {
            "card_size": forms.RadioSelect,
            "deck_colours": forms.RadioSelect,
        }


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text="We ask again so that nobody can delete your account from an open session.",
    )

    def __init__(self, *args: Any, user: User, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.request = request

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not password_confirmed(self.request, self.user, password):
            raise forms.ValidationError("That is not your password.", code="wrong_password")
        return password


class CheckedPasswordChangeForm(PasswordChangeForm):
    """Django's form, its old password checked through the login lockouts (password_confirmed)."""

    def __init__(self, user: User, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password: str = self.cleaned_data["old_password"]
        if not password_confirmed(self.request, self.user, old_password):
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password
