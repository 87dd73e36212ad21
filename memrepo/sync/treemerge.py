"""Merge two commits' trees file by file with :func:`memrepo.sync.merge.merge_file`.

Only paths both sides changed are read and merged; a path one side changed takes that
side's version, and the rest of ours' tree is reused as is (read into an in-memory index
in C), so a merge costs what changed, not the size of the memory.

The result is written to the object database but no ref, index or file is touched: the
caller (sync) decides what to commit where. ``loser_tree`` is the merged tree with each
conflicted path holding its loser, ready for a conflict branch.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygit2
from pygit2.enums import FileMode

from memrepo.errors import RepoStateError
from memrepo.sync.merge import MergeConflict, merge_file

__all__ = ["TreeMerge", "merge_trees"]

# (blob id, file mode) of a path on one side; None when the path is absent there.
_Entry = tuple[pygit2.Oid, int] | None

#: Modes whose content is not lines of text to merge: links and submodules.
_OPAQUE = frozenset({int(FileMode.LINK), int(FileMode.COMMIT)})


@dataclass(frozen=True, slots=True)
class TreeMerge:
    """A merged tree for main, what conflicted, and the tree holding the losers."""

    tree: pygit2.Oid
    conflicts: tuple[MergeConflict, ...]
    #: ``tree`` with each conflicted path holding its loser version; None without conflicts.
    loser_tree: pygit2.Oid | None


def merge_trees(
    repo: pygit2.Repository,
    base: pygit2.Oid | None,
    ours: pygit2.Oid,
    theirs: pygit2.Oid,
) -> TreeMerge:
    """Merge the trees of commits ``ours`` and ``theirs`` (``base``: their merge base, or
    None for histories without one, merged as if both added every file)."""
    base_tree = _tree(repo, base)
    ours_tree, theirs_tree = _tree(repo, ours), _tree(repo, theirs)
    changed_ours = _changed(base_tree, ours_tree)
    changed_theirs = _changed(base_tree, theirs_tree)
    merged: dict[str, _Entry] = {}
    losers: dict[str, _Entry] = {}
    conflicts: list[MergeConflict] = []
    for path in sorted(changed_theirs):
        b, o, t = (_entry(tree, path) for tree in (base_tree, ours_tree, theirs_tree))
        if path not in changed_ours or o == t:
            merged[path] = t
            continue
        merged[path], loser, found = _merge_path(repo, path, b, o, t)
        conflicts += found
        if found:
            losers[path] = loser
    index = pygit2.Index()
    index.read_tree(ours_tree)
    conflicts += _apply(index, merged)
    tree = index.write_tree(repo)
    if not conflicts:
        return TreeMerge(tree, (), None)
    _apply(index, losers)
    return TreeMerge(tree, tuple(conflicts), index.write_tree(repo))


def _tree(repo: pygit2.Repository, oid: pygit2.Oid | None) -> pygit2.Tree:
    if oid is None:
        empty = repo.TreeBuilder().write()
        tree = repo[empty]
        assert isinstance(tree, pygit2.Tree)
        return tree
    try:
        return repo[oid].peel(pygit2.Tree)
    except (KeyError, ValueError, pygit2.GitError) as exc:
        raise RepoStateError(
            f"cannot merge {oid}: not a commit or tree in this repository ({exc}); fetch it first"
        ) from exc


def _changed(old: pygit2.Tree, new: pygit2.Tree) -> set[str]:
    diff = old.diff_to_tree(new)
    return {delta.new_file.path for delta in diff.deltas} | {
        delta.old_file.path for delta in diff.deltas
    }


def _entry(tree: pygit2.Tree, path: str) -> _Entry:
    try:
        obj = tree[path]
    except KeyError:
        return None
    if obj.filemode == FileMode.TREE:
        return None
    return (obj.id, int(obj.filemode))


def _merge_path(
    repo: pygit2.Repository, path: str, base: _Entry, ours: _Entry, theirs: _Entry
) -> tuple[_Entry, _Entry, tuple[MergeConflict, ...]]:
    """Merged entry, loser entry and conflicts of a path both sides changed."""
    mode = _mode(base, ours, theirs)
    if any(e is not None and e[1] in _OPAQUE for e in (base, ours, theirs)):
        detail = "link or submodule changed on both sides; kept ours, theirs is in the loser"
        return ours, theirs, (MergeConflict(path, "binary", detail),)
    result = merge_file(path, *(_read(repo, e) for e in (base, ours, theirs)))
    merged = None if result.merged is None else (repo.create_blob(result.merged), mode)
    loser = None if result.loser is None else (repo.create_blob(result.loser), mode)
    return merged, loser, result.conflicts


def _mode(base: _Entry, ours: _Entry, theirs: _Entry) -> int:
    """Ours' mode unless only theirs changed it (a file kept after a delete keeps its own)."""
    if ours is None:
        return theirs[1] if theirs is not None else int(FileMode.BLOB)
    if theirs is not None and base is not None and ours[1] == base[1]:
        return theirs[1]
    return ours[1]


def _read(repo: pygit2.Repository, entry: _Entry) -> bytes | None:
    if entry is None:
        return None
    blob = repo[entry[0]]
    assert isinstance(blob, pygit2.Blob)
    return blob.data


def _apply(index: pygit2.Index, changes: dict[str, _Entry]) -> list[MergeConflict]:
    """Write ``changes`` into ``index``: removals first, then additions, refusing a file
    where ours has a folder of the same name or the other way round (ours is kept)."""
    for path, entry in changes.items():
        if entry is None and path in index:
            index.remove(path)
    files = {e.path for e in index}
    folders = {p.rsplit("/", n)[0] for p in files for n in range(1, p.count("/") + 1)}
    conflicts: list[MergeConflict] = []
    for path, entry in changes.items():
        if entry is None:
            continue
        parents = {path.rsplit("/", n)[0] for n in range(1, path.count("/") + 1)}
        if path in folders or parents & files:
            detail = "a file and a folder of the same name on the two sides; kept ours"
            conflicts.append(MergeConflict(path, "delete_modify", detail))
            continue
        index.add(pygit2.IndexEntry(path, entry[0], FileMode(entry[1])))
    return conflicts
