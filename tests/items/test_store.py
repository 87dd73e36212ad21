"""The database itself: invariants, schema versions, damaged and locked files, bad input."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from memrepo.errors import InvalidArgument, SchemaTooNew, StoreBusy, StoreCorrupt
from memrepo.items import SCHEMA_VERSION, ItemStore, ItemWriter
from memrepo.items.db import DB_NAME
from memrepo.items.schema import migrate, user_version
from memrepo.models.items import ItemCandidate, ItemFilters, SourceRef, candidate

from .conftest import SteppingClock, cand, raw

_ROW = (
    "INSERT INTO memory_items(id, workspace_id, scope, scope_ref, kind, subject_key, content, "
    "content_hash, source, confidence, privacy, status, created_at, updated_at) "
    "VALUES (?, NULL, 'global', NULL, 'fact', ?, 'x', ?, 'inferred', 0.5, 'normal', ?, 0, 0)"
)


def test_unique_indexes_refuse_a_second_active_row(store: ItemStore) -> None:
    conn = raw(store)
    conn.execute(_ROW, ("a", "s1", "h1", "active"))
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(_ROW, ("b", "s2", "h1", "active"))  # same content hash
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(_ROW, ("c", "s1", "h2", "active"))  # same subject
    conn.execute(_ROW, ("d", "s1", "h1", "superseded"))  # only active rows are unique
    conn.close()


def test_writer_output_satisfies_the_invariants(writer: ItemWriter, store: ItemStore) -> None:
    for n in range(20):
        writer.ingest(cand(f"Fact number {n % 7}", subject_key=f"s{n % 3}" if n % 2 else None))
    conn = raw(store)
    dupes = conn.execute(
        "SELECT count(*) FROM (SELECT subject_key FROM memory_items WHERE status = 'active' "
        "GROUP BY workspace_id, scope, scope_ref, subject_key HAVING count(*) > 1)"
    ).fetchone()
    assert dupes == (0,)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()


def test_store_file_lives_in_the_state_dir(store: ItemStore, state_dir: Path) -> None:
    assert store.path == state_dir / DB_NAME
    conn = raw(store)
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()


# Schema ------------------------------------------------------------------------------


def test_a_v1_file_is_upgraded_with_its_rows(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=1)
    assert user_version(conn) == 1
    conn.execute(_ROW, ("old", "s1", "h1", "active"))
    conn.execute(
        "UPDATE memory_items SET source_ref = ? WHERE id = 'old'",
        ('{"store": "legacy", "id": "7", "aliases": [{"store": "chat", "id": "9"}]}',),
    )
    conn.close()
    with ItemStore(path) as store:
        assert store.meta("hot_version") == "0"
        assert [i.id for i in store.list()] == ["old"]
        # The refs index was rebuilt from source_ref, aliases included.
        assert [i.id for i in store.find_by_source_ref("chat", "9")] == ["old"]
    conn = sqlite3.connect(path)
    assert user_version(conn) == SCHEMA_VERSION == 5
    conn.close()


def test_a_v3_file_gains_the_taint_column_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=3)
    conn.execute(_ROW, ("old", "s1", "h1", "active"))
    conn.execute(_ROW, ("older", "s0", "h0", "superseded"))
    conn.execute("UPDATE memory_items SET pinned = 1, reinforced_count = 2 WHERE id = 'old'")
    before = conn.execute("SELECT * FROM memory_items ORDER BY id").fetchall()
    conn.close()
    with ItemStore(path) as store:
        (item,) = store.list()
        assert (item.id, item.pinned, item.reinforced_count, item.tainted) == (
            "old",
            True,
            2,
            False,
        )
    conn = sqlite3.connect(path)
    assert user_version(conn) == SCHEMA_VERSION == 5
    # Every old value is kept; the new column reads 0 (nothing could be tainted before).
    after = conn.execute("SELECT * FROM memory_items ORDER BY id").fetchall()
    assert [row[:-1] for row in after] == before and [row[-1] for row in after] == [0, 0]
    conn.close()


def test_a_failed_migration_leaves_the_v3_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=3)
    conn.execute(_ROW, ("old", "s1", "h1", "active"))
    # A column the migration wants to add is already there: the ALTER fails mid-way.
    conn.execute("ALTER TABLE memory_items ADD COLUMN tainted TEXT")
    with pytest.raises(sqlite3.OperationalError, match="duplicate column"):
        migrate(conn)
    assert user_version(conn) == 3
    assert conn.execute("SELECT id FROM memory_items").fetchall() == [("old",)]
    assert not conn.in_transaction
    conn.close()


def test_a_newer_schema_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE future (x)")
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(SchemaTooNew, match=r"99.*5"):
        ItemStore(path)
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()


# Damaged and locked files ----------------------------------------------------------------


def test_garbage_file_is_corrupt_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    path.write_bytes(b"this is not a database at all\n" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreCorrupt, match=str(path)):
        ItemStore(path)
    assert path.read_bytes() == before


@pytest.mark.slow
def test_truncated_database_is_corrupt_and_untouched(tmp_path: Path, clock: SteppingClock) -> None:
    path = tmp_path / DB_NAME
    with ItemStore(path) as store:
        writer = ItemWriter(store, clock)
        for n in range(300):
            writer.ingest(cand(f"A padded fact number {n} " + "lorem ipsum " * 20))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    before = path.read_bytes()
    with pytest.raises(StoreCorrupt):
        ItemStore(path)
    assert path.read_bytes() == before


HOLD_LOCK = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(60)
"""


@pytest.mark.slow
def test_a_lock_held_by_another_process_gives_store_busy(
    tmp_path: Path, clock: SteppingClock
) -> None:
    path = tmp_path / DB_NAME
    ItemStore(path).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(StoreBusy, match="locked"), ItemStore(path, busy_timeout=0.2) as store:
            ItemWriter(store, clock).ingest(cand("A fact while locked"))
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()


# Bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [("kind", "opinion", "'preference'"), ("scope", "team", "'contact'"),
     ("source", "rumour", "'third_party'")],
)  # fmt: skip
def test_unknown_vocabulary_fails_naming_the_allowed_values(
    field: str, value: str, allowed: str
) -> None:
    with pytest.raises(ValidationError, match=allowed):
        ItemCandidate.model_validate({"content": "x", field: value})
    with pytest.raises(InvalidArgument, match=f"{field}: .*{allowed}"):
        candidate(content="x", **{field: value})


def test_reserved_subject_keys_and_naive_times_are_refused() -> None:
    with pytest.raises(InvalidArgument, match="subject_key"):
        candidate(content="x", subject_key="hash:abc")
    with pytest.raises(InvalidArgument, match="expires_at"):
        candidate(content="x", expires_at="2026-01-01T00:00:00")


def test_filters_reject_unknown_status() -> None:
    with pytest.raises(ValidationError):
        ItemFilters(status="gone")  # type: ignore[arg-type]


def test_source_ref_needs_store_and_id() -> None:
    with pytest.raises(ValidationError):
        SourceRef(store="", id="1")
