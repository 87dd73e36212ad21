"""Where the entries and index links of a file are: the result of block classification.

Two classifiers produce it, the fast line scanner (:mod:`memrepo.formats.scan`) and the
markdown-it one (:mod:`memrepo.formats.blocks`); they must agree, so everything they share
(what a blank line is, what an ATX heading says, when a heading opens the Index) is here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Layout", "atx_heading_text", "is_blank", "is_index_title"]


@dataclass(slots=True)
class Layout:
    """Line numbers (0-based, in the whole file) of what a classifier found."""

    #: Top-level one-line bullets outside the Index.
    entry_lines: list[int] = field(default_factory=list)
    #: Top-level one-line bullets inside an Index section.
    index_lines: list[int] = field(default_factory=list)
    #: Top-level bullet items that span several lines (never entries).
    multi_line: list[int] = field(default_factory=list)
    #: The first ``## Index`` heading, and the line where its section ends (exclusive).
    index_heading: int | None = None
    index_end: int | None = None


def is_blank(text: str) -> bool:
    """A blank line as markdown-it sees it: only spaces and tabs."""
    return not text.strip(" \t")


def atx_heading_text(line: str) -> str:
    """The text of an ATX heading line (``## Title ##`` -> ``Title``), as markdown-it reads it.

    Both classifiers call this on the raw line, so they agree by construction.
    """
    rest = line.lstrip(" ").lstrip("#").strip(" \t")
    closing = rest.rstrip("#")
    if not closing:
        return ""
    if closing != rest and closing[-1] in " \t":
        rest = closing
    return rest.strip()


def is_index_title(title: str) -> bool:
    """Whether a level-2 heading's text opens the Index (``Index``, any case)."""
    return title.strip().casefold() == "index"
