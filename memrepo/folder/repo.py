"""The memory folder: the only writer of the memory repo's tree, commits and branch.

Every write goes through the one write transaction (`transaction.py`): under the write
lock, finish a crashed write, check HEAD, commit any edits a person left uncommitted
(their own commit, so it stays separately undoable), validate, then make exactly one
commit for the change, replacing only files that still hold what the change was built on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pygit2

from memrepo.clock import Clock, Identity, SystemClock
from memrepo.config import LocalConfig, load_config
from memrepo.errors import EntryNotFound, FormatError, NotAMemoryRepo, RepoStateError
from memrepo.folder import reinforcements
from memrepo.folder.adoption import record_adoption, refuse_foreign_files
from memrepo.folder.entries import (
    ENTRY_POINT,
    INITIAL_MEMORY,
    SWARM_PREFIX,
    EntryWrite,
    link_from_index,
    outranked,
    parse_or_new,
    subject_holder,
)
from memrepo.folder.gitstore import MAIN, GitStore, WriteHooks, user_identity
from memrepo.folder.lock import SETTLE_LOCK_NAME, WriteLock, cancelled_by
from memrepo.folder.messages import build_message, commit_info, summarize
from memrepo.folder.paths import check_path, link_target
from memrepo.folder.transaction import Change, WriteTransaction
from memrepo.folder.trees import changed_paths
from memrepo.folder.undo import UndoPlan, default_target, first_parent_history, plan_undo
from memrepo.formats import Document, Entry, format_entry, normalize_text, parse, serialize
from memrepo.formats import entry_id as entry_id_of
from memrepo.models import (
    CommitInfo,
    EntryView,
    ForgetResult,
    UndoResult,
    WorktreeStatus,
    WriteResult,
)
from memrepo.models.folder import HeldEditView, WhyReport

__all__ = [
    "ENTRY_POINT",
    "INITIAL_MEMORY",
    "STATE_DIR",
    "SWARM_PREFIX",
    "EntryWrite",
    "MemoryFolder",
    "make_ref",
    "parse_ref",
]

_log = logging.getLogger(__name__)

STATE_DIR = "memrepo"


def parse_ref(ref: str) -> tuple[str, str]:
    """`folder:<path>#<id>` -> (path, id)."""
    body = ref.removeprefix("folder:")
    path, sep, entry_id = body.rpartition("#")
    if not sep or not path or not entry_id:
        raise EntryNotFound(ref, "not an entry ref; expected folder:<path>#<id>")
    return path, entry_id


def make_ref(path: str, entry_id: str) -> str:
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


class MemoryFolder:
    """One memory root: its git repository, local state dir, write lock and the one
    write transaction every change goes through (`transaction`)."""

    def __init__(
        self,
        repo: pygit2.Repository,
        *,
        identity: Identity | None = None,
        clock: Clock | None = None,
        config: LocalConfig | None = None,
        hooks: WriteHooks | None = None,
    ) -> None:
        self.repo = repo
        self.root = Path(repo.workdir).resolve()
        self.state_dir = Path(repo.path) / STATE_DIR
        self.config = config if config is not None else load_config(self.state_dir)
        self.clock: Clock = clock or SystemClock()
        # Machine writes are committed as memrepo; people's edits keep their git identity.
        self.identity = identity or Identity()
        # A host or test that names an identity writes as it; otherwise machine writes
        # are authored by the owner's git identity (memrepo is the committer).
        author = identity or user_identity(repo) or self.identity
        self.store = GitStore(repo, self.state_dir, self.identity, self.clock, hooks, author)
        self.lock = WriteLock(self.state_dir, self.config.lock_timeout_seconds)
        self.transaction = WriteTransaction(self.store, self.lock, self.config)
        #: Called right behind every write that moved main (see `after_write`), and
        #: with where main was and is (`on_main_moved`).
        self._written: list[Callable[[], None]] = []
        self._moves: list[Callable[[str | None, str], None]] = []
        self._main_when_taken: str | None = None
        self._moved_from: str | None = None
        #: Held by a writer from just before it gives the write lock back until the
        #: index has followed its write: readers meanwhile read the index's last state
        #: instead of doing the same catch-up beside it (`writes_settling`).
        self.settling = WriteLock(self.state_dir, 0.0, SETTLE_LOCK_NAME)
        self._moved = self._settled_by_us = False
        self.lock.on_taken = self._note_main
        self.lock.on_releasing = self._announce_catch_up
        self.lock.on_released = self._tell_written

    # --- following writes ------------------------------------------------------------

    def after_write(self, listener: Callable[[], None]) -> None:
        """Call `listener` after each write of this process that moved main (after the
        outermost write of a held group), once the write lock is given back: the search
        index follows the write in the writer's time, never in the next reader's (issue
        #28), and other writers never wait for it. Readers see `writes_settling` until
        the listeners are done, so they never do the same work beside it. A listener's
        failure never fails the write, which has landed."""
        self._written.append(listener)

    def on_main_moved(self, listener: Callable[[str | None, str], None]) -> Callable[[], None]:
        """Call `listener(before, after)` with main's old and new commit after each write
        of this process that moved it (once the write lock is given back, as
        `after_write`); returns the function that stops it. A listener's failure never
        fails the write."""
        self._moves.append(listener)

        def stop() -> None:
            if listener in self._moves:
                self._moves.remove(listener)

        return stop

    def writes_settling(self) -> bool:
        """Whether another handle or process is writing, or following its write with a
        catch-up: a reader then reads the index's last state (issue #28)."""
        return self.lock.held_elsewhere() or self.settling.held_elsewhere()

    def _note_main(self) -> None:
        watched = self._written or self._moves
        self._main_when_taken = self.store.main_id() if watched else None

    def _announce_catch_up(self) -> None:
        before, self._main_when_taken = self._main_when_taken, None
        watched = bool(self._written or self._moves)
        self._moved = watched and before != self.store.main_id()
        self._moved_from = before
        # Not waited for: another writer's catch-up holding it covers the readers too.
        # Nor cancelled: the write has landed, and its catch-up follows it whole.
        with cancelled_by(threading.Event()):
            self._settled_by_us = self._moved and self.settling.try_acquire()

    def _tell_written(self) -> None:
        if not self._moved:
            return
        self._moved = False
        try:
            for listener in list(self._written):
                try:
                    listener()
                except Exception:  # the write landed; the next read catches the index up
                    _log.exception("after-write listener %r failed", listener)
            after = self.store.main_id()
            for moved in list(self._moves):
                try:
                    moved(self._moved_from or None, after)
                except Exception:  # the write landed; a listener's failure is its own
                    _log.exception("main-moved listener %r failed", moved)
        finally:
            if self._settled_by_us:
                self._settled_by_us = False
                self.settling.release()

    # --- opening ---------------------------------------------------------------------

    @classmethod
    def init(
        cls,
        path: Path,
        *,
        identity: Identity | None = None,
        clock: Clock | None = None,
        config: LocalConfig | None = None,
        adopt: bool = False,
    ) -> MemoryFolder:
        """Create a git repo at `path` with MEMORY.md on its branch, or make one of an
        existing git repo. A folder holding files other than memory markdown is refused
        unless `adopt`: then its own files stay the person's (`folder.adoption`)."""
        path = Path(path).expanduser()
        path.mkdir(parents=True, exist_ok=True)
        git_dir = path / ".git"
        if git_dir.exists():
            repo = pygit2.Repository(str(path))
        else:
            if not adopt:
                refuse_foreign_files(path, None)  # before .git exists: nothing changed
            repo = pygit2.init_repository(str(path), initial_head="main")
        folder = cls(repo, identity=identity, clock=clock, config=config)
        with folder.lock:
            folder.store.recover()
            head = folder.store.main_commit()
            if head is not None and folder.store.read(ENTRY_POINT, head) is not None:
                return folder
            if head is None and list(repo.branches.local):
                raise RepoStateError(f"{path}: {folder.store.head_problem()}")
            if not adopt:
                refuse_foreign_files(path, repo)
            else:
                record_adoption(folder.state_dir, str(head.id) if head is not None else "")
            if repo.head_is_unborn and folder._head_branch() != MAIN:
                repo.set_head(MAIN)
            message = build_message("Create the memory repo", origin="init", by="user")
            if head is None:
                folder._commit_root({ENTRY_POINT: INITIAL_MEMORY}, message)
            else:
                folder.transaction.run(
                    lambda parent: Change({ENTRY_POINT: INITIAL_MEMORY}, message)
                )
        return folder

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        identity: Identity | None = None,
        clock: Clock | None = None,
        config: LocalConfig | None = None,
        hooks: WriteHooks | None = None,
    ) -> MemoryFolder:
        """Open an existing memory root; says clearly when `path` is not one. A write a
        crashed process left half-done is finished (or set aside) here."""
        path = Path(path).expanduser()
        if not path.is_dir():
            raise NotAMemoryRepo(str(path), "no such directory")
        if not (path / ".git").exists():
            raise NotAMemoryRepo(str(path), "not the top of a git repository")
        try:
            repo = pygit2.Repository(str(path))
        except pygit2.GitError as exc:
            raise NotAMemoryRepo(str(path), f"git cannot open it: {exc}") from exc
        if repo.is_bare:
            raise NotAMemoryRepo(str(path), "a bare repository has no files to edit")
        folder = cls(repo, identity=identity, clock=clock, config=config, hooks=hooks)
        if folder.store.main_commit() is None and not list(repo.branches.local):
            raise NotAMemoryRepo(str(path), "the repository has no commits")
        # A write another process is making right now has a journal too: its holder
        # finishes it, so opening (a reader's first step) never waits for the lock; a
        # crashed write's journal, with the lock free, is finished here, and otherwise
        # by the next writer (`transaction.begin` recovers first).
        if folder.store.journal.exists() and folder.lock.try_acquire():
            try:
                folder.store.recover()
            finally:
                folder.lock.release()
        return folder

    def _head_branch(self) -> str:
        head = self.repo.references.get("HEAD")
        return str(head.target) if head is not None else ""

    def _commit_root(self, changes: Mapping[str, bytes], message: str) -> str:
        """The first commit of an empty repo (no branch to compare-and-swap yet)."""
        builder = self.repo.TreeBuilder()
        for path, data in changes.items():
            assert "/" not in path
            builder.insert(path, self.repo.create_blob(data), pygit2.enums.FileMode.BLOB)
        when = self.clock.now()
        sig = pygit2.Signature(self.identity.name, self.identity.email, int(when.timestamp()))
        branch = self.store.branch_ref
        commit_id = self.repo.create_commit(branch, sig, sig, message, builder.write(), [])
        index = self.repo.index
        index.read(False)
        for path, data in changes.items():
            (self.root / path).write_bytes(data)
            index.add(path)
        index.write()
        return str(commit_id)

    # --- writing ---------------------------------------------------------------------

    def write_entry(self, write: EntryWrite) -> WriteResult:
        """Steps 3-6 of the write pipeline for one screened entry."""
        check_path(write.path, self.root)  # before anything, even a reinforcement
        outcome: list[WriteResult] = []

        def plan(parent: pygit2.Commit) -> Change | None:
            outcome.clear()
            existing = self.store.read(write.path, parent)
            doc = parse_or_new(existing, write)
            norm = normalize_text(write.text)
            for entry in doc.entries:
                if normalize_text(entry.text) == norm:
                    outcome.append(_result("reinforced", write, entry.id, None))
                    return None
            line = format_entry(write.text, write.metadata)
            holder = subject_holder(doc, write.metadata.get("subject"))
            if holder is not None and outranked(holder, write.by):
                ref = make_ref(write.path, holder.id)
                outcome.append(
                    WriteResult(status="skipped", reason="outranked", ref=ref, path=write.path)
                )
                return None
            if holder is not None:
                doc.replace_line(holder.line_no, line)
            else:
                doc.add_entry(line)
            action = "superseded" if holder is not None else "inserted"
            changes: dict[str, bytes | None] = {write.path: serialize(doc)}
            if existing is None:
                link_from_index(changes, write.path, self.store.read(ENTRY_POINT, parent))
            verb = "Update" if holder is not None else "Remember"
            message = build_message(
                summarize(verb, write.text), origin=write.origin, by=write.by, task=write.task
            )
            outcome.append(_result(action, write, entry_id_of(write.text, write.metadata), None))
            return Change(changes, message)

        with self.lock:
            commit = self.transaction.run(plan)
            result = outcome[0]
            if result.action == "reinforced" and result.ref is not None:
                reinforcements.record(self.state_dir, result.ref, write.by, write.task)
        return result if commit is None else result.model_copy(update={"commit": commit})

    def forget(self, ref: str, *, by: str = "user", task: str | None = None) -> ForgetResult:
        """Remove one entry in one commit."""
        path, _ = parse_ref(ref)
        found: list[str] = []

        def plan(parent: pygit2.Commit) -> Change:
            doc, entry = entry_at(self.store, parent, ref)
            doc.remove_line(entry.line_no)
            found[:] = [entry.text]
            message = build_message(
                summarize("Forget", entry.text), origin="forget", by=by, task=task
            )
            return Change({path: serialize(doc)}, message)

        commit = self.transaction.run(plan)
        assert commit is not None
        return ForgetResult(ref=ref, path=path, text=found[0], commit=commit)

    def remove_file(self, path: str, *, by: str, reason: str) -> str | None:
        """Remove a file and its Index link in one commit; None when it is not there."""

        def plan(parent: pygit2.Commit) -> Change | None:
            if self.store.read(path, parent) is None:
                return None
            changes: dict[str, bytes | None] = {path: None}
            memory = self.store.read(ENTRY_POINT, parent)
            if memory is not None and path != ENTRY_POINT:
                doc = parse(memory, ENTRY_POINT)
                target = link_target(path)
                for link in reversed(doc.index_links):
                    if link.target == target:
                        doc.remove_line(link.line_no)
                changes[ENTRY_POINT] = serialize(doc)
            message = build_message(summarize("Remove", f"{path} ({reason})"), origin="edit", by=by)
            return Change(changes, message)

        return self.transaction.run(plan)

    def undo(self, commit: str | None = None, *, by: str = "user") -> UndoResult:
        """Reverse one commit (default: the newest memrepo commit not yet undone).

        The target is chosen before a person's pending edits are committed, so a bare
        `undo` reverses the last memrepo write, never the edit commit it makes itself.
        """
        with self.lock:
            head = self.transaction.current()
            target = self._resolve_commit(commit) if commit else default_target(self.repo, head)
            summary = target.message.split("\n", 1)[0]
            message = build_message(
                summarize("Undo", summary), origin="undo", by=by, undoes=str(target.id)
            )
            plans: list[UndoPlan] = []

            def plan(parent: pygit2.Commit) -> Change:
                plans[:] = [plan_undo(self.repo, target, parent)]
                return Change(plans[0].changes, message)

            new = self.transaction.run(plan)
            assert new is not None
            return UndoResult(
                undone=str(target.id),
                commit=new,
                paths=tuple(sorted(plans[0].changes)),
                entries_removed=plans[0].entries_removed,
                entries_restored=plans[0].entries_restored,
            )

    def undo_target(self, commit: str | None = None) -> CommitInfo:
        """The commit `undo(commit)` would reverse, with the paths it changed, without
        reversing it: what a host shows before it asks its user."""
        head = self.store.main_commit()
        if commit:
            target = self._resolve_commit(commit)
        elif head is not None:
            target = default_target(self.repo, head)
        else:
            raise EntryNotFound("HEAD", "nothing to undo")
        parent_tree = target.parents[0].tree if target.parents else None
        return commit_info(target, tuple(changed_paths(self.repo, parent_tree, target.tree)))

    def _resolve_commit(self, spec: str) -> pygit2.Commit:
        try:
            obj = self.repo.revparse_single(spec)
            commit = obj.peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError) as exc:
            raise EntryNotFound(spec, "no such commit") from exc
        assert isinstance(commit, pygit2.Commit)
        return commit

    # --- reading ---------------------------------------------------------------------

    def log(self, limit: int | None = None, path: str | None = None) -> list[CommitInfo]:
        """main's history, newest first, optionally only commits touching `path`."""
        head = self.store.main_commit()
        if head is None:
            return []
        out: list[CommitInfo] = []
        for commit in first_parent_history(self.repo, head):
            parent_tree = commit.parents[0].tree if commit.parents else None
            paths = tuple(changed_paths(self.repo, parent_tree, commit.tree))
            if path is not None and not any(p == path or p.startswith(path + "/") for p in paths):
                continue
            out.append(commit_info(commit, paths))
            if limit is not None and len(out) >= limit:
                break
        return out

    def documents(self, path: str | None = None) -> Iterator[tuple[str, Document]]:
        """Parsed markdown files at HEAD; unreadable ones are skipped (lint reports them)."""
        one = self.store.read(path) if path is not None else None  # one file: not the tree
        files = [(path, one)] if path is not None and one is not None else []
        for file_path, data in self.store.iter_files() if path is None else files:
            if not file_path.endswith(".md"):
                continue
            if path is None and file_path.startswith(SWARM_PREFIX):
                continue
            if path is not None and file_path != path:
                continue
            try:
                yield file_path, parse(data, file_path)
            except FormatError:
                continue

    def entries(self, path: str | None = None) -> list[EntryView]:
        """Every entry of the folder (or of one file) as it is on disk, swarm folders
        excluded: a file a person edited and did not commit shows its edited version,
        with the entries no commit holds yet marked `uncommitted` (recall and why see
        them the same way)."""
        pending = self.store.pending_edits()
        edited = {*pending.modified, *pending.added}
        views: list[EntryView] = []
        for file_path, doc in self._documents_on_disk(path, edited, set(pending.deleted)):
            committed = (
                {e.id for e in self._head_doc(file_path).entries} if file_path in edited else None
            )
            views.extend(
                EntryView(
                    ref=make_ref(file_path, e.id),
                    id=e.id,
                    path=file_path,
                    line=e.line_no + 1,
                    text=e.text,
                    metadata=dict(e.metadata),
                    links=e.links,
                    uncommitted=committed is not None and e.id not in committed,
                )
                for e in doc.entries
            )
        return views

    def _documents_on_disk(
        self, path: str | None, edited: set[str], deleted: set[str]
    ) -> Iterator[tuple[str, Document]]:
        """HEAD's documents, with the edited files read from disk instead (and new ones
        added, deleted ones left out)."""
        seen: set[str] = set()
        for file_path, doc in self.documents(path):
            seen.add(file_path)
            if file_path in deleted:
                continue
            yield file_path, (self._disk_doc(file_path) or doc) if file_path in edited else doc
        for file_path in sorted(edited - seen):
            if (path is None and file_path.startswith(SWARM_PREFIX)) or (
                path is not None and file_path != path
            ):
                continue
            found = self._disk_doc(file_path)
            if found is not None:
                yield file_path, found

    def _disk_doc(self, path: str) -> Document | None:
        data = self.store.read_worktree(path)
        if data is None or not path.endswith(".md"):
            return None
        try:
            return parse(data, path)
        except FormatError:
            return None

    def _head_doc(self, path: str) -> Document:
        data = self.store.read(path)
        try:
            return parse(data if data is not None else b"", path)
        except FormatError:
            return parse(b"", path)

    def why(self, ref: str) -> WhyReport:
        """The commits that added, changed and moved one entry (see folder/history.py)."""
        from memrepo.folder.history import entry_history, explain

        path, entry_id = parse_ref(ref)
        head = self.store.main_commit()
        events = entry_history(self.repo, head, entry_id, path) if head is not None else []
        if events and events[-1].action != "removed":
            path = events[-1].path  # it moved: the ref may name where it used to be
        current = next((e for e in self.entries(path) if e.id == entry_id), None)
        if current is None and not events:
            raise EntryNotFound(ref, f"no entry {entry_id!r} in {path}, now or in history")
        text = current.text if current is not None else events[-1].text
        explanation = explain(events)
        if current is not None and current.uncommitted:
            typed = (
                f"Typed in {current.path}:{current.line} and not committed yet: the next "
                "write records it as your edit (origin edit, by user)."
            )
            explanation = f"{explanation}\n{typed}" if events else typed
        return WhyReport(
            ref=ref,
            store="folder",
            present=current is not None,
            text=text,
            explanation=explanation,
            events=tuple(events),
        )

    def close(self) -> None:
        """Release what the folder holds open between writes (the working-tree watch);
        it stays usable, and a later write scans in full again."""
        self.store.close()

    def status(self) -> WorktreeStatus:
        """Uncommitted edits a person made (what the next write will commit first)."""
        pending = self.store.pending_edits()
        head = self.store.main_commit()
        return WorktreeStatus(
            root=str(self.root),
            head=str(head.id) if head is not None else None,
            modified=pending.modified,
            added=pending.added,
            deleted=pending.deleted,
            held=tuple(
                HeldEditView(path=h.shown, line=h.line, kind=h.kind, label=h.label, message=str(h))
                for h in pending.held
            ),
        )


def _result(action: str, write: EntryWrite, entry_id: str, commit: str | None) -> WriteResult:
    return WriteResult(
        status="written",
        action=action,  # type: ignore[arg-type]
        ref=make_ref(write.path, entry_id),
        path=write.path,
        commit=commit,
        redacted=write.redacted,
        truncated=write.truncated,
    )
