"""The writer keeps the index current, and a reader never waits for a writer (issue #28).

Another process holds the Whoosh index's writer lock (a rebuild, a catch-up) in each
test: before #28 a recall waited for it (up to the lock timeout, then failed); now a
recall answers at once from what the index last committed, and a fact this process wrote
is already in it, because the write brought the index up to date behind it.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .files import Git

#: How long a recall before issue #28 waited for the index's writer before giving up.
INDEX_LOCK_TIMEOUT = 10.0

HOLD_INDEX = """
import sys, time
from whoosh import index
writer = index.open_dir(sys.argv[1]).writer()
print("held", flush=True)
sys.stdin.readline()
writer.cancel()
"""

KILLED_BEHIND_THE_COMMIT = """
import os, sys
from memrepo import MemoryRepo
from memrepo.recall.searcher import Searcher
repo = MemoryRepo.open(sys.argv[1])
repo.recall("warm up")  # opens the index: from now on each write keeps it current
Searcher.keep_current = lambda *args, **kwargs: os._exit(9)  # killed as the update begins
repo.remember("the pager rotation moves to Tuesdays")
"""


@contextmanager
def index_held(repo: MemoryRepo) -> Iterator[None]:
    """Another process holding the index's writer lock until the block ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_INDEX, str(repo.root / ".git" / "memrepo" / "index")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield
    finally:
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()


@pytest.mark.slow
def test_a_write_is_in_the_index_before_the_next_read(memory_repo: MemoryRepo) -> None:
    memory_repo.recall("warm up")
    memory_repo.remember("the staging database lives in Frankfurt")
    with index_held(memory_repo):
        started = time.monotonic()
        hits = memory_repo.recall("staging database").hits
        waited = time.monotonic() - started
    assert [h.text for h in hits] == ["the staging database lives in Frankfurt"]
    assert waited < INDEX_LOCK_TIMEOUT  # answered at once, not after waiting the writer out


@pytest.mark.slow
def test_a_server_s_writer_that_never_reads_keeps_the_index_current(
    memory_repo: MemoryRepo,
) -> None:
    memory_repo.recall("warm up")  # the index is built (a reader thread's handle opened it)
    writer = MemoryRepo.open(memory_repo.root)
    try:
        # A server runs each write on whichever thread of a pool is free.
        with ThreadPoolExecutor(max_workers=3) as pool:
            for n in range(3):
                pool.submit(writer.remember, f"canary deploy {n} went green").result()
    finally:
        writer.close()
    with index_held(memory_repo):  # the reader cannot catch the index up itself
        hits = {h.text for h in memory_repo.recall("canary deploy", limit=10).hits}
    assert hits == {f"canary deploy {n} went green" for n in range(3)}


@pytest.mark.slow
def test_a_reader_answers_from_the_last_committed_index_while_a_writer_holds_it(
    memory_repo: MemoryRepo, git: Git
) -> None:
    memory_repo.remember("the backup job runs nightly")
    memory_repo.recall("warm up")
    # A commit the index has not seen, made with plain git by another program.
    memory_file = memory_repo.root / "MEMORY.md"
    memory_file.write_text(
        memory_file.read_text().replace(
            "- the backup job runs nightly",
            "- the backup job runs nightly\n- the backup job keeps 30 days",
        )
    )
    git(memory_repo.root, "commit", "-qam", "a person's edit")
    with index_held(memory_repo):
        started = time.monotonic()
        during = [h.text for h in memory_repo.recall("backup job").hits]
        waited = time.monotonic() - started
    after = [h.text for h in memory_repo.recall("backup job").hits]
    assert during == ["the backup job runs nightly"]  # the snapshot, not an error
    assert waited < INDEX_LOCK_TIMEOUT  # and not after waiting out the writer
    assert sorted(after) == ["the backup job keeps 30 days", "the backup job runs nightly"]


@pytest.mark.slow
def test_a_write_killed_between_its_commit_and_the_index_is_found_by_the_next_reader(
    memory_repo: MemoryRepo, git: Git
) -> None:
    root = memory_repo.root
    memory_repo.recall("warm up")
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_BEHIND_THE_COMMIT, str(root)], check=False, timeout=120
    )
    assert killed.returncode == 9
    assert "pager rotation" in git(root, "log", "-1", "--format=%s")
    fresh = MemoryRepo.open(root)
    try:
        assert [h.text for h in fresh.recall("pager rotation").hits] == [
            "the pager rotation moves to Tuesdays"
        ]
    finally:
        fresh.close()
    assert git(root, "status", "--porcelain") == ""


@pytest.mark.slow
def test_an_old_snapshot_keeps_answering_while_a_hundred_writes_land(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    MemoryRepo.init(root).close()
    reader, writer = MemoryRepo.open(root), MemoryRepo.open(root)
    try:
        reader.remember("the first fact about the harbour")
        assert len(reader.recall("harbour").hits) == 1
        writer.recall("warm up")
        for n in range(100):
            assert writer.remember(f"lighthouse keeper note number {n}").written
            if n % 25 == 0:  # the reader's open segments are merged away meanwhile
                assert reader.recall("first fact harbour").hits
        assert len(reader.recall("lighthouse keeper note", limit=200).hits) == 100
    finally:
        reader.close()
        writer.close()


HOLD_WRITE_LOCK = """
import sys
from pathlib import Path
from memrepo.folder.lock import WriteLock
lock = WriteLock(Path(sys.argv[1]))
lock.acquire()
print("held", flush=True)
sys.stdin.readline()
"""


@pytest.mark.slow
def test_a_reader_opening_during_another_process_s_write_does_not_wait_for_it(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    from memrepo import LocalConfig

    memory_repo.remember("the VPN certificate renews in March")
    state = memory_repo.root / ".git" / "memrepo"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_WRITE_LOCK, str(state)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    journal = state / "journal.json"
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        journal.write_text("{}")  # the writer's journal, as mid-write
        reader = MemoryRepo.open(memory_repo.root, config=LocalConfig(lock_timeout_seconds=2))
        try:
            hits = [h.text for h in reader.recall("VPN certificate").hits]
        finally:
            reader.close()
        assert hits == ["the VPN certificate renews in March"]
        assert journal.read_text() == "{}"  # the live writer's to finish, not the reader's
    finally:
        journal.unlink(missing_ok=True)
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()


QUEUED_WRITER = """
import sys
from memrepo import MemoryRepo
repo = MemoryRepo.open(sys.argv[1])
repo.recall("warm up")  # its index open: each write keeps it current
for n in range(int(sys.argv[3])):
    assert repo.remember(f"queued fact {sys.argv[2]}-{n} about the turbines").written
repo.close()
"""


@pytest.mark.slow
def test_a_thousand_queued_writes_all_land_and_are_all_found(
    memory_repo: MemoryRepo, git: Git
) -> None:
    root = memory_repo.root
    writers = [
        subprocess.Popen([sys.executable, "-c", QUEUED_WRITER, str(root), str(w), "250"])
        for w in range(4)
    ]
    assert [w.wait(timeout=900) for w in writers] == [0, 0, 0, 0]
    logged = git(root, "log", "--format=%s").splitlines()
    assert sum("queued fact" in line for line in logged) == 1000
    git(root, "fsck", "--strict")
    assert git(root, "status", "--porcelain") == ""
    hits = memory_repo.recall("queued fact turbines", limit=2000).hits
    assert len({h.text for h in hits}) == 1000
