"""A Linux inotify watch on every folder of a memory repo's working tree: which paths
changed since it was last asked, or None when it cannot tell.

`WorktreeScan` (memrepo/folder/worktree_scan.py) asks it before every write, so a write
rescans only what changed. The watch is a hint, never the truth: on anything it cannot
vouch for (an overflowed queue, a folder created or gone, a fork, a file system that is
not local, too many folders, no inotify) it answers None and the scan looks at
everything. inotify instances are a per-user resource editors need too, so a process
watches at most `MAX_WATCHES_PER_PROCESS` folders, and `close` gives one back.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import struct
import threading
import weakref
from pathlib import Path
from typing import Any

__all__ = ["MAX_WATCHES_PER_PROCESS", "WorktreeWatch", "file_system_type"]

MAX_WATCHED_DIRS = 4096
MAX_WATCHES_PER_PROCESS = 16
"""inotify instances are a per-user resource (128 by default) that editors and file
managers need too: a process holding many memory folders watches the first few."""
_LOCAL_FILE_SYSTEMS = frozenset(
    {"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "f2fs", "zfs", "overlay", "bcachefs"}
)

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
