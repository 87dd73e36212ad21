"""libgit2 fails a status with "error reading file for hashing" when a file shrinks between
its stat and its read (an editor saving in place at that instant; seen in the fault
suite). The scan for a person's edits looks again, and a worktree that stays unreadable
is a clear `WorktreeChanged`, never a traceback, with nothing written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygit2
import pytest

from memrepo import MemoryRepo
from memrepo.errors import WorktreeChanged
from memrepo.folder.repo import MemoryFolder

Git = Callable[..., str]


class EditorMidSave(pygit2.Repository):
    """A real repository whose status fails the way libgit2's does mid-save, `fails`
    times (the seam: MemoryFolder takes the repository it works on)."""

    def __init__(self, path: str, fails: int) -> None:
        super().__init__(path)
        self.fails = fails

    def status(self, *args: Any, **kwargs: Any) -> dict[str, int]:
        if self.fails > 0:
            self.fails -= 1
            raise OSError("error reading file for hashing: ")
        result: dict[str, int] = super().status(*args, **kwargs)
        return result


def _open(root: Path, fails: int) -> MemoryRepo:
    return MemoryRepo(MemoryFolder(EditorMidSave(str(root), fails)))


def test_a_status_that_fails_once_mid_save_is_looked_at_again(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    MemoryRepo.init(root).close()
    (root / "MEMORY.md").write_text("# Memory\n\n- the person's line\n\n## Index\n")
    repo = _open(root, fails=2)
    written = repo.remember("Written while an editor saved")
    assert written.written
    texts = [e.text for e in repo.entries()]
    assert texts == ["the person's line", "Written while an editor saved"]


@pytest.mark.slow
def test_a_worktree_that_stays_unreadable_is_a_clear_error(tmp_path: Path, git: Git) -> None:
    root = tmp_path / "mem"
    MemoryRepo.init(root).close()
    before = git(root, "rev-parse", "HEAD")
    repo = _open(root, fails=1000)
    with pytest.raises(WorktreeChanged, match="run the command again"):
        repo.remember("Never written")
    assert git(root, "rev-parse", "HEAD") == before
    with pytest.raises(WorktreeChanged):
        repo.status()
