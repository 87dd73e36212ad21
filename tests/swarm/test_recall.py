"""The swarm lane of recall: only tasks inside that swarm see its notes."""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo

from .conftest import CHILD, GRANDCHILD, OTHER_ROOT, ROOT


@pytest.mark.slow
def test_only_tasks_of_the_swarm_recall_its_notes(repo: MemoryRepo) -> None:
    repo.remember("The staging cluster runs on arm64 nodes")
    repo.swarm_note(CHILD, "finding", "The lockfile hash is missing from the cache key")
    repo.swarm_note(OTHER_ROOT, "finding", "The lockfile changelog needs a migration note")
    for task in (ROOT, CHILD, GRANDCHILD):
        hits = repo.recall("lockfile cache key", task_id=task).hits
        swarm_hits = [h for h in hits if h.lane == "swarm"]
        assert [h.text for h in swarm_hits] == ["The lockfile hash is missing from the cache key"]
        assert swarm_hits[0].ref.startswith("swarm:fix-the-flaky-ci-build-root-4f2:findings.md#")
    assert [h.lane for h in repo.recall("lockfile").hits] == []
    assert all(h.lane != "swarm" for h in repo.recall("arm64 nodes", task_id="unknown").hits)
    other = repo.recall("lockfile", task_id=OTHER_ROOT).hits
    assert [h.text for h in other] == ["The lockfile changelog needs a migration note"]


@pytest.mark.slow
def test_expand_follows_the_same_rule(repo: MemoryRepo) -> None:
    note = repo.swarm_note(CHILD, "finding", "The lockfile hash is missing from the cache key")
    assert note.ref is not None
    assert [h.text for h in repo.expand([note.ref], task_id=GRANDCHILD)] == [
        "The lockfile hash is missing from the cache key"
    ]
    assert repo.expand([note.ref], task_id=OTHER_ROOT) == []
    assert repo.expand([note.ref]) == []


@pytest.mark.slow
def test_a_deleted_swarm_leaves_the_index(repo: MemoryRepo) -> None:
    repo.swarm_note(CHILD, "finding", "The lockfile hash is missing from the cache key")
    assert repo.recall("lockfile", task_id=CHILD).hits
    repo.add_task("late-child", "Joins later", parent=ROOT)
    repo.delete_task_tree(ROOT)
    repo.add_task(ROOT, "Fix the flaky CI build")
    assert repo.recall("lockfile", task_id=ROOT).hits == ()
