"""What a parsed memory file holds: entries, index links and problems."""

from __future__ import annotations

from dataclasses import dataclass

from memrepo.formats.text import entry_id

__all__ = ["Entry", "IndexLink", "Problem"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One fact: a top-level bullet that spans one line, with its metadata group decoded."""

    #: 0-based index into ``Document.lines``.
    line_no: int
    #: The bullet's text without marker and metadata group, stripped.
    text: str
    #: Decoded values in file order; ``{}`` when the line has no metadata group.
    metadata: dict[str, str]
    #: ``[[target]]`` targets in the text, in order.
    links: tuple[str, ...]
    #: The whole line as in the file, without its ending.
    raw: str

    @property
    def id(self) -> str:
        """The entry's stable id: its ``subject``, else a hash of its normalized text."""
        return entry_id(self.text, self.metadata)


@dataclass(frozen=True, slots=True)
class IndexLink:
    """A ``- [[target]]`` bullet in the ``## Index`` section of ``MEMORY.md``."""

    line_no: int
    #: The first link target of the line, as written inside ``[[ ]]`` (stripped).
    target: str
    raw: str


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in a file that reads, but not as its author probably meant."""

    #: 0-based line, or ``None`` for the file as a whole.
    line_no: int | None
    message: str
