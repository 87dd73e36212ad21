"""The write-lock check against real processes holding (or having held) the flock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.folder.lock import LOCK_NAME

from .conftest import check

# Takes the write lock like a memrepo writer does, then waits to be killed.
_HOLDER = """
import sys, time
from pathlib import Path
from memrepo.folder.lock import WriteLock
WriteLock(Path(sys.argv[1])).acquire()
print("held", flush=True)
time.sleep(60)
"""

# Takes the lock as a writer does (flock, then its pid in the file), hands the descriptor
# to a child that outlives it, and exits: the lock stays held, the named pid is gone.
_ORPHAN = """
import fcntl, os, subprocess, sys
fd = os.open(os.path.join(sys.argv[1], "write.lock"), os.O_RDWR | os.O_CREAT, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
os.pwrite(fd, f"pid {os.getpid():<12}\\n".encode(), 0)
child = subprocess.Popen(
    ["sleep", "60"], pass_fds=(fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
)
print(child.pid, flush=True)
"""


@pytest.fixture
def holder(memory_repo: MemoryRepo) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(memory_repo.folder.state_dir)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    yield proc
    proc.kill()
    proc.wait()
    proc.stdout.close()


def test_lock_left_behind_by_finished_writers_passes(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Prefers pnpm over npm")  # leaves write.lock behind, released
    assert (memory_repo.folder.state_dir / LOCK_NAME).exists()
    found = check(memory_repo, "write_lock")
    assert (found.status, found.detail) == ("PASS", "no writer holds it")


def test_lock_held_briefly_by_a_live_writer_passes(
    memory_repo: MemoryRepo, holder: subprocess.Popen[str]
) -> None:
    found = check(memory_repo, "write_lock")
    assert found.status == "PASS"
    assert found.detail.startswith(f"held by pid {holder.pid} for ")


def test_lock_held_longer_than_the_limit_warns(
    memory_repo: MemoryRepo, holder: subprocess.Popen[str]
) -> None:
    path = memory_repo.folder.state_dir / LOCK_NAME
    hour_ago = time.time() - 3600
    os.utime(path, (hour_ago, hour_ago))  # as if the writer took it an hour ago
    found = check(memory_repo, "write_lock")
    assert found.status == "WARN"
    assert found.figure is not None and found.figure >= 3600
    assert found.threshold == 300
    assert str(path) in found.fix
    assert check(memory_repo, "write_lock", "ci").status == "FAIL"


def test_lock_held_by_a_descendant_of_a_dead_writer_warns(memory_repo: MemoryRepo) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _ORPHAN, str(memory_repo.folder.state_dir)],
        capture_output=True,
        text=True,
        check=True,
    )
    orphan = int(done.stdout.strip())
    try:
        found = check(memory_repo, "write_lock")
        assert found.status == "WARN"
        assert "is gone" in found.detail
    finally:
        os.kill(orphan, signal.SIGKILL)
    _wait_released(memory_repo.folder.state_dir / LOCK_NAME, memory_repo)


def _wait_released(path: Path, repo: MemoryRepo) -> None:
    """The killed child is reaped by init; the kernel drops its flock when it is gone."""
    for _ in range(200):
        if check(repo, "write_lock").detail == "no writer holds it":
            return
        time.sleep(0.01)
    raise AssertionError(f"{path} still held")
