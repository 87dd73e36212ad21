"""Swarm folders are never linked from MEMORY.md, never in entries() or lint's unlisted
files, and never read as the main folder's memory."""

from __future__ import annotations

from memrepo import MemoryRepo

from .conftest import CHILD, ROOT, Git


def test_swarm_notes_stay_out_of_the_main_folder(repo: MemoryRepo, git: Git) -> None:
    repo.remember("The user prefers short answers")
    memory_before = (repo.root / "MEMORY.md").read_bytes()
    question = repo.swarm_note(ROOT, "question", "Is the runner image pinned?")
    repo.swarm_note(CHILD, "answer", "It floats on latest", answers=question.ref)
    repo.swarm_note(CHILD, "finding", "The cache key ignores the lockfile")
    assert (repo.root / "MEMORY.md").read_bytes() == memory_before
    assert "swarms" not in git(repo.root, "show", "HEAD:MEMORY.md")
    assert [e.text for e in repo.entries()] == ["The user prefers short answers"]
    assert [p for p in repo.lint().problems if "swarms/" in p.path] == []
    inside = repo.entries("swarms/fix-the-flaky-ci-build-root-4f2/findings.md")
    assert [e.text for e in inside] == ["The cache key ignores the lockfile"]
