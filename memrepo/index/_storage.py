"""Whoosh file storage that maps private in-memory copies of the index files.

Whoosh memory-maps its segment files, which is fast, but a segment truncated or deleted
under a map (another process rebuilding, a user cleaning up) kills the reader with
SIGBUS. Reading without maps is safe and a third slower. So each file is copied once
into an anonymous in-memory file (Linux `memfd_create`) and that copy is mapped: nobody
else can truncate it, and Whoosh keeps its fast path. Index files never change once
written (new segments get new names), so a copy is reused until its file is gone.
Where memfd is missing, files are read without maps.
"""

from __future__ import annotations

import os
from typing import Any

from whoosh.filedb.filestore import FileStorage
from whoosh.filedb.structfile import StructFile

_HAS_MEMFD = hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd")


class PrivateCopies:
    """The in-memory copies of one index directory: (name, mtime, size) -> memfd."""

    def __init__(self) -> None:
        self._fds: dict[tuple[str, int, int], int] = {}

    def fd_for(self, path: str, name: str) -> int:
        stat = os.stat(path)
        key = (name, stat.st_mtime_ns, stat.st_size)
        fd = self._fds.get(key)
        if fd is None:
            self._drop_stale(os.path.dirname(path))
            fd = os.memfd_create(f"memrepo-index-{name}", os.MFD_CLOEXEC)
            with open(path, "rb") as source:
                data = memoryview(source.read())
            while data:
                data = data[os.write(fd, data) :]
            self._fds[key] = fd
        return fd

    def _drop_stale(self, folder: str) -> None:
        """Release copies of files that were replaced or deleted (merged segments)."""
        for key in list(self._fds):
            name, mtime, size = key
            try:
                stat = os.stat(os.path.join(folder, name))
                current = (stat.st_mtime_ns, stat.st_size) == (mtime, size)
            except FileNotFoundError:
                current = False
            if not current:
                os.close(self._fds.pop(key))

    def close(self) -> None:
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()


class PrivateCopyStorage(FileStorage):  # type: ignore[misc]
    """FileStorage whose reads go through `PrivateCopies` (writes are untouched)."""

    def __init__(self, path: str, copies: PrivateCopies) -> None:
        super().__init__(path, supports_mmap=_HAS_MEMFD)
        self._copies = copies

    def open_file(self, name: str, **kwargs: Any) -> StructFile:
        if not _HAS_MEMFD:
            return super().open_file(name, **kwargs)
        fd = self._copies.fd_for(self._fpath(name), name)
        # A fresh open of the copy: its own file offset, independent of other readers.
        return StructFile(open(f"/proc/self/fd/{fd}", "rb"), name=name, **kwargs)
