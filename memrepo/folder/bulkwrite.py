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
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygit2
from pygit2.enums import DiffOption, FileMode

from memrepo.errors import WorktreeChanged
from memrepo.folder.atomic import blob_id_on_disk, replace_if, write_new_file
from memrepo.folder.trees import blob_data

__all__ = ["BULK_MIN", "WorktreePlan", "is_bulk", "stage_blobs", "write_files", "write_new_file"]

#: A change set this large takes the bulk path (its objects as one pack, blob ids and
#: stat data straight into the index); below it, per-file libgit2 calls cost less.
BULK_MIN = 16


def is_bulk(changes: Mapping[str, object]) -> bool:
    """Whether a change set is large enough for the bulk path."""
    return len(changes) >= BULK_MIN


def write_files(
    repo: pygit2.Repository,
    tmp_dir: Path,
    plan: WorktreePlan,
    *,
    keep_changed: bool = False,
) -> dict[str, os.stat_result]:
    """Each new content to a temp file swapped in over its target only while the target
    holds the expected version (see `atomic`); deletions move it aside first and drop
    emptied folders. Returns the stat data of each file still exactly as written.

    A target holding anything else is someone's edit: with `keep_changed` it is left as
    it is and the rest is written (crash recovery); otherwise the files already written
    are put back and WorktreeChanged is raised, so nothing of the write is on disk.

    Creating the temp file and renaming it are the cost that remains (measured: a thread
    pool did not help on 2 cores); what is saved is Python's per-file overhead: plain
    string paths, and each folder created once instead of a `mkdir` per file.
    """
    root = Path(repo.workdir)
    base = os.fspath(root)
    tmp_base = f"{os.fspath(tmp_dir)}/{os.getpid()}-bulk-"
    ready: set[str] = set()
    stats: dict[str, os.stat_result] = {}
    done: list[str] = []
    for number, (path, data) in enumerate(plan.changes.items()):
        target = f"{base}/{path}"
        tmp = f"{tmp_base}{number}"
        new, old = plan.blob_ids.get(path), plan.expected.get(path)
        written: tuple[int, int, int] | None = None
        if data is not None:
            parent = target.rpartition("/")[0]
            if parent not in ready:
                os.makedirs(parent, exist_ok=True)
                ready.add(parent)
            written = _write_tmp(tmp, data, path in plan.links)
        try:
            changed = replace_if(tmp, target, old, new if data is not None else None)
        except WorktreeChanged as exc:
            if keep_changed:
                continue
            _put_back(repo, tmp_base, plan, done)
            raise WorktreeChanged(path, busy=exc.busy) from None
        if not changed:
            if new is not None and (held := stat_if_holds(target, new)) is not None:
                stats[path] = held
            continue
        done.append(path)
        if data is None:
            remove_empty_dirs(Path(target).parent, root)
            continue
        now = os.stat(target, follow_symlinks=False)
        if written is not None and (now.st_ino, now.st_size, now.st_mtime_ns) == written:
            stats[path] = now
    return stats


def stat_if_holds(target: str, oid: pygit2.Oid) -> os.stat_result | None:
    """The stat data of a file memrepo did not write just now but that holds blob `oid`
    (a crashed write's file, a person's edit being committed): taken only when the
    file's stat is the same before and after its content was hashed, so an edit landing
    meanwhile is never stamped as clean."""
    try:
        before = os.stat(target, follow_symlinks=False)
        held = blob_id_on_disk(target)
        after = os.stat(target, follow_symlinks=False)
    except OSError:
        return None
    same = (before.st_ino, before.st_size, before.st_mtime_ns, before.st_ctime_ns) == (
        after.st_ino,
        after.st_size,
        after.st_mtime_ns,
        after.st_ctime_ns,
    )
    return after if same and held == oid and stat.S_ISREG(after.st_mode) else None


@dataclass(frozen=True, slots=True)
class WorktreePlan:
    """What a commit changes on disk: new bytes per path (None deletes), their blob ids,
    the blob each path must hold before (None: absent), and which paths are symlinks."""

    changes: Mapping[str, bytes | None]
    blob_ids: Mapping[str, pygit2.Oid | None]
    expected: Mapping[str, pygit2.Oid | None]
    links: frozenset[str] = frozenset()


def _write_tmp(tmp: str, data: bytes, link: bool) -> tuple[int, int, int] | None:
    if link:
        Path(tmp).unlink(missing_ok=True)
        os.symlink(data.decode("utf-8", "surrogateescape"), tmp)
        return None
    return write_new_file(tmp, data)


def _put_back(repo: pygit2.Repository, tmp_base: str, plan: WorktreePlan, done: list[str]) -> None:
    """Return the files this write already changed to their expected versions (each
    only while it still holds what was written: a person's save meanwhile stays)."""
    base = repo.workdir.rstrip("/")
    for number, path in enumerate(done):
        old = plan.expected.get(path)
        tmp = f"{tmp_base}undo-{number}"
        if old is not None:
            target = f"{base}/{path}"
            os.makedirs(target.rpartition("/")[0], exist_ok=True)
            _write_tmp(tmp, blob_data(repo, old), path in plan.links)
        try:
            replace_if(tmp, f"{base}/{path}", plan.blob_ids.get(path), old)
        except WorktreeChanged:
            continue


def stage_blobs(
    index: pygit2.Index,
    blob_ids: Mapping[str, pygit2.Oid | None],
    stats: Mapping[str, os.stat_result],
    links: frozenset[str] = frozenset(),
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
        if path in links:
            index.add(pygit2.IndexEntry(path, oid, FileMode.LINK))
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


def remove_empty_dirs(directory: Path, root: Path) -> None:
    """Drop `directory` and its parents up to `root` while they are empty: git does not
    track folders, so a folder a deletion emptied would otherwise linger."""
    while directory != root and root in directory.parents:
        try:
            directory.rmdir()
        except OSError:
            return
        directory = directory.parent
