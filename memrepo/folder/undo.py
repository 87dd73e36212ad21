"""Undo one commit entry by entry, as a new commit.

A textual `git revert` conflicts as soon as a later bullet was appended next to the one
being reverted. Here the commit's hunks are replayed backwards against the current file:
lines it added are found (by content, nearest to where they were) and removed, lines it
removed are put back after the line that preceded them. The conflict check works on entry
identity, so only a later change to the *same* entries refuses the undo.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pygit2

from memrepo.errors import EntryNotFound, NothingToUndo, UndoConflict
from memrepo.folder.linediff import FileVersion, Hunk, Key, hunks, touched_keys
from memrepo.folder.messages import ORIGIN, UNDOES, parse_trailers
from memrepo.folder.trees import changed_paths, read_blob
from memrepo.models import CommitInfo


@dataclass(slots=True)
class UndoPlan:
    """File contents after the undo, and what it did to entries."""

    changes: dict[str, bytes | None] = field(default_factory=dict)
    entries_removed: int = 0
    entries_restored: int = 0


#: Commits a plain `undo` steps over: the initial commit, and sync's merge commits (their
#: first-parent diff is everything the other machine wrote; a person who types `undo`
#: means their own last write). Either can still be named explicitly.
_NOT_DEFAULT_TARGETS = frozenset({"init", "sync"})


def default_target(repo: pygit2.Repository, head: pygit2.Commit) -> pygit2.Commit:
    """The newest memrepo commit that is not an undo, a sync merge or undone already."""
    undone: set[str] = set()
    for commit in first_parent_history(repo, head):
        trailers = parse_trailers(commit.message)
        undoes = trailers.get(UNDOES)
        if undoes:
            if str(commit.id) not in undone:
                undone.add(undoes)
            continue
        origin = trailers.get(ORIGIN)
        if (
            origin
            and origin not in _NOT_DEFAULT_TARGETS
            and str(commit.id) not in undone
            and commit.parents
        ):
            return commit
    raise NothingToUndo("no memrepo commit left to undo")


#: How the write transaction sums up a person's hand edits when it records them as their
#: own commit (`folder/transaction.py`, `_commit_edits`).
HAND_EDITS = "Record edits made outside memrepo"


def is_hand_edit(info: CommitInfo) -> bool:
    """Whether a commit records a person's hand edits (`by: user`, origin edit, lines
    typed outside memrepo, committed by the next write): a bare `undo` reverts those only
    when confirmed (issue #31). A `memrepo edit` the person ran is their command, which a
    bare undo takes back like a `remember`."""
    return info.by == "user" and info.origin == "edit" and info.summary.startswith(HAND_EDITS)


def whose(info: CommitInfo) -> str:
    """Whose change a commit is, as a person reads it before and after an undo."""
    if info.origin is None:
        return f"a plain git commit by {info.author}"
    if is_hand_edit(info):
        return "your own hand edit"
    details = f"origin {info.origin}" + (f", task {info.task}" if info.task else "")
    if info.by == "user":
        return f"your own write ({details})"
    if info.by == "agent":
        return f"the agent's write ({details})"
    return f"a {info.by or 'memrepo'} write ({details})"


def first_parent_history(repo: pygit2.Repository, head: pygit2.Commit) -> Iterator[pygit2.Commit]:
    """main's own history, newest first (merged-in side branches are not our writes)."""
    commit: pygit2.Commit | None = head
    while commit is not None:
        yield commit
        commit = commit.parents[0] if commit.parents else None


def later_commits(
    repo: pygit2.Repository, head: pygit2.Commit, target: pygit2.Commit
) -> list[pygit2.Commit]:
    """Commits on main after `target`, oldest first; raises if target is not on main."""
    later: list[pygit2.Commit] = []
    commit: pygit2.Commit | None = head
    while commit is not None and commit.id != target.id:
        later.append(commit)
        commit = commit.parents[0] if commit.parents else None
    if commit is None:
        raise EntryNotFound(str(target.id), "commit is not on main's history")
    return list(reversed(later))


def plan_undo(repo: pygit2.Repository, target: pygit2.Commit, head: pygit2.Commit) -> UndoPlan:
    """Work out the undo of `target` against `head` without writing anything."""
    if not target.parents:
        raise NothingToUndo("the initial commit cannot be undone")
    parent = target.parents[0]
    paths = changed_paths(repo, parent.tree, target.tree)
    if not paths:
        raise NothingToUndo(f"commit {str(target.id)[:10]} changed no files")
    _refuse_conflicts(repo, target, head, paths)
    plan = UndoPlan()
    for path in paths:
        before = read_blob(repo, parent.tree, path)
        after = read_blob(repo, target.tree, path)
        current = read_blob(repo, head.tree, path)
        _undo_file(plan, target, path, before, after, current)
    return plan


def _refuse_conflicts(
    repo: pygit2.Repository, target: pygit2.Commit, head: pygit2.Commit, paths: list[str]
) -> None:
    later = later_commits(repo, head, target)
    if not later:
        return
    versions = _VersionCache(repo)
    ours = {path: versions.keys(target, path) for path in paths}
    clashing: list[str] = []
    for commit in later:
        if not commit.parents:
            continue
        for path in _touched(commit, paths):
            if ours[path] & versions.keys(commit, path):
                clashing.append(str(commit.id))
                break
    if clashing:
        raise UndoConflict(str(target.id), clashing)


def _touched(commit: pygit2.Commit, paths: list[str]) -> list[str]:
    """Which of `paths` a later commit changed: a lookup per path, not a tree diff, so
    undoing an old commit stays cheap however many commits came after it."""
    parent = commit.parents[0].tree
    if parent.id == commit.tree.id:
        return []
    return [p for p in paths if _blob_id(commit.tree, p) != _blob_id(parent, p)]


def _blob_id(tree: pygit2.Tree, path: str) -> pygit2.Oid | None:
    try:
        return tree[path].id
    except KeyError:
        return None


class _VersionCache:
    """Parsed file versions by blob id: consecutive commits share most of their blobs."""

    def __init__(self, repo: pygit2.Repository) -> None:
        self.repo = repo
        self.parsed: dict[tuple[str, str], FileVersion | None] = {}

    def version(self, tree: pygit2.Tree, path: str) -> FileVersion | None:
        try:
            blob_id = str(tree[path].id)
        except KeyError:
            blob_id = ""
        key = (path, blob_id)
        if key not in self.parsed:
            self.parsed[key] = FileVersion.of(read_blob(self.repo, tree, path), path)
        return self.parsed[key]

    def keys(self, commit: pygit2.Commit, path: str) -> set[Key]:
        """Entry ids and lines `commit` changed in `path`."""
        before = self.version(commit.parents[0].tree, path)
        return touched_keys(before, self.version(commit.tree, path))


def _undo_file(
    plan: UndoPlan,
    target: pygit2.Commit,
    path: str,
    before: bytes | None,
    after: bytes | None,
    current: bytes | None,
) -> None:
    old, new = FileVersion.of(before, path), FileVersion.of(after, path)
    now = new if current == after else FileVersion.of(current, path)
    if old is None or new is None or now is None or after is None or current is None:
        # Not line-addressable (binary, not markdown) or the file appeared or vanished:
        # only a file still exactly as the commit left it can be put back.
        if current != after:
            raise UndoConflict(str(target.id), [], f"{path} changed since")
        plan.changes[path] = before
        plan.entries_removed += len(new.entry_lines) if new is not None else 0
        plan.entries_restored += len(old.entry_lines) if old is not None else 0
        return
    deleted: set[int] = set()
    inserts: dict[int, list[str]] = {}
    for hunk in hunks(old.raw, new.raw):
        found = [_find(now, new, j, deleted, target, path) for j in range(hunk.b1, hunk.b2)]
        deleted.update(i for i in found if i is not None)
        plan.entries_removed += sum(1 for j in range(hunk.b1, hunk.b2) if j in new.entry_lines)
        if hunk.a1 == hunk.a2:
            continue
        position = _restore_position(now, new, hunk, found)
        inserts.setdefault(position, []).extend(old.raw[hunk.a1 : hunk.a2])
        plan.entries_restored += sum(1 for i in range(hunk.a1, hunk.a2) if i in old.entry_lines)
    lines = _rebuild(now.raw, deleted, inserts)
    if before is None and not any(line.strip() for line in lines):
        plan.changes[path] = None
    else:
        plan.changes[path] = now.to_bytes(lines)


def _find(
    now: FileVersion,
    new: FileVersion,
    j: int,
    taken: set[int],
    target: pygit2.Commit,
    path: str,
) -> int | None:
    """Where line j of the commit's version is in the current file; raises if gone."""
    found = _nearest(now, new.raw[j], new.text(j), j, taken)
    if found is None and new.text(j).strip():
        raise UndoConflict(str(target.id), [], f"{path} line {j + 1} is no longer there")
    return found  # a blank line someone already removed needs no undo


def _nearest(now: FileVersion, raw: str, text: str, near: int, taken: set[int]) -> int | None:
    """Index of the matching line closest to `near` (exact bytes first, then text)."""
    for exact in (True, False):
        best: int | None = None
        for i, candidate in enumerate(now.raw if exact else map(now.text, range(len(now.raw)))):
            if i in taken or candidate != (raw if exact else text):
                continue
            if best is None or abs(i - near) < abs(best - near):
                best = i
        if best is not None:
            return best
    return None


def _restore_position(
    now: FileVersion, new: FileVersion, hunk: Hunk, found: list[int | None]
) -> int:
    """Where removed lines go back: in place of what replaced them, else after the line
    that preceded them, else before the line that followed them, else at the end."""
    located = [i for i in found if i is not None]
    if located:
        return min(located)
    if hunk.b1 > 0:
        anchor = _nearest(now, new.raw[hunk.b1 - 1], new.text(hunk.b1 - 1), hunk.b1 - 1, set())
        if anchor is not None:
            return anchor + 1
    if hunk.b1 < len(new.raw):
        anchor = _nearest(now, new.raw[hunk.b1], new.text(hunk.b1), hunk.b1, set())
        if anchor is not None:
            return anchor
    return len(now.raw) if hunk.b1 > 0 else 0


def _rebuild(raw: list[str], deleted: set[int], inserts: dict[int, list[str]]) -> list[str]:
    out: list[str] = []
    for i in range(len(raw) + 1):
        for line in inserts.get(i, ()):
            if out and not _has_ending(out[-1]):
                out[-1] += _ending_like(line)
            out.append(line)
        if i < len(raw) and i not in deleted:
            if out and not _has_ending(out[-1]):
                out[-1] += _ending_like(raw[i])
            out.append(raw[i])
    return out


def _has_ending(line: str) -> bool:
    return line.endswith(("\n", "\r"))


def _ending_like(line: str) -> str:
    if line.endswith("\r\n"):
        return "\r\n"
    if line.endswith("\r"):
        return "\r"
    return "\n"
