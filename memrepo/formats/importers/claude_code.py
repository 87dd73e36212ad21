"""Claude Code memory folders: `MEMORY.md` (an index) plus one file per memory.

A memory file has frontmatter `name` (a stable key), `description` (a one-line summary)
and `type` (user, feedback, project, reference), then the memory itself as markdown, often
with **Why:** and **How to apply:** lines. The whole body is one fact: its parts only make
sense together. `name` becomes the fact's subject, so a changed memory supersedes the old
one on the next import. Bullets of MEMORY.md that only link to a memory file are the
index; any other bullet or paragraph there is a fact of its own.
"""

from __future__ import annotations

import re

from memrepo.formats.importers.markdown import body_start, decode, facts_in_markdown, string_field
from memrepo.formats.importers.model import Fact, Rejected

INDEX_FILE = "MEMORY.md"
_INDEX_LINE = re.compile(r"^\s*(?:\[[^\]]*\]\([^)\s]+\.md\)|\[\[[^\]]+\]\])")


def read_memory_file(data: bytes, path: str) -> list[Fact | Rejected]:
    """The facts of one file of a Claude Code memory folder (`path` relative to it)."""
    decoded = decode(data, path)
    if isinstance(decoded, Rejected):
        return [decoded]
    texts, front = decoded
    start = body_start(front)
    if path.rsplit("/", 1)[-1] == INDEX_FILE:
        return [
            Fact(text, path, line)
            for line, text in facts_in_markdown(texts, start)
            if not _INDEX_LINE.match(text)
        ]
    meta = front.data if front is not None else {}
    parts = facts_in_markdown(texts, start)
    text = " ".join(part for _, part in parts) or string_field(meta, "description")
    if not text:
        return [Rejected(path, None, "no_text", "the memory file has no text")]
    line = parts[0][0] if parts else 1
    return [
        Fact(
            text,
            path,
            line,
            subject=string_field(meta, "name"),
            kind=string_field(meta, "type"),
        )
    ]
