"""A person confirms a line the agent (or an import, or a dream) wrote: `memrepo confirm`.

What the agent saved on its own is L1 only until a person pins, states or confirms it
(reference §4a), so one page the agent read cannot plant a standing rule. Confirming a
folder entry rewrites only that line's metadata group, as one undoable commit
(`origin: confirm`, `by: user`):

- `by` becomes `user`, so the line stands in L0 and no agent write replaces it;
- `tainted` is dropped: the person vouched for the text, as an explicit act of the user
  clears an item's taint (`memrepo.items._resolve`);
- `confirmed: <date>` records when; every other key (`added`, `source`, `subject`,
  `origin`, unknown keys) stays as it was, in its order, and the text is not touched.

A line that is already a person's and not tainted changes nothing (no commit). Editing
the line by hand (removing `by: agent` and `tainted`) counts the same for L0.

The commit goes through the folder's one write transaction (`MemoryFolder.transaction`),
so a person's pending edits are committed first and an editor save during the write is
never lost.
"""

from __future__ import annotations

import pygit2

from memrepo.folder.messages import build_message, summarize
from memrepo.folder.repo import MemoryFolder, entry_at, parse_ref
from memrepo.folder.transaction import Change
from memrepo.formats import Entry, format_entry, serialize
from memrepo.models.folder import ConfirmResult

ORIGIN = "confirm"
BY = "user"


def confirmed_line(entry: Entry, day: str) -> str | None:
    """The entry's line with its metadata confirmed by a person, or None when there is
    nothing to confirm (already a person's, not tainted)."""
    meta = entry.metadata
    by = meta.get("by", "user").strip().casefold()
    tainted = "tainted" in meta
    if by == "user" and not tainted:
        return None
    updated = {key: value for key, value in meta.items() if key != "tainted"}
    updated["by"] = BY
    updated["confirmed"] = day
    group = format_entry("", updated).removeprefix("- ")
    stripped = entry.raw.rstrip()
    start = stripped.rfind("[")
    if not meta or start < 0:  # no group to rewrite (cannot happen for `by: agent`)
        return format_entry(entry.text, updated)
    return stripped[:start].rstrip() + " " + group


def confirm_entry(folder: MemoryFolder, ref: str, *, task: str | None = None) -> ConfirmResult:
    """Confirm the entry `ref` (`folder:<path>#<id>`) in one commit; see the module
    docstring. EntryNotFound when the file or the entry is not there."""
    path, _ = parse_ref(ref)
    day = folder.clock.now().date().isoformat()
    found: list[str] = []

    def plan(parent: pygit2.Commit) -> Change | None:
        doc, entry = entry_at(folder.store, parent, ref)
        found[:] = [entry.text]
        line = confirmed_line(entry, day)
        if line is None:
            return None
        doc.replace_line(entry.line_no, line)
        message = build_message(summarize("Confirm", entry.text), origin=ORIGIN, by=BY, task=task)
        return Change({path: serialize(doc)}, message)

    commit = folder.transaction.run(plan)
    return ConfirmResult(
        ref=ref, store="folder", confirmed=commit is not None, text=found[0], commit=commit
    )
