"""Small text measures the screen needs: whitespace, content, and cutting at a word.

Everything here is linear in the length of the text, because a producer may hand us a
10 MB tool dump by mistake.
"""

from __future__ import annotations

import re

from .secrets import REDACTION_MARKER

# ``\w`` is Unicode-aware for str patterns; without the underscore it is exactly "a letter
# or a digit in any script", so CJK text counts as content and "___" does not.
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")

#: Appended to a cut text, so a reader can tell the note goes on.
ELLIPSIS = "…"

# A word-boundary cut is only worth it when it keeps at least this share of the limit.
_MIN_KEPT_SHARE = 0.8

# No marker is longer than this, so it is enough to look this far around a cut.
_MARKER_REACH = 64


def collapse_whitespace(text: str) -> str:
    """``text`` with every run of whitespace (newlines included) as one space, stripped."""
    return " ".join(text.split())


def has_letter_or_digit(text: str) -> bool:
    """True when ``text`` holds a letter or digit of any script (CJK included)."""
    return _LETTER_OR_DIGIT.search(text) is not None


def cut_at_word_boundary(text: str, limit: int = 1000) -> str:
    """``text`` shortened to at most ``limit`` characters, ending in "…" when shortened.

    The cut falls on the last whitespace before the limit when there is one in the last
    ~20% of the allowed length, so a note does not end mid-word; otherwise it is a hard
    cut. A ``[redacted <kind>]`` marker is never split: a cut inside one moves before it,
    so half a marker cannot pass for text.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if len(text) <= limit:
        return text
    budget = limit - len(ELLIPSIS)
    # The character at ``budget`` is included: whitespace there allows a cut at budget.
    boundary = _last_whitespace(text, int(budget * _MIN_KEPT_SHARE), budget + 1)
    cut = boundary if boundary is not None else budget
    cut = _outside_markers(text, cut)
    return text[:cut].rstrip() + ELLIPSIS


def _last_whitespace(text: str, start: int, stop: int) -> int | None:
    for index in range(min(stop, len(text)) - 1, start - 1, -1):
        if text[index].isspace():
            return index
    return None


def _outside_markers(text: str, cut: int) -> int:
    """Move ``cut`` to the start of a redaction marker that it would split."""
    window_start = max(0, cut - _MARKER_REACH)
    for marker in REDACTION_MARKER.finditer(text, window_start, cut + _MARKER_REACH):
        if marker.start() < cut < marker.end():
            return marker.start()
    return cut
