"""What the working-tree scan before every write costs, kept small in two ways: git's
stat cache written back after a byte copy of the folder, and a watch on the folder so a
write rescans only the paths that changed since the last one (`WorktreeScan`).

git's index remembers each file's inode, times and size, so a status scan hashes only
files whose stat changed. A byte copy (``cp -r``, rsync, a restore, another disk)
changes every inode and ctime while no content changes: libgit2's status then re-hashes
every file on every scan and, unlike ``git status``, never writes the fresh stat data
back. Measured at 500 files: each scan 22 ms instead of 1.1 ms, each ``remember``
26.5 ms instead of 5.1 ms, for good (issue #16).

Two signs say the cache is stale: the folder is not where it was (its root directory's
device and inode differ from the ones recorded in ``<state_dir>/worktree-id`` at the last
write: a copy, or a move to another disk; a rename on the same disk keeps every inode),
or a write's scan was slower than a clean one could be. Then the write transaction runs
``git update-index -q --refresh`` once, under memrepo's write lock: it rewrites the stat
data of files whose content matches the index and stages nothing (a changed file stays
changed, and is committed as the person's edit as always). pygit2 exposes neither
libgit2's ``GIT_STATUS_OPT_UPDATE_INDEX`` nor the index entries' stat fields, hence the
git command line, which sync and export already need.

The scan itself grows with the files: one ``lstat`` each, 30 ms of a 44 ms ``remember``
at 5,000 files here (issue #16). `WorktreeScan` keeps the last full status and, with a
Linux inotify watch on every folder, re-asks git only about the paths with an event,
falling back to a full scan whenever that could answer differently (its docstring).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import struct
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygit2
from pygit2.enums import FileStatus

__all__ = [
    "WorktreeScan",
    "WorktreeWatch",
    "file_system_type",
    "folder_moved",
    "is_stale_scan",
    "refresh_stat_cache",
]

WORKTREE_ID = "worktree-id"

PER_FILE_SECONDS = 15e-6
"""A scan slower than this per tracked file is re-hashing (a clean scan costs 2-4 us a
file here, a re-hashing one about 40 us)."""
MIN_SECONDS = 0.005
"""Scans faster than this are never worth a refresh, whatever the file count."""
TIMEOUT_SECONDS = 60.0


def is_stale_scan(seconds: float, tracked_files: int) -> bool:
    """Whether a status scan of that duration over that many files was re-hashing them."""
    return seconds >= max(MIN_SECONDS, PER_FILE_SECONDS * tracked_files)


def folder_moved(state_dir: Path, root: Path) -> bool:
    """Whether ``root`` is another directory than at the last check (and record it).

    The first check of a folder records it and says no: a new repo's cache is fresh.
    """
    try:
        stat = root.stat()
    except OSError:
        return False
    current = f"{stat.st_dev}:{stat.st_ino}"
    marker = state_dir / WORKTREE_ID
    try:
        recorded = marker.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        recorded = ""
    if recorded == current:
        return False
    try:
        marker.write_text(current + "\n", encoding="ascii")
    except OSError:
        return False  # a read-only state dir: never a refresh loop
    return bool(recorded)


def refresh_stat_cache(root: Path) -> bool:
    """Write fresh stat data for unchanged files into git's index; True when git ran.

    Best effort: a missing git, a held ``index.lock`` or a timeout leave the index as it
    was (the scans stay slow, nothing is lost). Exit status 1 only says some files differ
    from the index, which is expected.
    """
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "update-index", "-q", "--refresh"],
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode in (0, 1)


# --- the watch: rescan only what changed -------------------------------------------

FULL_SCAN_SECONDS = 2.0
"""A full scan at least this often: what no watch sees (a write through ``mmap``, a
hard link from outside the folder, a staged change landing in the microseconds between
memrepo's index write and its look at the index) is committed by a write at most this
much later, as a save landing just after a scan always was."""
MAX_RECHECKS = 64
"""More changed paths than this are rescanned whole (one ``status_file`` costs about a
60th of a full scan at 5,000 files)."""
MAX_WATCHED_DIRS = 4096
MAX_WATCHES_PER_PROCESS = 16
"""inotify instances are a per-user resource (128 by default) that editors and file
managers need too: a process holding many memory folders watches the first few."""
_LOCAL_FILE_SYSTEMS = frozenset(
    {"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "f2fs", "zfs", "overlay", "bcachefs"}
)
_RULE_FILES = frozenset({".gitignore", ".gitattributes"})

# inotify(7)
_IN_NONBLOCK = os.O_NONBLOCK
_IN_CLOEXEC = os.O_CLOEXEC
_IN_MODIFY, _IN_ATTRIB, _IN_CLOSE_WRITE = 0x2, 0x4, 0x8
_IN_MOVED_FROM, _IN_MOVED_TO, _IN_CREATE, _IN_DELETE = 0x40, 0x80, 0x100, 0x200
_IN_DELETE_SELF, _IN_MOVE_SELF, _IN_UNMOUNT = 0x400, 0x800, 0x2000
_IN_Q_OVERFLOW, _IN_IGNORED, _IN_ISDIR = 0x4000, 0x8000, 0x40000000
_IN_ONLYDIR, _IN_DONT_FOLLOW = 0x01000000, 0x02000000
_WATCH_MASK = (
    _IN_MODIFY | _IN_ATTRIB | _IN_CLOSE_WRITE | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE
    | _IN_DELETE | _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_ONLYDIR | _IN_DONT_FOLLOW
)  # fmt: skip
#: Events after which the watched set of folders is no longer known to be complete.
_REBUILD = _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_UNMOUNT | _IN_Q_OVERFLOW | _IN_IGNORED
_EVENT = struct.Struct("iIII")


def _libc_inotify() -> Any:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover - no C library to load
        return None
    return libc if hasattr(libc, "inotify_init1") else None


_libc = _libc_inotify()
_live_watches = 0
_live_lock = threading.Lock()


def _release_watch(fd: int) -> None:
    global _live_watches
    with contextlib.suppress(OSError):
        os.close(fd)
    with _live_lock:
        _live_watches -= 1


def file_system_type(path: Path) -> str:
    """The type of the file system holding ``path`` (``/proc/self/mountinfo``), "" when
    it cannot be told."""
    try:
        lines = Path("/proc/self/mountinfo").read_text(encoding="utf-8").splitlines()
        target = os.path.realpath(path)
    except OSError:
        return ""
    best, kind = "", ""
    for line in lines:
        fields, sep, rest = line.partition(" - ")
        parts = fields.split()
        if not sep or len(parts) < 5:
            continue
        mount = parts[4].replace("\\040", " ")
        inside = target == mount or target.startswith(mount.rstrip("/") + "/")
        if inside and len(mount) >= len(best):
            best, kind = mount, rest.split()[0]
    return kind


class WorktreeWatch:
    """Which worktree paths may have changed since the last `take` (Linux inotify).

    Every folder of the worktree but ``.git`` is watched for any change to an entry in
    it. The kernel queues an event in the same system call that changes a file, so a
    save that has returned before `take` is in what `take` returns. A watch is added
    before its folder is listed, so a folder made meanwhile is either listed or
    reported. `take` says None ("anything may have changed") when a folder came, went
    or moved, when the queue overflowed, after a fork (the queue is shared with the
    parent) or when the watch could not be made; `start` builds it again.
    """

    def __init__(self, root: Path) -> None:
        self.root = os.path.realpath(root)
        self._fd: int | None = None
        self._dirs: dict[int, str] = {}
        self._pid = 0
        self._finalizer: weakref.finalize[Any, WorktreeWatch] | None = None
        self._broken = True
        self._supported: bool | None = None

    @property
    def supported(self) -> bool:
        """Whether this folder can be watched: Linux, on a local file system (a network
        one's other clients make no events here). Asked once, on first use."""
        if self._supported is None:
            local = file_system_type(Path(self.root)) in _LOCAL_FILE_SYSTEMS
            self._supported = _libc is not None and local
        return self._supported

    def start(self) -> bool:
        """(Re)build the watch; False when this folder cannot be watched here."""
        global _live_watches
        self.close()
        if not self.supported:
            return False
        with _live_lock:
            if _live_watches >= MAX_WATCHES_PER_PROCESS:
                return False
            fd = int(_libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC))
            if fd < 0:
                return False
            _live_watches += 1
        self._fd, self._pid, self._broken = fd, os.getpid(), False
        self._finalizer = weakref.finalize(self, _release_watch, fd)
        if not self._watch_tree():
            self.close()
            return False
        return True

    def _watch_tree(self) -> bool:
        pending = [""]
        while pending:
            rel = pending.pop()
            full = f"{self.root}/{rel}" if rel else self.root
            wd = int(_libc.inotify_add_watch(self._fd, os.fsencode(full), _WATCH_MASK))
            if wd < 0:
                if ctypes.get_errno() in (errno.ENOENT, errno.ENOTDIR):
                    self._broken = True  # it went away while listed: take() says so
                    continue
                return False  # ENOSPC (the user's watch limit), EACCES, ...
            self._dirs[wd] = rel
            if len(self._dirs) > MAX_WATCHED_DIRS:
                return False
            try:
                with os.scandir(full) as entries:
                    for entry in entries:
                        if entry.name != ".git" and entry.is_dir(follow_symlinks=False):
                            pending.append(f"{rel}/{entry.name}" if rel else entry.name)
                        elif entry.name == ".git" and rel:
                            return False  # a repository inside: status tells it apart
            except (FileNotFoundError, NotADirectoryError):
                self._broken = True
            except OSError:
                return False
        return True

    def take(self) -> set[str] | None:
        """The paths (relative, ``/``-separated) with an event since the last call, or
        None when that cannot be told (see the class docstring)."""
        if self._fd is None or self._pid != os.getpid():
            return None
        changed: set[str] = set()
        while True:
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                break
            except OSError:
                self._broken = True
                break
            self._parse(data, changed)
        return None if self._broken else changed

    def _parse(self, data: bytes, changed: set[str]) -> None:
        offset = 0
        while offset + _EVENT.size <= len(data):
            wd, mask, _cookie, size = _EVENT.unpack_from(data, offset)
            name = data[offset + _EVENT.size : offset + _EVENT.size + size].rstrip(b"\0")
            offset += _EVENT.size + size
            folder = self._dirs.get(wd)
            if mask & (_REBUILD | _IN_ISDIR) or folder is None or name == b".git":
                self._broken = True  # a folder or repository came, went or moved
            elif name:
                text = os.fsdecode(name)
                changed.add(f"{folder}/{text}" if folder else text)

    def close(self) -> None:
        if self._finalizer is not None and self._pid == os.getpid():
            self._finalizer()
        elif self._finalizer is not None:
            self._finalizer.detach()  # the parent's descriptor: the parent closes it
        self._fd, self._finalizer, self._broken = None, None, True
        self._dirs = {}


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

    def _now(self) -> _Stamp:
        head = self.repo.references.get("HEAD")
        try:
            target = str(head.resolve().target) if head is not None else ""
        except (KeyError, pygit2.GitError):
            target = ""  # an unborn branch
        return _Stamp(self.index_stat(), target)
