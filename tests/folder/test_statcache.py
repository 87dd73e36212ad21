"""After a byte copy of the folder, the first write puts git's stat cache back."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.folder.statcache import folder_moved, is_stale_scan, refresh_stat_cache

Git = Callable[..., str]


def cached_inodes(git: Git, root: Path) -> dict[str, int]:
    """path -> the inode git's index holds for it (`git ls-files --debug`)."""
    out = git(root, "ls-files", "--debug")
    found: dict[str, int] = {}
    path = ""
    for line in out.splitlines():
        if not line.startswith(" "):
            path = line
        elif match := re.search(r"ino: (\d+)", line):
            found[path] = int(match.group(1))
    return found


def stale(git: Git, root: Path) -> set[str]:
    return {p for p, ino in cached_inodes(git, root).items() if os.stat(root / p).st_ino != ino}


@pytest.mark.slow
def test_a_copied_folder_gets_its_stat_cache_back_on_the_first_write(
    tmp_path: Path, git: Git
) -> None:
    source = tmp_path / "mem"
    MemoryRepo.init(source).close()
    for n in range(600):  # enough files that re-hashing them all is plainly slow
        path = source / "topics" / f"t{n % 20}" / f"f{n}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Topic {n}\n\n- Fact {n} about thing {n * 7}\n", encoding="utf-8")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "topics")
    with MemoryRepo.open(source) as used:  # a memory in use: written to where it was made
        used.remember("A fact written before the copy")
    copy = tmp_path / "copy"
    shutil.copytree(source, copy, symlinks=True)
    assert len(stale(git, copy)) > 500  # every file has a new inode
    edited = copy / "topics" / "t3" / "f3.md"
    edited.write_text("# Topic 3\n\n- Fact 3, edited by hand\n", encoding="utf-8")

    with MemoryRepo.open(copy) as repo:
        repo.remember("A fact written in the copy")
    assert stale(git, copy) == set()
    assert git(copy, "status", "--porcelain") == ""
    assert "edited by hand" in git(copy, "show", "HEAD~1:topics/t3/f3.md")  # the person's
    assert "A fact written in the copy" in (copy / "MEMORY.md").read_text(encoding="utf-8")


def test_the_folder_is_known_by_its_root_directory(tmp_path: Path) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    state.mkdir()
    assert folder_moved(state, root) is False  # first seen: recorded, nothing to refresh
    assert folder_moved(state, root) is False
    root.rename(tmp_path / "renamed")  # the same directory, another name
    assert folder_moved(state, tmp_path / "renamed") is False
    other = tmp_path / "other"
    other.mkdir()
    assert folder_moved(state, other) is True  # a copy's root is another directory
    assert folder_moved(state, other) is False  # and only once


def test_only_a_slow_scan_counts_as_stale() -> None:
    assert not is_stale_scan(0.004, 10_000)  # under the floor, whatever the file count
    assert not is_stale_scan(0.012, 5_000)  # 2.4 us a file: a clean scan
    assert is_stale_scan(0.022, 500)  # 44 us a file: re-hashing everything
    assert is_stale_scan(0.2, 5_000)


def test_a_refresh_where_git_cannot_run_changes_nothing(tmp_path: Path) -> None:
    assert refresh_stat_cache(tmp_path / "not-a-repo") is False
