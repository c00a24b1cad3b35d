"""Account pages. Log in, log out and passwords are django.contrib.auth's own views."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts import sockets
from accounts.forms import (
    AccountSettingsForm,
    CheckedPasswordChangeForm,
    DeleteAccountForm,
    GamePreferencesForm,
    SignUpForm,
)
from accounts.lockout import clear_lockouts
from accounts.services import account_delete
from accounts.throttle import admit_password_reset, record_signup, signup_refusal
from config.client_address import client_address

PREVIEW = [("A", "♥", "hearts"), ("K", "♦", "diamonds"), ("7", "♣", "clubs"), ("Q", "♠", "spades")]


def _next_or_lobby(request: HttpRequest) -> str:
    """Where to go after signing up: a safe ``next`` (a path on this site), else the lobby.

    People sign up to play, so they land where the tables are, not on the account page.
    Only a path (``/...``) is followed: ``redirect`` reads any other word as a view name,
    and ``next=x`` used to end a successful sign-up in a server error.
    """
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return resolve_url("home")


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_next_or_lobby(request))
    form = SignUpForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        address = client_address(request)
        try:
            with transaction.atomic():
                refusal = signup_refusal(address=address)
                if refusal is None:
                    user = form.save()
                    record_signup(address=address)
        except IntegrityError:
            # The same name or e-mail was taken between the form's check and the save (a
            # double-clicked button sends the form twice at once): said as a field error.
            next_url = request.POST.get("next") or request.GET.get("next") or ""
            context = {"form": _checked_again(request), "next": next_url}
            return render(request, "accounts/signup.html", context, status=409)
        if refusal is None:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.display_name}! Your account is ready.")
            return redirect(_next_or_lobby(request))
        form.add_error(None, refusal)
        status = 429
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    return render(request, "accounts/signup.html", {"form": form, "next": next_url}, status=status)


def _checked_again(request: HttpRequest) -> SignUpForm:
    """The posted form validated afresh, now that the clash is committed and visible."""
    form = SignUpForm(request.POST)
    if form.is_valid():  # the other request's account was rolled back after all
        form.add_error(None, "That name or e-mail address was taken just now; try again.")
    return form


@login_required
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/account.html")


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: HttpRequest) -> HttpResponse:
    form = AccountSettingsForm(request.POST or None, instance=request.user, request=request)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your settings are saved.")
        return redirect("accounts:account")
    preferences = GamePreferencesForm(instance=request.user, prefix="pref")
    return render(
        request,
        "accounts/settings.html",
        {"form": form, "preferences": preferences, "preview": PREVIEW},
    )


@login_required
@require_http_methods(["POST"])
def game_preferences(request: HttpRequest) -> HttpResponse:
    """Card size, deck colours and sound: saved on the account, applied on every page."""
    preferences = GamePreferencesForm(request.POST, instance=request.user, prefix="pref")
    if preferences.is_valid():
        preferences.save()
        messages.success(request, "Your game preferences are saved.")
        return redirect("accounts:settings")
    form = AccountSettingsForm(instance=request.user, request=request)
    return render(
        request,
        "accounts/settings.html",
        {"form": form, "preferences": preferences, "preview": PREVIEW},
        status=400,
    )


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    form = DeleteAccountForm(
        request.POST or None,
        user=request.user,  # type: ignore[arg-type]
        request=request,
    )
    if request.method == "POST" and form.is_valid():
        account_delete(user=request.user)  # type: ignore[arg-type]
        logout(request)
        messages.success(request, "Your account is deleted. Your past games stay, unnamed.")
        return redirect("home")
    return render(request, "accounts/delete.html", {"form": form})


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's view; the sockets of this session stay open, those of the others close. The
    old password is checked through the login lockouts (CheckedPasswordChangeForm)."""

    form_class = CheckedPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_valid(self, form: Any) -> HttpResponse:
        with sockets.keeping_session(self.request.session.session_key):
            return super().form_valid(form)


def privacy(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/privacy.html")


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    """Django's reset form, refused with a clear message past the limits of
    accounts/throttle.py (the same whether or not an account uses the address)."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        refusal = admit_password_reset(
            address=client_address(self.request), email=form.cleaned_data["email"]
        )
        if refusal:
            form.add_error(None, refusal)
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)


class LockLiftingPasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Choosing a new password from the e-mailed link also lifts any login lockout."""

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:  # type: ignore[type-arg]
        response = super().form_valid(form)
        clear_lockouts(form.user.get_username())
        return response
