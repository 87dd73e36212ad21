"""The working tree as a person left it: git's status of it, the memory files they
changed, added or deleted, and reading a file without leaving the root.

libgit2's status can fail while an editor saves in place, and a symlink could point a
read outside the root; both are met here so the write transaction never sees them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import pygit2
from pygit2.enums import FileStatus

from memrepo.errors import WorktreeChanged
from memrepo.folder.hand_edits import HandEdits, PendingEdits

#: Looks at the worktree before a status that keeps failing means "busy" (`full_status`).
_STATUS_ATTEMPTS = 5

_USER_EDIT_FLAGS = (
    FileStatus.WT_MODIFIED
    | FileStatus.WT_DELETED
    | FileStatus.WT_TYPECHANGE
    | FileStatus.WT_RENAMED
    | FileStatus.INDEX_NEW
    | FileStatus.INDEX_MODIFIED
    | FileStatus.INDEX_DELETED
    | FileStatus.INDEX_RENAMED
    | FileStatus.INDEX_TYPECHANGE
)


class Worktree:
    """One memory root's working tree, read the way a write may rely on."""

    def __init__(self, repo: pygit2.Repository, root: Path) -> None:
        self.repo = repo
        self.root = root
        self._real_root: str | None = None

    def full_status(self) -> dict[str, int]:
        """git status of the whole worktree. libgit2 fails with "error reading file for
        hashing" when a file shrinks between its stat and its read (an editor saving in
        place at that moment): look again a few times, then say the worktree is busy (the
        write transaction retries on WorktreeChanged; nothing is written meanwhile)."""
        for attempt in range(_STATUS_ATTEMPTS):
            try:
                return dict(self.repo.status(untracked_files="all"))
            except (OSError, pygit2.GitError) as exc:
                if attempt == _STATUS_ATTEMPTS - 1:
                    raise WorktreeChanged(f"{self.root} ({exc})", busy=True) from exc
                time.sleep(0.002 * 2**attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    def pending_edits(
        self,
        status: Mapping[str, int],
        read_at_main: Callable[[str], bytes | None],
        hand_edits: HandEdits,
    ) -> PendingEdits:
        """The memory files `status` shows a person changed, new or deleted, sorted by
        `hand_edits` into what the next write commits and what it holds back."""
        modified: list[str] = []
        added: list[str] = []
        deleted: list[str] = []
        for path, flags in status.items():
            if path.startswith(".git/"):
                continue
            full = self.root / path
            if flags & FileStatus.WT_NEW:
                if not full.is_symlink():
                    added.append(path)
            elif flags & _USER_EDIT_FLAGS:
                if full.exists() or full.is_symlink():
                    if flags & (FileStatus.INDEX_NEW) and read_at_main(path) is None:
                        added.append(path)
                    else:
                        modified.append(path)
                else:
                    deleted.append(path)
        return hand_edits.sort(modified, added, deleted)

    def read(self, path: str) -> bytes | None:
        """A worktree file's bytes, or None if it is gone. Never through a symlink, the
        file's own or a folder's on the way: nothing outside the root is read."""
        full = self.root / path
        if full.is_symlink():
            return None
        if "/" in path and not self._inside(os.path.realpath(full.parent)):
            return None
        try:
            return full.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return None

    def _inside(self, real: str) -> bool:
        if self._real_root is None:
            self._real_root = os.path.realpath(self.root)
        return real == self._real_root or real.startswith(self._real_root + os.sep)
