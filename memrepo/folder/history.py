"""The history of one folder entry: the commits that added, changed and moved it.

`why` answers "where did this memory come from?" at the level people think in: the
entry, not the file. An entry is followed by its id (its `subject`, else a hash of its
text) across files, so a move between files is one event; and when a commit replaced
one bullet by another at the same place (a reworded fact without a subject, whose id
therefore changed), the walk carries on with the older id, so the rewording shows as a
change and the history reaches back to the first version.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher

import pygit2

from memrepo.errors import FormatError
from memrepo.folder.messages import commit_info
from memrepo.folder.trees import changed_paths, read_blob
from memrepo.formats import Document, Entry, parse
from memrepo.models.folder import EntryAction, EntryEvent


@dataclass(frozen=True, slots=True)
class _Seen:
    """Where a followed entry sits in one version of one file."""

    path: str
    entry: Entry


class _Versions:
    """Parsed markdown blobs, each parsed once however many commits share it."""

    def __init__(self, repo: pygit2.Repository) -> None:
        self.repo = repo
        self._docs: dict[str, Document | None] = {}

    def doc(self, tree: pygit2.Tree | None, path: str) -> Document | None:
        if tree is None or not path.endswith(".md"):
            return None
        try:
            oid = str(tree[path].id)
        except KeyError:
            return None
        if oid not in self._docs:
            data = read_blob(self.repo, tree, path)
            try:
                self._docs[oid] = parse(data, path) if data is not None else None
            except FormatError:
                self._docs[oid] = None
        return self._docs[oid]


def entry_history(repo: pygit2.Repository, head: pygit2.Commit, entry_id: str) -> list[EntryEvent]:
    """Events of the entry `entry_id` on main, oldest first."""
    versions = _Versions(repo)
    followed = {entry_id}
    events: list[EntryEvent] = []
    for commit in _history(repo, head):
        parent = commit.parents[0] if commit.parents else None
        old_tree = parent.tree if parent is not None else None
        paths = [p for p in changed_paths(repo, old_tree, commit.tree) if p.endswith(".md")]
        paths = [p for p in paths if not _came_from_other_parent(commit, p)]
        found = _events_of(versions, commit, old_tree, paths, followed)
        events.extend(reversed(found))
    events.reverse()
    return events


def _history(repo: pygit2.Repository, head: pygit2.Commit) -> Iterator[pygit2.Commit]:
    """Every commit reachable from main, newest first (a child before its parents)."""
    walker = repo.walk(head.id, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.TIME)
    yield from walker


def _came_from_other_parent(commit: pygit2.Commit, path: str) -> bool:
    """A merge's change to `path` that one of the merged parents already had is that
    parent's change: the walk meets it there, so the merge does not claim it."""
    if len(commit.parents) < 2:
        return False
    mine = _blob_id(commit.tree, path)
    return any(_blob_id(p.tree, path) == mine for p in commit.parents[1:])


def _blob_id(tree: pygit2.Tree, path: str) -> str | None:
    try:
        return str(tree[path].id)
    except KeyError:
        return None


def _events_of(
    versions: _Versions,
    commit: pygit2.Commit,
    old_tree: pygit2.Tree | None,
    paths: list[str],
    followed: set[str],
) -> list[EntryEvent]:
    """What `commit` did to the followed entries (and which older ids to follow next)."""
    before: dict[str, _Seen] = {}
    after: dict[str, _Seen] = {}
    renamed: dict[str, Entry] = {}
    for path in paths:
        old_doc = versions.doc(old_tree, path)
        new_doc = versions.doc(commit.tree, path)
        _collect(old_doc, path, followed, before)
        _collect(new_doc, path, followed, after)
        for new_id, old_entry in _rewordings(old_doc, new_doc, followed).items():
            renamed[new_id] = old_entry
    out: list[EntryEvent] = []
    for entry_id in sorted(followed):
        old, new = before.get(entry_id), after.get(entry_id)
        if new is not None and old is None and entry_id in renamed:
            previous = renamed[entry_id]
            followed.add(previous.id)
            out.append(_event(commit, "changed", new, previous_text=previous.text))
        elif new is not None and old is None:
            out.append(_event(commit, "added", new))
        elif new is None and old is not None:
            out.append(_event(commit, "removed", old))
        elif new is not None and old is not None and old.path != new.path:
            out.append(_event(commit, "moved", new, from_path=old.path))
        elif new is not None and old is not None and old.entry.raw != new.entry.raw:
            out.append(_event(commit, "changed", new, previous_text=old.entry.text))
    return out


def _collect(doc: Document | None, path: str, ids: set[str], into: dict[str, _Seen]) -> None:
    if doc is None:
        return
    for entry in doc.entries:
        if entry.id in ids and entry.id not in into:
            into[entry.id] = _Seen(path, entry)


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
