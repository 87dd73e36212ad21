"""Real processes: concurrent ingests, and an ingest loop killed mid-write."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memrepo.items import ItemStore

INGESTER = """
import sys
from pathlib import Path
from memrepo.clock import SystemClock
from memrepo.items import ItemStore, ItemWriter
from memrepo.models.items import ItemCandidate
store = ItemStore.open(Path(sys.argv[1]), busy_timeout=30)
writer = ItemWriter(store, SystemClock())
count = int(sys.argv[2])
n = 0
while count < 0 or n < count:
    text = f"Shared fact number {n % 100}" if count >= 0 else f"Crash fact {n} " + "pad " * 40
    result = writer.ingest(ItemCandidate(content=text, subject_key=None))
    assert result.written, result
    n += 1
    if n in (5, 40):
        print(f"written {n}", flush=True)  # committed: what the killed test counts on
store.close()
"""


def _invariants_hold(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        for columns in ("kind, content_hash", "subject_key"):
            dupes = conn.execute(
                "SELECT count(*) FROM (SELECT 1 FROM memory_items WHERE status = 'active' "
                f"GROUP BY workspace_id, scope, scope_ref, {columns} HAVING count(*) > 1)"
            ).fetchone()
            assert dupes == (0,)
    finally:
        conn.close()


@pytest.mark.slow
def test_two_processes_ingesting_the_same_contents(tmp_path: Path) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-c", INGESTER, str(tmp_path), "100"],
                         stdout=subprocess.DEVNULL)
        for _ in range(2)
    ]  # fmt: skip
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    with ItemStore.open(tmp_path) as store:
        items = store.list()
        assert len(items) == 100
        assert sum(i.reinforced_count for i in items) == 100
    _invariants_hold(tmp_path / "items.sqlite3")


@pytest.mark.slow
def test_a_process_killed_mid_ingest_leaves_a_sound_store(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", INGESTER, str(tmp_path), "-1"], stdout=subprocess.PIPE, text=True
    )
    try:
        # Killed once 40 ingests are committed, while it goes on ingesting: no sleep
        # decides what the store must hold.
        assert proc.stdout is not None and proc.stdout.readline().strip() == "written 5"
        assert proc.stdout.readline().strip() == "written 40"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
    _invariants_hold(tmp_path / "items.sqlite3")
    with ItemStore.open(tmp_path) as store:
        count = store.count()
        assert count >= 40
        assert store.check() == []
