"""What an organizer can do to one tournament from its admin page, and when it applies.

Each state change is a button on the tournament's change page that leads to a confirmation.
Whether a button shows is decided here from the tournament's state; the service decides again
when it runs (the state may have moved on since the page was drawn) and its refusal is what the
organizer reads. Adding an action (say, resuming an event that needs attention) is one entry in
``ACTIONS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q

from tournaments import late_registration, services
from tournaments.models import Entry, Tournament, TournamentTable

Status = Tournament.Status
CANCEL_NOTICE = "Cancelled by the organizer."
BOT_USERNAME = "tourney-bot-{}"
BOT_NAME = "Tourney bot {}"
MAX_BOTS_AT_ONCE = 200


@dataclass(frozen=True)
class StateAction:
    slug: str
    label: str
    done: str  # the admin history line and, lower-cased, the success message
    question: str  # the confirmation page's question
    applies: Callable[[Tournament], bool]
    run: Callable[[int], Any]
    danger: bool = False


ACTIONS: tuple[StateAction, ...] = (
    StateAction(
        "open",
        "Open registration",
        "Registration opened",
        "Open registration? Players can then enter from the public page.",
        lambda t: t.status in (Status.DRAFT, Status.CLOSED),
        lambda pk: services.registration_open(tournament_id=pk, by_hand=True),
    ),
    StateAction(
        "close",
        "Close registration",
        "Registration closed",
        "Close registration? Nobody else can enter until you open it again.",
        lambda t: t.status == Status.REGISTRATION,
        lambda pk: services.registration_close(tournament_id=pk),
    ),
    StateAction(
        "start",
        "Start",
        "Started",
        "Start now? Entrants are seated and the first hands are dealt at once.",
        lambda t: t.status in (Status.REGISTRATION, Status.CLOSED),
        lambda pk: services.start(tournament_id=pk),
    ),
    StateAction(
        "pause",
        "Pause",
        "Paused",
        "Pause? Every table's clock and bots stop until you resume.",
        lambda t: t.status == Status.RUNNING,
        lambda pk: services.pause(tournament_id=pk),
    ),
    StateAction(
        "resume",
        "Resume",
        "Resumed",
        "Resume? The clocks run again and the next round starts when it is due.",
        lambda t: t.status == Status.PAUSED or (t.status == Status.RUNNING and t.needs_attention),
        lambda pk: services.resume(tournament_id=pk),
    ),
    StateAction(
        "cancel",
        "Cancel",
        "Cancelled",
        f'Cancel this tournament for good? Its public page will say "{CANCEL_NOTICE}"',
        lambda t: t.status in Tournament.UPCOMING,
        lambda pk: services.cancel(tournament_id=pk, notice=CANCEL_NOTICE),
        danger=True,
    ),
)
BY_SLUG = {a.slug: a for a in ACTIONS}


def attention(t: Tournament) -> str | None:
    """Why this tournament needs its organizer (shown at the top of its page and in the
    list), or None. The sweeper's error isolation stores failures on the tournament and holds
    it after repeated ones (``services.advance_safely``); "Resume" clears it."""
    if not t.needs_attention:
        return None
    return t.last_error or "Advancing this tournament failed repeatedly."


def available(t: Tournament) -> list[StateAction]:
    return [a for a in ACTIONS if a.applies(t)]


def no_longer_applies(t: Tournament) -> str:
    return f"That no longer applies: the tournament is now {t.get_status_display().lower()}."


def may_disqualify(t: Tournament, entry: Entry) -> bool:
    return t.status in Tournament.IN_PLAY and entry.is_in


def may_stop(t: Tournament, table: TournamentTable) -> bool:
    return (
        t.status in Tournament.IN_PLAY
        and table.status == TournamentTable.Status.OPEN
        and table.table_id is not None
    )


def stop_question(t: Tournament, table: TournamentTable) -> str:
    if t.is_mtt:
        return (
            f"Stop {table} for good? Its hand in play is called off (no chips move) and its "
            "players are seated at the other tables."
        )
    return (
        f"Stop {table} for good? Its game is called off and the tournament, which has no "
        "other table, is cancelled with no result."
    )


def may_add_bots(t: Tournament) -> bool:
    """Entrants (bots or people) are added before the start, or while late entries last."""
    return t.status in Tournament.UPCOMING or late_registration.is_open(t)


def add_bots(t: Tournament, count: int) -> list[Entry]:
    """Enter ``count`` bot accounts (made on first use) that are not in this tournament yet.

    For practice events and for filling a field: every entry goes through
    ``services.entrant_add``, which refuses what a full or started tournament cannot take.
    """
    from accounts.models import User

    if not 1 <= count <= MAX_BOTS_AT_ONCE:
        raise services.TournamentError(
            "invalid_count", f"Add between 1 and {MAX_BOTS_AT_ONCE} bots at a time."
        )
    entered = Entry.objects.filter(tournament=t).values_list("user_id", flat=True)
    limit = services.table_size_limit(t)
    room = limit - len(entered)
    if 0 < room < count:  # none would be added: entrant_add refuses the first that does not fit
        places = "1 place is" if room == 1 else f"{room} places are"
        raise services.TournamentError(
            "full", f"Only {places} left (at most {limit} entrants): add at most {room}."
        )
    free = list(
        User.objects.filter(is_bot=True, username__startswith=BOT_USERNAME.format(""))
        .exclude(pk__in=entered)
        .order_by("pk")[:count]
    )
    number = User.objects.filter(username__startswith=BOT_USERNAME.format("")).count()
    while len(free) < count:
        number += 1
        username, name = BOT_USERNAME.format(number), BOT_NAME.format(number)
        if User.objects.filter(Q(username=username) | Q(display_name__iexact=name)).exists():
            continue  # a person may already call themselves so
        free.append(User.objects.create_user(username, display_name=name, is_bot=True))
    with transaction.atomic():
        return [services.entrant_add(tournament_id=t.pk, user=user) for user in free]
