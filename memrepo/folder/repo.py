"""The memory folder: the only writer of the memory repo's tree, commits and main.

Every write runs under the write lock and follows the same steps: finish a crashed write,
check HEAD is on main, commit any edits a person left uncommitted (their own commit, so
it stays separately undoable), then make exactly one commit for the change.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pygit2

from memrepo.clock import Clock, Identity, SystemClock
from memrepo.config import LocalConfig, load_config
from memrepo.errors import (
    DirtyWorktree,
    EntryNotFound,
    FormatError,
    NotAMemoryRepo,
    RepoStateError,
    SecretInEdit,
)
from memrepo.folder import reinforcements
from memrepo.folder.gitstore import MAIN, GitStore, PendingEdits
from memrepo.folder.lock import WriteLock
from memrepo.folder.messages import build_message, commit_info, summarize
from memrepo.folder.paths import link_target
from memrepo.folder.trees import changed_paths
from memrepo.folder.undo import default_target, first_parent_history, plan_undo
from memrepo.formats import (
    Document,
    Entry,
    format_entry,
    normalize_text,
    parse,
    serialize,
)
from memrepo.formats import entry_id as entry_id_of
from memrepo.hygiene import find_secrets
from memrepo.models import (
    CommitInfo,
    EntryView,
    ForgetResult,
    UndoResult,
    WorktreeStatus,
    WriteResult,
)
from memrepo.models.folder import WhyReport

STATE_DIR = "memrepo"
ENTRY_POINT = "MEMORY.md"
INITIAL_MEMORY = b"# Memory\n\n## Index\n"
SWARM_PREFIX = "swarms/"


@dataclass(frozen=True, slots=True)
class EntryWrite:
    """A screened entry on its way into one file (metadata already decided)."""

    path: str
    text: str
    metadata: Mapping[str, str]
    by: str
    origin: str
    task: str | None = None
    title: str | None = None
    redacted: tuple[str, ...] = ()
    truncated: bool = False


def parse_ref(ref: str) -> tuple[str, str]:
    """`folder:<path>#<id>` -> (path, id)."""
    body = ref.removeprefix("folder:")
    path, sep, entry_id = body.rpartition("#")
    if not sep or not path or not entry_id:
        raise EntryNotFound(ref, "not an entry ref; expected folder:<path>#<id>")
    return path, entry_id


def make_ref(path: str, entry_id: str) -> str:
    return f"folder:{path}#{entry_id}"


class MemoryFolder:
    """One memory root: its git repository, local state dir and write lock."""

    def __init__(
        self,
        repo: pygit2.Repository,
        *,
        identity: Identity | None = None,
        clock: Clock | None = None,
        config: LocalConfig | None = None,
    ) -> None:
        self.repo = repo
        self.root = Path(repo.workdir).resolve()
        self.state_dir = Path(repo.path) / STATE_DIR
        self.config = config if config is not None else load_config(self.state_dir)
        self.clock: Clock = clock or SystemClock()
        # Machine writes are committed as memrepo; people's edits keep their git identity.
        self.identity = identity or Identity()
        self.store = GitStore(repo, self.state_dir, self.identity, self.clock)
        self.lock = WriteLock(self.state_dir, self.config.lock_timeout_seconds)

    # --- opening ---------------------------------------------------------------------

    @classmethod
    def init(
        cls,
        path: Path,
        *,
        identity: Identity | None = None,
        clock: Clock | None = None,
        config: LocalConfig | None = None,
    ) -> MemoryFolder:
        """Create (or adopt) a git repo at `path` with MEMORY.md on main."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        git_dir = path / ".git"
        if git_dir.exists():
            repo = pygit2.Repository(str(path))
        else:
            repo = pygit2.init_repository(str(path), initial_head="main")
        folder = cls(repo, identity=identity, clock=clock, config=config)
        with folder.lock:
            folder.store.recover()
            head = folder.store.main_commit()
            if head is not None and folder.store.read(ENTRY_POINT, head) is not None:
                return folder
            if head is None and list(repo.branches.local):
                raise RepoStateError(f"{path}: {folder.store.head_problem()}")
            if repo.head_is_unborn and folder._head_branch() != MAIN:
                repo.set_head(MAIN)
            parent = folder.store.require_writable() if head is not None else None
            message = build_message("Create the memory repo", origin="init", by="user")
            folder._commit({ENTRY_POINT: INITIAL_MEMORY}, message, parent)
        return folder

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        identity: Identity | None = None,
        clock: Clock | None = None,
        config: LocalConfig | None = None,
    ) -> MemoryFolder:
        """Open an existing memory root; says clearly when `path` is not one."""
        path = Path(path)
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
        folder = cls(repo, identity=identity, clock=clock, config=config)
        if folder.store.main_commit() is None and not list(repo.branches.local):
            raise NotAMemoryRepo(str(path), "the repository has no commits")
        if folder.store._journal_path.exists():
            with folder.lock:
                folder.store.recover()
        return folder

    def _head_branch(self) -> str:
        head = self.repo.references.get("HEAD")
        return str(head.target) if head is not None else ""

    # --- writing ---------------------------------------------------------------------

    def _begin_write(self) -> pygit2.Commit:
        """Recover, check HEAD, and commit pending user edits; returns the parent."""
        self.store.recover()
        parent = self.store.require_writable()
        pending = self.store.pending_edits()
        if pending.paths:
            if not self.config.auto_commit_user_edits:
                raise DirtyWorktree(pending.paths)
            parent = self._commit_user_edits(parent, pending)
        return parent

    def _commit(
        self,
        changes: Mapping[str, bytes | None],
        message: str,
        parent: pygit2.Commit | None,
        author: Identity | None = None,
    ) -> str:
        if parent is None:
            return self._commit_root(changes, message)
        return self.store.commit_files(changes, message, parent, author=author)

    def _commit_root(self, changes: Mapping[str, bytes | None], message: str) -> str:
        """The first commit of an empty repo (main does not exist yet)."""
        builder = self.repo.TreeBuilder()
        for path, data in changes.items():
            assert data is not None and "/" not in path
            builder.insert(path, self.repo.create_blob(data), pygit2.enums.FileMode.BLOB)
        when = self.clock.now()
        sig = pygit2.Signature(self.identity.name, self.identity.email, int(when.timestamp()))
        commit_id = self.repo.create_commit(MAIN, sig, sig, message, builder.write(), [])
        for path, data in changes.items():
            (self.root / path).write_bytes(data or b"")
        index = self.repo.index
        index.read(False)
        for path in changes:
            index.add(path)
        index.write()
        return str(commit_id)

    def _commit_user_edits(self, parent: pygit2.Commit, pending: PendingEdits) -> pygit2.Commit:
        changes: dict[str, bytes | None] = {}
        for path in (*pending.modified, *pending.added):
            data = self.store.read_worktree(path)
            if data is None:
                continue
            _refuse_secrets(path, data)
            changes[path] = data
        for path in pending.deleted:
            changes[path] = None
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
        user = _user_identity(self.repo) or self.identity
        self._commit(changes, message, parent, author=user)
        head = self.store.main_commit()
        assert head is not None
        return head

    def write_entry(self, write: EntryWrite) -> WriteResult:
        """Steps 3-6 of the write pipeline for one screened entry."""
        with self.lock:
            parent = self._begin_write()
            existing = self.store.read(write.path, parent)
            doc = _parse_or_new(existing, write)
            norm = normalize_text(write.text)
            for entry in doc.entries:
                if normalize_text(entry.text) == norm:
                    ref = make_ref(write.path, entry.id)
                    reinforcements.record(self.state_dir, ref, write.by, write.task)
                    return self._result("reinforced", write, entry.id, None)
            line = format_entry(write.text, write.metadata)
            subject = write.metadata.get("subject")
            holder = _subject_holder(doc, subject)
            if holder is not None:
                if _entry_by(holder) == "user" and write.by != "user":
                    return WriteResult(
                        status="skipped",
                        reason="outranked",
                        ref=make_ref(write.path, holder.id),
                        path=write.path,
                    )
                doc.replace_line(holder.line_no, line)
                action = "superseded"
            else:
                doc.add_entry(line)
                action = "inserted"
            changes: dict[str, bytes | None] = {write.path: serialize(doc)}
            if existing is None:
                self._link_from_index(changes, write.path, parent)
            verb = "Update" if action == "superseded" else "Remember"
            message = build_message(
                summarize(verb, write.text), origin=write.origin, by=write.by, task=write.task
            )
            commit = self._commit(changes, message, parent)
            entry_id = entry_id_of(write.text, write.metadata)
            return self._result(action, write, entry_id, commit)

    def _result(
        self, action: str, write: EntryWrite, entry_id: str, commit: str | None
    ) -> WriteResult:
        return WriteResult(
            status="written",
            action=action,  # type: ignore[arg-type]
            ref=make_ref(write.path, entry_id),
            path=write.path,
            commit=commit,
            redacted=write.redacted,
            truncated=write.truncated,
        )

    def _link_from_index(
        self, changes: dict[str, bytes | None], path: str, parent: pygit2.Commit
    ) -> None:
        """Link a new file from MEMORY.md's Index (never a swarm file, never itself)."""
        if path == ENTRY_POINT or path.startswith(SWARM_PREFIX):
            return
        data = changes.get(ENTRY_POINT) or self.store.read(ENTRY_POINT, parent)
        index_doc = parse(data if data is not None else INITIAL_MEMORY, ENTRY_POINT)
        target = link_target(path)
        if any(link.target == target for link in index_doc.index_links):
            return
        index_doc.add_index_link(target)
        changes[ENTRY_POINT] = serialize(index_doc)

    def forget(self, ref: str, *, by: str = "user", task: str | None = None) -> ForgetResult:
        """Remove one entry in one commit."""
        path, entry_id = parse_ref(ref)
        with self.lock:
            parent = self._begin_write()
            data = self.store.read(path, parent)
            if data is None:
                raise EntryNotFound(ref, f"{path} is not in the memory repo")
            doc = parse(data, path)
            entry = next((e for e in doc.entries if e.id == entry_id), None)
            if entry is None:
                raise EntryNotFound(ref, f"no entry {entry_id!r} in {path}")
            doc.remove_line(entry.line_no)
            message = build_message(
                summarize("Forget", entry.text), origin="forget", by=by, task=task
            )
            commit = self._commit({path: serialize(doc)}, message, parent)
            return ForgetResult(ref=ref, path=path, text=entry.text, commit=commit)

    def remove_file(self, path: str, *, by: str, reason: str) -> str | None:
        """Remove a file and its Index link in one commit; None when it is not there."""
        with self.lock:
            parent = self._begin_write()
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
            return self._commit(changes, message, parent)

    def undo(self, commit: str | None = None, *, by: str = "user") -> UndoResult:
        """Reverse one commit (default: the newest memrepo commit not yet undone)."""
        with self.lock:
            head = self._begin_write()
            target = self._resolve_commit(commit) if commit else default_target(self.repo, head)
            plan = plan_undo(self.repo, target, head)
            summary = target.message.split("\n", 1)[0]
            message = build_message(
                summarize("Undo", summary), origin="undo", by=by, undoes=str(target.id)
            )
            new = self._commit(plan.changes, message, head)
            return UndoResult(
                undone=str(target.id),
                commit=new,
                paths=tuple(sorted(plan.changes)),
                entries_removed=plan.entries_removed,
                entries_restored=plan.entries_restored,
            )

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
        for file_path, data in self.store.iter_files():
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
        """Every entry of the folder (or of one file) at HEAD, swarm folders excluded."""
        views: list[EntryView] = []
        for file_path, doc in self.documents(path):
            views.extend(
                EntryView(
                    ref=make_ref(file_path, e.id),
                    id=e.id,
                    path=file_path,
                    line=e.line_no + 1,
                    text=e.text,
                    metadata=dict(e.metadata),
                    links=e.links,
                )
                for e in doc.entries
            )
        return views

    def why(self, ref: str) -> WhyReport:
        """The commits that added, changed and moved one entry (see folder/history.py)."""
        from memrepo.folder.history import entry_history, explain

        path, entry_id = parse_ref(ref)
        head = self.store.main_commit()
        events = entry_history(self.repo, head, entry_id) if head is not None else []
        if events and events[-1].action != "removed":
            path = events[-1].path  # it moved: the ref may name where it used to be
        current = next((e for e in self.entries(path) if e.id == entry_id), None)
        if current is None and not events:
            raise EntryNotFound(ref, f"no entry {entry_id!r} in {path}, now or in history")
        text = current.text if current is not None else events[-1].text
        return WhyReport(
            ref=ref,
            store="folder",
            present=current is not None,
            text=text,
            explanation=explain(events),
            events=tuple(events),
        )

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
        )


def _parse_or_new(existing: bytes | None, write: EntryWrite) -> Document:
    if existing is not None:
        return parse(existing, write.path)
    title = write.title or Path(write.path).stem.replace("-", " ").replace("_", " ").title()
    return parse(f"# {title}\n\n".encode(), write.path)


def _subject_holder(doc: Document, subject: str | None) -> Entry | None:
    if not subject:
        return None
    return next((e for e in doc.entries if e.metadata.get("subject") == subject), None)


def _entry_by(entry: Entry) -> str:
    """Who stated an entry: a bullet without `by` was written by a person."""
    return entry.metadata.get("by", "user") if entry.metadata else "user"


def _refuse_secrets(path: str, data: bytes) -> None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    found = find_secrets(text)
    if found:
        line = text.count("\n", 0, found[0].start) + 1
        raise SecretInEdit(path, line, found[0].kind)


def _user_identity(repo: pygit2.Repository) -> Identity | None:
    """The person's git identity, as `git commit` would pick it (environment, then config)."""
    name, email = os.environ.get("GIT_AUTHOR_NAME"), os.environ.get("GIT_AUTHOR_EMAIL")
    if name and email:
        return Identity(name, email)
    try:
        sig = repo.default_signature
    except (KeyError, pygit2.GitError):
        return None
    return Identity(sig.name, sig.email)
