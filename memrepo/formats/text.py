"""Text helpers that give entries their identity and their links."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping

__all__ = ["entry_id", "find_links", "normalize_text"]

# No nested brackets inside a link, so every "[[" is tried once and each try stops at the
# next bracket: linear on any input, even a 10 MB line of brackets.
_LINK = re.compile(r"\[\[([^\[\]]+)\]\]")


def normalize_text(text: str) -> str:
    """Casefold and collapse whitespace, so two spellings of one fact compare equal."""
    return " ".join(text.casefold().split())


def entry_id(text: str, metadata: Mapping[str, str]) -> str:
    """The stable id of an entry: its ``subject``, else a short hash of its normalized text.

    A subject names a single-valued fact, so the id survives rewording; without one, the
    id changes exactly when the normalized text does.
    """
    subject = metadata.get("subject", "")
    if subject:
        return subject
    digest = hashlib.sha256(normalize_text(text).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:10]


def find_links(text: str) -> tuple[str, ...]:
    """The targets of ``[[target]]`` links in ``text``, in order (``[[a|label]]`` gives ``a``)."""
    if "[[" not in text:
        return ()
    targets = []
    for match in _LINK.finditer(text):
        target = match.group(1).split("|", 1)[0].strip()
        if target:
            targets.append(target)
    return tuple(targets)
