"""memory_items and index checks on real SQLite files and real Whoosh indexes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.index import IndexStore
from memrepo.items.db import DB_NAME

from .conftest import check, health, with_limit


def _db(repo: MemoryRepo) -> Path:
    return repo.folder.state_dir / DB_NAME


def _reindexed(repo: MemoryRepo) -> MemoryRepo:
    repo.reindex()
    repo.close()
    return repo


def test_no_database_skips_store_checks_and_creates_none(memory_repo: MemoryRepo) -> None:
    report = health(memory_repo)
    assert report.check("database_size").status == "SKIP"
    assert report.check("items_duplicates").status == "SKIP"
    assert not _db(memory_repo).exists()


def test_same_text_twice_for_one_reader_is_an_item_duplicate(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Ana's phone ends in 42", private=True, kind="fact")
    memory_repo.remember("Ana's phone ends in 42", private=True, kind="preference")
    memory_repo.remember("Standup is at 9:30", private=True)
    memory_repo.close()
    found = check(memory_repo, "items_duplicates")
    assert (found.status, found.figure, found.threshold) == ("WARN", round(100 / 3, 2), 1.0)
    assert found.detail == "1 of 3 active items repeat another"
    assert check(memory_repo, "items_duplicates", "ci").status == "FAIL"


def test_same_text_about_two_contacts_is_not_a_duplicate(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Prefers calls after 10am", contact_ref="mail:ana@example.com")
    memory_repo.remember("Prefers calls after 10am", contact_ref="mail:bob@example.com")
    memory_repo.close()
    found = check(memory_repo, "items_duplicates")
    assert (found.status, found.figure) == ("PASS", 0)


def test_database_size_is_measured_against_the_limit(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Standup is at 9:30", private=True)
    memory_repo.close()
    found = check(memory_repo, "database_size")
    size = _db(memory_repo).stat().st_size / 1024 / 1024
    assert (found.status, found.figure, found.threshold) == ("PASS", round(size, 2), 1024)
    tight = health(memory_repo, limits=with_limit("database_size", 0.001)).check("database_size")
    assert tight.status == "WARN"
    assert tight.fix.startswith("memrepo retention")


def test_unreadable_database_is_reported_and_left_alone(memory_repo: MemoryRepo) -> None:
    memory_repo.folder.state_dir.mkdir(parents=True, exist_ok=True)
    garbage = b"this is not a database" * 100
    _db(memory_repo).write_bytes(garbage)
    found = check(memory_repo, "items_duplicates")
    assert found.status == "WARN"
    assert "not a readable memory_items database" in found.detail
    assert _db(memory_repo).read_bytes() == garbage


def test_no_index_yet_is_skipped(memory_repo: MemoryRepo) -> None:
    assert check(memory_repo, "index").status == "SKIP"
    assert not (memory_repo.folder.state_dir / "index").exists()


@pytest.mark.slow
def test_index_in_step_with_head_and_items_passes(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Prefers pnpm over npm")
    memory_repo.remember("Standup is at 9:30", private=True)
    found = check(_reindexed(memory_repo), "index")
    assert (found.status, found.figure, found.threshold) == ("PASS", 0, 0)
    assert "1 folder and swarm + 1 item documents" in found.detail


@pytest.mark.slow
def test_swarm_notes_count_as_indexed_documents(memory_repo: MemoryRepo) -> None:
    memory_repo.add_task("task-root-1", "Fix the flaky CI build")
    memory_repo.swarm_note("task-root-1", "finding", "The runner image is not pinned")
    memory_repo.remember("Prefers pnpm over npm")
    found = check(_reindexed(memory_repo), "index")
    assert (found.status, found.figure) == ("PASS", 0)
    assert "2 folder and swarm + 0 item documents" in found.detail


@pytest.mark.slow
def test_index_behind_head_is_info(memory_repo: MemoryRepo) -> None:
    _reindexed(memory_repo).remember("A fact written after the index was built")
    found = check(memory_repo, "index")
    assert found.status == "INFO"
    assert found.detail == "the index is 1 commit behind main; the next recall catches up"


@pytest.mark.slow
def test_index_missing_a_document_it_claims_to_reflect_warns(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Prefers pnpm over npm")
    memory_repo.remember("Uses fish as the shell")
    _reindexed(memory_repo)
    ref = memory_repo.entries()[0].ref
    store = IndexStore.open(memory_repo.folder.state_dir / "index", rebuild=lambda _: None)
    with store:
        store.replace([], delete_refs=[ref])  # a document lost behind the metadata's back
    found = check(memory_repo, "index")
    assert (found.status, found.figure, found.fix) == ("WARN", 1, "memrepo reindex")
    assert check(memory_repo, "index", "ci").status == "FAIL"


@pytest.mark.slow
def test_index_of_another_schema_or_rewritten_history_warns(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Prefers pnpm over npm")
    _reindexed(memory_repo)
    meta_path = memory_repo.folder.state_dir / "index.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps({**meta, "reflected": {**meta["reflected"], "main": "f" * 40}}))
    gone = check(memory_repo, "index")
    assert gone.status == "WARN" and "history rewritten" in gone.detail
    meta_path.write_text(json.dumps({**meta, "schema_version": 999}))
    other = check(memory_repo, "index")
    assert other.status == "WARN" and "schema version 999" in other.detail


class _Clock:
    """A clock the test moves forward (the repo's `clock` seam)."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> datetime:
        return self.at


@pytest.mark.slow
def test_expired_memory_is_not_counted_as_missing_from_the_index(tmp_path: Path) -> None:
    clock = _Clock(datetime(2026, 3, 2, 12, tzinfo=UTC))
    repo = MemoryRepo.init(tmp_path / "mem", clock=clock)
    repo.remember("Parking code for the offsite is 4417", expires="2026-03-03", by="user")
    repo.remember("Ana is at the hotel desk", contact_ref="mail:ana", expires="2026-03-03")
    repo.remember("Parking at the office is in level -2", by="user")
    repo.remember("Standup is at 9:30", private=True)
    assert check(_reindexed(repo), "index").status == "PASS"
    clock.at = datetime(2026, 3, 4, 9, tzinfo=UTC)
    waiting = check(repo, "index")
    assert waiting.status == "INFO" and "expired since the index was synced" in waiting.detail
    found = check(_reindexed(repo), "index")
    assert (found.status, found.figure) == ("PASS", 0)
    assert "1 folder and swarm + 1 item documents" in found.detail
