"""The one way memrepo replaces a file of the working tree: only over what it expects.

A person's editor may save a memory file at any instant, lock or no lock. A plain
`rename(tmp, target)` replaces whatever is there, so a save that lands after memrepo
last looked is gone. Here the new file is swapped in with `renameat2(RENAME_EXCHANGE)`:
one atomic step that also hands back exactly the file it displaced. When that is not
what memrepo expected (the committed version, or already the new one), it is put back
and the write is refused with `WorktreeChanged`, so the caller commits the person's
bytes first and tries again. A new file goes in with `RENAME_NOREPLACE` (a file someone
created meanwhile is never replaced), a deleted one is first moved aside and checked.

Where the kernel or file system offers neither flag, the file is compared just before a
plain rename: the window shrinks to a few microseconds instead of closing.

Durability is git's own default, everywhere: no fsync. A killed process cannot leave a
torn file (every replacement is a rename); the crash journal covers the rest.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import signal
import stat
from pathlib import Path

import pygit2

from memrepo._platform import fcntl
from memrepo.errors import WorktreeChanged

_AT_FDCWD = -100
_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
_UNSUPPORTED = {errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP}


class _Renamer:
    """`renameat2` through libc, switched off for the process at its first refusal."""

    def __init__(self) -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        self.call = getattr(libc, "renameat2", None)

    def __call__(self, src: str, dst: str, flags: int) -> bool:
        """True when done; False when unsupported here (the caller falls back); the
        OSError of any other failure (FileExistsError, FileNotFoundError, ...)."""
        if self.call is None:
            return False
        done = self.call(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), flags)
        if done == 0:
            return True
        code = ctypes.get_errno()
        if code in _UNSUPPORTED:
            self.call = None
            return False
        raise OSError(code, os.strerror(code), src, None, dst)


_rename2 = _Renamer()


def write_new_file(path: str | Path, data: bytes, mode: int = 0o644) -> tuple[int, int, int]:
    """Create or truncate `path` with `data`, without Python's buffered-file layers (on
    every write's path: a journal and a temp file per file written). Returns the inode,
    size and mtime (ns) of what was written, seen while the file was still open."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        done = os.fstat(fd)
    finally:
        os.close(fd)
    return done.st_ino, done.st_size, done.st_mtime_ns


def blob_id_on_disk(path: str) -> pygit2.Oid | None:
    """The git blob id of what is at `path` (a symlink: of its target text), None when
    nothing is there; a folder or other non-file gets an id no blob has."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISLNK(info.st_mode):
        return pygit2.hash(os.fsencode(os.readlink(path)))
    if not stat.S_ISREG(info.st_mode):
        return _NOT_A_FILE
    with open(path, "rb") as handle:
        return pygit2.hash(handle.read())


_NOT_A_FILE = pygit2.Oid(hex="f" * 40)


def being_written(path: str) -> bool:
    """Whether another process has `path` open for writing right now: an editor that
    truncated the file and has not finished its save. A file replaced under it would
    take the rest of its save into an unlinked inode.

    Asked the kernel with a read lease, which it refuses (EAGAIN) exactly while some
    process holds the file open for writing. Where leases are not available (another
    owner, a network file system) the answer is False. A lease break while the lease is
    held (microseconds) is signalled with SIGURG, which is ignored by default, instead
    of SIGIO, which would end the process."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.fcntl(fd, fcntl.F_SETSIG, signal.SIGURG)
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)
    except OSError as exc:
        return exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK)
    else:
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
        return False
    finally:
        os.close(fd)


def replace_if(tmp: str, target: str, expected: pygit2.Oid | None, new: pygit2.Oid | None) -> bool:
    """Move `tmp` (the new version, blob `new`) to `target` if `target` holds blob
    `expected` (None: nothing); with `new` None, delete `target` (`tmp` is then only
    a free name to move it aside to). False when `target` already held the new version
    (nothing done, `tmp` removed). WorktreeChanged when it held anything else: that
    is left in place, `tmp` removed."""
    if new is None:
        return _delete_if(tmp, target, expected)
    if expected is None:
        return _create(tmp, target, new)
    if being_written(target):
        _unlink(tmp)
        raise WorktreeChanged(target, busy=True)
    current = blob_id_on_disk(target)
    if current != expected:
        # The common case of a save after the caller looked: refused before anything
        # moves, so an editor watching the file never sees it flicker.
        _unlink(tmp)
        if current == new:
            return False
        raise WorktreeChanged(target)
    try:
        swapped = _rename2(tmp, target, _RENAME_EXCHANGE)
    except (FileNotFoundError, NotADirectoryError):
        _unlink(tmp)
        raise WorktreeChanged(target) from None  # it was deleted meanwhile
    if not swapped:
        os.replace(tmp, target)  # no renameat2 here: compared just above, then renamed
        return True
    displaced = blob_id_on_disk(tmp)
    if displaced == expected:
        _unlink(tmp)
        return True
    _put_back(tmp, target, new)
    if displaced == new:
        return False
    raise WorktreeChanged(target)


def _create(tmp: str, target: str, new: pygit2.Oid) -> bool:
    try:
        if _rename2(tmp, target, _RENAME_NOREPLACE):
            return True
    except FileExistsError:
        pass
    else:
        return _compare_and_replace(tmp, target, None, new)
    _unlink(tmp)
    if blob_id_on_disk(target) == new:
        return False
    raise WorktreeChanged(target)


def _delete_if(aside: str, target: str, expected: pygit2.Oid | None) -> bool:
    if being_written(target):
        raise WorktreeChanged(target, busy=True)
    try:
        os.rename(target, aside)
    except (FileNotFoundError, NotADirectoryError):
        return False  # already gone, which is what was asked
    moved = blob_id_on_disk(aside)
    if moved == expected:
        _unlink(aside)
        return True
    try:
        if not _rename2(aside, target, _RENAME_NOREPLACE) and not os.path.lexists(target):
            os.rename(aside, target)
    except FileExistsError:
        pass  # the person saved a newer version meanwhile; theirs stays
    _unlink(aside)
    raise WorktreeChanged(target)


def _put_back(tmp: str, target: str, new: pygit2.Oid) -> None:
    """Undo an exchange: the displaced file goes back to `target`. If yet another save
    landed in between, that newer one is what ends up at `target`."""
    try:
        _rename2(tmp, target, _RENAME_EXCHANGE)
    except FileNotFoundError:  # the newer save was a deletion: theirs is the displaced one
        os.rename(tmp, target)
        return
    if blob_id_on_disk(tmp) != new:
        os.replace(tmp, target)
    else:
        _unlink(tmp)


def _compare_and_replace(
    tmp: str, target: str, expected: pygit2.Oid | None, new: pygit2.Oid
) -> bool:
    """The fallback without renameat2: compare, then rename right away."""
    current = blob_id_on_disk(target)
    if current == new:
        _unlink(tmp)
        return False
    if current != expected:
        _unlink(tmp)
        raise WorktreeChanged(target)
    os.replace(tmp, target)
    return True


def _unlink(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
