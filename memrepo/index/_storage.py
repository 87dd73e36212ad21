"""Whoosh file storage that reads index files by chunk, on demand, with `pread`.

Whoosh memory-maps its segment files, which is fast, but a segment truncated under a
map (a restore copied over the index, a user cleaning up) kills the reader with SIGBUS,
which no Python code can catch. The previous answer was to copy each file whole into
an anonymous in-memory file and map that copy: safe, but a one-shot recall at 100,000
entries copied a 92 MB segment before its first search (a quarter of a 0.85 s cold
recall, issue #16 "Speed"), to use a few megabytes of it.

Here each index file is opened once, read-only, and read in `CHUNK`-sized pieces the
first time a search touches them; a piece read is kept, since index files never change
once written (a new segment is a new file, a merge deletes the old one). So:

- opening an index reads its TOC and the segment's directory, not the segment;
- a file deleted or replaced by another (a rebuild, a merge, `rsync` writing a new file
  and renaming it) stays readable through the open descriptor, as a map would;
- a file changed in place (truncated, overwritten) is noticed on the next piece read:
  each read checks the descriptor's inode, size and mtime against the file as opened
  and raises `IndexFileChanged` (an `OSError`) or, past the end, `EOFError`. Both are
  what `IndexStore` treats as damage: it retries on a fresh searcher, probes, and
  rebuilds. No read ever mixes pieces of two versions of a file.

The descriptors are held by `IndexFiles`, one per store, and closed with it.
"""

from __future__ import annotations

import os
import weakref
from array import array
from typing import Any

from memrepo.index.whoosh_door import IS_LITTLE, FileStorage, StructFile

__all__ = ["CHUNK_BITS", "IndexFileChanged", "IndexFileStorage", "IndexFiles", "SourceFile"]

CHUNK_BITS = 16
"""A piece is 64 KiB: a posting block or a term lookup rarely spans two. At 100,000
entries, opening the index read 1.9 MB of its 92 MB segment (26 reads) and a one-shot
recall 7.8 MB in all (116 reads), where the whole segment was copied before."""
_LARGE = 4
"""A read spanning more pieces than this (a column's offsets array) is read directly,
once, without being kept as pieces: it is read into its own array anyway."""

_Identity = tuple[int, int, int]


class IndexFileChanged(OSError):
    """An index file was changed in place (truncated or overwritten) while open."""


class _Source:
    """One index file, opened read-only: its pieces read so far, and how it looked."""

    __slots__ = ("__weakref__", "_closer", "chunks", "fd", "identity", "path", "size")

    def __init__(self, path: str, identity: _Identity) -> None:
        self.path = path
        self.fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        # Closed when the last searcher reading it is gone (a file dropped from
        # `IndexFiles` after a merge may still be read by a searcher in use), or by close().
        self._closer = weakref.finalize(self, os.close, self.fd)
        self.identity = _identity(os.fstat(self.fd))
        if self.identity != identity:  # replaced between the stat and the open
            self.close()
            raise IndexFileChanged(f"{path} changed while it was opened")
        self.size = identity[1]
        self.chunks: dict[int, bytes] = {}

    def span(self, start: int, end: int) -> bytes:
        """Bytes ``start:end`` (clamped to the file as opened), from kept pieces."""
        end = min(end, self.size)
        if start >= end:
            return b""
        first, last = start >> CHUNK_BITS, (end - 1) >> CHUNK_BITS
        if last - first > _LARGE:
            return self._pread(start, end - start)
        base = first << CHUNK_BITS
        if first == last:
            return self.chunk(first)[start - base : end - base]
        joined = b"".join(self.chunk(index) for index in range(first, last + 1))
        return joined[start - base : end - base]

    def chunk(self, index: int) -> bytes:
        piece = self.chunks.get(index)
        if piece is None:
            start = index << CHUNK_BITS
            piece = self._pread(start, min(1 << CHUNK_BITS, self.size - start))
            self.chunks[index] = piece
        return piece

    def _pread(self, start: int, length: int) -> bytes:
        data = os.pread(self.fd, length, start)
        # After the read: a change made before it returned is seen now, so what was read
        # is the file as opened (checked again on every later read).
        if _identity(os.fstat(self.fd)) != self.identity:
            raise IndexFileChanged(f"{self.path} was changed in place while open")
        if len(data) != length:
            raise EOFError(f"{self.path}: {length - len(data)} bytes missing at {start}")
        return data

    def close(self) -> None:
        self._closer()
        self.fd = -1  # a read after close fails (EBADF), never reads a reused descriptor
        self.chunks.clear()


def _identity(stat: os.stat_result) -> _Identity:
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


class IndexFiles:
    """The open index files of one store, by name and identity (reused across searchers,
    so a new searcher after a commit reads again only what the commit wrote)."""

    def __init__(self) -> None:
        self._sources: dict[tuple[str, _Identity], _Source] = {}

    def source(self, path: str) -> _Source:
        identity = _identity(os.stat(path))
        key = (path, identity)
        found = self._sources.get(key)
        if found is None:
            self._drop_stale(path)
            found = self._sources[key] = _Source(path, identity)
        return found

    def _drop_stale(self, path: str) -> None:
        """Forget files replaced or deleted since opened (merged segments, older TOCs);
        each is closed once no searcher reads it."""
        folder = os.path.dirname(path)
        for key in list(self._sources):
            name, identity = key
            if os.path.dirname(name) != folder:
                continue
            try:
                current = _identity(os.stat(name)) == identity
            except FileNotFoundError:
                current = False
            if not current:
                del self._sources[key]

    def close(self) -> None:
        for source in self._sources.values():
            source.close()
        self._sources.clear()


class SourceFile:
    """A read-only, seekable file over bytes ``base:base+length`` of a `_Source`: what
    Whoosh's `StructFile` and pickle read through."""

    __slots__ = ("_base", "_pos", "_source", "_stop")

    def __init__(self, source: _Source, base: int, length: int) -> None:
        self._source = source
        self._base = base
        self._stop = base + length
        self._pos = base

    def read(self, size: int | None = -1) -> bytes:
        start = self._pos
        end = self._stop if size is None or size < 0 else min(start + size, self._stop)
        if end <= start:
            return b""
        self._pos = end
        return self._source.span(start, end)

    def readinto(self, target: Any) -> int:
        data = self.read(len(target))
        target[: len(data)] = data
        return len(data)

    def readline(self, size: int | None = -1) -> bytes:
        limit = self._stop - self._pos
        if size is not None and size >= 0:
            limit = min(limit, size)
        start, scanned = self._pos, 0
        while scanned < limit:  # a line never reads the rest of the file
            chunk = self._source.span(start + scanned, start + min(scanned + 4096, limit))
            found = chunk.find(b"\n")
            if found >= 0:
                return self.read(scanned + found + 1)
            scanned += len(chunk)
        return self.read(limit)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        if whence == os.SEEK_CUR:
            offset += self._pos - self._base
        elif whence == os.SEEK_END:
            offset += self._stop - self._base
        self._pos = self._base + max(0, offset)
        return self._pos - self._base

    def tell(self) -> int:
        return self._pos - self._base

    def close(self) -> None:
        """The descriptor belongs to `IndexFiles`; closing a view releases nothing."""


class SourceStructFile(StructFile):  # type: ignore[misc]
    """Whoosh's StructFile over a `SourceFile`, with the calls a search makes on every
    posting block and term lookup (`get`, `read`, `seek`, `tell`) answered here in one
    call, from the kept pieces when the bytes lie within one."""

    def __init__(
        self, source: _Source, base: int, length: int, name: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(SourceFile(source, base, length), name=name, **kwargs)
        self._src = source
        self._chunks = source.chunks
        self._base = base
        self._stop = base + length
        self._length = length

    def get(self, position: int, length: int) -> bytes:
        start = self._base + position
        end = min(start + length, self._stop)
        index = start >> CHUNK_BITS
        if end > start and index == (end - 1) >> CHUNK_BITS:
            piece = self._chunks.get(index)
            if piece is not None:
                base = index << CHUNK_BITS
                return piece[start - base : end - base]
        return self._src.span(start, end)

    def read(self, size: int = -1) -> bytes:
        view = self.file
        start = view._pos
        end = self._stop if size < 0 else min(start + size, self._stop)
        if end <= start:
            return b""
        view._pos = end
        index = start >> CHUNK_BITS
        if index == (end - 1) >> CHUNK_BITS:
            piece = self._chunks.get(index)
            if piece is not None:
                base = index << CHUNK_BITS
                return piece[start - base : end - base]
        return self._src.span(start, end)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        position: int = self.file.seek(offset, whence)
        return position

    def tell(self) -> int:
        position: int = self.file._pos - self._base
        return position

    def get_array(self, position: int, typecode: str, length: int) -> array[Any]:
        values = array(typecode)
        values.frombytes(self.get(position, length * values.itemsize))
        if IS_LITTLE:
            values.byteswap()
        return values

    def subset(self, offset: int, length: int, name: str | None = None) -> SourceStructFile:
        """A part of a compound segment: Whoosh's CompoundStorage asks for it when the
        storage does not map (see `IndexFileStorage`)."""
        return SourceStructFile(self._src, self._base + offset, length, name or self._name)


class IndexFileStorage(FileStorage):  # type: ignore[misc]
    """FileStorage whose reads go through `IndexFiles` (writes are untouched). It says
    it does not map, so Whoosh opens a compound segment's parts with `subset`."""

    def __init__(self, path: str, files: IndexFiles) -> None:
        super().__init__(path, supports_mmap=False)
        self._files = files

    def open_file(self, name: str, **kwargs: Any) -> StructFile:
        source = self._files.source(self._fpath(name))
        return SourceStructFile(source, 0, source.size, name=name, **kwargs)
