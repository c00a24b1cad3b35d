"""What a display name may contain: it is shown to every other player at the table."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError

DISPLAY_NAME_MIN = 3
DISPLAY_NAME_MAX = 24
RESERVED_PREFIX = "deleted-"
_ALLOWED = re.compile(r"^[^\W_][\w .\-]*$")
# Letters (Unicode category Lo, so \w takes them) that draw nothing: a name made of them
# shows as a blank at the table and on the boards.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def validate_display_name(value: str) -> None:
    """Letters (any script), digits, spaces and _ - . only; no markup, no look-alike padding."""
    if len(value) < DISPLAY_NAME_MIN or len(value) > DISPLAY_NAME_MAX:
        raise ValidationError(
            "A display name has %(min)d to %(max)d characters.",
            code="length",
            params={"min": DISPLAY_NAME_MIN, "max": DISPLAY_NAME_MAX},
        )
    if value != value.strip() or "  " in value:
        raise ValidationError(
            "A display name cannot start or end with a space or hold two in a row.",
            code="spaces",
        )
    if not _ALLOWED.match(value):
        raise ValidationError(
            "Use letters, digits, spaces and _ - . only, starting with a letter or digit.",
            code="characters",
        )
    if any(ch in _BLANK_LETTERS for ch in value):
        raise ValidationError(
            "A display name cannot hold filler characters that show as blank space.",
            code="invisible",
        )
    if value.lower().startswith(RESERVED_PREFIX):
        raise ValidationError(
            "Names starting with “deleted-” are kept for removed accounts.", code="reserved"
        )
