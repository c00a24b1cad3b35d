"""A dependency-free progress bar for long management commands."""

from __future__ import annotations

import time
from typing import TextIO


class Progress:
    """Redraws one line at most ten times a second: ``label [####    ] n/total rate``."""

    def __init__(self, label: str, total: int, *, stream: TextIO, quiet: bool = False) -> None:
        self.label, self.total, self.stream, self.quiet = label, max(total, 1), stream, quiet
        self.start = self.last = time.monotonic()
        self.done = 0

    def update(self, done: int) -> None:
        self.done = done
        now = time.monotonic()
        if self.quiet or (now - self.last < 0.1 and done < self.total):
            return
        self.last = now
        filled = int(30 * min(done, self.total) / self.total)
        rate = done / max(now - self.start, 1e-9)
        self.stream.write(
            f"\r{self.label:>8} [{'#' * filled}{' ' * (30 - filled)}] "
            f"{done}/{self.total} {rate:,.0f}/s"
        )
        self.stream.flush()

    def close(self) -> None:
        if not self.quiet:
            self.update(self.done)
            self.stream.write("\n")
            self.stream.flush()
