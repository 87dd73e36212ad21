"""Through a real repo: no corpus secret reaches git objects, files or the index, and a
NUL in remembered text never makes a memory file binary."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

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


@pytest.mark.slow
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


def test_metadata_values_are_cleaned_of_invisible_characters(memory_repo: MemoryRepo) -> None:
    """source and subject go into the entry's [key: value] group: a bell or a bidi
    override there reaches the file as much as in the text."""
    result = memory_repo.remember(
        "Build server moved to rack 4", source="notes\u202e.txt", subject="infra\x07lab"
    )
    assert result.written
    files = [p for p in memory_repo.root.rglob("*.md") if ".git" not in p.parts]
    data = b"".join(p.read_bytes() for p in files)
    assert b"notes.txt" in data and b"infra lab" in data
    assert b"\x07" not in data and "\u202e".encode() not in data
