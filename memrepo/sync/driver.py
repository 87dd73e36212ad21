"""`memrepo merge-driver %O %A %B %P`: the entry merge inside a plain `git merge`/`git pull`.

git hands the driver three temporary files (base, ours, theirs) and the path; the driver
writes the result into the ours file. The result never holds conflict markers.

Exit code: 0 whenever the file was merged, conflicts included. git's convention is a
non-zero exit when a conflict is left for the user; here nothing is left: main gets the
winning side (ours for lines, trust then date for subjects), and a non-zero exit would
only stop the merge half-finished, with the path marked unmerged and a file that already
holds the answer (the state the issue forbids for main). So the driver reports each
conflict on stderr and keeps the loser instead:

* the loser is written to the object database at once (its id is printed, so
  ``git show <id>`` brings it back whatever happens next), and noted under
  ``.git/memrepo/merge-losers/``;
* the ``post-merge`` hook (``memrepo install-git-hooks``) then puts the notes of this
  merge on a ``sync/conflict-<date>-<n>`` branch on top of the merge commit, the same
  kind of branch ``memrepo sync`` makes, so ``memrepo conflicts list`` shows both.

In a rebase (``git pull --rebase``, ``git rebase``) git swaps the sides: HEAD is the
upstream being built on, so %A ("ours") is the upstream's version and %B ("theirs") the
local commit being replayed. Merged as given, every tie (a subject both sides changed on
the same day, a line both changed) would go to the upstream and drop the local, newer
edit from the rebased commit. The driver sees the rebase in git's state
(``.git/rebase-merge``, or ``.git/rebase-apply`` with its ``rebasing`` mark: ``git am``
uses that folder too, with HEAD the local side as in a merge; ``GIT_REFLOG_ACTION`` is not
set by a plain ``git rebase``) and merges with the local commit as ours, so a rebase gives
what a merge gives. A rebase runs no post-merge hook: its losers, the upstream's versions,
are reported and kept as objects, and are in the history anyway (the upstream's commits).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2.enums import FileMode

from memrepo.diskio import write_atomic
from memrepo.errors import InvalidArgument, NotAMemoryRepo
from memrepo.sync.merge import MergeConflict, merge_file

__all__ = ["DriverResult", "finish_merge", "in_rebase", "run_merge_driver"]

#: Where the driver notes losers for the post-merge hook, under ``.git/memrepo/``.
LOSERS_DIR = "merge-losers"


@dataclass(frozen=True, slots=True)
class DriverResult:
    """What one driver run did: the conflicts and the object id of the losing version."""

    path: str
    conflicts: tuple[MergeConflict, ...]
    #: Object id of the loser (None without conflicts, or when the loser is the deletion).
    loser_blob: str | None
    #: Whether git was rebasing: "ours" in the conflicts is then the replayed local commit.
    rebase: bool = False


def run_merge_driver(
    base: Path, ours: Path, theirs: Path, path: str, *, git_dir: Path | None = None
) -> DriverResult:
    """Merge the three files git gave, write the result into ``ours``, note the loser.

    ``git_dir`` is the repository whose object database keeps the loser (default: the
    one git runs the driver in, found from ``$GIT_DIR`` or the current directory).
    """
    found = _discover(git_dir)
    rebase = found is not None and in_rebase(Path(found))
    mine, other = _read(ours), _read(theirs)
    if rebase:  # git's "ours" is the upstream here: the replayed commit is the local side
        mine, other = other, mine
    result = merge_file(path, _read(base), mine, other)
    _replace(ours, result.merged or b"")
    if not result.conflicts:
        return DriverResult(path, (), None, rebase)
    repo = _open(git_dir)
    loser = None if result.loser is None else str(repo.create_blob(result.loser))
    _note_loser(repo, path, loser, result.conflicts)
    return DriverResult(path, result.conflicts, loser, rebase)


def in_rebase(git_dir: Path) -> bool:
    """Whether git is replaying commits onto another (sides swapped: module docstring)."""
    apply = git_dir / "rebase-apply"
    return (git_dir / "rebase-merge").is_dir() or (apply / "rebasing").exists()


def report_lines(result: DriverResult) -> list[str]:
    """The lines the driver prints on stderr: each conflict, and how to get the loser."""
    lines = [f"memrepo merge: {c.path} ({c.kind}): {c.detail}" for c in result.conflicts]
    if result.rebase and lines:
        lines.append(
            f"memrepo merge: {result.path}: git is rebasing; 'ours' above is your local "
            "commit being replayed, 'theirs' the upstream it is replayed onto"
        )
    if result.loser_blob is not None:
        lines.append(
            f"memrepo merge: {result.path}: the losing version is object "
            f"{result.loser_blob[:12]} (git show {result.loser_blob[:12]}); it goes to a "
            "sync/conflict-* branch when the merge is committed"
        )
    return lines


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InvalidArgument(
            f"merge driver cannot read {path}: {exc.strerror}; it is meant to be run by git "
            "as `memrepo merge-driver %O %A %B %P`"
        ) from exc


def _replace(path: Path, data: bytes) -> None:
    """Write the result next to git's temp file and rename it over: never half-written."""
    try:
        write_atomic(path, data, fsync=True)
    except OSError as exc:
        raise InvalidArgument(f"merge driver cannot write {path}: {exc.strerror}") from exc


def _where(git_dir: Path | None) -> str:
    return str(git_dir) if git_dir is not None else os.environ.get("GIT_DIR") or os.getcwd()


def _discover(git_dir: Path | None) -> str | None:
    """The git dir the driver runs for (a linked worktree's own), or None outside one."""
    found: str | None = pygit2.discover_repository(_where(git_dir))
    return found


def _open(git_dir: Path | None) -> pygit2.Repository:
    found = _discover(git_dir)
    if found is None:
        raise NotAMemoryRepo(_where(git_dir), "the merge driver runs inside a git repository")
    return pygit2.Repository(found)


def _note_loser(
    repo: pygit2.Repository, path: str, loser: str | None, conflicts: Sequence[MergeConflict]
) -> None:
    head = None if repo.head_is_unborn else str(repo.head.target)
    folder = Path(repo.path) / "memrepo" / LOSERS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    note = _Note(head, path, loser, tuple(conflicts))
    name = f"{os.getpid()}-{len(list(folder.iterdir()))}-{path.replace('/', '_')}.json"
    (folder / name).write_text(note.to_json(), encoding="utf-8")


def finish_merge(root: Path) -> str | None:
    """After a merge commit (the post-merge hook): put this merge's losers on a conflict
    branch on top of it; return the branch name (None when there was nothing to keep).

    Notes from merges that never became the current commit (aborted, rebased) are dropped:
    their losers were printed, and the objects stay until git's garbage collection.
    """
    # Imported here: the driver itself must start fast and needs none of this.
    from memrepo.folder.integrate import add_conflict_branch
    from memrepo.folder.repo import MemoryFolder
    from memrepo.models.sync import ConflictInfo
    from memrepo.sync.conflicts import conflict_message

    folder = MemoryFolder.open(root)
    notes = _take_notes(Path(folder.repo.path) / "memrepo" / LOSERS_DIR)
    head = folder.repo.head.peel(pygit2.Commit)
    if len(head.parents) < 2:
        return None
    mine = [note for note in notes if note.head == str(head.parents[0].id)]
    if not mine:
        return None
    index = pygit2.Index()
    index.read_tree(head.tree)
    for note in mine:
        if note.loser is None:
            if note.path in index:
                index.remove(note.path)
        else:
            mode = index[note.path].mode if note.path in index else FileMode.BLOB
            index.add(pygit2.IndexEntry(note.path, pygit2.Oid(hex=note.loser), mode))
    tree = index.write_tree(folder.repo)
    infos = [
        ConflictInfo(path=c.path, kind=c.kind, detail=c.detail)
        for note in mine
        for c in note.conflicts
    ]
    message = conflict_message(infos, "the other side of a `git merge`")
    return add_conflict_branch(folder, head.id, tree, message, folder.clock.now().date())


@dataclass(frozen=True, slots=True)
class _Note:
    """What the driver noted about one conflicted file for the post-merge hook."""

    head: str | None
    path: str
    loser: str | None
    conflicts: tuple[MergeConflict, ...]

    def to_json(self) -> str:
        conflicts = [{"path": c.path, "kind": c.kind, "detail": c.detail} for c in self.conflicts]
        return json.dumps(
            {"head": self.head, "path": self.path, "loser": self.loser, "conflicts": conflicts}
        )

    @classmethod
    def from_json(cls, text: str) -> _Note:
        data = json.loads(text)
        conflicts = tuple(
            MergeConflict(str(c["path"]), c["kind"], str(c["detail"])) for c in data["conflicts"]
        )
        return cls(data["head"], str(data["path"]), data["loser"], conflicts)


def _take_notes(notes_dir: Path) -> list[_Note]:
    """Read and remove every note (a note is used once, by the merge that wrote it)."""
    if not notes_dir.is_dir():
        return []
    notes: list[_Note] = []
    for file in sorted(notes_dir.glob("*.json")):
        try:
            notes.append(_Note.from_json(file.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"memrepo: skipped unreadable merge note {file}: {exc}", file=sys.stderr)
        file.unlink(missing_ok=True)
    return notes
