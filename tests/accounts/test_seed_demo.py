"""`manage.py seed_demo`, run by bin/run on every start, must be idempotent."""

import pytest
from django.core.management import call_command

from accounts.management.commands.seed_demo import DEMO_BOTS
from accounts.models import User

pytestmark = pytest.mark.django_db


def seed(tmp_path, capsys):
    call_command("seed_demo", password_file=tmp_path / "admin-password")
    return capsys.readouterr().out


def test_it_creates_an_admin_and_prints_working_credentials(tmp_path, capsys):
    output = seed(tmp_path, capsys)
    password = (tmp_path / "admin-password").read_text().strip()
    assert f"Admin login: admin / {password}" in output
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff and admin.check_password(password)


def test_it_creates_bot_accounts_that_cannot_log_in(tmp_path, capsys):
    seed(tmp_path, capsys)
    bots = User.objects.filter(is_bot=True)
    assert sorted(bots.values_list("username", flat=True)) == sorted(u for u, _ in DEMO_BOTS)
    assert not any(bot.has_usable_password() for bot in bots)


def test_running_it_twice_changes_nothing(tmp_path, capsys):
    first = seed(tmp_path, capsys)
    snapshot = list(User.objects.order_by("pk").values_list("pk", "username", "password"))
    second = seed(tmp_path, capsys)
    assert list(User.objects.order_by("pk").values_list("pk", "username", "password")) == snapshot
    assert first.splitlines()[0] == second.splitlines()[0]
    assert "(0 new)" in second


def test_it_makes_a_new_password_when_the_kept_one_is_lost(tmp_path, capsys):
    seed(tmp_path, capsys)
    (tmp_path / "admin-password").unlink()
    seed(tmp_path, capsys)
    password = (tmp_path / "admin-password").read_text().strip()
    assert User.objects.get(username="admin").check_password(password)
