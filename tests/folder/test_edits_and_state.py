"""User edits, repo states memrepo must not write to, and paths that leave the root."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pygit2
import pytest

from memrepo import (
    DirtyWorktree,
    LocalConfig,
    MemoryRepo,
    NotAMemoryRepo,
    PathOutsideRoot,
    RepoStateError,
    SecretInEdit,
)
from memrepo.folder.hand_edits import HandEditHeld

Git = Callable[..., str]
CommitCount = Callable[..., int]


def test_user_edits_are_committed_first_as_their_own_commit(
    memory_repo: MemoryRepo, git: Git
) -> None:
    memory = memory_repo.root / "MEMORY.md"
    memory.write_text(memory.read_text().replace("## Index", "- Typed in an editor\n\n## Index"))
    (memory_repo.root / "new-topic.md").write_text("# Topic\n\n- new file by hand\n")
    status = memory_repo.status()
    assert status.modified == ("MEMORY.md",) and status.added == ("new-topic.md",)
    memory_repo.remember("Agent fact")
    log = memory_repo.log(limit=2)
    assert log[0].summary == "Remember: Agent fact"
    assert log[1].origin == "edit" and log[1].by == "user"
    assert set(log[1].paths) == {"MEMORY.md", "new-topic.md"}
    assert "Test User" in log[1].author
    assert memory_repo.status().clean
    assert git(memory_repo.root, "status", "--porcelain") == ""


def test_untracked_non_markdown_is_left_alone(memory_repo: MemoryRepo, git: Git) -> None:
    (memory_repo.root / "scratch.txt").write_text("not memory")
    memory_repo.remember("Agent fact")
    assert "?? scratch.txt" in git(memory_repo.root, "status", "--porcelain")


def test_deleted_file_is_recorded(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("topic fact", file="topic.md")
    (memory_repo.root / "topic.md").unlink()
    memory_repo.remember("another fact")
    assert memory_repo.log(limit=2)[1].paths == ("topic.md",)


def test_auto_commit_off_refuses_and_names_files(tmp_path: Path) -> None:
    repo = MemoryRepo.init(tmp_path / "m", config=LocalConfig(auto_commit_user_edits=False))
    (repo.root / "MEMORY.md").write_text("# Memory\n\n- edited\n\n## Index\n")
    with pytest.raises(DirtyWorktree, match=r"MEMORY\.md") as caught:
        repo.remember("Agent fact")
    assert caught.value.paths == ("MEMORY.md",)
    assert (repo.root / "MEMORY.md").read_text() == "# Memory\n\n- edited\n\n## Index\n"


def test_secret_in_a_user_edit_is_not_committed(
    memory_repo: MemoryRepo, commit_count: CommitCount, git: Git
) -> None:
    """It blocks only itself (issue #27): other writes go on, one to that file is refused."""
    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    (memory_repo.root / "keys.md").write_text(f"# Keys\n\n- github {key}\n")
    with pytest.warns(HandEditHeld, match=r"keys\.md:3 \(github_token\)"):
        assert memory_repo.remember("Agent fact").commit
    with pytest.raises(SecretInEdit, match=r"keys\.md:3"):
        memory_repo.remember("Another fact", file="keys.md")
    assert commit_count(memory_repo.root) == 2
    assert key not in git(memory_repo.root, "log", "--all", "-p")
    assert (memory_repo.root / "keys.md").exists()


def test_a_file_named_with_a_secret_is_not_committed(
    memory_repo: MemoryRepo, git: Git, commit_count: CommitCount
) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    (memory_repo.root / f"{token}.md").write_text("# Notes\n\n- harmless text\n")
    with pytest.warns(HandEditHeld) as caught:
        memory_repo.remember("Agent fact")
    shown = str(caught[0].message)
    assert token not in shown and "rename the file" in shown
    assert commit_count(memory_repo.root) == 2
    assert token not in git(memory_repo.root, "log", "--all", "--name-only")


def test_a_secret_in_an_edit_that_is_not_utf8_is_not_committed(
    memory_repo: MemoryRepo, commit_count: CommitCount, git: Git
) -> None:
    data = b"# Keys\n\n- caf\xe9 github ghp_" + b"a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8\n"
    (memory_repo.root / "keys.md").write_bytes(data)
    with pytest.warns(HandEditHeld, match=r"keys\.md:3"):
        memory_repo.remember("Agent fact")
    assert commit_count(memory_repo.root) == 2
    assert "keys.md" not in git(memory_repo.root, "ls-files")


@pytest.mark.parametrize(
    "bad", ["../outside.md", "/etc/passwd", ".git/config", "a/../../x", "", "a\\b.md"]
)
def test_paths_outside_the_root_are_refused(memory_repo: MemoryRepo, bad: str) -> None:
    with pytest.raises(PathOutsideRoot):
        memory_repo.remember("A fact", file=bad)
    assert memory_repo.entries() == []


def test_symlink_out_of_the_root_is_refused(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, memory_repo.root / "linked")
    with pytest.raises(PathOutsideRoot, match="symlink"):
        memory_repo.remember("A fact", file="linked/x.md")
    assert list(outside.iterdir()) == []


def test_not_a_memory_repo(tmp_path: Path) -> None:
    with pytest.raises(NotAMemoryRepo, match="no such directory"):
        MemoryRepo.open(tmp_path / "missing")
    (tmp_path / "plain").mkdir()
    with pytest.raises(NotAMemoryRepo, match="memrepo init"):
        MemoryRepo.open(tmp_path / "plain")


def test_empty_git_repo_is_refused_then_adopted(tmp_path: Path, commit_count: CommitCount) -> None:
    root = tmp_path / "empty"
    pygit2.init_repository(str(root), initial_head="main")
    with pytest.raises(NotAMemoryRepo, match="no commits"):
        MemoryRepo.open(root)
    repo = MemoryRepo.init(root)
    assert repo.remember("works now").written
    assert commit_count(root) == 2


def test_init_adopts_a_repo_with_history(
    tmp_path: Path, git: Git, commit_count: CommitCount
) -> None:
    root = tmp_path / "existing"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "README.md").write_text("hello\n")
    git(root, "add", "README.md")
    git(root, "commit", "-q", "-m", "first")
    repo = MemoryRepo.init(root)
    assert (root / "MEMORY.md").exists()
    assert commit_count(root) == 2
    assert repo.remember("A fact").written


def test_detached_head_refuses_writes(memory_repo: MemoryRepo, git: Git) -> None:
    memory_repo.remember("First fact")
    git(memory_repo.root, "checkout", "-q", "--detach", "HEAD")
    with pytest.raises(RepoStateError, match="detached"):
        memory_repo.remember("Second fact")
    assert [e.text for e in MemoryRepo.open(memory_repo.root).entries()] == ["First fact"]


def test_a_renamed_branch_is_adopted(memory_repo: MemoryRepo, git: Git) -> None:
    git(memory_repo.root, "branch", "-m", "main", "master")
    assert memory_repo.remember("A fact").written
    assert git(memory_repo.root, "log", "-1", "--format=%s", "master") == "Remember: A fact\n"


def test_invalid_utf8_file_blocks_only_itself(memory_repo: MemoryRepo, git: Git) -> None:
    from memrepo import InvalidUtf8

    bad = memory_repo.root / "latin1.md"
    bad.write_bytes(b"# Caf\xe9\n\n- cr\xe8me\n")
    git(memory_repo.root, "add", "latin1.md")
    git(memory_repo.root, "commit", "-q", "-m", "latin1 file")
    with pytest.raises(InvalidUtf8) as caught:
        memory_repo.remember("A fact", file="latin1.md")
    assert caught.value.offset == 5 and caught.value.path == "latin1.md"
    assert bad.read_bytes() == b"# Caf\xe9\n\n- cr\xe8me\n"
    assert memory_repo.remember("Other fact").written
    report = memory_repo.lint()
    assert any(p.kind == "encoding" and p.path == "latin1.md" for p in report.problems)


def test_main_missing_names_the_other_branch(memory_repo: MemoryRepo, git: Git) -> None:
    memory_repo.remember("A fact on main")
    git(memory_repo.root, "branch", "keep")
    git(memory_repo.root, "checkout", "-q", "keep")
    git(memory_repo.root, "branch", "-D", "main")
    git(memory_repo.root, "symbolic-ref", "HEAD", "refs/heads/main")
    reopened = MemoryRepo.open(memory_repo.root)
    with pytest.raises(RepoStateError, match="git branch main keep"):
        reopened.remember("Another fact")
    with pytest.raises(RepoStateError, match="main is missing"):
        MemoryRepo.init(memory_repo.root)
    assert git(memory_repo.root, "log", "--format=%s", "keep").splitlines()[0] == (
        "Remember: A fact on main"
    )


def test_bad_path_is_an_error_even_when_text_would_be_skipped(memory_repo: MemoryRepo) -> None:
    with pytest.raises(PathOutsideRoot):
        memory_repo.remember("hi", file="../x")


def test_stale_ref_lock_of_a_killed_writer_is_cleared(memory_repo: MemoryRepo, git: Git) -> None:
    """What a SIGKILL between the journal and the ref update leaves behind."""
    store = memory_repo.folder.store
    parent = store.main_commit()
    assert parent is not None
    sig = pygit2.Signature("memrepo", "memrepo@localhost")
    crashed = memory_repo.folder.repo.create_commit(
        None, sig, sig, "Remember: crashed\n", parent.tree.id, [parent.id]
    )
    store.journal.write(crashed, parent.id, {})
    (Path(memory_repo.folder.repo.path) / "refs/heads/main.lock").write_text("")
    assert memory_repo.remember("written after the stale lock").written
    assert git(memory_repo.root, "status", "--porcelain") == ""


@pytest.mark.slow
def test_binary_and_huge_files_in_the_folder(memory_repo: MemoryRepo) -> None:
    (memory_repo.root / "photo.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binary")
    (memory_repo.root / "huge.md").write_bytes(b"- big line\n" * 600_000)
    with pytest.warns(HandEditHeld, match=r"photo\.md:3 \(NUL byte\)"):  # never committed
        assert memory_repo.remember("Writes still work").written
    found = {(p.kind, p.path) for p in memory_repo.lint().problems}
    assert ("binary", "photo.md") in found
    assert ("too_large", "huge.md") in found
    assert [e.text for e in memory_repo.entries("MEMORY.md")] == ["Writes still work"]


def test_a_tree_listed_as_a_file_is_a_clear_error(memory_repo: MemoryRepo, git: Git) -> None:
    """A damaged (or forged) tree whose file entry points at a directory object: a read
    of main says the repository is damaged and points at `git fsck`."""
    memory_repo.remember("A fact before the damage")
    repo = memory_repo.folder.repo
    head = repo.head.peel(pygit2.Commit)
    raw = b"".join(f"{e.filemode:o} {e.name}".encode() + b"\0" + e.id.raw for e in head.tree)
    raw += b"100644 zz-forged.md\0" + head.tree.id.raw  # a tree object, listed as a file
    forged_tree = repo.odb.write(pygit2.enums.ObjectType.TREE, raw)
    forged = git(memory_repo.root, "commit-tree", str(forged_tree), "-p", str(head.id), "-m", "x")
    git(memory_repo.root, "update-ref", "refs/heads/main", forged.strip())
    with pytest.raises(RepoStateError, match=r"damaged.*git fsck"):
        memory_repo.dream(dry_run=True)
    assert git(memory_repo.root, "rev-parse", "main").strip() == forged.strip()
    assert git(memory_repo.root, "log", "--format=%s", "-1", "main~1") == (
        "Remember: A fact before the damage\n"
    )
