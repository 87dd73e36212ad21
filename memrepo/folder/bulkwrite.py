"""The blob, worktree and index steps of every commit memrepo writes.

`index.add(path)` makes libgit2 re-read and re-hash each file and "freshen" its blob in
the object database (a utime on the pack a dream just wrote). Here the index is told
each path's blob id directly, known from the commit being written, with the stat data
of the file just written, so `git status` stays clean without reading a file again.

That stat data is taken only when it is provably our write: the file's `stat` after the
rename must show the inode, size and mtime `fstat` saw while we held it open. A person's
edit in between (a new inode from an editor's atomic save, or a new mtime) fails that
check. Such a file, or every file when pygit2 offers no way to pass stat data (see
`_StatEntry`), gets none and is compared by content on git's next look, so the edit
stays visible as a modification; when many files lack it, one
`diff_to_workdir(UPDATE_INDEX)` refreshes them instead (it too takes stat data only
where the content matches the blob).

A change set of `BULK_MIN` files or more (a dream, an import) also has its blobs, trees
and commit saved as one pack (see `objects.py`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pygit2
from pygit2.enums import DiffOption, FileMode

#: A change set this large takes the bulk path (its objects as one pack, blob ids and
#: stat data straight into the index); below it, per-file libgit2 calls cost less.
BULK_MIN = 16


def is_bulk(changes: Mapping[str, object]) -> bool:
    """Whether a change set is large enough for the bulk path."""
    return len(changes) >= BULK_MIN


def write_files(
    root: Path, tmp_dir: Path, changes: Mapping[str, bytes | None]
) -> dict[str, os.stat_result]:
    """Each new content to a temp file renamed over its target (a reader sees the old
    file or the new one, never a torn one); deletions unlink and drop emptied folders.
    Returns the stat data of each file still exactly as written (see module docstring).

    Creating the temp file and renaming it are the cost that remains (measured: a thread
    pool did not help on 2 cores); what is saved is Python's per-file overhead: plain
    string paths, and each folder created once instead of a `mkdir` per file.
    """
    base = os.fspath(root)
    tmp_base = f"{os.fspath(tmp_dir)}/{os.getpid()}-bulk-"
    ready: set[str] = set()
    stats: dict[str, os.stat_result] = {}
    for number, (path, data) in enumerate(changes.items()):
        target = f"{base}/{path}"
        if data is None:
            Path(target).unlink(missing_ok=True)
            remove_empty_dirs(Path(target).parent, root)
            continue
        parent = target.rpartition("/")[0]
        if parent not in ready:
            os.makedirs(parent, exist_ok=True)
            ready.add(parent)
        tmp = f"{tmp_base}{number}"
        written = write_new_file(tmp, data)
        os.replace(tmp, target)
        now = os.stat(target, follow_symlinks=False)
        if (now.st_ino, now.st_size, now.st_mtime_ns) == written:
            stats[path] = now
    return stats


def stage_blobs(
    index: pygit2.Index,
    blob_ids: Mapping[str, pygit2.Oid | None],
    stats: Mapping[str, os.stat_result],
) -> None:
    """Point the index at each path's blob (None removes it) with the stat data in
    `stats`; when many files have none, one stat refresh covers them.

    Modes are plain files: the worktree files were just written 0644, which is what
    `index.add(path)` recorded before.
    """
    unknown: list[str] = []
    for path, oid in blob_ids.items():
        if oid is None:
            if path in index:
                index.remove(path)
            continue
        stat = stats.get(path) if STAT_DATA else None
        if stat is None:
            index.add(pygit2.IndexEntry(path, oid, FileMode.BLOB))
            unknown.append(path)
        else:
            index.add(_StatEntry(path, oid, stat))
    # Without stat data an entry is compared by content on git's next look (git and
    # libgit2 treat a zero size as unknown), so an edit still shows; many such entries
    # are refreshed here instead, so `git status` does not re-read them every time.
    if len(unknown) >= BULK_MIN:
        index.diff_to_workdir(DiffOption.UPDATE_INDEX)


#: Whether this pygit2 lets an index entry carry stat data (see `_StatEntry`).
STAT_DATA = callable(getattr(pygit2.IndexEntry, "_to_c", None))


class _StatEntry(pygit2.IndexEntry):
    """An index entry with the stat data git compares (times, device, inode, owner,
    size), each cut to 32 bits as git stores it.

    pygit2's public `IndexEntry` carries only path, id and mode; it builds libgit2's
    entry in `_to_c`, which this extends. `STAT_DATA` is false when a pygit2 release
    drops that method, and writes then fall back to the stat refresh (tested both ways).
    """

    def __init__(self, path: str, oid: pygit2.Oid, stat: os.stat_result) -> None:
        super().__init__(path, oid, FileMode.BLOB)
        self.stat = stat

    def _to_c(self) -> Any:  # pygit2's cffi types are not exported
        centry, keep_alive = super()._to_c()
        st = self.stat
        centry.ctime.seconds, centry.ctime.nanoseconds = _split_ns(st.st_ctime_ns)
        centry.mtime.seconds, centry.mtime.nanoseconds = _split_ns(st.st_mtime_ns)
        centry.dev = st.st_dev & _U32
        centry.ino = st.st_ino & _U32
        centry.uid = st.st_uid & _U32
        centry.gid = st.st_gid & _U32
        centry.file_size = st.st_size & _U32
        return centry, keep_alive


_U32 = 0xFFFFFFFF


def _split_ns(ns: int) -> tuple[int, int]:
    seconds, nanoseconds = divmod(ns, 1_000_000_000)
    return seconds & _U32, nanoseconds


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


def remove_empty_dirs(directory: Path, root: Path) -> None:
    """Drop `directory` and its parents up to `root` while they are empty: git does not
    track folders, so a folder a deletion emptied would otherwise linger."""
    while directory != root and root in directory.parents:
        try:
            directory.rmdir()
        except OSError:
            return
        directory = directory.parent
