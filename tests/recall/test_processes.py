"""Two processes recalling while a third writes: no errors, and every write is found."""

from __future__ import annotations

import subprocess
import sys

import pytest

from memrepo import MemoryRepo

READER = """
import sys, time
from memrepo import MemoryRepo
repo = MemoryRepo.open(sys.argv[1])
deadline = time.monotonic() + 60
seen = 0
while seen < 30 and time.monotonic() < deadline:
    seen = len(repo.recall("zebra fact", limit=50).hits)
print(seen)
"""

WRITER = """
import sys
from memrepo import MemoryRepo
repo = MemoryRepo.open(sys.argv[1])
for n in range(30):
    assert repo.remember(f"zebra fact number {n}").written
"""


@pytest.mark.slow
def test_readers_and_a_writer(memory_repo: MemoryRepo) -> None:
    root = str(memory_repo.root)
    memory_repo.recall("warm up")
    readers = [
        subprocess.Popen([sys.executable, "-c", READER, root], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    writer = subprocess.run([sys.executable, "-c", WRITER, root], check=False, timeout=120)
    outputs = [reader.communicate(timeout=120)[0] for reader in readers]
    assert writer.returncode == 0
    assert [reader.returncode for reader in readers] == [0, 0]
    assert [int(out.strip()) for out in outputs] == [30, 30]
    assert len(memory_repo.recall("zebra fact", limit=50).hits) == 30
