"""Celery tasks: fetch by id, call the services. Both are idempotent, so repeats are harmless."""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True)
def advance(tournament_id: int) -> bool:
    """A game at one of the tournament's tables ended (or it resumed): do what is due.

    A failure is stored on the tournament and retried by the sweeper (``advance_safely``).
    """
    from tournaments import services

    return services.advance_safely(tournament_id=tournament_id)


@shared_task(acks_late=True)
def sweep() -> dict[str, int]:
    """Celery beat: registration windows, scheduled starts, and a backstop for lost tasks."""
    from tournaments import services

    return services.sweep()


@shared_task(acks_late=True)
def sit_and_go(tournament_id: int) -> bool:
    """A full sit-and-go's countdown is over: start it (nothing if a withdrawal cancelled it)."""
    from tournaments import services

    return bool(services.sit_and_go_safely(tournament_id=tournament_id))
