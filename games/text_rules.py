"""What free text other players see (a table's name, a chat line) may hold.

Any script, emoji (with their joiners and variation selectors) and punctuation are fine.
Refused: control characters (ESC, BEL, tab and newline in a one-line name...), the
text-direction overrides, embeddings and isolates (U+202A-U+202E, U+2066-U+2069), which turn
the rest of a line around ("\\u202eexe.gnp" reads "png.exe"), and text in which nothing shows
(zero-width spaces, format characters, filler letters such as U+3164 and the blank braille
pattern U+2800), which made a blank row in the lobby or a blank chat line. Display names have
their own, stricter rule (accounts/validators.py).
"""

from __future__ import annotations

import unicodedata

DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Letters and symbols (so not caught by their category) that draw nothing.
BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me"})


def text_problem(text: str) -> str | None:
    """Why other players should not be shown this text, in words, or None if it is fine."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            return "cannot hold control characters"
        if ch in DIRECTION_CONTROLS:
            return "cannot hold characters that reverse the direction of the text"
    if text and all(
        ch in BLANK_CHARACTERS or unicodedata.category(ch) in _INVISIBLE_CATEGORIES for ch in text
    ):
        return "must have something that shows, not only invisible characters"
    return None
