"""Text helpers that give entries their identity and their links."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence

__all__ = ["ELLIPSIS", "entry_id", "find_links", "normalize_text", "normalize_texts", "shorten"]

# No nested brackets inside a link, so every "[[" is tried once and each try stops at the
# next bracket: linear on any input, even a 10 MB line of brackets.
_LINK = re.compile(r"\[\[([^\[\]]+)\]\]")


def normalize_text(text: str) -> str:
    """Casefold and collapse whitespace, so two spellings of one fact compare equal."""
    return " ".join(text.casefold().split())


#: The ASCII characters `str.split` breaks on, but for the space.
_ASCII_SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"


def normalize_texts(texts: Sequence[str]) -> list[str]:
    """`normalize_text` of each text, for many texts (a file's entries) at once.

    Collapsing whitespace was most of the cost, and most text has nothing to collapse:
    once casefolded, text whose only whitespace is single spaces between words is its
    own normal form. One look at all the texts joined by spaces tells whether that holds
    for every one of them; only if not is each split and joined again.
    """
    folded = list(map(str.casefold, texts))
    joined = " ".join(folded)
    if "  " in joined or joined[:1] == " " or joined[-1:] == " " or _other_spaces(joined):
        return [" ".join(text.split()) for text in folded]
    return folded


def _other_spaces(text: str) -> bool:
    """Whether ``text`` holds whitespace other than the space: in ASCII text one of a few
    control characters (each found by a fast scan); beyond ASCII, every such character
    is unprintable (a test checks this against the Unicode database Python ships)."""
    if text.isascii():
        return any([char in text for char in _ASCII_SPACES])
    return not text.isprintable()


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


ELLIPSIS = "…"


def shorten(text: str, width: int) -> str:
    """`text` on one line, cut at the last word boundary that fits `width` with an ellipsis.

    A reason names the entries it is about (`'Deploys go through staging' (by user,
    ...)`), so a cut inside a word can turn it into another word; whole words keep it
    honest, and the ellipsis says there is more. A first word longer than `width` (a URL)
    is kept whole rather than broken.
    """
    words = text.split()
    line = " ".join(words)
    if len(line) <= width:
        return line
    kept = words[0]
    for word in words[1:]:
        if len(kept) + 1 + len(word) + len(ELLIPSIS) > width:
            break
        kept += " " + word
    return kept.rstrip(",;:") + ELLIPSIS
