"""The one write transaction every commit memrepo makes goes through.

    with the write lock held:
      1. finish a write a crashed process left (`GitStore.recover`),
      2. check HEAD is on the branch memrepo writes, and commit the edits a person left
         uncommitted as their own commit (never rewriting their bytes on disk),
      3. plan the change against that commit (the caller's `Plan`),
      4. validate everything: every path (`paths.check_path`), and every markdown file
         memrepo writes must be UTF-8 without NUL bytes (git would call it binary),
      5. journal, write each file only over the version the plan read, move the branch,
         update git's index, clear the journal (`GitStore.publish`).

When step 5 finds a file that changed on disk after step 2 (an editor's save landing
mid-write), nothing of the write is applied, and the transaction starts over: the save
is committed as the person's edit at step 2 and the plan is made again on top of it.

Writers: `MemoryFolder` (remember, forget, remove, undo), `bulk`, `swarm_writes`,
`branches` (dreams), `integrate` (sync). They use `run`, or, when they hold the lock
over several steps of their own (a dream plans for a while and prepares two commits),
`begin` and then `commit` or `publish`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pygit2

from memrepo.clock import Identity
from memrepo.config import LocalConfig
from memrepo.errors import DirtyWorktree, InvalidArgument, WorktreeChanged
from memrepo.folder import atomic, bulkwrite
from memrepo.folder.gitstore import GitStore
from memrepo.folder.hand_edits import HeldEdit, PendingEdits, is_utf8, report_held
from memrepo.folder.lock import WriteLock
from memrepo.folder.messages import build_message, summarize
from memrepo.folder.objects import NewObjects
from memrepo.folder.paths import check_path
from memrepo.folder.publish import PreparedCommit
from memrepo.folder.statcache import folder_moved, is_stale_scan, refresh_stat_cache
from memrepo.folder.working_branch import user_identity

#: Times a write is made after a file changed under it before it gives up, and the
#: pause before each new attempt (doubling): an editor's autosave comes in bursts.
ATTEMPTS = 10
_PAUSE = 0.001


@dataclass(frozen=True, slots=True)
class Change:
    """Files to commit (path -> new bytes, None deletes), the message, and the author
    (None: memrepo's own identity)."""

    files: Mapping[str, bytes | None]
    message: str
    author: Identity | None = None


#: Works out a change from the commit it will be built on; None commits nothing. It may
#: run more than once (see the module docstring), so it must not write anything itself.
Plan = Callable[[pygit2.Commit], Change | None]


class WriteTransaction:
    """The write path of one memory root (see the module docstring)."""

    def __init__(self, store: GitStore, lock: WriteLock, config: LocalConfig) -> None:
        self.store = store
        self.lock = lock
        self.config = config
        self._stat_refreshed = False
        self._folder_checked = False
        #: The hand edits the last `begin` held back (see `memrepo.folder.hand_edits`).
        self.held: tuple[HeldEdit, ...] = ()

    def run(self, plan: Plan) -> str | None:
        """Steps 1-5 under the lock; the new commit's id, None when `plan` made none.
        Hand edits held back are reported once (`hand_edits.report_held`)."""
        with self.lock:
            for attempt in range(1, ATTEMPTS + 1):
                try:
                    parent = self.begin()
                    change = plan(parent)
                    commit = None if change is None else self.commit(change, parent)
                    self.report_held()
                    return commit
                except WorktreeChanged:
                    self.store.rescan()  # what it met, no scan had seen: look at all
                    if attempt == ATTEMPTS:
                        raise
                    time.sleep(_PAUSE * 2 ** min(attempt, 6))
        raise AssertionError("unreachable")  # pragma: no cover

    def current(self) -> pygit2.Commit:
        """Step 1 and the HEAD check: the branch tip, people's edits not committed.
        Caller holds the lock."""
        self.store.recover()
        return self.store.require_writable()

    def begin(self, *, strict: bool = False) -> pygit2.Commit:
        """Steps 1-2: the commit the next change is built on. Caller holds the lock.

        A hand edit memrepo must not commit (`memrepo.folder.hand_edits`) stays in the
        working tree and blocks only a change to its own file (`commit`); `strict`
        refuses it outright instead, for a pass over the whole folder (a dream)."""
        parent = self.current()
        pending = self.store.pending_edits()
        self.held = pending.held
        if strict and pending.held:
            raise pending.held[0].error()
        scanned = self.store.last_full_scan_seconds
        if scanned is not None:
            self._refresh_stale_stat(scanned)
        if not pending.committable:
            return parent
        return self._commit_edits(parent, pending)

    def report_held(self, *, refused: HeldEdit | None = None) -> None:
        """Say once each held-back hand edit the last `begin` met (`refused`: the one a
        write was just refused over, which its error reports)."""
        said = (refused,) if refused is not None else ()
        report_held(self.store.state_dir, self.held, said=said)

    def _refresh_stale_stat(self, scanned: float) -> None:
        """After a byte copy every scan re-hashes every file: write git's stat cache back
        once (`memrepo.folder.statcache`); the lock is held, so no memrepo write races."""
        if self._stat_refreshed:
            return
        moved = not self._folder_checked and folder_moved(self.store.state_dir, self.store.root)
        self._folder_checked = True  # a folder is copied between processes, not under one
        if moved or is_stale_scan(scanned, len(self.store.repo.index)):
            self._stat_refreshed = True
            refresh_stat_cache(self.store.root)

    def commit(self, change: Change, parent: pygit2.Commit) -> str:
        """Steps 4-5 for `change` on `parent`. Caller holds the lock."""
        for held in self.held:
            if held.path in change.files:
                self.report_held(refused=held)
                raise held.error()
        check_files(self.store, change.files, parent)
        store = self.store
        if not bulkwrite.is_bulk(change.files):
            prepared = store.prepare_small(
                change.files, change.message, parent, author=change.author
            )
            return store.publish(prepared)
        objects = NewObjects(store.repo)
        prepared = store.prepare_commit(
            objects, change.files, change.message, parent, author=change.author
        )
        objects.save()
        return store.publish(prepared)

    def publish(self, prepared: PreparedCommit, *, screen: bool = True) -> str:
        """Step 5 for a commit whose objects exist already (a dream's, prepared with its
        review commit in one pack; a fetched or merged one from sync), after step 4.
        `screen=False` skips the content check for bytes memrepo did not make (another
        machine's files), never the path check. Caller holds the lock."""
        parent = self.store.repo[prepared.parent_id]
        assert isinstance(parent, pygit2.Commit)
        check_files(self.store, prepared.changes, parent if screen else None)
        return self.store.publish(prepared)

    def _commit_edits(self, parent: pygit2.Commit, pending: PendingEdits) -> pygit2.Commit:
        """The person's edits as their own commit, of the bytes on disk as they are."""
        changes = person_edits(self.store, self.config, pending, strict=False)
        if not changes:
            return parent
        names = sorted(changes)
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        message = build_message(
            summarize("Record edits made outside memrepo", shown),
            origin="edit",
            by="user",
            body="\n".join(f"- {name}" for name in names),
        )
        user = user_identity(self.store.repo) or self.store.identity
        prepared = self.store.prepare_small(changes, message, parent, author=user)
        self.store.publish(prepared, write_worktree=False)
        head = self.store.main_commit()
        assert head is not None
        return head


def person_edits(
    store: GitStore, config: LocalConfig, pending: PendingEdits, *, strict: bool = True
) -> dict[str, bytes | None]:
    """Step 2's files: what the commit of a person's uncommitted edits holds (None: a
    deleted file). Refused whole when auto-commit is off or a file is still being saved.
    A held-back edit (`hand_edits`) is left out, or with `strict` refused (a dream, and
    its dry run, which predicts that commit with this too). The bytes committed are the
    bytes screened: each file is read once, here, and screened again if it changed."""
    if strict and pending.held:
        raise pending.held[0].error()
    paths = pending.committable
    if not paths:
        return {}
    if not config.auto_commit_user_edits:
        raise DirtyWorktree(pending.paths)
    changes: dict[str, bytes | None] = {}
    head = store.main_commit()
    for path in paths:
        if path in pending.deleted:
            changes[path] = None
            continue
        if atomic.being_written(f"{os.fspath(store.root)}/{path}"):
            raise WorktreeChanged(path, busy=True)  # half a save is not their edit
        data = store.read_worktree(path)
        if data is None:
            continue
        before = store.read(path, head) if head is not None else None
        held = store.hand_edits.check(path, data, before)
        if held is not None:
            if strict:
                raise held.error()
            continue  # saved again since the status: the next write reports it
        changes[path] = data
    for path in changes:
        check_path(path, store.root)
    return changes


def check_files(
    store: GitStore, files: Mapping[str, bytes | None], before: pygit2.Commit | None
) -> None:
    """Step 4: every path is one a write may name; with `before` (the commit the change
    is built on), no markdown file becomes binary to git (see `check_text`)."""
    for path, data in files.items():
        check_path(path, store.root)
        if before is not None and data is not None and path.endswith(".md"):
            check_text(path, data, lambda: store.read(path, before))  # noqa: B023


def check_text(path: str, data: bytes, before: Callable[[], bytes | None]) -> None:
    """A markdown file memrepo writes stays text to git: it never gains a NUL byte (one
    NUL and git shows no diff and runs no merge driver) and never stops being UTF-8.
    What a person's own edit already put there is theirs (lint reports it): only the
    version before is compared, and only when the new bytes look wrong at all."""
    nul = b"\x00" in data
    utf8 = is_utf8(data)
    if not nul and utf8:
        return
    old = before()
    if nul and data.count(b"\x00") > (old or b"").count(b"\x00"):
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise InvalidArgument(
            f"{path}:{line}: the new content holds a NUL byte, which makes git treat the "
            "file as binary; nothing was written"
        )
    if not utf8 and (old is None or is_utf8(old)):
        raise InvalidArgument(f"{path}: the new content is not valid UTF-8; nothing was written")
