"""Create the demo admin and bot accounts; running it again changes nothing but the output.

`bin/run` calls it on every start, so it must be idempotent: the admin password is made
once, kept in var/ (never committed), and printed each time so a new user can log in.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.models import User

ADMIN_USERNAME = "admin"
# (username, display name): the bots that fill seats in demo tables.
DEMO_BOTS = (
    ("bot-ada", "Ada Bot"),
    ("bot-blaise", "Blaise Bot"),
    ("bot-cleo", "Cleo Bot"),
    ("bot-dmitri", "Dmitri Bot"),
)


class Command(BaseCommand):
    help = "Create the demo admin account and bot accounts (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--password-file",
            type=Path,
            default=None,
            help="Where the admin password is kept (default: var/demo-admin-password).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.PRODUCTION:
            raise CommandError(
                "seed_demo makes a known admin login; it refuses to run in production."
            )
        password_file: Path = options["password_file"] or settings.VAR_DIR / "demo-admin-password"
        with transaction.atomic():
            password = self._ensure_admin(password_file)
            created_bots = self._ensure_bots()
        self.stdout.write(f"Admin login: {ADMIN_USERNAME} / {password}  (kept in {password_file})")
        self.stdout.write(
            f"Bot accounts: {len(DEMO_BOTS)} ({created_bots} new): "
            + ", ".join(name for _, name in DEMO_BOTS)
        )

    def _ensure_admin(self, password_file: Path) -> str:
        password = password_file.read_text().strip() if password_file.exists() else ""
        admin = User.objects.filter(username=ADMIN_USERNAME).first()
        if admin is not None and password and admin.check_password(password):
            return password
        password = secrets.token_urlsafe(12)
        if admin is None:
            admin = User(username=ADMIN_USERNAME, display_name="Admin", email="admin@localhost")
        admin.is_staff = admin.is_superuser = admin.is_active = True
        admin.set_password(password)
        admin.save()
        password_file.parent.mkdir(parents=True, exist_ok=True)
        password_file.write_text(password + "\n")
        password_file.chmod(0o600)
        return password

    def _ensure_bots(self) -> int:
        created = 0
        for username, display_name in DEMO_BOTS:
            bot, was_created = User.objects.get_or_create(
                username=username, defaults={"display_name": display_name, "is_bot": True}
            )
            if was_created:
                bot.set_unusable_password()
                bot.save(update_fields=["password"])
                created += 1
        return created
