"""Secrets crossing a sync: what the remote brought, and what a push would send.

memrepo never commits a secret, but people commit with plain git on any machine. Two
rules follow (issue #15):

- Received: a fast-forward or merge that brings files holding a secret main did not
  hold in that file before is reported, `path:line (kind)`, never the value (a sync
  warning; lint reports it too, from the working tree).
- Sent: a push is refused when the commits it would send (main minus the remote's main)
  add a secret, i.e. a value a commit's file holds that none of its parents held in that
  file, unless the remote's main already holds that value in some file. A merge that
  carries back what came from the remote adds nothing; a local commit that adds a
  token is never pushed, even if a later commit removed the line (history is pushed).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pygit2

from memrepo.folder.lint import MAX_FILE_BYTES
from memrepo.folder.secret_scan import SecretAt, located_secrets

_ADDED_OR_CHANGED = frozenset({"A", "M", "R", "C", "T"})
_LINK = pygit2.enums.FileMode.LINK


@dataclass(frozen=True, slots=True)
class AddedSecret:
    """A secret a commit adds: the commit and where. `value` is only compared with what
    the remote holds; it is never shown (not even in repr)."""

    commit: str
    where: SecretAt
    value: str = field(repr=False)


def received_secrets(
    repo: pygit2.Repository, before: pygit2.Oid, after: pygit2.Oid
) -> list[SecretAt]:
    """Secrets in `after`'s files that the same files at `before` did not hold."""
    found: list[SecretAt] = []
    old_tree, new_tree = repo[before].peel(pygit2.Tree), repo[after].peel(pygit2.Tree)
    for path, blob_id, old_id in _changed(old_tree, new_tree):
        old = _values(repo, old_id)
        found += [where for where, value in _located(repo, path, blob_id) if value not in old]
    return sorted(found)


def unpushed_secrets(
    repo: pygit2.Repository, head: pygit2.Oid, remote: pygit2.Oid | None
) -> list[AddedSecret]:
    """Secrets the commits from `remote` (None: nothing pushed yet) to `head` add that
    the remote's main does not hold (module docstring), oldest commit first."""
    walker = repo.walk(head, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.REVERSE)
    if remote is not None:
        walker.hide(remote)
    added = [secret for commit in walker for secret in _added_by(repo, commit)]
    if not added or remote is None:
        return added
    known = _tree_values(repo, repo[remote].peel(pygit2.Tree))
    return [secret for secret in added if secret.value not in known]


def _added_by(repo: pygit2.Repository, commit: pygit2.Commit) -> list[AddedSecret]:
    """Secrets in files `commit` changed that none of its parents held in that file."""
    parents = commit.parents
    found: list[AddedSecret] = []
    for path, blob_id, _old in _changed(parents[0].tree if parents else None, commit.tree):
        located = _located(repo, path, blob_id)
        if not located:
            continue
        held: set[str] = set()
        for parent in parents:
            held |= _values(repo, _blob_id(parent.tree, path))
        found += [
            AddedSecret(str(commit.id), where, value)
            for where, value in located
            if value not in held
        ]
    return found


def _changed(
    old: pygit2.Tree | None, new: pygit2.Tree
) -> Iterator[tuple[str, pygit2.Oid, pygit2.Oid | None]]:
    """(path, new blob, old blob or None) of each file added or changed from old to new."""
    diff = old.diff_to_tree(new) if old is not None else new.diff_to_tree(swap=True)
    for delta in diff.deltas:
        if delta.status_char() in _ADDED_OR_CHANGED and delta.new_file.mode != _LINK:
            old_id = delta.old_file.id if delta.status_char() != "A" else None
            yield delta.new_file.path, delta.new_file.id, old_id


def _located(repo: pygit2.Repository, path: str, blob_id: pygit2.Oid) -> list[tuple[SecretAt, str]]:
    blob = repo.get(blob_id)
    if not isinstance(blob, pygit2.Blob) or blob.size > MAX_FILE_BYTES:
        return []
    return located_secrets(path, blob.data)


def _values(repo: pygit2.Repository, blob_id: pygit2.Oid | None) -> set[str]:
    if blob_id is None:
        return set()
    return {value for _where, value in _located(repo, "", blob_id)}


def _blob_id(tree: pygit2.Tree, path: str) -> pygit2.Oid | None:
    try:
        entry = tree[path]
    except KeyError:
        return None
    return entry.id if entry.type_str == "blob" else None


def _tree_values(repo: pygit2.Repository, tree: pygit2.Tree) -> set[str]:
    """Every secret value any file of `tree` holds (read only when a push would add one)."""
    values: set[str] = set()
    for _path, blob_id, _old in _changed(None, tree):
        values |= _values(repo, blob_id)
    return values
