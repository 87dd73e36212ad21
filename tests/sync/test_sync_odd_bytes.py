"""Memory files that git calls binary (a NUL byte) or that are not UTF-8, arriving from a
person's editor or another tool: a sync between two machines still keeps every entry of
both sides on main."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.sync import api

from .conftest import first_machine, second_machine

pytestmark = pytest.mark.slow

Git = Callable[..., str]

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
NUL_LINE = b"- Pasted from a terminal \x00 with a stray NUL\n"


def add_by_hand(root: Path, path: str, line: bytes) -> None:
    """Add a line the way an editor would: above MEMORY.md's Index, or at a file's end."""
    file = root / path
    file.parent.mkdir(parents=True, exist_ok=True)
    data = file.read_bytes() if file.exists() else b"# Notes\n\n"
    if path == "MEMORY.md":
        head, marker, tail = data.partition(b"## Index")
        data = head.rstrip(b"\n") + b"\n" + line + b"\n" + marker + tail
    else:
        data += line
    file.write_bytes(data)


def on_main(repo: MemoryRepo, git: Git, path: str) -> bytes:
    blob = repo.folder.repo.revparse_single(f"main:{path}")
    data: bytes = blob.data  # type: ignore[attr-defined]
    assert git(repo.root, "status", "--porcelain") == ""
    return data


def test_a_nul_byte_in_memory_md_drops_neither_sides_entries(
    tmp_path: Path, remote_url: str, git: Git
) -> None:
    a = first_machine(tmp_path / "a", remote_url)
    b = second_machine(tmp_path / "b", remote_url)
    add_by_hand(a.root, "MEMORY.md", NUL_LINE)
    git(a.root, "commit", "-qam", "by hand")  # memrepo never commits a NUL for them (#27)
    assert a.remember("Machine A uses fish as its shell").written
    api.sync(a.folder)
    # git itself calls the file binary now (no line counts in a diff).
    assert git(a.root, "diff", "--numstat", EMPTY_TREE, "HEAD", "--", "MEMORY.md") == (
        "-\t-\tMEMORY.md\n"
    )
    assert b.remember("Machine B deploys on Fridays").written
    # Theirs is the binary-looking side.
    report = api.sync(b.folder)
    assert report.integration == "merged" and report.pushed
    merged = on_main(b, git, "MEMORY.md")
    for fact in (NUL_LINE.strip(), b"fish as its shell", b"deploys on Fridays"):
        assert merged.count(fact) == 1, fact
    assert report.conflicts == ()
    # Ours is the binary-looking side now.
    assert a.remember("Machine A pins Python 3.11").written
    assert b.remember("Machine B keeps logs for 30 days").written
    api.sync(b.folder)
    report = api.sync(a.folder)
    assert report.integration == "merged" and report.pushed
    api.sync(b.folder)
    for repo in (a, b):
        merged = on_main(repo, git, "MEMORY.md")
        for fact in (NUL_LINE.strip(), b"fish", b"Fridays", b"Python 3.11", b"30 days"):
            assert merged.count(fact) == 1, (repo.root, fact)
    assert a.folder.store.main_id() == b.folder.store.main_id()


def test_a_file_that_is_not_utf8_keeps_both_sides_and_warns(
    tmp_path: Path, remote_url: str, git: Git
) -> None:
    a = first_machine(tmp_path / "a", remote_url)
    add_by_hand(a.root, "topics/cafe.md", "- Meet at the café on Mondays\n".encode("latin-1"))
    git(a.root, "add", "topics/cafe.md")  # memrepo never commits bad UTF-8 for them (#27)
    git(a.root, "commit", "-qm", "by hand")
    api.sync(a.folder)
    b = second_machine(tmp_path / "b", remote_url)
    add_by_hand(a.root, "topics/cafe.md", b"- A: the caf\xe9 opens at 8\n")
    add_by_hand(b.root, "topics/cafe.md", b"- B: the caf\xe9 closes at 18\n")
    api.sync(a.folder)
    theirs = on_main(a, git, "topics/cafe.md")
    report = api.sync(b.folder)
    assert report.integration == "merged" and report.pushed
    merged = on_main(b, git, "topics/cafe.md")
    for fact in (b"caf\xe9 on Mondays", b"A: the caf\xe9 opens", b"B: the caf\xe9 closes"):
        assert merged.count(fact) == 1, fact
    assert [(c.path, c.kind) for c in report.conflicts] == [("topics/cafe.md", "encoding")]
    assert "not valid UTF-8" in report.conflicts[0].detail
    # Their version, byte for byte, is kept on the conflict branch as well.
    assert report.conflict_branch is not None
    kept = b.folder.repo.revparse_single(f"{report.conflict_branch}:topics/cafe.md")
    assert kept.data == theirs  # type: ignore[attr-defined]
    api.sync(a.folder)
    assert on_main(a, git, "topics/cafe.md") == merged
