"""Whoosh file storage that maps private in-memory copies of the index files.

Whoosh memory-maps its segment files, which is fast, but a segment truncated or deleted
under a map (another process rebuilding, a user cleaning up) kills the reader with
SIGBUS. Reading without maps is safe and a third slower. So each file is copied once
into an anonymous in-memory file (Linux `memfd_create`) and that copy is mapped: nobody
else can truncate it, and Whoosh keeps its fast path. Index files never change once
written (new segments get new names), so a copy is reused until its file is gone.
Where memfd is missing, files are read without maps.

Whoosh serves each part of a compound segment through `BufferFile`, which wraps its
slice of the map in a `BytesIO`: a copy of the whole part (two 37 MB parts at 100,000
entries, a third of a cold recall), made only because seek and read go through it.
`ViewFile` reads the slice in place instead, so opening an index copies nothing but the
file itself (`_install_view_buffers`).
"""

from __future__ import annotations

import os
from typing import Any

import whoosh.filedb.compound
from whoosh.filedb.filestore import FileStorage
from whoosh.filedb.structfile import BufferFile, StructFile

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
            _copy_into(path, fd, stat.st_size)
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


def _copy_into(path: str, fd: int, size: int) -> None:
    """Copy the file at `path` into `fd` inside the kernel (`sendfile`: a 126 MB segment
    in 55 ms, where reading it into Python and writing it back took 130-360 ms and as
    much memory again); a plain read and write where sendfile is refused."""
    source = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        offset = 0
        try:
            while offset < size:
                sent = os.sendfile(fd, source, offset, size - offset)
                if sent == 0:
                    break  # the file shrank under us: the copy is what there was
                offset += sent
            return
        except OSError:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
        with open(source, "rb", closefd=False) as handle:
            handle.seek(0)
            while chunk := handle.read(1 << 20):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view) :]
    finally:
        os.close(source)


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


class ViewFile:
    """A read-only, seekable file over a memoryview that copies only what is read."""

    def __init__(self, view: memoryview) -> None:
        self._view = view
        self._pos = 0

    def read(self, size: int | None = -1) -> bytes:
        start = self._pos
        end = len(self._view) if size is None or size < 0 else min(start + size, len(self._view))
        self._pos = max(end, start)
        return bytes(self._view[start:end])

    def readinto(self, target: Any) -> int:
        data = self.read(len(target))
        target[: len(data)] = data
        return len(data)

    def readline(self, size: int | None = -1) -> bytes:
        limit = len(self._view) - self._pos
        if size is not None and size >= 0:
            limit = min(limit, size)
        start, scanned = self._pos, 0
        while scanned < limit:  # look in small chunks: a line never copies the rest
            chunk = bytes(self._view[start + scanned : start + min(scanned + 4096, limit)])
            found = chunk.find(b"\n")
            if found >= 0:
                return self.read(scanned + found + 1)
            scanned += len(chunk)
        return self.read(limit)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        base = {os.SEEK_SET: 0, os.SEEK_CUR: self._pos, os.SEEK_END: len(self._view)}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def tell(self) -> int:
        return self._pos

    def close(self) -> None:
        self._view = memoryview(b"")


class ViewBufferFile(BufferFile):  # type: ignore[misc]
    """Whoosh's BufferFile without the BytesIO copy of its buffer (see the docstring).

    `read`, `seek` and `tell` are answered here, one call deep like BytesIO's, since the
    postings and terms readers call them on every search; the rest goes to `ViewFile`.
    """

    def __init__(self, buf: Any, name: str | None = None, onclose: Any = None) -> None:
        super().__init__(b"", name=name, onclose=onclose)
        self._buf = buf
        self.file = self._view = ViewFile(memoryview(buf))

    def read(self, size: int = -1) -> bytes:
        view = self._view
        start, length = view._pos, len(view._view)
        end = length if size < 0 or start + size > length else start + size
        view._pos = max(start, end)
        return bytes(view._view[start:end])

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self._view.seek(offset, whence)

    def tell(self) -> int:
        return self._view._pos


def _install_view_buffers() -> None:
    """Make compound segments open their parts as `ViewBufferFile` (the only place
    Whoosh builds a BufferFile over a map)."""
    whoosh.filedb.compound.BufferFile = ViewBufferFile


_install_view_buffers()
