"""Commitment expiry (reference §5b): close commitments that evidence says are done.

Input: active commitment items of scope global or workspace (contact and task items are
never touched), not stated or confirmed by the user, at least a day past their due date.
The due date is the `due` entry of the item's source_ref aliases (`{"store": "due",
"id": "YYYY-MM-DD"}`); a commitment without one is never expired.

Evidence: a note (from the `Evidence` seam; the dream's recent notes by default) of the
last 30 days, dated no earlier than a week before the due date, that shares at least
half of the commitment's words and says it is done ("done", "sent", "shipped", ...).
At most 20 searches per sweep, stalest first; at most 25 expiries per sweep.

Apply: each expiry is one transaction: the item archived and one memory_curation_log
row with before/after snapshots and fingerprint `expire_commitment:<id>`.
`undo_curation` reopens the item unless it changed since; an undone fingerprint is never
applied again. Nothing is queued for review; a commitment without evidence stays open.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Protocol

from memrepo.errors import EntryNotFound, InvalidArgument, UndoConflict
from memrepo.items._rows import from_ms, to_ms
from memrepo.items._tx import SCOPE_KEY, Tx
from memrepo.items.due import due_date
from memrepo.items.writer import ItemWriter
from memrepo.layout import workspace_slug
from memrepo.models.dream import CurationChange, CurationReport, RecentNote
from memrepo.models.items import PERSON_SOURCES, ItemFilters, MemoryItem

OP = "expire_commitment"
MAX_EXPIRIES = 25
MAX_SEARCHES = 20
EVIDENCE_WINDOW = timedelta(days=30)
BEFORE_DUE = timedelta(days=7)
GRACE = timedelta(days=1)

DONE_WORDS = frozenset([
    "done", "sent", "shipped", "finished", "completed", "delivered", "submitted", "merged",
    "released", "closed", "resolved", "booked", "paid", "fixed", "published",
])  # fmt: skip
_WORD = re.compile(r"\w+")
_STOP = frozenset([
    "a", "an", "the", "to", "of", "in", "on", "at", "for", "and", "or", "with", "by", "from",
    "is", "are", "was", "it", "this", "that",
])  # fmt: skip


@dataclass(frozen=True, slots=True)
class EvidenceHit:
    """One piece of evidence: a note's text, when it was written and where it came from."""

    text: str
    when: datetime
    ref: str = ""
    #: The workspace (slug) the evidence belongs to; None for the global memory.
    workspace: str | None = None


class Evidence(Protocol):
    """Where a sweep looks for proof that a commitment was done."""

    def search(self, words: Sequence[str], since: datetime) -> list[EvidenceHit]: ...


class NotesEvidence:
    """Evidence from the recent notes a caller hands to a dream (undated: `now`)."""

    def __init__(self, notes: Sequence[RecentNote], now: datetime) -> None:
        self.hits = [
            EvidenceHit(
                n.text, (n.when or now).astimezone(UTC), n.source or "", workspace_slug(n.workspace)
            )
            for n in notes
        ]

    def search(self, words: Sequence[str], since: datetime) -> list[EvidenceHit]:
        wanted = set(words)
        return [h for h in self.hits if h.when >= since and wanted & set(words_of(h.text))]


def fingerprint(item_id: str) -> str:
    return f"{OP}:{item_id}"


def expire_commitments(
    writer: ItemWriter,
    evidence: Evidence,
    now: datetime | None = None,
    *,
    max_expiries: int = MAX_EXPIRIES,
    max_searches: int = MAX_SEARCHES,
) -> CurationReport:
    """One sweep (see the module docstring)."""
    when = now or writer.clock.now()
    candidates = _candidates(writer, when)
    undone = _undone(writer, [fingerprint(i.id) for i in candidates])
    open_ = [i for i in candidates if fingerprint(i.id) not in undone]
    order = _last_searched(writer)
    open_.sort(key=lambda i: (order.get(i.id, -1), i.id))
    searched = open_[:max_searches]
    proven: list[tuple[MemoryItem, EvidenceHit]] = []
    for item in searched:
        hit = _find_evidence(item, evidence, when)
        if hit is not None:
            proven.append((item, hit))
    with writer.store.transaction() as tx:
        tx.conn.executemany(
            "INSERT INTO memory_curation_searches(item_id, searched_at) VALUES (?, ?) "
            "ON CONFLICT(item_id) DO UPDATE SET searched_at = excluded.searched_at",
            [(item.id, to_ms(when)) for item in searched],
        )
    expired = [_expire(writer, item, hit, when) for item, hit in proven[:max_expiries]]
    return CurationReport(
        candidates=len(candidates),
        searched=len(searched),
        expired=tuple(change for change in expired if change is not None),
        skipped_undone=len(candidates) - len(open_),
        capped=len(open_) > max_searches or len(proven) > max_expiries,
    )


def _candidates(writer: ItemWriter, now: datetime) -> list[MemoryItem]:
    items = writer.store.list(ItemFilters(kind="commitment", status="active", include_private=True))
    found = []
    for item in items:
        due = due_date(item)
        if item.scope not in ("global", "workspace") or item.source in PERSON_SOURCES:
            continue
        if due is not None and _end_of(due) + GRACE <= now:
            found.append(item)
    return found


def _find_evidence(item: MemoryItem, evidence: Evidence, now: datetime) -> EvidenceHit | None:
    due = due_date(item)
    assert due is not None
    return find_done(item.content, due, evidence, now, item.workspace_id)


def find_done(
    content: str, due: date, evidence: Evidence, now: datetime, workspace: str | None = None
) -> EvidenceHit | None:
    """Evidence that the commitment `content`, due `due`, was done (see the module
    docstring); the same rule for a memory item and a folder commitment. A workspace's
    commitment takes evidence of its own workspace and the global memory only; a global
    one (`workspace` None) takes any."""
    words = [w for w in dict.fromkeys(words_of(content)) if w not in DONE_WORDS]
    if not words:
        return None
    since = max(now - EVIDENCE_WINDOW, _end_of(due) - timedelta(days=1) - BEFORE_DUE)
    needed = max(1, math.ceil(len(words) / 2))
    for hit in evidence.search(words, since):
        if workspace is not None and hit.workspace not in (None, workspace):
            continue  # another workspace's note says nothing of this one's commitment
        said = set(words_of(hit.text))
        if hit.when >= since and said & DONE_WORDS and len(said & set(words)) >= needed:
            return hit
    return None


def _expire(
    writer: ItemWriter, item: MemoryItem, hit: EvidenceHit, now: datetime
) -> CurationChange | None:
    stamp = from_ms(to_ms(now))  # what the row will hold, so the snapshot compares equal

    def work(tx: Tx) -> tuple[CurationChange | None, list[str]]:
        current = tx.get(item.id)
        if current is None or current != item:
            return None, []  # changed since it was read: the next sweep looks again
        after = current.model_copy(update={"status": "archived", "updated_at": stamp})
        tx.set_status([item.id], "archived", stamp)
        reason = f"evidence {hit.ref or 'note'} of {hit.when.date()}: {hit.text[:200]}"
        row = tx.conn.execute(
            "INSERT INTO memory_curation_log(fingerprint, op, item_id, reason, before, after, "
            "applied_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (fingerprint(item.id), OP, item.id, reason, _dump(current), _dump(after), to_ms(stamp)),
        ).fetchone()
        change = CurationChange(
            id=int(row[0]),
            fingerprint=fingerprint(item.id),
            op=OP,
            item_id=item.id,
            reason=reason,
            before=json.loads(_dump(current)),
            after=json.loads(_dump(after)),
            applied_at=stamp,
        )
        return change, [item.id]

    return writer._commit("status", work, item.workspace_id, item.scope)


def undo_curation(writer: ItemWriter, log_id: int, now: datetime | None = None) -> CurationChange:
    """Reopen what one curation change closed; UndoConflict if the item changed since."""
    when = now or writer.clock.now()

    def work(tx: Tx) -> tuple[CurationChange, list[str]]:
        row = tx.conn.execute(f"{_SELECT_LOG} WHERE id = ?", (log_id,)).fetchone()
        if row is None:
            raise EntryNotFound(f"curation:{log_id}", "no such curation change")
        change = _change(row)
        if change.undone_at is not None:
            raise InvalidArgument(f"curation:{log_id} was already undone")
        current = tx.get(change.item_id)
        if current is None or _dump(current) != json.dumps(change.after, sort_keys=True):
            raise UndoConflict(
                f"curation:{log_id}", [], f"memory:{change.item_id} changed since it was closed"
            )
        _refuse_if_taken(tx, current, log_id)
        tx.conn.execute(
            "UPDATE memory_items SET status = 'active', updated_at = ? WHERE id = ?",
            (to_ms(when), current.id),
        )
        tx.conn.execute(
            "UPDATE memory_curation_log SET undone_at = ? WHERE id = ?", (to_ms(when), log_id)
        )
        return change.model_copy(update={"undone_at": when}), [current.id]

    return writer._commit("status", work)


def curation_log(writer: ItemWriter, item_id: str | None = None) -> list[CurationChange]:
    """Curation changes, newest first (of one item when `item_id` is given)."""
    where, params = ("WHERE item_id = ?", (item_id,)) if item_id else ("", ())
    with writer.store.transaction() as tx:
        rows = tx.conn.execute(f"{_SELECT_LOG} {where} ORDER BY id DESC", params).fetchall()
    return [_change(row) for row in rows]


def _refuse_if_taken(tx: Tx, item: MemoryItem, log_id: int) -> None:
    params = (item.workspace_id or "", item.scope, item.scope_ref or "")
    holder = tx.one(
        f"WHERE {SCOPE_KEY} AND status = 'active' AND (subject_key = ? OR "
        "(kind = ? AND content_hash = ?))",
        (*params, item.subject_key, item.kind, item.content_hash),
    )
    if holder is not None:
        raise UndoConflict(
            f"curation:{log_id}", [], f"memory:{holder.id} now holds the same commitment"
        )


def _undone(writer: ItemWriter, fingerprints: list[str]) -> set[str]:
    if not fingerprints:
        return set()
    found: set[str] = set()
    with writer.store.transaction() as tx:
        for start in range(0, len(fingerprints), 500):
            batch = fingerprints[start : start + 500]
            marks = ",".join("?" for _ in batch)
            rows = tx.conn.execute(
                f"SELECT fingerprint FROM memory_curation_log WHERE undone_at IS NOT NULL "
                f"AND fingerprint IN ({marks})",
                batch,
            ).fetchall()
            found.update(str(r[0]) for r in rows)
    return found


def _last_searched(writer: ItemWriter) -> dict[str, int]:
    with writer.store.transaction() as tx:
        rows = tx.conn.execute("SELECT item_id, searched_at FROM memory_curation_searches")
        return {str(r[0]): int(r[1]) for r in rows}


_SELECT_LOG = (
    "SELECT id, fingerprint, op, item_id, reason, before, after, applied_at, undone_at "
    "FROM memory_curation_log"
)


def _change(row: sqlite3.Row | tuple[Any, ...]) -> CurationChange:
    return CurationChange(
        id=int(row[0]),
        fingerprint=str(row[1]),
        op=str(row[2]),
        item_id=str(row[3]),
        reason=str(row[4]),
        before=json.loads(row[5]),
        after=json.loads(row[6]),
        applied_at=from_ms(int(row[7])),
        undone_at=from_ms(int(row[8])) if row[8] is not None else None,
    )


def _dump(item: MemoryItem) -> str:
    return json.dumps(item.model_dump(mode="json"), sort_keys=True)


def words_of(text: str) -> list[str]:
    """The words evidence is matched on: casefolded, without the most common ones."""
    return [w for w in _WORD.findall(text.casefold()) if w not in _STOP]


def _end_of(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 23, 59, 59, tzinfo=UTC)
