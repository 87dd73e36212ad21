"""The blob, worktree and index steps of a commit that changes many files (a dream).

`GitStore.commit_files` updates git's index with `index.add(path)` per file: libgit2 then
re-reads and re-hashes every file and "freshens" its blob in the object database (a
utime on the pack the dream just wrote), which for a dream's dozens of files costs more
than writing them. Here the index is told each path's blob id directly, known from the
commit being written, and one `diff_to_workdir(UPDATE_INDEX)` then records the new stat
data, so `git status` stays clean. That pass still reads and hashes each changed file,
but in one C loop with no object-database writes, and it takes stat data only when the
content matches the blob: an edit a person makes between our write and the refresh
stays visible as a modification, never hidden behind fresh stat data.

Blob ids come from asking the object database whether it has each blob (the dream
packed them just before, see `packs.py`), not from looking each one up.

Small commits (`remember`, `undo`) keep the per-file path: for a handful of files a
full worktree diff costs more than it saves. The threshold is the one `packs.py` uses
for the same reason.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pygit2
from pygit2.enums import DiffOption, FileMode

from memrepo.folder.packs import PACK_MIN

#: A change set this large takes the bulk path (blob ids, worktree writes, index update).
BULK_MIN = PACK_MIN


def is_bulk(changes: Mapping[str, object]) -> bool:
    """Whether a change set is large enough for the bulk path."""
    return len(changes) >= BULK_MIN


def store_blobs(
    repo: pygit2.Repository, changes: Mapping[str, bytes | None]
) -> dict[str, pygit2.Oid | None]:
    """Each path's blob id (None for a deletion), writing only the blobs the object
    database lacks. Asks the database itself: `oid in repo` makes pygit2 look the object
    up, which reads and inflates all of it (about 15 us a blob, most of a dream's
    commit once its blobs are packed)."""
    odb = repo.odb
    ids: dict[str, pygit2.Oid | None] = {}
    for path, data in changes.items():
        if data is None:
            ids[path] = None
            continue
        oid = pygit2.hash(data)
        ids[path] = oid if odb.exists(oid) else repo.create_blob(data)
    return ids


def write_files(root: Path, tmp_dir: Path, changes: Mapping[str, bytes | None]) -> None:
    """Each new content to a temp file renamed over its target (a reader sees the old
    file or the new one, never a torn one); deletions unlink and drop emptied folders.

    Creating the temp file and renaming it are the cost that remains (measured: a thread
    pool did not help on 2 cores); what is saved is Python's per-file overhead: plain
    string paths, and each folder created once instead of a `mkdir` per file.
    """
    base = os.fspath(root)
    tmp_base = f"{os.fspath(tmp_dir)}/{os.getpid()}-bulk-"
    ready: set[str] = set()
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
        write_new_file(tmp, data)
        os.replace(tmp, target)


def stage_blobs(index: pygit2.Index, blob_ids: Mapping[str, pygit2.Oid | None]) -> None:
    """Point the index at each path's blob (None removes it), then refresh stat data.

    Modes are plain files: the worktree files were just written 0644, which is what
    `index.add(path)` recorded before.
    """
    for path, oid in blob_ids.items():
        if oid is None:
            if path in index:
                index.remove(path)
        else:
            index.add(pygit2.IndexEntry(path, oid, FileMode.BLOB))
    index.diff_to_workdir(DiffOption.UPDATE_INDEX)


def write_new_file(path: str | Path, data: bytes) -> None:
    """Create or truncate `path` with `data`, without Python's buffered-file layers (on
    every write's path: a journal and a temp file per file written)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def remove_empty_dirs(directory: Path, root: Path) -> None:
    """Drop `directory` and its parents up to `root` while they are empty: git does not
    track folders, so a folder a deletion emptied would otherwise linger."""
    while directory != root and root in directory.parents:
        try:
            directory.rmdir()
        except OSError:
            return
        directory = directory.parent
