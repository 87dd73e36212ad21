"""The working-tree status a write checks first, kept cheap: a full scan now and then,
and in between only the paths a watch saw change.

The scan grows with the files: one ``lstat`` each, 30 ms of a 44 ms ``remember`` at
5,000 files (issue #16). `WorktreeScan` keeps the last full status and, with the
inotify watch of `memrepo.folder.worktree_watch`, re-asks git only about the paths with
an event, falling back to a full scan whenever that could answer differently (its
docstring). Why that cannot lose an edit: a write still replaces a file only when its
bytes are the version it expects and stages only the paths it wrote
(docs/architecture.md §3), so an edit no scan has seen yet stays on disk and is
committed as the person's by the next write that sees it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2.enums import FileStatus

from memrepo.folder.worktree_watch import WorktreeWatch

__all__ = ["FULL_SCAN_SECONDS", "MAX_RECHECKS", "WorktreeScan"]

FULL_SCAN_SECONDS = 2.0
"""A full scan at least this often: what no watch sees (a write through ``mmap``, a
hard link from outside the folder, a staged change landing in the microseconds between
memrepo's index write and its look at the index) is committed by a write at most this
much later, as a save landing just after a scan always was."""
MAX_RECHECKS = 64
"""More changed paths than this are rescanned whole (one ``status_file`` costs about a
60th of a full scan at 5,000 files)."""
_RULE_FILES = frozenset({".gitignore", ".gitattributes"})


@dataclass(frozen=True, slots=True)
class _Stamp:
    """What the status of every file also depends on: git's index and HEAD."""

    index: tuple[int, int, int, int] | None
    head: str


class WorktreeScan:
    """``git status`` of a worktree that rescans only the paths that can have changed.

    The first status is a full scan; the watch is started before it. After it, a
    status asks the watch which paths had an event and re-asks git about those alone
    (``status_file``, the same comparison a full scan makes, racy-git rules included,
    as it reads the same index), plus the paths memrepo staged itself (`staged`). A
    full scan is made instead whenever the answer could differ: the watch cannot tell
    (None), git's index or HEAD is not what memrepo last saw (a ``git add``, a commit,
    a reset, another process's write), a ``.gitignore`` or ``.gitattributes`` changed,
    too many paths changed, the last full scan is `max_age` old, or
    `invalidate` was called (a write found a save it did not expect).

    Why a stale answer can never lose a person's edit (docs/architecture.md §3): a
    write replaces a file only while it holds the version the write was planned on
    (``atomic.replace_if`` compares the bytes, not the scan), and it stages only the
    paths it wrote; a person's edit the scan has not seen yet stays on disk, untouched,
    and is committed as theirs by the first write that sees it.
    """

    def __init__(
        self,
        repo: pygit2.Repository,
        full: Callable[[], dict[str, int]],
        max_age: float = FULL_SCAN_SECONDS,
    ) -> None:
        self.repo = repo
        self.full = full
        self.max_age = max_age
        self.watch = WorktreeWatch(Path(repo.workdir))
        self._index = os.path.join(repo.path, "index")
        self._known: dict[str, int] | None = None
        self._stamp: _Stamp | None = None
        self._recheck: set[str] = set()
        self._full_at = 0.0
        self._lock = threading.Lock()
        #: How long the last status's full scan took; None when it rescanned a few paths.
        self.full_seconds: float | None = None

    def status(self) -> dict[str, int]:
        """path -> git status flags of every path not current (as ``repo.status``)."""
        with self._lock:
            changed = self._changed_paths()
            if changed is not None and self._recheck_paths(changed | self._recheck):
                assert self._known is not None
                self._recheck.clear()
                self.full_seconds = None
                return dict(self._known)
            return self._full_scan()

    def _changed_paths(self) -> set[str] | None:
        if self._known is None or time.monotonic() - self._full_at > self.max_age:
            return None
        if self._stamp != self._now():
            return None
        changed = self.watch.take()
        if changed is None or len(changed) > MAX_RECHECKS:
            return None
        if any(path.rpartition("/")[2] in _RULE_FILES for path in changed):
            return None
        return changed

    def _recheck_paths(self, paths: set[str]) -> bool:
        assert self._known is not None
        found: dict[str, int] = {}
        for path in paths:
            try:
                flags = self.repo.status_file(path)
            except KeyError:  # in neither the index nor the worktree
                flags = FileStatus.CURRENT
            except (OSError, ValueError, pygit2.GitError):
                return False  # a folder's name, a file being saved: the full scan decides
            found[path] = flags & ~FileStatus.IGNORED
        for path, flags in found.items():
            if flags:
                self._known[path] = flags
            else:
                self._known.pop(path, None)
        return True

    def _full_scan(self) -> dict[str, int]:
        if self.watch.take() is None:
            self.watch.start()  # before the scan: what changes during it is reported
        self._known, self._recheck = None, set()
        stamp = self._now()
        started = time.perf_counter()
        result = self.full()
        self.full_seconds = time.perf_counter() - started
        during = self.watch.take()  # a save the scan may have seen half of: look again
        if during is not None:
            self._known, self._stamp, self._full_at = dict(result), stamp, time.monotonic()
            self._recheck = during
        return result

    def staged(self, paths: Iterable[str], index_before: tuple[int, int, int, int] | None) -> None:
        """memrepo wrote git's index for `paths` (their worktree files may have changed
        too): look at them again next time. `index_before` is the index's stat data just
        before memrepo read it; a change by anyone else since the last status (or a
        missing answer) makes the next status a full scan."""
        with self._lock:
            if self._known is None or self._stamp is None or self._stamp.index != index_before:
                self._known = None
                return
            self._recheck.update(paths)
            self._stamp = self._now()

    def index_stat(self) -> tuple[int, int, int, int] | None:
        """git's index file: inode, size, mtime and ctime (every write of it is a new file)."""
        try:
            held = os.stat(self._index)
        except OSError:
            return None
        return held.st_ino, held.st_size, held.st_mtime_ns, held.st_ctime_ns

    def invalidate(self) -> None:
        """Make the next status a full scan."""
        with self._lock:
            self._known = None

    def close(self) -> None:
        """Give the watch back (an inotify instance is the user's, shared with editors);
        a later status scans in full and watches again."""
        with self._lock:
            self._known = None
            self.watch.close()

    def _now(self) -> _Stamp:
        head = self.repo.references.get("HEAD")
        try:
            target = str(head.resolve().target) if head is not None else ""
        except (KeyError, pygit2.GitError):
            target = ""  # an unborn branch
        return _Stamp(self.index_stat(), target)
