"""Eight real processes appending to one swarm at once: no note lost, none doubled."""

from __future__ import annotations

import subprocess
import sys

import pygit2
import pytest

from memrepo import MemoryRepo
from memrepo.formats import parse

from .conftest import ROOT, CommitCount, Git

FOLDER = "swarms/fix-the-flaky-ci-build-root-4f2"
WRITERS = 8
NOTES = 50

WRITER = """
import sys
from memrepo import MemoryRepo
repo = MemoryRepo.open(sys.argv[1])
task, count = sys.argv[2], int(sys.argv[3])
for n in range(count):
    kind = "question" if n % 5 == 4 else "finding"
    result = repo.swarm_note(task, kind, f"{task} note number {n}")
    assert result.written and result.action == "inserted", result
"""


@pytest.mark.slow
def test_eight_processes_fifty_notes_each(
    repo: MemoryRepo, git: Git, commit_count: CommitCount
) -> None:
    tasks = [f"worker-{i}" for i in range(WRITERS)]
    for task in tasks:
        repo.add_task(task, f"Worker {task}", parent=ROOT)
    start = git(repo.root, "rev-parse", "HEAD").strip()
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(repo.root), task, str(NOTES)])
        for task in tasks
    ]
    assert [p.wait(timeout=600) for p in procs] == [0] * WRITERS

    expected = {f"{task} note number {n}" for task in tasks for n in range(NOTES)}
    texts: list[str] = []
    for file in ("findings.md", "questions.md"):
        doc = parse((repo.root / FOLDER / file).read_bytes(), f"{FOLDER}/{file}")
        assert doc.problems == []
        texts.extend(e.text for e in doc.entries)
    assert len(texts) == WRITERS * NOTES and set(texts) == expected
    assert commit_count(repo.root, f"{start}..HEAD") == 400
    origins = git(repo.root, "log", f"{start}..HEAD", "--format=%(trailers:key=Memrepo-Origin)")
    assert origins.split() == ["Memrepo-Origin:", "swarm"] * 400
    assert git(repo.root, "status", "--porcelain") == ""
    git(repo.root, "fsck", "--strict")
    assert set(repo.swarm_view(ROOT).members) == set(tasks)
    _every_commit_parses(repo)


def _every_commit_parses(repo: MemoryRepo) -> None:
    repository = pygit2.Repository(str(repo.root))
    seen = 0
    for commit in repository.walk(repository.head.target):
        for file in ("findings.md", "questions.md", "README.md"):
            try:
                entry = commit.tree[f"{FOLDER}/{file}"]
            except KeyError:
                continue
            blob = repository[entry.id]
            assert isinstance(blob, pygit2.Blob)
            assert blob.data.endswith(b"\n")
            parse(blob.data, file)
            seen += 1
    assert seen > 800
