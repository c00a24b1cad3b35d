"""A bot's turn: its seat's view in, one action out, through the same move service as people."""

from __future__ import annotations

import logging
import random

from games import engine, selectors
from games.models import Move
from games.services import moves, shared

log = logging.getLogger(__name__)


def play_one(table_id: int, version: int, *, rng: random.Random) -> bool:
    """Apply one move for the first bot-played seat that must act at ``version``."""
    from games import bots

    work = selectors.pending_work(table_id, version)
    if work is None or not work.bot_seats:
        return False
    snap = selectors.load_snapshot(table_id)
    seat = work.bot_seats[0]
    info = snap.seats[seat]
    level = info.bot_level or "easy"
    view = engine.view(snap.state, seat)
    legal = engine.legal_actions(snap.state, seat)
    if not legal:
        return False
    action = bots.choose_action(level, view, legal, rng, time_limit_s=bots.LIVE_TIME_LIMIT_S)
    try:
        moves.move_submit(
            table_id=table_id,
            seat=seat,
            action=engine.action_to_json(action),
            expected_version=version,
            actor=Move.Actor.BOT,
        )
    except shared.TableError as exc:
        log.info("bot move refused", extra={"table": table_id, "code": exc.code})
        return False
    return True
