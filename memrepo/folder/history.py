"""The history of one folder entry: the commits that added, changed and moved it.

`why` answers "where did this memory come from?" at the level people think in: the
entry, not the file. An entry is followed by its id (its `subject`, else a hash of its
text) across files, so a move between files is one event; and when a commit replaced
one bullet by another at the same place (a reworded fact without a subject, whose id
therefore changed), the walk carries on with the older id, so the rewording shows as a
change and the history reaches back to the first version.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher

import pygit2
from pygit2.enums import DeltaStatus

from memrepo.errors import FormatError
from memrepo.folder.messages import commit_info
from memrepo.folder.trees import blob_data, changed_paths, file_blob_id
from memrepo.formats import Document, Entry, parse
from memrepo.formats.changes import touched_ids
from memrepo.models.folder import EntryAction, EntryEvent

#: Versions kept read or parsed. A walk newest first meets each version of a file twice
#: in a row (the new side of one commit, then the old side of its parent's), so a few
#: are enough for a merge's files too, and memory stays bounded however long the history.
_KEPT = 8
#: What an id made from an entry's text looks like (`formats.text.entry_id`).
_TEXT_HASH = re.compile(r"[0-9a-f]{10}")


@dataclass(frozen=True, slots=True)
class _Seen:
    """Where a followed entry sits in one version of one file."""

    path: str
    entry: Entry


@dataclass(frozen=True, slots=True)
class _Change:
    """One file a commit changed, by the blob ids of its two versions (None: absent)."""

    path: str
    old: pygit2.Oid | None
    new: pygit2.Oid | None


class _Versions:
    """The last few blobs read and parsed, by blob id: each version is read and parsed at
    most once in a row, and only a handful are held at any time. `reads`, when given,
    gets the path of every blob read: what the walk cost (tests/folder/test_why_cost.py)."""

    def __init__(self, repo: pygit2.Repository, reads: list[str] | None = None) -> None:
        self.repo = repo
        self.reads = reads
        self._data: OrderedDict[pygit2.Oid, bytes] = OrderedDict()
        self._docs: OrderedDict[pygit2.Oid, Document | None] = OrderedDict()

    def data(self, oid: pygit2.Oid | None, path: str) -> bytes:
        if oid is None:
            return b""
        data = self._data.get(oid)
        if data is None:
            data = self._data[oid] = blob_data(self.repo, oid)
            if self.reads is not None:
                self.reads.append(path)
            if len(self._data) > _KEPT:
                self._data.popitem(last=False)
        return data

    def doc(self, oid: pygit2.Oid | None, path: str) -> Document | None:
        if oid is None:
            return None
        if oid not in self._docs:
            try:
                self._docs[oid] = parse(self.data(oid, path), path)
            except FormatError:
                self._docs[oid] = None
            if len(self._docs) > _KEPT:
                self._docs.popitem(last=False)
        return self._docs[oid]


def entry_history(
    repo: pygit2.Repository,
    head: pygit2.Commit,
    entry_id: str,
    path: str | None = None,
    *,
    reads: list[str] | None = None,
) -> list[EntryEvent]:
    """Events of the entry `entry_id` on main, oldest first.

    The history is streamed, newest first. When main holds the entry in `path` (the
    ref's file), the walk follows that file as `git log -- path` does and looks at the
    other files a commit changed only where the entry arrived in a followed file (to
    find the file it moved from): `why` then costs what the entry's history does, not
    what the repository holds (issue #28). A ref that names where the entry used to be,
    or a removed entry, takes the walk over every changed file. An entry removed from one
    file and written again in another by a later commit (no move) is then followed from
    its rewriting: finding its older life would read every file every older commit
    changed, which is the cost this walk avoids. Either way a changed file
    is read, and parsed only when its changed lines may hold a followed entry
    (`formats.changes.touched_ids`); memory holds a few versions and the events.
    """
    versions = _Versions(repo, reads)
    followed = {entry_id}
    watched = {path} if path is not None and _holds(versions, head.tree, path, followed) else None
    events: list[EntryEvent] = []
    for commit in _history(repo, head):
        old_tree = commit.parents[0].tree if commit.parents else None
        if watched is None:
            changes = _touching(versions, _changes(repo, commit, old_tree), followed)
        else:
            changes = _watched_changes(versions, commit, watched, followed)
        if changes:
            events.extend(reversed(_events_of(versions, commit, changes, followed)))
    events.reverse()
    return events


def _history(repo: pygit2.Repository, head: pygit2.Commit) -> Iterator[pygit2.Commit]:
    """Every commit reachable from main, newest first (a child before its parents)."""
    walker = repo.walk(head.id, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.TIME)
    yield from walker


def _holds(versions: _Versions, tree: pygit2.Tree, path: str, followed: set[str]) -> bool:
    """Whether `path` in `tree` holds a followed entry."""
    return bool(_first_of(versions.doc(file_blob_id(tree, path), path), followed))


def _touching(versions: _Versions, changes: Iterable[_Change], followed: set[str]) -> list[_Change]:
    return [change for change in changes if _may_touch(versions, change, followed)]


def _watched_changes(
    versions: _Versions,
    commit: pygit2.Commit,
    watched: set[str],
    followed: set[str],
) -> list[_Change]:
    """The changes of `commit` that can hold a followed entry, looking first at the files
    it lives in (`watched`): a commit that left them as they were costs a comparison of
    blob ids per file. Where a followed entry arrived in one of them, the files the
    commit changed that its parent already had are read too (only those can be where it
    came from), and those that held it are followed from then on."""
    old_tree = commit.parents[0].tree if commit.parents else None
    changes = _touching(
        versions,
        (c for c in map(lambda p: _change_at(commit, old_tree, p), watched) if c is not None),
        followed,
    )
    if not changes or old_tree is None or not _arrived(versions, changes, followed):
        return sorted(changes, key=lambda c: c.path.split("/"))
    others = _touching(versions, _sources(commit, old_tree, watched), followed)
    changes = sorted([*changes, *others], key=lambda c: c.path.split("/"))
    for change in changes:
        if _first_of(versions.doc(change.old, change.path), followed):
            watched.add(change.path)
    return changes


def _sources(commit: pygit2.Commit, old_tree: pygit2.Tree, watched: set[str]) -> Iterator[_Change]:
    """The markdown files outside `watched` that `commit` changed or deleted (a file it
    added cannot be where an entry came from), by libgit2's tree diff: ids only, and a
    commit that added 100,000 entries in new files costs about a millisecond."""
    for delta in old_tree.diff_to_tree(commit.tree).deltas:
        path = delta.old_file.path
        if delta.status == DeltaStatus.ADDED or path in watched or not path.endswith(".md"):
            continue
        change = _change_at(commit, old_tree, path)
        if change is not None:
            yield change


def _change_at(commit: pygit2.Commit, old_tree: pygit2.Tree | None, path: str) -> _Change | None:
    """`commit`'s change to `path` against its first parent (None: none, or a merged
    parent's, as in `_changes`)."""
    new, old = file_blob_id(commit.tree, path), file_blob_id(old_tree, path)
    if new == old:
        return None
    if len(commit.parents) > 1 and any(
        file_blob_id(p.tree, path) == new for p in commit.parents[1:]
    ):
        return None
    return _Change(path, old, new)


def _arrived(versions: _Versions, changes: list[_Change], followed: set[str]) -> bool:
    """Whether a followed id is in a new version of these files and not in its old one."""
    for change in changes:
        news = _first_of(versions.doc(change.new, change.path), followed)
        olds = _first_of(versions.doc(change.old, change.path), followed)
        if any(entry_id not in olds for entry_id in news):
            return True
    return False


def _changes(
    repo: pygit2.Repository, commit: pygit2.Commit, old_tree: pygit2.Tree | None
) -> Iterator[_Change]:
    """The markdown files `commit` changed against its first parent, by blob ids only.

    A merge's change to a path that one of the merged parents already had is that
    parent's change: the walk meets it there, so the merge does not claim it.
    """
    for path in changed_paths(repo, old_tree, commit.tree):
        if not path.endswith(".md"):
            continue
        change = _change_at(commit, old_tree, path)
        if change is not None:
            yield change


def _may_touch(versions: _Versions, change: _Change, followed: set[str]) -> bool:
    """Whether the change can have touched a followed entry, from its changed lines."""
    touched = touched_ids(
        versions.data(change.old, change.path), versions.data(change.new, change.path)
    )
    return touched is None or not touched.isdisjoint(followed)


def _events_of(
    versions: _Versions, commit: pygit2.Commit, changes: list[_Change], followed: set[str]
) -> list[EntryEvent]:
    """What `commit` did to the followed entries (and which older ids to follow next).

    A file contributes an entry's place before and after only where it changed that
    entry (added, removed or rewritten it): a copy left as it was in another file the
    commit also changed is no move.
    """
    before: dict[str, _Seen] = {}
    after: dict[str, _Seen] = {}
    renamed: dict[str, Entry] = {}
    for change in changes:
        old_doc = versions.doc(change.old, change.path)
        new_doc = versions.doc(change.new, change.path)
        olds, news = _first_of(old_doc, followed), _first_of(new_doc, followed)
        for entry_id in followed:
            old, new = olds.get(entry_id), news.get(entry_id)
            if old is not None and new is not None and old.raw == new.raw:
                continue
            if old is not None:
                before.setdefault(entry_id, _Seen(change.path, old))
            if new is not None:
                after.setdefault(entry_id, _Seen(change.path, new))
        if any(entry_id not in olds for entry_id in news):
            renamed.update(_rewordings(old_doc, new_doc, followed))
    # A rewording replaced one version of the entry by another: one "changed" event. When
    # the walk already follows the older version (an undone rewording redone: both texts
    # are this entry's), its removal is that same change, not a second event (issue #31).
    reworded = {
        entry_id: renamed[entry_id]
        for entry_id in followed
        if entry_id in renamed and entry_id in after and entry_id not in before
    }
    replaced = {previous.id for previous in reworded.values()}
    out: list[EntryEvent] = []
    for entry_id in sorted(followed):
        old_seen, new_seen = before.get(entry_id), after.get(entry_id)
        if entry_id in reworded:
            previous = reworded[entry_id]
            followed.add(previous.id)
            assert new_seen is not None
            out.append(_event(commit, "changed", new_seen, previous_text=previous.text))
        elif new_seen is not None and old_seen is None:
            out.append(_event(commit, "added", new_seen))
        elif new_seen is None and old_seen is not None and entry_id in replaced:
            continue
        elif new_seen is None and old_seen is not None:
            out.append(_event(commit, "removed", old_seen))
        elif new_seen is not None and old_seen is not None and old_seen.path != new_seen.path:
            out.append(_event(commit, "moved", new_seen, from_path=old_seen.path))
        elif new_seen is not None and old_seen is not None:
            out.append(_event(commit, "changed", new_seen, previous_text=old_seen.entry.text))
    return out


def _first_of(doc: Document | None, ids: set[str]) -> dict[str, Entry]:
    """The first entry of each followed id in `doc`, decoding as few lines as it can.

    An id that is no text hash can only be a `subject`, so while every followed id is
    one, only the lines that mention a subject are decoded.
    """
    found: dict[str, Entry] = {}
    if doc is None:
        return found
    if any(_TEXT_HASH.fullmatch(entry_id) for entry_id in ids):
        candidates: Iterable[Entry | None] = doc.entries
    else:
        candidates = (doc.entry_at(n) for n, raw in doc.entry_lines() if "subject" in raw)
    for entry in candidates:
        if entry is not None and entry.id in ids and entry.id not in found:
            found[entry.id] = entry
            if len(found) == len(ids):
                break
    return found


def _rewordings(old: Document | None, new: Document | None, followed: set[str]) -> dict[str, Entry]:
    """Followed entries of `new` that took the place of a different entry of `old`."""
    if old is None or new is None:
        return {}
    old_ids = {e.id for e in old.entries}
    new_ids = {e.id for e in new.entries}
    old_at = {e.line_no: e for e in old.entries}
    new_at = {e.line_no: e for e in new.entries}
    matcher = SequenceMatcher(
        None, [line.text for line in old.lines], [line.text for line in new.lines], autojunk=False
    )
    found: dict[str, Entry] = {}
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag != "replace":
            continue
        for offset in range(min(a2 - a1, b2 - b1)):
            new_entry = new_at.get(b1 + offset)
            old_entry = old_at.get(a1 + offset)
            if new_entry is None or old_entry is None or new_entry.id not in followed:
                continue
            if new_entry.id not in old_ids and old_entry.id not in new_ids:
                found[new_entry.id] = old_entry
    return found


def _event(
    commit: pygit2.Commit,
    action: EntryAction,
    seen: _Seen,
    *,
    previous_text: str | None = None,
    from_path: str | None = None,
) -> EntryEvent:
    info = commit_info(commit)
    return EntryEvent(
        action=action,
        commit=info.id,
        time=info.time,
        summary=info.summary,
        path=seen.path,
        line=seen.entry.line_no + 1,
        text=seen.entry.text,
        previous_text=previous_text,
        from_path=from_path,
        by=info.by,
        origin=info.origin,
        task=info.task,
        source=seen.entry.metadata.get("source"),
    )


_VERBS: dict[EntryAction, str] = {
    "added": "Added",
    "changed": "Changed",
    "moved": "Moved",
    "removed": "Removed",
}


def explain(events: list[EntryEvent]) -> str:
    """One line per event, e.g. "2026-11-30 Added to MEMORY.md by user (origin remember,
    commit 1a2b3c4d)"; people read this in `memrepo why`."""
    if not events:
        return "No commit on main added this entry (an uncommitted edit, or never written)."
    lines = []
    for event in events:
        where = {
            "added": f"to {event.path}",
            "changed": f"in {event.path}",
            "moved": f"from {event.from_path} to {event.path}",
            "removed": f"from {event.path}",
        }[event.action]
        who = f" by {event.by}" if event.by else " in a plain git commit"
        details = [f"origin {event.origin}"] if event.origin else []
        if event.task:
            details.append(f"task {event.task}")
        if event.source:
            details.append(f"source {event.source}")
        details.append(f"commit {event.commit[:8]}")
        line = f"{event.time.date().isoformat()} {_VERBS[event.action]} {where}{who}"
        line += f" ({', '.join(details)})"
        if event.previous_text is not None:
            line += f": was “{event.previous_text}”"
        lines.append(line)
    return "\n".join(lines)
