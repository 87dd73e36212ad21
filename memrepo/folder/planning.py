"""Entry planning: what screened entries do to the files they land in (steps 3-5 of the
write pipeline, docs/architecture.md §3), worked out against one commit and written
nowhere.

One rule for the one-entry write (`writes.write_entry`) and the batch of an import
(`bulk.write_entries`): a text already in the file is reinforced, a subject's holder is
replaced unless it outranks the writer, anything else is added, and a new file is linked
from MEMORY.md's Index. Each target file is parsed once and the batch's own lines join
what it checks, so 10,000 entries cost one pass per file rather than one per entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pygit2

from memrepo.folder.entries import ENTRY_POINT, EntryWrite, link_from_index, outranked, parse_or_new
from memrepo.folder.entry_refs import make_ref
from memrepo.folder.gitstore import GitStore
from memrepo.formats import Document, format_entry, normalize_text, parse, serialize
from memrepo.formats import entry_id as entry_id_of
from memrepo.models import WriteResult

_BOM = "\ufeff"


@dataclass(slots=True)
class _FilePlan:
    """One file's edits while its writes are planned."""

    doc: Document
    known: dict[str, str]  # normalized text -> entry id, existing and planned
    holders: dict[str, int]  # subject -> line number of an existing entry
    is_new: bool  # the file is not in the parent commit
    replacements: dict[int, str] = field(default_factory=dict)
    pending: list[str] = field(default_factory=list)
    pending_subject: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, doc: Document, *, is_new: bool) -> _FilePlan:
        known: dict[str, str] = {}
        holders: dict[str, int] = {}
        for entry in doc.entries:  # the first of a text or a subject is the one that counts
            known.setdefault(normalize_text(entry.text), entry.id)
            subject = entry.metadata.get("subject")
            if subject:
                holders.setdefault(subject, entry.line_no)
        return cls(doc, known, holders, is_new)

    @property
    def changed(self) -> bool:
        return bool(self.replacements or self.pending)


def plan_entries(
    store: GitStore, writes: Sequence[EntryWrite], parent: pygit2.Commit
) -> tuple[list[WriteResult], dict[str, bytes | None]]:
    """Every write's result (in the order given, without a commit) and the files they
    change, planned against `parent`; no files when nothing changes."""
    plans: dict[str, _FilePlan] = {}
    results: list[WriteResult] = []
    for write in writes:
        plan = plans.get(write.path)
        if plan is None:
            existing = store.read(write.path, parent)
            doc = parse_or_new(existing, write)
            plan = plans[write.path] = _FilePlan.of(doc, is_new=existing is None)
        results.append(_plan_one(plan, write))
    changes: dict[str, bytes | None] = {}
    # MEMORY.md first: links for new files are then added to its edited bytes.
    for path in sorted(plans, key=lambda p: p != ENTRY_POINT):
        plan = plans[path]
        if not plan.changed:
            continue
        changes[path] = _render(plan)
        if plan.is_new:
            # Once a link is in, MEMORY.md's edited bytes are what the next one is added to.
            memory = None if ENTRY_POINT in changes else store.read(ENTRY_POINT, parent)
            link_from_index(changes, path, memory)
    return results, changes


def _plan_one(plan: _FilePlan, write: EntryWrite) -> WriteResult:
    norm = normalize_text(write.text)
    known = plan.known.get(norm)
    if known is not None:
        return _written("reinforced", write, known)
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
    return _written(action, write, entry_id)


def _forget_norm(plan: _FilePlan, line: str) -> None:
    """Drop the text of a line this batch replaces, so a later write of it is new again."""
    entry = parse(line.encode("utf-8")).entries
    if entry:
        plan.known.pop(normalize_text(entry[0].text), None)


def _render(plan: _FilePlan) -> bytes:
    """The file with its replacements made and the new lines spliced in after the first
    (placed where `Document.add_entry` puts an entry), in one pass rather than one
    re-read of the file per line."""
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


def _written(action: str, write: EntryWrite, entry_id: str) -> WriteResult:
    return WriteResult(
        status="written",
        action=action,  # type: ignore[arg-type]
        ref=make_ref(write.path, entry_id),
        path=write.path,
        redacted=write.redacted,
        truncated=write.truncated,
    )
