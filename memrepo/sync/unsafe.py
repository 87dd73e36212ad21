"""Entries a remote may not bring into main: symlinks, submodules, anything not a file.

A memory folder is markdown files. A git tree can also hold a symlink (mode 120000), a
submodule (160000) or any other mode a hand-made tree writes, and a checkout turns them
into links on disk: `MEMORY.md -> /etc/passwd` would make every read of the memory a
read of that file, and `topics -> /etc` would make writes under topics/ writes outside
the root (issue #27). So what the remote changes is screened before main takes it:

- ``unsafe_entries(repo, old, new)``: each entry `new` holds that `old` does not hold the
  same and that is not a regular file (an added symlink, a file or a folder turned into
  one, a link pointed elsewhere, a submodule). The two trees are compared by git's tree
  diff, so unchanged folders cost nothing.
- ``transplant(repo, tree, sources)``: `tree` with everything at or under each path
  replaced by what another tree holds there, for main (this side's version) and for the
  conflict branch (the remote's version), so nothing of the refused change is lost.

Nothing here follows a link or reads outside git's object database: a link's target is
the text of its blob, shown (cut, one line) so the person sees where it pointed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import pygit2
from pygit2.enums import FileMode

from memrepo.folder.trees import blob_data, walk_tree

__all__ = ["Unsafe", "safe_ancestor", "transplant", "unsafe_entries"]

#: The modes a memory file may have; anything else a remote brings is refused.
REGULAR = frozenset({int(FileMode.BLOB), int(FileMode.BLOB_EXECUTABLE)})
#: First-parent steps `safe_ancestor` takes before it gives up.
MAX_HOPS = 10_000
_TARGET_CHARS = 80


@dataclass(frozen=True, slots=True)
class Unsafe:
    """One entry a remote tree holds that is not a regular file: where, and what."""

    path: str
    mode: int
    #: A symlink's target (as text, one line), a submodule's commit id.
    target: str

    @property
    def what(self) -> str:
        """What the entry is, for a person: `a symlink to /etc/passwd`."""
        if self.mode == FileMode.LINK:
            return f"a symlink to {self.target}"
        if self.mode == FileMode.COMMIT:
            return f"a submodule at commit {self.target[:10]}"
        return f"an entry of git mode {self.mode:o}, not a file"


def unsafe_entries(
    repo: pygit2.Repository, old: pygit2.Tree | None, new: pygit2.Tree
) -> tuple[Unsafe, ...]:
    """Entries of `new` that are not regular files and that `old` (None: an empty tree)
    does not hold the same, by path."""
    found: list[Unsafe] = []
    for path, oid, mode in _changed_entries(repo, old, new):
        if mode not in REGULAR:
            found.append(Unsafe(path, mode, _target(repo, oid, mode)))
    return tuple(sorted(found, key=lambda u: u.path))


def _changed_entries(
    repo: pygit2.Repository, old: pygit2.Tree | None, new: pygit2.Tree
) -> Iterator[tuple[str, pygit2.Oid, int]]:
    if old is None:
        yield from walk_tree(repo, new)
        return
    for delta in old.diff_to_tree(new).deltas:
        # A type change comes as a deletion and an addition: the addition is the one.
        if delta.status_char() != "D" and delta.new_file.mode:
            yield delta.new_file.path, delta.new_file.id, int(delta.new_file.mode)


def _target(repo: pygit2.Repository, oid: pygit2.Oid, mode: int) -> str:
    """A link's target as one printable line; a submodule's commit id (not in this
    repository: it is never fetched)."""
    if mode != FileMode.LINK:
        return str(oid)
    try:
        raw = blob_data(repo, oid)
    except (KeyError, ValueError):
        return "(unreadable)"
    text = raw.decode("utf-8", "replace")
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= _TARGET_CHARS else text[: _TARGET_CHARS - 1] + "…"


def transplant(
    repo: pygit2.Repository, tree: pygit2.Oid, sources: Mapping[str, pygit2.Tree | None]
) -> pygit2.Oid:
    """`tree` with everything at or under each path of `sources` replaced by what that
    path's source tree holds there (nothing, when it holds nothing or is None)."""
    index = pygit2.Index()
    index.read_tree(repo[tree].peel(pygit2.Tree))
    for path, source in sources.items():
        inside = path + "/"
        for stale in [e.path for e in index if e.path == path or e.path.startswith(inside)]:
            index.remove(stale)
        for sub_path, blob, mode in _entries_at(repo, source, path):
            index.add(pygit2.IndexEntry(sub_path, blob, FileMode(mode)))
    written: pygit2.Oid = index.write_tree(repo)
    return written


def _entries_at(
    repo: pygit2.Repository, tree: pygit2.Tree | None, path: str
) -> Iterator[tuple[str, pygit2.Oid, int]]:
    if tree is None:
        return
    try:
        entry = tree[path]
    except KeyError:
        return
    if entry.filemode == FileMode.TREE:
        sub = repo[entry.id]
        assert isinstance(sub, pygit2.Tree)
        yield from walk_tree(repo, sub, path + "/")
    else:
        yield path, entry.id, int(entry.filemode)


def safe_ancestor(repo: pygit2.Repository, commit: pygit2.Commit) -> pygit2.Commit | None:
    """The newest commit on `commit`'s first-parent line (itself included) whose tree
    holds only regular files, or None (a clone then has nothing safe to start from)."""
    current: pygit2.Commit | None = commit
    for _hop in range(MAX_HOPS):
        if current is None:
            return None
        if not unsafe_entries(repo, None, current.tree):
            return current
        current = current.parents[0] if current.parents else None
    return None
