"""The sweeper is scheduled by beat, and the table timings come from the environment."""

from django.conf import settings

from config.celery import app


def test_beat_runs_the_sweeper_every_few_seconds():
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-tables"]
    assert entry["task"] == "games.tasks.sweep"
    assert 0 < entry["schedule"] <= 10
    assert "games.tasks.sweep" in app.tasks


def test_tests_run_bots_and_deals_without_waiting():
    assert settings.BOT_MOVE_DELAY_SECONDS == 0
    assert settings.HAND_PAUSE_SECONDS == 0
