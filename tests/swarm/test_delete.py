"""Deleting a root task (delete_task_tree, purge_task) removes its swarm in one commit."""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo
from memrepo.errors import TaskNotFound

from .conftest import CHILD, GRANDCHILD, OTHER_ROOT, ROOT, CommitCount, Git, head

FOLDER = "swarms/fix-the-flaky-ci-build-root-4f2"
OTHER = "swarms/write-the-release-notes-other-77"


def _fill(repo: MemoryRepo) -> None:
    question = repo.swarm_note(ROOT, "question", "Is the runner image pinned?")
    repo.swarm_note(CHILD, "answer", "It floats on latest", answers=question.ref)
    repo.swarm_note(GRANDCHILD, "finding", "The cache key ignores the lockfile")
    repo.swarm_note(OTHER_ROOT, "finding", "Release notes need the migration")


def test_delete_task_tree_removes_the_folder_tasks_and_items(
    repo: MemoryRepo, git: Git, commit_count: CommitCount
) -> None:
    _fill(repo)
    repo.remember("The CI box is arm64", scope="task", task_id=GRANDCHILD)
    count = commit_count(repo.root)
    result = repo.delete_task_tree(ROOT)
    assert result.tasks == (ROOT, CHILD, GRANDCHILD)
    assert result.swarm_folder == FOLDER and result.commit == head(git, repo.root)
    assert result.items.deleted == 1
    assert commit_count(repo.root) == count + 1
    removed = git(repo.root, "show", "--name-status", "--format=", "HEAD").splitlines()
    assert sorted(removed) == [
        f"D\t{FOLDER}/README.md",
        f"D\t{FOLDER}/findings.md",
        f"D\t{FOLDER}/questions.md",
    ]
    assert not (repo.root / FOLDER).exists() and (repo.root / OTHER).is_dir()
    assert git(repo.root, "status", "--porcelain") == ""
    assert "Memrepo-Origin: swarm" in git(repo.root, "log", "-1", "--format=%B")
    assert [t.id for t in repo.local_tasks()] == [OTHER_ROOT]
    with pytest.raises(TaskNotFound):
        repo.swarm_note(CHILD, "finding", "The task is gone")


def test_deleting_a_subtree_keeps_the_swarm(repo: MemoryRepo, git: Git) -> None:
    _fill(repo)
    before = head(git, repo.root)
    result = repo.delete_task_tree(CHILD)
    assert result.tasks == (CHILD, GRANDCHILD) and result.swarm_folder is None
    assert head(git, repo.root) == before
    assert (repo.root / FOLDER / "findings.md").is_file()
    assert repo.resolve_swarm(ROOT).folder == FOLDER


def test_purge_task_of_a_root_removes_its_swarm_folder(
    repo: MemoryRepo, git: Git, commit_count: CommitCount
) -> None:
    _fill(repo)
    before = head(git, repo.root)
    repo.purge_task(CHILD)
    assert head(git, repo.root) == before  # not a root: the swarm stays
    repo.purge_task(ROOT)
    assert not (repo.root / FOLDER).exists() and (repo.root / OTHER).is_dir()
    assert commit_count(repo.root, f"{before}..HEAD") == 1
    repo.purge_task("never-registered")  # an unknown task has no swarm: nothing to do
    repo.purge_task(OTHER_ROOT)
    assert not (repo.root / "swarms").exists()


def test_undo_brings_a_deleted_swarm_back(repo: MemoryRepo) -> None:
    _fill(repo)
    result = repo.delete_task_tree(ROOT)
    assert result.commit is not None
    repo.undo(result.commit)
    assert "The cache key ignores the lockfile" in (repo.root / FOLDER / "findings.md").read_text()
