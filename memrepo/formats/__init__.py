"""Read and write memory files in the Agent Memory Repo format; pure, no I/O.

``parse`` turns bytes into a :class:`Document` (lines, frontmatter, entries, index links,
problems) and ``serialize`` gives the same bytes back; edits on a document change only the
lines they name. This package imports nothing of memrepo but :mod:`memrepo.errors`.
"""

from __future__ import annotations

from memrepo.formats.document import Document, parse, serialize
from memrepo.formats.frontmatter import Frontmatter
from memrepo.formats.lines import Line, split_lines
from memrepo.formats.metadata import escape_value, format_entry, split_metadata, unescape_value
from memrepo.formats.model import Entry, IndexLink, Problem
from memrepo.formats.text import entry_id, find_links, normalize_text

__all__ = [
    "Document",
    "Entry",
    "Frontmatter",
    "IndexLink",
    "Line",
    "Problem",
    "entry_id",
    "escape_value",
    "find_links",
    "format_entry",
    "normalize_text",
    "parse",
    "serialize",
    "split_lines",
    "split_metadata",
    "unescape_value",
]
