"""Commitment expiry over memory_items (reference §5b), on a real SQLite store."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memrepo import MemoryRepo, UndoConflict
from memrepo.items import ItemStore
from memrepo.items.curation import NotesEvidence, curation_log, expire_commitments
from memrepo.items.db import DB_NAME
from memrepo.items.schema import SCHEMA_VERSION, migrate, user_version
from memrepo.models.dream import RecentNote
from memrepo.models.items import candidate

from .helpers import NOW

DONE = RecentNote(
    text="Sent the quarterly report to Ana, done", when=datetime(2026, 2, 25, tzinfo=UTC)
)


def commitment(repo: MemoryRepo, text: str, due: str = "2026-02-20", **fields: Any) -> str:
    ref = {"store": "task", "id": text, "aliases": [{"store": "due", "id": due}]}
    result = repo._parts.items.ingest(
        candidate(content=text, kind="commitment", source_ref=ref, **fields)
    )
    assert result.item is not None
    return result.item.id


def test_a_v2_store_gains_the_curation_log_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=2)
    conn.execute(
        "INSERT INTO memory_items(id, scope, kind, subject_key, content, content_hash, source, "
        "confidence, status, created_at, updated_at) VALUES ('old', 'global', 'fact', 's', "
        "'kept', 'h', 'inferred', 0.7, 'active', 0, 0)"
    )
    conn.close()
    with ItemStore(path) as store:
        assert [i.id for i in store.list()] == ["old"]
    conn = sqlite3.connect(path)
    assert user_version(conn) == SCHEMA_VERSION == 5
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"memory_curation_log", "memory_curation_searches"} <= tables
    conn.close()


def test_a_done_commitment_is_closed_with_one_log_row(repo: MemoryRepo) -> None:
    item_id = commitment(repo, "Send the quarterly report to Ana")
    open_id = commitment(repo, "Book the venue for the offsite")
    report = repo.dream(recent_notes=[DONE])
    assert report.curation is not None
    (change,) = report.curation.expired
    assert change.item_id == item_id and change.fingerprint == f"expire_commitment:{item_id}"
    assert change.before["status"] == "active" and change.after["status"] == "archived"
    assert repo.item(item_id).item.status == "archived"
    assert repo.item(open_id).item.status == "active"  # no evidence: stays open
    assert [c.id for c in curation_log(repo._parts.items)] == [change.id]


@pytest.mark.parametrize(
    "fields",
    [
        {"source": "user_stated"},
        {"scope": "contact", "scope_ref": "mail:ana@example.com"},
    ],
)
def test_protected_commitments_are_never_touched(repo: MemoryRepo, fields: dict[str, Any]) -> None:
    item_id = commitment(repo, "Send the quarterly report to Ana", **fields)
    report = repo.dream(recent_notes=[DONE])
    assert report.curation is not None and report.curation.expired == ()
    assert repo.item(item_id).item.status == "active"


def test_not_yet_a_day_past_due_or_old_evidence_is_not_enough(repo: MemoryRepo) -> None:
    commitment(repo, "Send the quarterly report to Ana", due="2026-02-28")
    late = RecentNote(text="Sent the yearly report to Bob", when=datetime(2026, 1, 2, tzinfo=UTC))
    commitment(repo, "Send the yearly report to Bob", due="2026-02-10")
    report = repo.dream(recent_notes=[DONE, late])  # the note predates due - 7 days
    assert report.curation is not None and report.curation.expired == ()
    assert report.curation.candidates == 1


def test_an_undone_expiry_is_never_applied_again(repo: MemoryRepo) -> None:
    item_id = commitment(repo, "Send the quarterly report to Ana")
    (change,) = repo.dream(recent_notes=[DONE]).curation.expired  # type: ignore[union-attr]
    undone = repo.undo_curation(change.id)
    assert undone.undone_at is not None
    assert repo.item(item_id).item.status == "active"
    again = repo.dream(recent_notes=[DONE]).curation
    assert again is not None and again.expired == () and again.skipped_undone == 1
    assert repo.item(item_id).item.status == "active"


def test_undo_is_refused_when_the_item_changed_since(repo: MemoryRepo) -> None:
    item_id = commitment(repo, "Send the quarterly report to Ana")
    (change,) = repo.dream(recent_notes=[DONE]).curation.expired  # type: ignore[union-attr]
    repo._parts.items.set_status(item_id, "deleted")
    with pytest.raises(UndoConflict, match="changed since"):
        repo.undo_curation(change.id)
    assert curation_log(repo._parts.items)[0].undone_at is None


def test_each_sweep_is_capped_and_searches_the_stalest_first(repo: MemoryRepo) -> None:
    for n in range(4):
        commitment(repo, f"Ship release {n} to the store")
    notes = [RecentNote(text=f"Shipped release {n} to the store", when=NOW) for n in range(4)]
    first = expire_commitments(repo._parts.items, NotesEvidence(notes, NOW), NOW, max_expiries=1,
                               max_searches=2)  # fmt: skip
    assert (first.searched, len(first.expired), first.capped) == (2, 1, True)
    second = expire_commitments(repo._parts.items, NotesEvidence(notes, NOW), NOW, max_expiries=5,
                                max_searches=2)  # fmt: skip
    assert second.searched == 2 and len(second.expired) == 2
    assert not {c.item_id for c in first.expired} & {c.item_id for c in second.expired}
