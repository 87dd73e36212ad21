"""Reading and building git trees and blobs: pure functions over the object database.

Shared by every folder-layer module that reads a commit (history, undo, sync, teams,
dreams) or builds a small commit's tree (`GitStore.prepare_small`); large commits build
theirs in memory instead (`objects.py`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pygit2
from pygit2.enums import FileMode

from memrepo.errors import RepoStateError


def store_blob(repo: pygit2.Repository, data: bytes) -> pygit2.Oid:
    """The blob's id, written only when the object database lacks it: libgit2 stages a
    temp file for every `create_blob`, even of a blob it has."""
    oid = pygit2.hash(data)
    return oid if oid in repo else repo.create_blob(data)


def read_blob(repo: pygit2.Repository, tree: pygit2.Tree, path: str) -> bytes | None:
    """The bytes of a regular file in `tree`, or None (missing, a directory, a symlink)."""
    found = file_blob_id(tree, path)
    return None if found is None else blob_data(repo, found)


def file_blob_id(tree: pygit2.Tree | None, path: str) -> pygit2.Oid | None:
    """The id of a regular file in `tree`; None when absent, a directory or a symlink."""
    if tree is None:
        return None
    try:
        entry = tree[path]
    except KeyError:
        return None
    if entry.filemode not in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE):
        return None
    return entry.id


def blob_data(repo: pygit2.Repository, oid: pygit2.Oid | str) -> bytes:
    """A blob's bytes straight from the object database. `repo[oid].data` builds a
    Blob object on the way and costs about twice as much (measured: the 76 files of
    a 2,200-entry folder 3.1 -> 1.7 ms), which every full read of a folder pays per
    file. KeyError when the object is missing, as `repo[oid]` raises."""
    kind, data = repo.odb.read(oid)
    if kind != pygit2.enums.ObjectType.BLOB:
        raise RepoStateError(
            f"git object {str(oid)[:10]} is listed as a file but is a {kind.name.lower()};"
            " the repository is damaged (`git fsck` says more)"
        )
    return data


def walk_tree(
    repo: pygit2.Repository, tree: pygit2.Tree, prefix: str = ""
) -> Iterator[tuple[str, pygit2.Oid, int]]:
    """Every non-tree entry below `tree` as (path, id, filemode), in tree order."""
    for entry in tree:
        path = f"{prefix}{entry.name}"
        if entry.filemode == FileMode.TREE:
            sub = repo[entry.id]
            assert isinstance(sub, pygit2.Tree)
            yield from walk_tree(repo, sub, path + "/")
        else:
            yield path, entry.id, entry.filemode


def build_tree(
    repo: pygit2.Repository, base: pygit2.Tree | None, changes: Mapping[str, pygit2.Oid | None]
) -> pygit2.Oid | None:
    """A new tree: `base` with the changed blobs; None when the result is empty."""
    builder = repo.TreeBuilder(base) if base is not None else repo.TreeBuilder()
    nested: dict[str, dict[str, pygit2.Oid | None]] = {}
    for path, oid in changes.items():
        head, _, rest = path.partition("/")
        if rest:
            nested.setdefault(head, {})[rest] = oid
            continue
        existing = builder.get(head)
        if oid is None:
            if existing is not None:
                builder.remove(head)
        else:
            mode = FileMode.BLOB
            if existing is not None and existing.filemode == FileMode.BLOB_EXECUTABLE:
                mode = FileMode.BLOB_EXECUTABLE
            builder.insert(head, oid, mode)
    for name, sub_changes in nested.items():
        existing = builder.get(name)
        sub_base = None
        if existing is not None and existing.filemode == FileMode.TREE:
            obj = repo[existing.id]
            assert isinstance(obj, pygit2.Tree)
            sub_base = obj
        sub_id = build_tree(repo, sub_base, sub_changes)
        if sub_id is None:
            if existing is not None:
                builder.remove(name)
        else:
            builder.insert(name, sub_id, FileMode.TREE)
    if len(builder) == 0:
        return None
    return builder.write()


def changed_paths(
    repo: pygit2.Repository, old: pygit2.Tree | None, new: pygit2.Tree | None, prefix: str = ""
) -> list[str]:
    """Paths whose blob differs between two trees, comparing ids only (no content diff)."""
    old_entries = {str(e.name): e for e in old} if old is not None else {}
    new_entries = {str(e.name): e for e in new} if new is not None else {}
    out: list[str] = []
    for name in sorted(old_entries.keys() | new_entries.keys()):
        a, b = old_entries.get(name), new_entries.get(name)
        if a is not None and b is not None and a.id == b.id:
            continue  # same content (a mode-only change is no change to a memory file)
        a_tree = _as_tree(repo, a)
        b_tree = _as_tree(repo, b)
        if a_tree is not None or b_tree is not None:
            out.extend(changed_paths(repo, a_tree, b_tree, f"{prefix}{name}/"))
        a_blob = a is not None and a_tree is None
        b_blob = b is not None and b_tree is None
        if a_blob or b_blob:
            out.append(f"{prefix}{name}")
    return out


def _as_tree(repo: pygit2.Repository, entry: pygit2.Object | None) -> pygit2.Tree | None:
    if entry is None or entry.filemode != FileMode.TREE:
        return None
    obj = repo[entry.id]
    assert isinstance(obj, pygit2.Tree)
    return obj
