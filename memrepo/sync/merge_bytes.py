"""A lossless UTF-8 view of bytes that are not UTF-8, so they can be merged entry by entry.

A memory file saved by another tool (Latin-1 from an old editor, a stray byte pasted from
a terminal) is still a memory file: its entries must merge like any other, or the other
machine's new entries would fall off main. The parser reads UTF-8 only, so each byte that
is not part of valid UTF-8 is stood in for by one code point of a private-use range
(U+10FF80..U+10FFFF, byte ``0xXY`` as U+10FFXY), the file is merged, and the stand-ins
are turned back into their bytes. Every other byte is left as it is, so a line of the
result is byte for byte a line of one input.

A file that already holds a code point of that range could not be told apart after the
merge; :func:`to_utf8` then returns None and the caller merges lines instead.
"""

from __future__ import annotations

__all__ = ["from_utf8", "to_utf8"]

#: The stand-in for byte ``b`` (0x80..0xFF, the only bytes invalid UTF-8 leaves over).
_STAND_IN = 0x10FF00
#: Python's ``surrogateescape`` decodes an invalid byte ``b`` as U+DC00 + b.
_ESCAPED = 0xDC00
_TO_STAND_IN = {_ESCAPED + b: _STAND_IN + b for b in range(0x80, 0x100)}
_FROM_STAND_IN = {v: k for k, v in _TO_STAND_IN.items()}


def to_utf8(data: bytes) -> bytes | None:
    """``data`` as valid UTF-8 with its invalid bytes stood in for; None when ``data``
    already uses the stand-ins (the view would not be reversible)."""
    text = data.decode("utf-8", "surrogateescape")
    if any(ord(ch) >= _STAND_IN + 0x80 for ch in text):
        return None
    return text.translate(_TO_STAND_IN).encode("utf-8")


def from_utf8(data: bytes) -> bytes:
    """The original bytes of a :func:`to_utf8` view (or of lines taken from views)."""
    return data.decode("utf-8").translate(_FROM_STAND_IN).encode("utf-8", "surrogateescape")
