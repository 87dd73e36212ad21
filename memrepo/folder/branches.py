"""Dream commits and review branches: the folder-layer writes dreaming needs.

Dreaming never touches git itself: it asks this module to commit safe changes on main
(one journaled commit, refused if main moved), to park the rest on a `dream/<date>-<n>`
branch made from main without touching the worktree, and to list, read and delete those
branches. Review branches are local: sync pushes main only, so they never leave the
machine. Every function that writes expects the caller to hold the write lock.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

import pygit2
from pygit2.enums import FileMode

from memrepo.errors import RepoStateError, ReviewNotFound
from memrepo.folder.messages import UNDOES, build_message, parse_trailers
from memrepo.folder.objects import NewObjects
from memrepo.folder.publish import PreparedCommit
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.transaction import Change
from memrepo.folder.trees import blob_data, read_blob, walk_tree
from memrepo.folder.undo import first_parent_history
from memrepo.folder.working_branch import MAIN

REVIEW_PREFIX = "dream/"
_REF_PREFIX = "refs/heads/"
PASSES = "Memrepo-Passes"
FINGERPRINT = "Memrepo-Fingerprint"
REVIEW = "Memrepo-Review"


@dataclass(frozen=True, slots=True)
class ReviewBranch:
    """One `dream/*` branch: its tip (the review commit) and the main commit it came from."""

    name: str
    commit: str
    base: str
    message: str
    time: datetime


def dream_message(
    summary: str,
    *,
    by: str,
    body: str,
    passes: Iterable[str],
    fingerprints: Iterable[str],
    review: str | None = None,
) -> str:
    """A commit message with memrepo's trailers plus the passes and one fingerprint per op.

    Fingerprints are trailers so an undone dream commit can be recognised from git alone.
    """
    base = build_message(summary, origin="dream", by=by, body=body).rstrip("\n")
    extra = [f"{PASSES}: {', '.join(sorted(set(passes)))}"]
    if review:
        extra.append(f"{REVIEW}: {review}")
    extra += [f"{FINGERPRINT}: {fp}" for fp in fingerprints]
    return base + "\n" + "\n".join(extra) + "\n"


def fingerprints_of(message: str) -> list[str]:
    """Every fingerprint trailer of a dream commit message, in order."""
    last = message.rstrip("\n").rsplit("\n\n", 1)[-1]
    prefix = f"{FINGERPRINT}:"
    return [line[len(prefix) :].strip() for line in last.splitlines() if line.startswith(prefix)]


def begin_dream(folder: MemoryFolder) -> str:
    """Recover a crashed write, check HEAD is on main, commit a person's pending edits
    (as theirs) and return main's id: the base every dream change is planned against.
    Caller holds the write lock (the transaction's steps 1-2, see `transaction.py`)."""
    # strict: a dream is a pass over the whole folder, so a hand edit memrepo will not
    # commit stops it, as it stops its dry run (`dreaming.base`).
    return str(folder.transaction.begin(strict=True).id)


def main_id(folder: MemoryFolder) -> str:
    """The commit main points at ("" for an unborn repo)."""
    return folder.store.main_id()


def files_at(
    folder: MemoryFolder, commit_id: str, *, unread: str | None = None
) -> tuple[dict[str, bytes], frozenset[str]]:
    """Every regular file of a commit's tree by root-relative path, and every path.

    Files under the `unread` prefix are listed but not read: a dream never looks inside
    `swarms/`, where a busy swarm keeps megabytes of notes.
    """
    files: dict[str, bytes] = {}
    paths: list[str] = []
    repo = folder.repo
    for path, oid, mode in walk_tree(repo, _commit(folder, commit_id).tree):
        if mode not in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE):
            continue
        paths.append(path)
        if unread is None or not path.startswith(unread):
            files[path] = blob_data(repo, oid)
    return files, frozenset(paths)


def read_at(folder: MemoryFolder, commit_id: str, path: str) -> bytes | None:
    """One file at a commit, or None when it is not there."""
    return read_blob(folder.repo, _commit(folder, commit_id).tree, path)


@dataclass(frozen=True, slots=True)
class DreamCommits:
    """A dream's two commits with all their objects saved (one pack), neither on a ref
    yet: `create_review_branch`, then `publish_on_main`."""

    review: str | None
    main: PreparedCommit | None


def prepare_dream(
    folder: MemoryFolder,
    base_id: str,
    review: tuple[Mapping[str, bytes | None], str] | None,
    safe: tuple[Mapping[str, bytes | None], str] | None,
) -> DreamCommits:
    """The review commit and the safe commit (each: changes and message), both on
    `base_id`, their blobs, trees and commits saved together as one pack."""
    base = _commit(folder, base_id)
    objects = NewObjects(folder.repo)
    review_id = None
    if review is not None:
        review_id = str(folder.store.prepare_commit(objects, *review, base).commit_id)
    main = folder.store.prepare_commit(objects, *safe, base) if safe is not None else None
    objects.save()
    return DreamCommits(review_id, main)


def publish_on_main(folder: MemoryFolder, prepared: PreparedCommit) -> str:
    """Make a prepared commit main (worktree, ref, index), only if main is still its
    parent (else RepoStateError: nothing written). A file a person saved since the
    dream read it is kept, and WorktreeChanged says so (nothing written)."""
    parent_id = str(prepared.parent_id)
    if main_id(folder) != parent_id:
        raise RepoStateError(_main_moved(parent_id))
    return folder.transaction.publish(prepared)


def commit_on_main(
    folder: MemoryFolder, changes: Mapping[str, bytes | None], message: str, parent_id: str
) -> str:
    """One commit on main with `changes`, only if main is still `parent_id` (else
    RepoStateError: nothing written)."""
    if main_id(folder) != parent_id:
        raise RepoStateError(_main_moved(parent_id))
    return folder.transaction.commit(Change(changes, message), _commit(folder, parent_id))


def _main_moved(parent_id: str) -> str:
    return f"main moved from {parent_id[:10]} while dreaming; nothing was written, dream again"


def next_review_name(folder: MemoryFolder, day: date) -> str:
    """`dream/<day>-<n>` with n one past the highest existing n for that day."""
    stem = f"{REVIEW_PREFIX}{day.isoformat()}-"
    taken = [
        int(name[len(stem) :])
        for name in folder.repo.branches.local
        if name.startswith(stem) and name[len(stem) :].isdigit()
    ]
    return f"{stem}{max(taken, default=0) + 1}"


def create_review_branch(folder: MemoryFolder, name: str, commit_id: str) -> None:
    """Branch `name` at a saved commit (`prepare_dream`). The worktree, git's index and
    main are not touched. Refuses to overwrite an existing branch."""
    _check_review_name(name)
    try:
        folder.repo.references.create(_REF_PREFIX + name, pygit2.Oid(hex=commit_id), force=False)
    except (pygit2.GitError, ValueError) as exc:
        raise RepoStateError(f"cannot create branch {name} ({exc}); nothing was written") from exc


def list_review_branches(folder: MemoryFolder) -> list[ReviewBranch]:
    """Every `dream/*` branch, oldest first."""
    found = [_branch(folder, name) for name in folder.repo.branches.local if _is_review_name(name)]
    return sorted(found, key=lambda b: (b.time, b.name))


def get_review_branch(folder: MemoryFolder, name: str) -> ReviewBranch:
    """One review branch; ReviewNotFound when there is none by that name."""
    if not _is_review_name(name) or folder.repo.branches.local.get(name) is None:
        raise ReviewNotFound(
            f"{name}: no review branch by that name; `memrepo review list` shows them"
        )
    return _branch(folder, name)


def delete_review_branch(folder: MemoryFolder, name: str) -> None:
    """Delete a `dream/*` branch (its commit stays in the object database until gc)."""
    get_review_branch(folder, name)
    delete_branch(folder, name)


def delete_branch(folder: MemoryFolder, name: str) -> None:
    """Delete a local branch the caller already checked is one of ours to delete (a review
    or a `sync/conflict-*` branch); never main. Caller holds the write lock."""
    if name == MAIN:
        raise RepoStateError("main is never deleted")
    try:
        folder.repo.references.delete(_REF_PREFIX + name)
    except (pygit2.GitError, KeyError) as exc:
        raise RepoStateError(f"cannot delete branch {name} ({exc})") from exc


def on_main(folder: MemoryFolder, commit_id: str) -> bool:
    """True when `commit_id` is main or one of its ancestors (the branch base still exists)."""
    head = main_id(folder)
    if not head or folder.store.commit_by_id(commit_id) is None:
        return False
    if head == commit_id:
        return True
    return bool(folder.repo.descendant_of(pygit2.Oid(hex=head), pygit2.Oid(hex=commit_id)))


def undone_commits(folder: MemoryFolder, watched: Iterable[str], limit: int = 5000) -> set[str]:
    """Which of the `watched` commits an undo commit on main reversed.

    Walks main's history from the newest commit until every watched commit was passed
    (undos always come after what they reverse) or `limit` commits were read.
    """
    pending = set(watched)
    undone: set[str] = set()
    head = folder.store.main_commit()
    if head is None or not pending:
        return undone
    for n, commit in enumerate(first_parent_history(folder.repo, head)):
        target = parse_trailers(commit.message).get(UNDOES)
        if target in pending:
            undone.add(target)
        pending.discard(str(commit.id))
        if not pending or n >= limit:
            break
    return undone


def iter_blobs(folder: MemoryFolder, commit_id: str) -> Iterator[tuple[str, str]]:
    """(path, blob id) of every file of a commit: cheap equality checks between trees."""
    for path, oid, _mode in walk_tree(folder.repo, _commit(folder, commit_id).tree):
        yield path, str(oid)


def _commit(folder: MemoryFolder, commit_id: str) -> pygit2.Commit:
    commit = folder.store.commit_by_id(commit_id)
    if commit is None:
        raise RepoStateError(f"commit {commit_id[:10]} is not in the memory repo")
    return commit


def _branch(folder: MemoryFolder, name: str) -> ReviewBranch:
    ref = folder.repo.references.get(_REF_PREFIX + name)
    assert ref is not None
    commit = folder.repo[ref.target]
    assert isinstance(commit, pygit2.Commit)
    tz = timezone(timedelta(minutes=commit.author.offset))
    base = str(commit.parents[0].id) if commit.parents else ""
    return ReviewBranch(
        name=name,
        commit=str(commit.id),
        base=base,
        message=commit.message,
        time=datetime.fromtimestamp(commit.author.time, tz),
    )


def _is_review_name(name: str) -> bool:
    return name.startswith(REVIEW_PREFIX) and name != MAIN


def _check_review_name(name: str) -> None:
    if not _is_review_name(name) or ".." in name or any(c in name for c in " ~^:?*[\\"):
        raise RepoStateError(f"{name!r} is not a review branch name (dream/<date>-<n>)")
