"""Many screened entries in one commit: how an import of 10,000 facts stays one change.

`MemoryFolder.write_entry` parses, edits and commits per entry; a batch of N entries
through it costs N commits and, because `Document.add_entry` re-reads the file, O(N^2)
work on one file. Here each target file is parsed once, the same dedupe / supersede /
outrank rules as `write_entry` are applied against an in-memory view that grows with the
batch, new lines are spliced in one pass, and everything lands as one commit (plus the
Index links of new files), or none when nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pygit2

from memrepo.folder.entries import (
    ENTRY_POINT,
    EntryWrite,
    link_from_index,
    outranked,
    parse_or_new,
)
from memrepo.folder.messages import build_message
from memrepo.folder.paths import check_path
from memrepo.folder.repo import MemoryFolder, make_ref
from memrepo.folder.transaction import Change
from memrepo.formats import Document, format_entry, normalize_text, parse, serialize
from memrepo.formats import entry_id as entry_id_of
from memrepo.models import WriteResult

_BOM = "\ufeff"


@dataclass(slots=True)
class _FilePlan:
    """One file's edits while a batch is planned."""

    doc: Document
    known: dict[str, str]  # normalized text -> entry id, existing and planned
    holders: dict[str, int]  # subject -> line number of an existing entry
    replacements: dict[int, str] = field(default_factory=dict)
    pending: list[str] = field(default_factory=list)
    pending_subject: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, doc: Document) -> _FilePlan:
        known = {normalize_text(e.text): e.id for e in doc.entries}
        holders = {
            e.metadata["subject"]: e.line_no for e in doc.entries if e.metadata.get("subject")
        }
        return cls(doc, known, holders)

    @property
    def changed(self) -> bool:
        return bool(self.replacements or self.pending)


def write_entries(
    folder: MemoryFolder,
    writes: Sequence[EntryWrite],
    summary: Callable[[int], str],
    *,
    by: str,
    origin: str,
    body: str = "",
    dry_run: bool = False,
) -> tuple[list[WriteResult], str | None]:
    """Apply steps 3-6 of the write pipeline to every write, in order, as one commit.

    `summary(n)` gives the commit's summary line for the n entries added or replaced.
    Returns one result per write (in the order given) and the commit id, or None when
    nothing changed or `dry_run` (which plans everything and writes nothing).
    """
    for path in {write.path for write in writes}:
        check_path(path, folder.root)  # a bad path is an error even in a dry run
    results: list[WriteResult] = []

    def plan(parent: pygit2.Commit) -> Change | None:
        planned, changes = _plan_batch(folder, writes, parent)
        results[:] = planned
        if not changes or dry_run:
            return None
        changed = sum(1 for r in planned if r.action in ("inserted", "superseded"))
        return Change(changes, build_message(summary(changed), origin=origin, by=by, body=body))

    if dry_run:
        with folder.lock:
            plan(folder.store.require_writable())
        return results, None
    commit = folder.transaction.run(plan)
    if commit is None:
        return results, None
    return [_with_commit(r, commit) for r in results], commit


def _plan_batch(
    folder: MemoryFolder, writes: Sequence[EntryWrite], parent: pygit2.Commit
) -> tuple[list[WriteResult], dict[str, bytes | None]]:
    """Every write's result and the files the batch changes, planned against `parent`."""
    plans: dict[str, _FilePlan] = {}
    results: list[WriteResult] = []
    for write in writes:
        plan = plans.get(write.path)
        if plan is None:
            existing = folder.store.read(write.path, parent)
            plan = plans[write.path] = _FilePlan.of(parse_or_new(existing, write))
        results.append(_plan_one(plan, write))
    changes: dict[str, bytes | None] = {}
    # MEMORY.md first: links for new files are then added to its edited bytes.
    for path in sorted(plans, key=lambda p: p != ENTRY_POINT):
        plan = plans[path]
        if not plan.changed:
            continue
        is_new = folder.store.read(path, parent) is None
        changes[path] = _render(plan)
        if is_new:
            link_from_index(changes, path, folder.store.read(ENTRY_POINT, parent))
    return results, changes


def _plan_one(plan: _FilePlan, write: EntryWrite) -> WriteResult:
    norm = normalize_text(write.text)
    known = plan.known.get(norm)
    if known is not None:
        return _result("reinforced", write, known)
    line = format_entry(write.text, write.metadata)
    entry_id = entry_id_of(write.text, write.metadata)
    subject = write.metadata.get("subject")
    action = "inserted"
    if subject and subject in plan.pending_subject:
        index = plan.pending_subject[subject]
        _forget_norm(plan, plan.pending[index])
        plan.pending[index] = line
        action = "superseded"
    elif subject and subject in plan.holders:
        line_no = plan.holders[subject]
        holder = plan.doc.entry_at(line_no)
        assert holder is not None
        if outranked(holder, write.by):
            return WriteResult(
                status="skipped",
                reason="outranked",
                ref=make_ref(write.path, holder.id),
                path=write.path,
            )
        _forget_norm(plan, plan.replacements.get(line_no, holder.raw))
        plan.replacements[line_no] = line
        action = "superseded"
    else:
        plan.pending.append(line)
        if subject:
            plan.pending_subject[subject] = len(plan.pending) - 1
    plan.known[norm] = entry_id
    return _result(action, write, entry_id)


def _forget_norm(plan: _FilePlan, line: str) -> None:
    """Drop the text of a line this batch replaces, so a later write of it is new again."""
    entry = parse(line.encode("utf-8")).entries
    if entry:
        plan.known.pop(normalize_text(entry[0].text), None)


def _render(plan: _FilePlan) -> bytes:
    doc = plan.doc
    for line_no, line in plan.replacements.items():
        doc.replace_line(line_no, line)
    if not plan.pending:
        return serialize(doc)
    first = doc.add_entry(plan.pending[0])
    lines = doc.lines
    texts = [line.text for line in lines]
    endings = [line.ending for line in lines]
    ending = endings[first] or "\n"
    rest = plan.pending[1:]
    texts[first + 1 : first + 1] = rest
    endings[first + 1 : first + 1] = [ending] * len(rest)
    body = "".join([t + e for t, e in zip(texts, endings, strict=True)])
    return ((_BOM if doc.bom else "") + body).encode("utf-8")


def _result(action: str, write: EntryWrite, entry_id: str) -> WriteResult:
    return WriteResult(
        status="written",
        action=action,  # type: ignore[arg-type]
        ref=make_ref(write.path, entry_id),
        path=write.path,
        redacted=write.redacted,
        truncated=write.truncated,
    )


def _with_commit(result: WriteResult, commit: str) -> WriteResult:
    if result.action in ("inserted", "superseded"):
        return result.model_copy(update={"commit": commit})
    return result
