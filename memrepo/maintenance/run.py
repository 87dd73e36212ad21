"""The pass: what leaves memory on its own once a day (reference §7, §5b; issue #32).

1. memory_items retention: tombstones, expired items, superseded revisions older than
   180 days, curation log rows older than 90 days (`items.retention`).
2. The agent's expired folder entries: a line written `by: agent` (or `dream`) whose
   `expires` day has passed leaves its file, and so does its commitment a day past its
   `due` day that the memory's own recent entries say is done ("Sent the Q3 report"),
   all in one undoable commit (`Memrepo-Origin: maintenance`). A person's line stays:
   only they know whether it still holds (the dream proposes an expired one).
3. Commitment expiry: commitments past their due date that the memory's own recent
   entries say are done are archived, each one curation change `undo` can take back
   (`items.curation`); the entries are read only when a commitment is overdue.

Never two at once (a lock taken without waiting: a second pass just says so), never a
wait on a writer (the folder part is one ordinary write transaction).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta

from memrepo.folder.lock import WriteLock
from memrepo.folder.messages import build_message, summarize
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.snapshot import Snapshot, run_on_snapshot
from memrepo.folder.transaction import Change
from memrepo.formats import Document, Entry, parse, serialize
from memrepo.items.curation import Evidence, EvidenceHit, expire_commitments, find_done, words_of
from memrepo.items.writer import ItemWriter
from memrepo.layout import SWARM_DIR, workspace_of
from memrepo.maintenance.state import LOCK_NAME, last_runs, record
from memrepo.models.maintenance import MaintenanceReport

ORIGIN = "maintenance"
#: Who wrote a line maintenance may drop once it expired (a person's lines stay).
DROPPABLE_BY = frozenset({"agent", "dream"})
_EXPIRES = b"expires:"
_DUE = b"due:"
#: A commitment is looked at once it is this far past its due day (reference §5b).
GRACE = timedelta(days=1)


def maintain(
    folder: MemoryFolder, items: Callable[[], ItemWriter], now: datetime
) -> MaintenanceReport:
    """Run every part now (see the module docstring)."""
    lock = WriteLock(folder.state_dir, 0.0, LOCK_NAME)
    if not lock.try_acquire():
        return MaintenanceReport(ran_at=now, skipped="another maintenance pass is running")
    try:
        writer = items()
        retention = writer.run_retention(now)
        evidence = EntryEvidence(folder)
        removed, commit = expire_entries(folder, now, evidence)
        commitments = expire_commitments(writer, evidence, now)
        record(
            folder.state_dir, dict.fromkeys(("retention", "expired_entries", "commitments"), now)
        )
    finally:
        lock.release()
    return MaintenanceReport(
        ran_at=now,
        retention=retention,
        expired_entries=removed,
        commit=commit,
        commitments=commitments,
        last_run=last_runs(folder.state_dir),
    )


def expire_entries(
    folder: MemoryFolder, now: datetime, evidence: Evidence
) -> tuple[tuple[str, ...], str | None]:
    """Drop the agent's lines whose `expires` day has passed, and its done commitments,
    in one commit; their texts and the commit (None when nothing went)."""
    today = now.date()
    removed: list[str] = []

    def plan(head: Snapshot) -> Change | None:
        removed.clear()
        changes: dict[str, bytes | None] = {}
        for path in head.files_below(""):
            if not path.endswith(".md") or path.startswith(SWARM_DIR):
                continue
            data = head.read(path)
            if data is None or (_EXPIRES not in data and _DUE not in data):
                continue  # most files: one byte search, no parse
            doc = parse(data, path)
            gone = _expired(doc, today) + _done(doc, now, evidence)
            if not gone:
                continue
            for entry in sorted(gone, key=lambda e: e.line_no, reverse=True):
                removed.append(" ".join(entry.text.split()))
                doc.remove_line(entry.line_no)
            changes[path] = serialize(doc)
        if not changes:
            return None
        message = build_message(
            summarize("Maintenance", f"{len(removed)} expired or done agent entries removed"),
            origin=ORIGIN,
            by="dream",
            body="\n".join(f"- {text}" for text in removed),
        )
        return Change(changes, message)

    commit = run_on_snapshot(folder, plan)
    return tuple(removed), commit


def _expired(doc: Document, today: date) -> list[Entry]:
    found = []
    for entry in doc.entries:
        expires = entry.metadata.get("expires", "")
        if not expires or entry.metadata.get("by", "user") not in DROPPABLE_BY:
            continue
        try:
            if date.fromisoformat(expires[:10]) < today:
                found.append(entry)
        except ValueError:
            continue  # lint reports a malformed date; it is nobody's deadline
    return found


def _done(doc: Document, now: datetime, evidence: Evidence) -> list[Entry]:
    """The agent's commitments a day past their due day that evidence says are done."""
    found = []
    for entry in doc.entries:
        meta = entry.metadata
        if not meta.get("due") or meta.get("by", "user") not in DROPPABLE_BY:
            continue
        try:
            due = date.fromisoformat(meta["due"][:10])
        except ValueError:
            continue
        workspace = workspace_of(doc.path) or None
        done = find_done(entry.text, due, evidence, now, workspace)
        if due + GRACE < now.date() and done is not None:
            found.append(entry)
    return found


class EntryEvidence:
    """The memory's own entries as evidence that a commitment was done ("Shipped the Q3
    report" for "Send the Q3 report by Friday"). Read once, on the first search: the
    pass reads no file when no commitment is overdue."""

    def __init__(self, folder: MemoryFolder) -> None:
        self.folder = folder
        self._hits: list[EvidenceHit] | None = None

    def search(self, words: Sequence[str], since: datetime) -> list[EvidenceHit]:
        wanted = set(words)
        return [
            hit
            for hit in self._all(since)
            if hit.when >= since and wanted & set(words_of(hit.text))
        ]

    def _all(self, since: datetime) -> list[EvidenceHit]:
        if self._hits is None:
            self._hits = []
            oldest = since - timedelta(days=1)
            for entry in self.folder.entries():
                added = entry.metadata.get("added", "")
                try:
                    day = date.fromisoformat(added[:10])
                except ValueError:
                    continue
                when = datetime(day.year, day.month, day.day, 12, tzinfo=since.tzinfo)
                if when >= oldest:
                    own = workspace_of(entry.path) or None
                    self._hits.append(EvidenceHit(entry.text, when, entry.ref, own))
        return self._hits
