"""Crash recovery never overwrites bytes it did not write, and never trusts its journal.

The states here are the ones a write killed between two of its steps leaves behind: a
journal naming the commit and its parent, and main either still on the parent or already
on the commit. A hand edit made after the crash must survive the next memrepo command,
and a journal that names paths a write could never name (or blobs its commit does not
hold) is set aside, never applied, never a crash loop.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pygit2
import pytest

from memrepo import MemoryRepo
from memrepo.folder.journal import JournalSetAside

Git = Callable[..., str]


def journal_path(repo: MemoryRepo) -> Path:
    return repo.folder.state_dir / "journal.json"


def put_journal(repo: MemoryRepo, commit: str, parent: str, files: dict[str, str | None]) -> None:
    """The journal a write leaves when it is killed before clearing it."""
    data = {"commit": commit, "parent": parent, "files": files}
    journal_path(repo).write_text(json.dumps(data))


def blob_of(repo: MemoryRepo, commit: str, path: str) -> str:
    obj = repo.folder.repo[commit]
    assert isinstance(obj, pygit2.Commit)
    return str(obj.tree[path].id)


def set_aside(repo: MemoryRepo) -> list[Path]:
    return sorted(repo.folder.state_dir.glob("journal.json.broken-*"))


def test_hand_edit_after_a_crash_past_the_ref_move_survives_status(
    memory_repo: MemoryRepo, git: Git
) -> None:
    """Killed after main moved, before the journal was cleared; then the person edits."""
    parent = memory_repo.folder.store.main_id()
    written = memory_repo.remember("agent fact before the crash")
    assert written.commit is not None
    put_journal(
        memory_repo,
        written.commit,
        parent,
        {"MEMORY.md": blob_of(memory_repo, written.commit, "MEMORY.md")},
    )
    memory = memory_repo.root / "MEMORY.md"
    edited = memory.read_text().replace("## Index", "- typed by the person\n\n## Index")
    memory.write_text(edited)
    status = MemoryRepo.open(memory_repo.root).status()
    assert memory.read_text() == edited
    assert status.modified == ("MEMORY.md",)
    assert not journal_path(memory_repo).exists()
    after = MemoryRepo.open(memory_repo.root)
    after.remember("next agent fact")
    texts = [e.text for e in after.entries()]
    assert texts == ["agent fact before the crash", "typed by the person", "next agent fact"]
    assert git(memory_repo.root, "status", "--porcelain") == ""


def test_hand_edit_after_a_crash_before_the_ref_move_survives(memory_repo: MemoryRepo) -> None:
    """Killed after the journal, before main moved: the person's edit wins."""
    folder = memory_repo.folder
    parent = folder.store.main_commit()
    assert parent is not None
    new_data = b"# Memory\n\n- never published [by: agent]\n\n## Index\n"
    blob = folder.repo.create_blob(new_data)
    builder = folder.repo.TreeBuilder(parent.tree)
    builder.insert("MEMORY.md", blob, pygit2.enums.FileMode.BLOB)
    sig = pygit2.Signature("memrepo", "memrepo@localhost")
    commit = folder.repo.create_commit(None, sig, sig, "Remember\n", builder.write(), [parent.id])
    put_journal(memory_repo, str(commit), str(parent.id), {"MEMORY.md": str(blob)})
    edited = b"# Memory\n\n- the person's own line\n\n## Index\n"
    (memory_repo.root / "MEMORY.md").write_bytes(edited)
    MemoryRepo.open(memory_repo.root).status()
    assert (memory_repo.root / "MEMORY.md").read_bytes() == edited
    assert folder.store.main_id() == str(parent.id)


def _commit_with(repo: MemoryRepo, path: str, data: bytes) -> tuple[str, str, str]:
    """A commit on main's tip holding `path` (built with the git CLI's plumbing rules
    bypassed: libgit2 builds the tree), not on any ref. Returns commit, parent, blob."""
    folder = repo.folder
    parent = folder.store.main_commit()
    assert parent is not None
    blob = folder.repo.create_blob(data)
    builder = folder.repo.TreeBuilder(parent.tree)
    builder.insert(path.rsplit("/", 1)[-1], blob, pygit2.enums.FileMode.BLOB)
    sig = pygit2.Signature("memrepo", "memrepo@localhost")
    commit = folder.repo.create_commit(None, sig, sig, "Remember\n", builder.write(), [parent.id])
    return str(commit), str(parent.id), str(blob)


@pytest.mark.parametrize(
    "bad", ["../outside.md", ".git/config", ".GIT/hooks/pre-commit", "/tmp/x.md"]
)
def test_a_crafted_journal_never_writes_outside_the_worktree(
    memory_repo: MemoryRepo, tmp_path: Path, bad: str
) -> None:
    payload = b"[core]\n\tfsmonitor = touch /tmp/pwned\n"
    commit, parent, blob = _commit_with(memory_repo, "harmless.md", payload)
    put_journal(memory_repo, commit, parent, {bad: blob})
    config_before = (Path(memory_repo.folder.repo.path) / "config").read_bytes()
    with pytest.warns(JournalSetAside, match="journal"):
        reopened = MemoryRepo.open(memory_repo.root)
    assert (Path(memory_repo.folder.repo.path) / "config").read_bytes() == config_before
    assert not (memory_repo.root.parent / "outside.md").exists()
    assert not (tmp_path / "outside.md").exists()
    assert reopened.folder.store.main_id() == parent
    assert not journal_path(memory_repo).exists()
    assert len(set_aside(memory_repo)) == 1
    assert reopened.remember("works after the crafted journal").written


def test_a_journal_whose_blob_is_not_in_its_commit_is_set_aside(memory_repo: MemoryRepo) -> None:
    commit, parent, _blob = _commit_with(memory_repo, "MEMORY.md", b"# Memory\n\n## Index\n- x\n")
    other = str(
        memory_repo.folder.repo.create_blob(b"# Memory\n\n- planted [by: user]\n\n## Index\n")
    )
    put_journal(memory_repo, commit, parent, {"MEMORY.md": other})
    with pytest.warns(JournalSetAside):
        reopened = MemoryRepo.open(memory_repo.root)
    assert b"planted" not in (memory_repo.root / "MEMORY.md").read_bytes()
    assert reopened.folder.store.main_id() == parent
    assert len(set_aside(memory_repo)) == 1


def test_a_journal_that_cannot_be_applied_is_set_aside_not_a_crash_loop(
    memory_repo: MemoryRepo,
) -> None:
    """A 260-byte name: git stores it, the file system refuses it."""
    long_name = "n" * 256 + ".md"
    commit, parent, blob = _commit_with(memory_repo, long_name, b"# Long\n\n- x\n")
    put_journal(memory_repo, commit, parent, {long_name: blob})
    with pytest.warns(JournalSetAside, match="set aside"):
        first = MemoryRepo.open(memory_repo.root)
    assert first.status().clean
    second = MemoryRepo.open(memory_repo.root)  # no warning: the journal is gone
    assert second.remember("still writable").written
    assert len(set_aside(memory_repo)) == 1


def test_an_unreadable_journal_is_set_aside(memory_repo: MemoryRepo) -> None:
    journal_path(memory_repo).write_text('{"commit": "zz", "par')
    with pytest.warns(JournalSetAside):
        reopened = MemoryRepo.open(memory_repo.root)
    assert reopened.remember("writable").written
    assert len(set_aside(memory_repo)) == 1
