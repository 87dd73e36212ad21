"""Small text measures the screen needs: whitespace, invisible characters, content, and
cutting at a word.

Everything here is linear in the length of the text, because a producer may hand us a
10 MB tool dump by mistake.

What ``collapse_whitespace`` does with characters that do not show (``clean_invisible``):

- control characters (C0, DEL, C1: a NUL, a bell, an escape sequence) become a space: a
  NUL makes git treat the memory file as binary, and an escape sequence can redraw a
  terminal. Tab, newline and the other whitespace controls were spaces already.
- bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) are
  removed: they reorder what a reader sees ("Trojan Source", CVE-2021-42574). The marks
  LRM, RLM and ALM stay: they change no order and right-to-left text needs them.
- zero-width and invisible characters that hide or split text are removed: zero-width
  space, word joiner, invisible operators, the BOM (U+FEFF) and the Mongolian vowel
  separator, and Unicode tag characters (U+E0000-U+E007F, which smuggle invisible ASCII
  to a model). Zero-width joiner and non-joiner stay: Persian, Indic scripts and emoji
  sequences need them. Removing them before secret detection also rejoins a token split
  by a zero-width space.
- lone surrogates (which Python lets a str hold, and UTF-8 cannot encode) become U+FFFD.
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


_CONTROL = "\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f"
_HIDDEN = "\u180e\u200b\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f"
_INVISIBLE = re.compile(f"[{_CONTROL}]|[{_HIDDEN}]|[\ud800-\udfff]")
# For ASCII texts (most): control bytes other than whitespace map to NUL, all else to "a".
_ASCII_CONTROL_TABLE = bytes(
    0 if (byte < 32 and chr(byte) not in "\t\n\v\f\r\x1c\x1d\x1e\x1f") or byte == 127 else 97
    for byte in range(256)
)


def _replacement(match: re.Match[str]) -> str:
    char = match.group()
    if char <= "\x9f":
        return " "
    if "\ud800" <= char <= "\udfff":
        return "\ufffd"
    return ""


def clean_invisible(text: str) -> str:
    """``text`` with control characters as spaces and hiding characters removed (see the
    module docstring for which and why). A text without any is returned as it is."""
    if text.isascii():
        if 0 not in text.encode("ascii").translate(_ASCII_CONTROL_TABLE):
            return text
    elif _INVISIBLE.search(text) is None:
        return text
    return _INVISIBLE.sub(_replacement, text)


def collapse_whitespace(text: str) -> str:
    """``text`` cleaned of invisible characters (``clean_invisible``), every run of
    whitespace (newlines included) as one space, stripped."""
    return " ".join(clean_invisible(text).split())


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
