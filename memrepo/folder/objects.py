"""The objects of a large commit, built in memory and saved as one pack.

libgit2 writes every tree and commit as its own loose file: a temp file, a fan-out
directory, a link and an unlink. A dream writes two commits over a few folders, so that
was about ten new inodes beside its pack of blobs, each costing as much as a worktree
file on a busy disk. Here the trees and commits are serialized in Python (git's formats
are simple and fixed) and saved with the blobs: one pack for everything a write adds,
or loose objects through libgit2 when there are only a few.

Ids are git's own (tests hold them to what libgit2 writes for the same content).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime

import pygit2
from pygit2.enums import FileMode, ObjectType

from memrepo.clock import Identity
from memrepo.errors import RepoStateError
from memrepo.folder.packs import PACK_MIN, write_pack

#: A tree entry as git stores it: name (bytes), mode, raw id.
_Entry = tuple[bytes, int, bytes]


class NewObjects:
    """Objects one write adds, kept until `save` (nothing reaches the disk before)."""

    def __init__(self, repo: pygit2.Repository) -> None:
        self.repo = repo
        self.pending: dict[bytes, tuple[ObjectType, bytes]] = {}

    def blob(self, data: bytes) -> pygit2.Oid:
        """A blob, not looked for in the repo first: each miss makes libgit2 rescan the
        pack directory, which costs more than packing a copy (git allows an object in
        several packs; gc keeps one)."""
        oid = pygit2.hash(data)
        self.pending.setdefault(oid.raw, (ObjectType.BLOB, data))
        return oid

    def tree(
        self, base: pygit2.Tree | None, changes: Mapping[str, pygit2.Oid | None]
    ) -> pygit2.Oid | None:
        """`base` with the changed blobs (None deletes; folders emptied go too); None
        when nothing is left. The same tree `trees.build_tree` writes: a file keeps
        an executable bit it had, a path through a file makes that file a folder."""
        entries = _entries(base)
        nested: dict[bytes, dict[str, pygit2.Oid | None]] = {}
        for path, oid in changes.items():
            head, _, rest = path.partition("/")
            name = head.encode("utf-8", "surrogateescape")
            if rest:
                nested.setdefault(name, {})[rest] = oid
            elif oid is None:
                entries.pop(name, None)
            else:
                executable = entries.get(name, (0, b""))[0] == FileMode.BLOB_EXECUTABLE
                entries[name] = (FileMode.BLOB_EXECUTABLE if executable else FileMode.BLOB, oid.raw)
        for name, sub_changes in nested.items():
            old_mode, old_id = entries.get(name, (0, b""))
            sub_id = self.tree(
                self._subtree(old_id) if old_mode == FileMode.TREE else None, sub_changes
            )
            if sub_id is None:
                entries.pop(name, None)
            else:
                entries[name] = (FileMode.TREE, sub_id.raw)
        if not entries:
            return None
        data = tree_bytes([(name, mode, raw_id) for name, (mode, raw_id) in entries.items()])
        return self._add(ObjectType.TREE, data, unless=base)

    def empty_tree(self) -> pygit2.Oid:
        """Git's empty tree (a commit that deletes every file)."""
        return self._add(ObjectType.TREE, b"")

    def commit(
        self,
        tree: pygit2.Oid,
        parents: Sequence[pygit2.Oid],
        author: pygit2.Signature,
        committer: pygit2.Signature,
        message: str,
    ) -> pygit2.Oid:
        return self._add(ObjectType.COMMIT, commit_bytes(tree, parents, author, committer, message))

    def save(self) -> None:
        """Write every pending object: one pack when there are many, else loose."""
        if len(self.pending) >= PACK_MIN:
            write_pack(self.repo, self.pending)
        else:
            for kind, data in self.pending.values():
                self.repo.odb.write(kind, data)
        self.pending = {}

    def _subtree(self, raw_id: bytes) -> pygit2.Tree:
        """A folder of the base tree (always a saved commit's: a batch never builds on
        a tree of its own)."""
        obj = self.repo[pygit2.Oid(raw=raw_id)]
        if not isinstance(obj, pygit2.Tree):
            raise RepoStateError(
                f"git object {str(obj.id)[:10]} is listed as a folder but is not one;"
                " the repository is damaged (`git fsck` says more)"
            )
        return obj

    def _add(
        self, kind: ObjectType, data: bytes, unless: pygit2.Object | None = None
    ) -> pygit2.Oid:
        raw_id = object_id(kind, data)
        if unless is None or unless.id.raw != raw_id:  # an unchanged tree is there already
            self.pending.setdefault(raw_id, (kind, data))
        return pygit2.Oid(raw=raw_id)


def _entries(base: pygit2.Tree | None) -> dict[bytes, tuple[int, bytes]]:
    """A saved tree's entries by name bytes (a name need not be UTF-8 in git)."""
    if base is None:
        return {}
    found: dict[bytes, tuple[int, bytes]] = {}
    for entry in base:
        name = entry.raw_name
        assert name is not None  # pygit2 gives every tree entry its name
        found[name] = (entry.filemode, entry.id.raw)
    return found


def object_id(kind: ObjectType, data: bytes) -> bytes:
    """Git's id of an object: SHA-1 of its type, size and content."""
    header = f"{kind.name.lower()} {len(data)}\0".encode()
    return hashlib.sha1(header + data).digest()


def tree_bytes(entries: list[_Entry]) -> bytes:
    """A tree object's content. Git orders entries by name bytes, a folder's name as if
    it ended in "/" (so "a.md" sorts before folder "a", whose key is "a/")."""
    entries.sort(key=lambda e: e[0] + b"/" if e[1] == FileMode.TREE else e[0])
    return b"".join(b"%o %s\0%s" % (mode, name, raw_id) for name, mode, raw_id in entries)


def commit_bytes(
    tree: pygit2.Oid,
    parents: Sequence[pygit2.Oid],
    author: pygit2.Signature,
    committer: pygit2.Signature,
    message: str,
) -> bytes:
    """A commit object's content as libgit2 writes it (no encoding header: UTF-8)."""
    head = [f"tree {tree}", *(f"parent {parent}" for parent in parents)]
    head += [f"author {_signature_line(author)}", f"committer {_signature_line(committer)}"]
    return ("\n".join(head) + "\n\n" + message).encode("utf-8")


def signature(who: Identity, when: datetime) -> pygit2.Signature:
    """A git signature at `when`, in its own UTC offset (as `git log` shows it)."""
    delta = when.utcoffset()
    offset = int(delta.total_seconds() // 60) if delta is not None else 0
    return pygit2.Signature(who.name, who.email, int(when.timestamp()), offset)


def _signature_line(sig: pygit2.Signature) -> str:
    hours, minutes = divmod(abs(sig.offset), 60)
    sign = "-" if sig.offset < 0 else "+"
    return f"{sig.name} <{sig.email}> {sig.time} {sign}{hours:02d}{minutes:02d}"
