"""The review worker runs only when nothing else wants the processor.

A game review keeps a core busy for a minute or two; bot moves and turn clocks must not wait
for it. `nice` only weights the share (a niced process still gets about a tenth of a core
that a bot move wants); Linux's SCHED_IDLE class hands the core to any other runnable process
at once, which is what "a review is never in a hurry" means. Applied when a worker starts
that consumes nothing but the review queue (children of its pool inherit the class); on a
system without SCHED_IDLE the lowest nice value is the fallback.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable

logger = logging.getLogger(__name__)

REVIEW_QUEUES = frozenset({"review"})


def only_reviews(queues: Iterable[str]) -> bool:
    """Whether a worker consuming these queues does game reviews and nothing else."""
    names = set(queues)
    return bool(names) and names <= REVIEW_QUEUES


def lower_to_idle() -> str:
    """Put this process (and the children it forks later) in the idle scheduling class;
    returns what was done, for the log."""
    policy = getattr(os, "SCHED_IDLE", None)
    if policy is not None and hasattr(os, "sched_setscheduler"):
        try:
            os.sched_setscheduler(0, policy, os.sched_param(0))
            return "SCHED_IDLE"
        except OSError:
            pass
    try:
        os.nice(19 - os.nice(0))
    except OSError:
        return "unchanged"
    return "nice 19"
