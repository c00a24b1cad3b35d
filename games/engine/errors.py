"""The engine's error types.

Why separate types: callers react differently to a bad move (show the reason to the player),
a bad table configuration (refuse to create the table) and a corrupt stored hand (alert an
operator). All three subclass ``ValueError`` so generic input handling still catches them.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on purpose."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IllegalAction(EngineError):
    """A move that the rules do not allow now; ``reason`` is a sentence for the player."""


class RulesError(EngineError):
    """An unknown preset or option, a bad option value or an impossible combination."""


class FormatError(EngineError):
    """Stored data that is corrupt, foreign or of a format this engine cannot read."""
