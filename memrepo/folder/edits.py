"""Changing one entry in place: reword it, change its metadata, or move it to another file.

Each is one commit through the folder's write transaction (a person's pending edits are
committed first, an editor's save during the write is never lost), and undo reverses it
entry by entry like any other commit (`memrepo.folder.undo`).

- An **edit** replaces the entry's line at the same place: the new text (already screened
  by the caller) and the old metadata with the caller's changes applied, in their order.
  A due day set on a line without a `kind` makes it a `commitment` (what expiry
  reads), as `remember --due` does. An entry with a `subject` keeps its id; a reworded
  entry without one gets the id of its new text, and `why` follows the rewording back
  (`memrepo.folder.history`).
- A **move** takes the line as written (text and metadata group untouched, indentation
  dropped) out of its file and appends it to another one (created, and linked from
  MEMORY.md's Index, when it is new). The id does not change,
  so `why` shows the move as one event. When the target already holds the same entry the
  line only leaves its old file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pygit2

from memrepo.errors import InvalidArgument
from memrepo.folder.entries import ENTRY_POINT, SWARM_PREFIX, link_from_index
from memrepo.folder.messages import build_message, summarize
from memrepo.folder.repo import MemoryFolder, entry_at, make_ref, parse_ref
from memrepo.folder.transaction import Change
from memrepo.formats import entry_id as entry_id_of
from memrepo.formats import format_entry, normalize_text, parse, serialize
from memrepo.models.folder import EditResult, MoveResult

EDIT_ORIGIN = "edit"
MOVE_ORIGIN = "move"


@dataclass(frozen=True, slots=True)
class EntryEdit:
    """One edit of one entry: `text` None keeps the text; `metadata` maps keys to their
    new value, None removing the key (keys not named stay as they are)."""

    ref: str
    text: str | None
    metadata: Mapping[str, str | None]
    by: str
    task: str | None = None


def edit_entry(folder: MemoryFolder, edit: EntryEdit) -> EditResult:
    """Apply `edit` in one commit; no commit when the line would not change."""
    path, _ = parse_ref(edit.ref)
    if path.startswith(SWARM_PREFIX):
        raise InvalidArgument(f"{edit.ref}: swarm notes are written with swarm_note only")
    outcome: list[EditResult] = []

    def plan(parent: pygit2.Commit) -> Change | None:
        doc, entry = entry_at(folder.store, parent, edit.ref)
        text = entry.text if edit.text is None else edit.text
        metadata = {**entry.metadata}
        for key, value in edit.metadata.items():
            if value is None:
                metadata.pop(key, None)
            else:
                metadata[key] = value
        if not metadata:
            metadata["by"] = edit.by  # a machine-written line always carries a group
        if edit.metadata.get("due") and "kind" not in metadata:
            metadata["kind"] = "commitment"  # a line with a due day is one, as remember --due
        new_ref = make_ref(path, entry_id_of(text, metadata))
        outcome[:] = [EditResult(ref=new_ref, old_ref=edit.ref, path=path, text=text)]
        if text == entry.text and metadata == dict(entry.metadata):
            return None
        try:
            line = format_entry(text, metadata)
        except ValueError as exc:
            raise InvalidArgument(str(exc)) from exc
        indent = entry.raw[: len(entry.raw) - len(entry.raw.lstrip())]
        doc.replace_line(entry.line_no, indent + line)
        message = build_message(
            summarize("Edit", text),
            origin=EDIT_ORIGIN,
            by=edit.by,
            task=edit.task,
            body=f"Was: {' '.join(entry.text.split())}",
        )
        return Change({path: serialize(doc)}, message)

    commit = folder.transaction.run(plan)
    result = outcome[0]
    return result.model_copy(update={"commit": commit, "changed": commit is not None})


def move_entry(
    folder: MemoryFolder, ref: str, target: str, *, by: str, task: str | None = None
) -> MoveResult:
    """Move the entry `ref` to the file `target` (a normalized root-relative path)."""
    source, entry_id = parse_ref(ref)
    for path in (source, target):
        if path.startswith(SWARM_PREFIX):
            raise InvalidArgument(f"{path}: swarm notes are written with swarm_note only")
    if source == target:
        raise InvalidArgument(f"{ref} is in {target} already")
    outcome: list[MoveResult] = []

    def plan(parent: pygit2.Commit) -> Change:
        doc, entry = entry_at(folder.store, parent, ref)
        existing = folder.store.read(target, parent)
        title = target.rsplit("/", 1)[-1].removesuffix(".md").replace("-", " ").title()
        there = parse(existing if existing is not None else f"# {title}\n\n".encode(), target)
        norm = normalize_text(entry.text)
        merged = any(e.id == entry_id or normalize_text(e.text) == norm for e in there.entries)
        doc.remove_line(entry.line_no)
        changes: dict[str, bytes | None] = {source: serialize(doc)}
        if not merged:
            there.add_entry(entry.raw.strip())
            changes[target] = serialize(there)
            if existing is None:
                link_from_index(changes, target, folder.store.read(ENTRY_POINT, parent))
        outcome[:] = [
            MoveResult(
                ref=make_ref(target, entry_id),
                old_ref=ref,
                source=source,
                target=target,
                text=entry.text,
                merged=merged,
            )
        ]
        message = build_message(
            summarize("Move", f"{entry.text} -> {target}"),
            origin=MOVE_ORIGIN,
            by=by,
            task=task,
            body=f"From {source} to {target}.",
        )
        return Change(changes, message)

    commit = folder.transaction.run(plan)
    assert commit is not None
    return outcome[0].model_copy(update={"commit": commit})
