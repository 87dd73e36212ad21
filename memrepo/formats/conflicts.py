"""Conflict markers git leaves in a file it could not merge, found line by line.

A person who resolves a conflict by committing the file as git left it commits the
markers with it: the ``<<<<<<<`` and ``>>>>>>>`` lines read as text, both sides as
entries. Those two are never markdown anyone means (a heading of ``<`` or a blockquote
seven deep), so each is flagged wherever it stands, also when the rest of the block was
removed by hand. ``=======`` and ``|||||||`` are flagged only between them: alone,
``=======`` is the underline of a setext heading.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["conflict_markers"]

_SIZE = 7  # git's default conflict-marker-size
_OPEN, _BASE, _SPLIT, _CLOSE = "<" * _SIZE, "|" * _SIZE, "=" * _SIZE, ">" * _SIZE


def _is_marker(text: str, marker: str, *, labelled: bool) -> bool:
    """``marker`` alone on the line, or (when ``labelled``) followed by a space and a label."""
    if not text.startswith(marker):
        return False
    rest = text[_SIZE:]
    if labelled:
        return not rest.strip() or rest[0] == " "
    return not rest.strip()


def conflict_markers(texts: Sequence[str]) -> list[tuple[int, str]]:
    """The 0-based line numbers of conflict markers, each with the marker it holds."""
    found: list[tuple[int, str]] = []
    inside = False
    for n, text in enumerate(texts):
        if not text or text[0] not in "<|=>":
            continue
        if _is_marker(text, _OPEN, labelled=True):
            found.append((n, _OPEN))
            inside = True
        elif _is_marker(text, _CLOSE, labelled=True):
            found.append((n, _CLOSE))
            inside = False
        elif inside and (
            _is_marker(text, _SPLIT, labelled=False) or _is_marker(text, _BASE, labelled=True)
        ):
            found.append((n, text[:_SIZE]))
    return found
