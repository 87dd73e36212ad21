"""The ``<no-memory>`` opt-out: text carrying it must never be remembered."""

from __future__ import annotations

import re

# Case-insensitive and tolerant of spacing people and models produce: "<no-memory>",
# "< No-Memory >", "<no memory>", "<no_memory/>". Quantifiers are bounded, so a text of
# nothing but "<" and spaces is still scanned in linear time.
_NO_MEMORY = re.compile(
    r"<[ \t\r\n]{0,8}no[ \t\r\n]{0,8}[-_]?[ \t\r\n]{0,8}memory[ \t\r\n]{0,8}/?[ \t\r\n]{0,8}>",
    re.IGNORECASE,
)


def has_no_memory_marker(text: str | None) -> bool:
    """True when ``text`` contains a ``<no-memory>`` tag anywhere (None has none)."""
    return text is not None and _NO_MEMORY.search(text) is not None
