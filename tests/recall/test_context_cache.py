"""L0 is cached between turns and rebuilt exactly when the hot-memory version moves."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from memrepo import MemoryRepo

from .context_helpers import build, item, texts, write

Git = Callable[..., str]


def builds(repo: MemoryRepo) -> int:
    return repo._parts.context_builder.l0.builds


@pytest.mark.slow
def test_turns_without_writes_reuse_l0(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("The user prefers short answers", by="user")
    first = build(memory_repo, "short answers")
    assert not first.l0_cached and builds(memory_repo) == 1
    for query in ("anything", "short answers", "deploys"):
        again = build(memory_repo, query)
        assert again.l0_cached and again.block("l0") == first.block("l0")
    item(memory_repo, "A pinned note", pinned=True)
    assert not build(memory_repo).l0_cached  # an item write moved the hot version
    memory_repo.mark_used(list(build(memory_repo).refs))  # recording use is no memory write
    assert build(memory_repo).l0_cached and builds(memory_repo) == 2


def test_a_folder_write_rebuilds(memory_repo: MemoryRepo) -> None:
    build(memory_repo)
    memory_repo.remember("Deploys go through staging first", by="user")
    result = build(memory_repo)
    assert not result.l0_cached and builds(memory_repo) == 2
    assert texts(result, "l0") == ["Deploys go through staging first"]


def test_an_item_write_rebuilds(memory_repo: MemoryRepo) -> None:
    build(memory_repo)
    item(memory_repo, "Call me Sam", kind="identity", source="user_stated")
    result = build(memory_repo)
    assert not result.l0_cached and "Call me Sam" in texts(result, "l0")


def test_uncommitted_edits_rebuild_each_time_they_change(memory_repo: MemoryRepo) -> None:
    build(memory_repo)
    path = write(memory_repo, "MEMORY.md", "# Memory\n\n- Edited by hand\n\n## Index\n")
    assert texts(build(memory_repo), "l0") == ["Edited by hand"]
    assert build(memory_repo).l0_cached
    path.write_text("# Memory\n\n- Edited twice\n\n## Index\n", encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))  # a later save
    assert texts(build(memory_repo), "l0") == ["Edited twice"]
    assert builds(memory_repo) == 3


def test_a_plain_git_commit_rebuilds(memory_repo: MemoryRepo, git: Git) -> None:
    build(memory_repo)
    write(memory_repo, "MEMORY.md", "# Memory\n\n- Committed with git\n\n## Index\n")
    git(memory_repo.root, "commit", "-q", "-am", "edit")
    assert texts(build(memory_repo), "l0") == ["Committed with git"]
    assert build(memory_repo).l0_cached and builds(memory_repo) == 2


def test_each_reader_has_its_own_entry(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Shop deploys at noon", workspace="Web shop", by="user")
    assert texts(build(memory_repo, workspace="Web shop"), "l0")[-1] == "Shop deploys at noon"
    assert "Shop deploys at noon" not in texts(build(memory_repo, workspace="Clinic"), "l0")
    assert build(memory_repo, workspace="Web shop").l0_cached
    assert builds(memory_repo) == 2
