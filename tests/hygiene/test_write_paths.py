"""Through a real repo: no corpus secret reaches git objects, files or the index, and a
NUL in remembered text never makes a memory file binary."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from memrepo import MemoryRepo

from .corpus import load_secrets

Git = Callable[..., str]


def _git_objects(root: Path) -> bytes:
    """Every object git stores, loose or packed, reachable or not, decompressed."""
    return subprocess.run(
        ["git", "-C", str(root), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout


def _every_file(root: Path) -> bytes:
    """The bytes of every file under root: worktree, .git, index, SQLite."""
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())


def test_no_corpus_secret_reaches_git_files_or_the_index(memory_repo: MemoryRepo) -> None:
    samples = load_secrets()
    for sample in samples:
        result = memory_repo.remember(f"Note {sample.line}: {sample.text}")
        assert result.written, result
    memory_repo.recall("token key secret password")  # the index is built and queried
    stored = _git_objects(memory_repo.root) + _every_file(memory_repo.root)
    for sample in samples:
        for secret in sample.secrets:
            assert secret.encode() not in stored, (sample.family, sample.line)
            assert secret.lower().encode() not in stored, (sample.family, sample.line)
    assert b"Note 3:" in stored  # the notes themselves were written


def test_a_nul_in_remembered_text_never_reaches_a_file(memory_repo: MemoryRepo, git: Git) -> None:
    result = memory_repo.remember("Deploy\x00 window is\x07 Friday \u202eevil\u202c 10:00")
    assert result.written
    files = [p for p in memory_repo.root.rglob("*.md") if ".git" not in p.parts]
    data = b"".join(p.read_bytes() for p in files)
    assert b"Deploy window is Friday evil 10:00" in data
    assert not any(byte < 32 and byte not in b"\t\n\r" for byte in data)
    numstat = git(memory_repo.root, "log", "-1", "--numstat", "--format=")
    assert numstat.strip() and not numstat.startswith("-\t-\t"), numstat
