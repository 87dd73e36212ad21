"""What a dream plans on: main with a person's pending edits in, for a real run and a
dry run alike, so that a dry run predicts exactly what the dream then does.

A real dream first commits the edits a person left uncommitted as their own commit
(`branches.begin_dream`) and plans on that commit. A dry run must not write, so it lays
the same edits over main's files instead: the worktree bytes the edit commit would hold,
refused by the same rules (auto-commit switched off, a file still being saved, a secret
in a name or a text, a path no write may name), so where a dream would stop with an
error its dry run stops with the same one.

Renames: a dream points a broken `[[link]]` at the file git says it was renamed to, and
git infers renames from commits, the edit commit included. A dry run has no edit commit,
so it lays over main's history the renames git would see in it: the same similarity,
over main's tree and the working tree (`folder.renames.renames_on_disk`), so a file
moved by hand, edited or not, is predicted as the dream will find it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from memrepo.dreaming.snapshot import SWARM_PREFIX
from memrepo.folder import branches
from memrepo.folder.renames import find_renames, renames_on_disk
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.transaction import person_edits

#: Given missing paths, where git says each one went (see `links.RenameFinder`).
Renames = Callable[[Iterable[str]], Mapping[str, str]]


@dataclass(frozen=True, slots=True)
class Base:
    """The commit a dream plans against, its files (swarm folders listed, not read) and
    the renames the pending edits make (old path -> new path, exact moves only)."""

    commit: str
    files: dict[str, bytes]
    paths: frozenset[str]
    moved_by_hand: Mapping[str, str] = field(default_factory=dict)

    def renames(self, folder: MemoryFolder) -> Renames:
        """git's rename detection over main's history, with the moves of the pending
        edits first (they are the newest change, as the real run's edit commit is)."""
        existing = self.paths
        moved = self.moved_by_hand
        if not moved:
            return lambda missing: find_renames(folder, missing, existing=existing)

        def find(missing: Iterable[str]) -> Mapping[str, str]:
            wanted = sorted(missing)
            found = {p: moved[p] for p in wanted if moved.get(p) in existing}
            rest = [p for p in wanted if p not in found]
            if not rest:
                return found
            # A path renamed in history, then moved by hand: history leads to the path
            # the edit removed, the edit to where it is now.
            older = find_renames(folder, rest, existing=existing | moved.keys())
            found.update({p: moved.get(t, t) for p, t in older.items()})
            return found

        return find


def plan_base(folder: MemoryFolder, *, dry_run: bool) -> Base:
    """The base of a dream: the real one commits the pending edits (caller holds the
    write lock), a dry run predicts that commit's files without writing."""
    if not dry_run:
        commit = branches.begin_dream(folder)
        files, paths = branches.files_at(folder, commit, unread=SWARM_PREFIX)
        return Base(commit, files, paths)
    folder.store.require_writable()  # the dream's own check: HEAD on an existing main
    commit = branches.main_id(folder)
    files, paths = branches.files_at(folder, commit, unread=SWARM_PREFIX)
    changes = _pending_changes(folder)
    if not changes:
        return Base(commit, files, paths)
    listed = set(paths)
    for path, data in changes.items():
        if data is None:
            files.pop(path, None)
            listed.discard(path)
            continue
        listed.add(path)
        if not path.startswith(SWARM_PREFIX):
            files[path] = data
    return Base(commit, files, frozenset(listed), renames_on_disk(folder, commit, changes))


def _pending_changes(folder: MemoryFolder) -> dict[str, bytes | None]:
    """The files the edit commit of a real dream would hold (None: deleted), refused as
    `WriteTransaction.begin` refuses them."""
    pending = folder.store.pending_edits()
    if not pending.paths:
        return {}
    return person_edits(folder.store, folder.config, pending)
