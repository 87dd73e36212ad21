"""`MemoryRepo.show_commit`: one commit's files with git's own diff, bounded, on real
repositories (commits made with the `git` CLI, checked against `git show`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import EntryNotFound, MemoryRepo
from memrepo.folder.commit_view import MAX_FILE_LINES, show_commit

Git = Callable[..., str]


def commit_all(git: Git, root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)
    return git(root, "rev-parse", "HEAD").strip()


def test_a_remembered_fact_is_an_added_line_of_memory_md(memory_repo: MemoryRepo) -> None:
    result = memory_repo.remember("Deploy day is Friday for the shop", by="agent")
    assert result.commit is not None
    detail = memory_repo.show_commit(result.commit)
    assert detail.id == result.commit and detail.origin == "remember" and detail.by == "agent"
    (change,) = detail.files
    assert change.path == "MEMORY.md" and change.status == "modified"
    added = [line for line in change.diff.splitlines() if line.startswith("+")]
    assert len(added) == change.additions and "Deploy day is Friday for the shop" in added[0]
    assert change.diff.startswith("@@") and not detail.truncated and detail.paths == ("MEMORY.md",)


def test_the_first_commit_adds_every_file(memory_repo: MemoryRepo, git: Git) -> None:
    first = git(memory_repo.root, "rev-list", "--max-parents=0", "HEAD").strip()
    detail = memory_repo.show_commit(first)
    expected = sorted(git(memory_repo.root, "ls-tree", "-r", "--name-only", first).split())
    assert sorted(f.path for f in detail.files) == expected
    assert {f.status for f in detail.files} == {"added"}
    memory_md = next(f for f in detail.files if f.path == "MEMORY.md")
    assert "+# Memory" in memory_md.diff.splitlines() and memory_md.deletions == 0


def test_added_deleted_and_renamed_files_as_git_sees_them(
    memory_repo: MemoryRepo, git: Git
) -> None:
    root = memory_repo.root
    body = "".join(f"- Fact number {n} about the long project\n" for n in range(30))
    (root / "people.md").write_text("# People\n\n" + body, encoding="utf-8")
    (root / "old.md").write_text("# Old\n\n- gone soon\n", encoding="utf-8")
    commit_all(git, root, "add two files")
    (root / "people.md").rename(root / "team.md")
    (root / "old.md").unlink()
    (root / "new.md").write_text("# New\n\n- brand new\n", encoding="utf-8")
    head = commit_all(git, root, "rename, delete, add")
    files = {f.path: f for f in memory_repo.show_commit(head).files}
    assert set(files) == {"team.md", "old.md", "new.md"}
    assert files["team.md"].status == "renamed" and files["team.md"].old_path == "people.md"
    assert files["team.md"].diff == "" and files["team.md"].additions == 0
    assert files["old.md"].status == "deleted" and "-- gone soon" in files["old.md"].diff
    assert files["new.md"].status == "added" and files["new.md"].additions == 3
    shown = git(root, "show", "--format=", "--name-status", "-M", head).split()
    assert "R100" in shown and "D" in shown and "A" in shown


def test_a_binary_file_is_marked_not_shown(memory_repo: MemoryRepo, git: Git) -> None:
    (memory_repo.root / "photo.bin").write_bytes(bytes(range(256)) * 4)
    head = commit_all(git, memory_repo.root, "a binary file")
    (change,) = memory_repo.show_commit(head).files
    assert change.binary and change.diff == "" and change.status == "added"


def test_diffs_are_capped_per_file_and_in_all(memory_repo: MemoryRepo, git: Git) -> None:
    root = memory_repo.root
    for name in ("a.md", "b.md"):
        lines = "".join(f"- {name} line {n}\n" for n in range(MAX_FILE_LINES + 50))
        (root / name).write_text(lines, encoding="utf-8")
    (root / "c.md").write_text("- small\n", encoding="utf-8")
    head = commit_all(git, root, "big files")
    detail = memory_repo.show_commit(head)
    files = {f.path: f for f in detail.files}
    assert detail.truncated and files["a.md"].truncated
    assert len(files["a.md"].diff.splitlines()) == MAX_FILE_LINES
    assert files["a.md"].additions == MAX_FILE_LINES + 50  # the counts stay whole
    assert not files["c.md"].truncated and files["c.md"].diff.endswith("+- small")
    small = show_commit(memory_repo.folder.repo, head, file_lines=100, total_lines=150)
    shown = {f.path: len(f.diff.splitlines()) for f in small.files}
    assert shown == {"a.md": 100, "b.md": 50, "c.md": 0}
    assert [f.truncated for f in small.files] == [True, True, True]


def test_a_prefix_or_a_full_id_and_unknown_ids(memory_repo: MemoryRepo) -> None:
    result = memory_repo.remember("Ana owns the billing service", by="agent")
    assert result.commit is not None
    assert memory_repo.show_commit(result.commit[:7]).id == result.commit
    assert memory_repo.show_commit(result.commit.upper()).id == result.commit
    for unknown in ("0000000", "f" * 40, "not a commit", ""):
        with pytest.raises(EntryNotFound, match="no such commit"):
            memory_repo.show_commit(unknown)
