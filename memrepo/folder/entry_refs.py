"""How an entry is named outside its file, `folder:<path>#<id>`, and found again.

Every layer that points at a folder entry (recall results, tools, the engine) holds one
of these refs; a change to one entry is planned on the file and entry its ref names.
"""

from __future__ import annotations

import pygit2

from memrepo.errors import EntryNotFound
from memrepo.folder.gitstore import GitStore
from memrepo.formats import Document, Entry, parse


def parse_ref(ref: str) -> tuple[str, str]:
    """`folder:<path>#<id>` -> (path, id)."""
    body = ref.removeprefix("folder:")
    path, sep, entry_id = body.rpartition("#")
    if not sep or not path or not entry_id:
        raise EntryNotFound(ref, "not an entry ref; expected folder:<path>#<id>")
    return path, entry_id


def make_ref(path: str, entry_id: str) -> str:
    """The ref of entry `entry_id` of `path`, as `parse_ref` reads it back."""
    return f"folder:{path}#{entry_id}"


def entry_at(store: GitStore, commit: pygit2.Commit, ref: str) -> tuple[Document, Entry]:
    """The file and the entry `ref` names, as of `commit` (what a change to one entry is
    planned on); EntryNotFound when the file or the entry is not there."""
    path, entry_id = parse_ref(ref)
    data = store.read(path, commit)
    if data is None:
        raise EntryNotFound(ref, f"{path} is not in the memory repo")
    doc = parse(data, path)
    entry = next((e for e in doc.entries if e.id == entry_id), None)
    if entry is None:
        raise EntryNotFound(ref, f"no entry {entry_id!r} in {path}")
    return doc, entry
