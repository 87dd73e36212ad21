"""`memrepo lint --fix`: repair what lint finds and a machine can repair without asking.

Today that is one thing: entries below MEMORY.md's ``## Index``. A person who appends a
fact with ``echo "- fact" >> MEMORY.md`` puts it in the Index section; it reads as their
entry all the same (see `formats.document`), and the fix moves each such line, exactly
as written and in its order, to the end of the entries above the Index.

The fix is one commit of its own (``origin: lint``, ``by: user``: the person asked for
it), so it is undone like any write. It goes through the folder's one write transaction
(`MemoryFolder.transaction`): the person's pending edits, the appended line among them,
are committed first as their own edit, and an editor save during the fix is never lost.
"""

from __future__ import annotations

import pygit2

from memrepo.errors import FormatError
from memrepo.folder.lint import lint_folder
from memrepo.folder.messages import build_message
from memrepo.folder.repo import ENTRY_POINT, MemoryFolder, make_ref
from memrepo.folder.transaction import Change
from memrepo.formats import Document, Entry, parse, serialize
from memrepo.formats.layout import is_blank
from memrepo.models.folder import LintFixResult

__all__ = ["ORIGIN", "fix_folder", "move_index_entries"]

ORIGIN = "lint"
BY = "user"


def move_index_entries(doc: Document) -> list[Entry]:
    """Move every entry below the Index to above it, keeping their order and their
    bytes; return the entries moved (as they were before the move)."""
    moved = doc.index_entries
    for entry in reversed(moved):
        _remove_with_separator(doc, entry.line_no)
    for entry in moved:
        doc.add_entry(entry.raw)
    return moved


def _remove_with_separator(doc: Document, line_no: int) -> None:
    """Remove a line, and the blank line before it when that blank only set it apart
    (it is followed by the end of the file or by another blank line)."""
    doc.remove_line(line_no)
    texts = doc.line_texts()
    blank_before = line_no > 0 and is_blank(texts[line_no - 1])
    if blank_before and (line_no == len(texts) or is_blank(texts[line_no])):
        doc.remove_line(line_no - 1)


def fix_folder(folder: MemoryFolder) -> LintFixResult:
    """Apply every fix in one commit (none when nothing needs fixing) and lint again."""
    moved: list[str] = []

    def plan(parent: pygit2.Commit) -> Change | None:
        moved.clear()
        data = folder.store.read(ENTRY_POINT, parent)
        if data is None:
            return None
        try:
            doc = parse(data, ENTRY_POINT)
        except FormatError:
            return None  # lint reports the file; there is nothing a fix can move
        entries = move_index_entries(doc)
        if not entries:
            return None
        moved.extend(make_ref(ENTRY_POINT, entry.id) for entry in entries)
        count = "1 entry" if len(entries) == 1 else f"{len(entries)} entries"
        message = build_message(
            f"Lint fix: move {count} above the Index of {ENTRY_POINT}", origin=ORIGIN, by=BY
        )
        return Change({ENTRY_POINT: serialize(doc)}, message)

    commit = folder.transaction.run(plan)
    return LintFixResult(
        commit=commit, moved=tuple(moved) if commit else (), report=lint_folder(folder)
    )
