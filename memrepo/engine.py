"""MemoryRepo: the one object per memory root that every face (CLI, tools, MCP) calls.

It runs the write pipeline of DESIGN §3: screening (hygiene), routing (folder or
memory_items, see `memrepo.routing`), then hands the write to the layer that owns the
store: the folder owns git, `memrepo.items` owns SQLite.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, time
from functools import cached_property
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, TypedDict, Unpack

from memrepo.clock import Clock, Identity
from memrepo.config import LocalConfig, WorkspaceSettings, save_config
from memrepo.errors import EntryNotFound, FeedbackRefused, InvalidArgument, InvalidUtf8
from memrepo.folder.paths import normalize_target, slugify
from memrepo.folder.repo import ENTRY_POINT, EntryWrite, MemoryFolder
from memrepo.formats import normalize_text
from memrepo.hygiene import redact_secrets, screen
from memrepo.items.vocab import EXPLICIT_SOURCES
from memrepo.models import (
    CommitInfo,
    EntryView,
    ForgetResult,
    LintReport,
    UndoResult,
    WorktreeStatus,
    WriteResult,
)
from memrepo.models.folder import WhyReport
from memrepo.models.items import (
    ITEM_REF_PREFIX,
    ItemDetail,
    ItemFilters,
    ItemWriteResult,
    MemoryItem,
    PurgeReport,
    RetentionReport,
    WorkspacePolicy,
    candidate,
)
from memrepo.models.recall import Detail, RecallHit, RecallResult, ReindexReport
from memrepo.routing import SOURCE_TO_BY, Route, choose_route, source_for

if TYPE_CHECKING:
    from memrepo.dreaming.model import DreamModel
    from memrepo.items import ItemWriter
    from memrepo.models.context import ContextBlocks, ContextRequest, MemoryUsed
    from memrepo.models.dream import (
        AcceptResult,
        CurationChange,
        DreamReport,
        DreamStatus,
        RecentNote,
        RejectResult,
        ReviewDetail,
        ReviewSummary,
    )
    from memrepo.models.gitsetup import GitHooksReport
    from memrepo.models.health import HealthReport, SourcesReport
    from memrepo.models.swarm import SwarmNoteResult, SwarmRef, SwarmView, TaskTreeDeleted
    from memrepo.models.sync import (
        ConflictBranch,
        ConflictDetail,
        RemoteInfo,
        SyncReport,
        SyncStatus,
        TeamInfo,
    )
    from memrepo.models.transfer import (
        ExportFormat,
        ExportResult,
        ImportFormat,
        ImportReport,
        RestoreResult,
    )
    from memrepo.recall.context import ContextBuilder
    from memrepo.recall.searcher import Searcher
    from memrepo.swarm.service import Swarms
    from memrepo.transfer.crypto import KdfParams

BY_VALUES = ("user", "agent", "dream", "import")
ITEM_PREFIX = ITEM_REF_PREFIX
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class RepoOptions(TypedDict, total=False):
    """Seams for tests and hosts: who commits, what time it is, local settings."""

    identity: Identity | None
    clock: Clock | None
    config: LocalConfig | None


class ReaderContext(TypedDict, total=False):
    """Who is reading (recall's visibility arguments)."""

    workspace: str | None
    include_private: bool
    contact_ref: str | None
    task_id: str | None
    min_trust: str


class MemoryRepo:
    """A memory root: the folder (git) and its companion store (memory_items).

    The item store, the search index and lint load on first use, so a one-shot command
    pays only for what it runs.
    """

    def __init__(self, folder: MemoryFolder) -> None:
        self.folder = folder
        self._items: ItemWriter | None = None
        self._searcher: Searcher | None = None

    @classmethod
    def init(cls, path: str | Path, **options: Unpack[RepoOptions]) -> MemoryRepo:
        """Create a memory repo at `path` (or adopt an existing git repo without one)."""
        return cls(MemoryFolder.init(Path(path), **options))

    @classmethod
    def open(cls, path: str | Path, **options: Unpack[RepoOptions]) -> MemoryRepo:
        """Open an existing memory repo; NotAMemoryRepo says why when it is not one."""
        return cls(MemoryFolder.open(Path(path), **options))

    @property
    def root(self) -> Path:
        return self.folder.root

    @property
    def config(self) -> LocalConfig:
        return self.folder.config

    @property
    def items(self) -> ItemWriter:
        """The memory_items writer, opened on first use (most folder work never needs it)."""
        if self._items is None:
            from memrepo.items import ItemStore, ItemWriter

            store = ItemStore.open(
                self.folder.state_dir, busy_timeout=self.config.store_busy_timeout_seconds
            )
            self._items = ItemWriter(store, self.folder.clock, self._workspace_policy)
        return self._items

    @property
    def searcher(self) -> Searcher:
        """The index and its lanes, set up on first use."""
        if self._searcher is None:
            from memrepo.recall.searcher import Searcher

            self._searcher = Searcher(self.folder, lambda: self.items)
        return self._searcher

    def close(self) -> None:
        """Finish queued item writes and close the database (the folder needs no closing)."""
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None
        if self._items is not None:
            self._items.close()
            self._items.store.close()
            self._items = None

    def __enter__(self) -> MemoryRepo:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _workspace_policy(self, workspace_id: str | None) -> WorkspacePolicy:
        settings = self.config.workspace(workspace_id)
        return WorkspacePolicy(enabled=settings.enabled, privacy=settings.privacy)

    # --- writes ------------------------------------------------------------------------

    def remember(
        self,
        text: str,
        *,
        file: str | None = None,
        workspace: str | None = None,
        subject: str | None = None,
        source: str | None = None,
        kind: str | None = None,
        by: str = "agent",
        task_id: str | None = None,
        no_memory: bool = False,
        origin_text: str | None = None,
        expires: str | date | None = None,
        tainted: bool = False,
        origin: str = "remember",
        author: str | None = None,
        contact_ref: str | None = None,
        scope: str | None = None,
        private: bool = False,
        source_kind: str | None = None,
        pinned: bool = False,
    ) -> WriteResult:
        """Screen `text`, route it, and store it: a folder entry in one commit, or an item.

        Contact facts (`contact_ref`), task-bound facts (`scope="task"`), private facts,
        facts of a strict-privacy workspace and third-party text (`source_kind=
        "third_party"`) go to memory_items and never into git. `source_kind` is the trust
        of the statement (user_stated ... third_party); without it, `by` implies it.
        """
        if by not in BY_VALUES:
            raise InvalidArgument(f"by={by!r}: must be one of {', '.join(BY_VALUES)}")
        trust = source_for(by, source_kind)
        key = slugify(workspace) if workspace and workspace.strip() else None
        settings = self.config.workspace(key)
        route = choose_route(
            workspace=key,
            contact_ref=contact_ref,
            scope=scope,
            task_id=task_id,
            private=private,
            source=trust,
            settings=settings,
        )
        if route.store == "items":
            if file is not None:
                raise InvalidArgument(f"{route.why} goes to memory_items, not to a file")
            return self._remember_item(
                text, route, key, subject, source, kind, trust, task_id, no_memory,
                origin_text, expires, pinned,
            )  # fmt: skip
        path = self._target(file, workspace)  # a bad path is an error even for skipped text
        screened = screen(text, origin_text=origin_text, no_memory=no_memory)
        if screened.text is None:
            return WriteResult(status="skipped", reason=screened.skip_reason)  # type: ignore[arg-type]
        if not settings.memory_on and trust not in EXPLICIT_SOURCES:
            return WriteResult(status="skipped", reason="memory_disabled")
        metadata = self._metadata(
            source=source,
            by=SOURCE_TO_BY[trust] if source_kind else by,
            origin=origin,
            subject=subject,
            kind=kind,
            author=author,
            expires=expires,
            tainted=tainted,
        )
        title = f"Workspace: {' '.join(workspace.split())}" if workspace and file is None else None
        write = EntryWrite(
            path=path,
            text=screened.text,
            metadata=metadata,
            by=metadata["by"],
            origin=origin,
            task=task_id,
            title=title,
            redacted=screened.redacted,
            truncated=screened.truncated,
        )
        return self.folder.write_entry(write)

    def _remember_item(
        self,
        text: str,
        route: Route,
        workspace_id: str | None,
        subject: str | None,
        source: str | None,
        kind: str | None,
        trust: str,
        task_id: str | None,
        no_memory: bool,
        origin_text: str | None,
        expires: str | date | None,
        pinned: bool,
    ) -> WriteResult:
        fields: dict[str, object] = {
            "content": text,
            "kind": kind or "fact",
            "scope": route.scope,
            "workspace_id": workspace_id,
            "scope_ref": route.scope_ref,
            "subject_key": subject,
            "source": trust,
            "pinned": pinned,
            "privacy": "private" if route.private else None,
            "task_id": task_id,
            "origin_text": origin_text,
            "no_memory": no_memory,
        }
        if source and source.strip():
            fields["source_ref"] = {"store": "link", "id": redact_secrets(source.strip())[0]}
        if expires is not None:
            day = date.fromisoformat(_date_value(expires))
            fields["expires_at"] = datetime.combine(day, time(23, 59, 59), tzinfo=UTC)
        return _item_result(self.items.ingest(candidate(**fields)))

    def _target(self, file: str | None, workspace: str | None) -> str:
        if file is not None:
            return normalize_target(self.root, file)
        if workspace and workspace.strip():
            return normalize_target(self.root, f"workspaces/{slugify(workspace)}.md")
        return ENTRY_POINT

    def _metadata(
        self,
        *,
        source: str | None,
        by: str,
        origin: str,
        subject: str | None,
        kind: str | None,
        author: str | None,
        expires: str | date | None,
        tainted: bool,
    ) -> dict[str, str]:
        meta: dict[str, str] = {}
        if source and source.strip():
            meta["source"] = _clean(redact_secrets(source)[0])
        meta["added"] = self.folder.clock.now().date().isoformat()
        meta["by"] = by
        meta["origin"] = origin
        for key, value in (("subject", subject), ("kind", kind), ("author", author)):
            if value and value.strip():
                meta[key] = _clean(redact_secrets(value)[0])
        if expires is not None:
            meta["expires"] = _date_value(expires)
        if tainted:
            meta["tainted"] = "yes"
        return meta

    def forget(self, ref: str, *, by: str = "user", task_id: str | None = None) -> ForgetResult:
        """Remove `ref`: a folder entry in one commit, or a memory item (every revision
        scrubbed to a tombstone that the next retention run drops)."""
        if ref.startswith("team:"):  # team repos are read-only (DESIGN §9)
            from memrepo.sync.api import refuse_team_ref

            refuse_team_ref(ref)
        if not ref.startswith(ITEM_PREFIX):
            return self.folder.forget(ref, by=by, task=task_id)
        item_id = ref.removeprefix(ITEM_PREFIX)
        detail = self.items.store.get(item_id)
        if detail is None or detail.item.status == "deleted":
            raise EntryNotFound(ref, "no such memory item")
        self.items.set_status(item_id, "deleted")
        return ForgetResult(ref=ref, store="items", path=None, text=detail.item.content)

    def undo(self, commit: str | None = None, *, by: str = "user") -> UndoResult:
        """Reverse one commit entry by entry (default: the newest memrepo write)."""
        return self.folder.undo(commit, by=by)

    # --- memory_items ------------------------------------------------------------------

    def list_items(self, filters: ItemFilters | None = None) -> list[MemoryItem]:
        """Items matching `filters` (active, non-private ones by default)."""
        return self.items.store.list(filters)

    def item(self, ref: str) -> ItemDetail:
        """One item (`memory:<id>` or the bare id) with the revisions it replaced."""
        detail = self.items.store.get(ref.removeprefix(ITEM_PREFIX))
        if detail is None:
            raise EntryNotFound(ref, "no such memory item")
        return detail

    def why(self, ref: str) -> WhyReport:
        """Where a memory came from: for a folder entry the commits that added, changed
        and moved it (with their by/origin/task trailers), for an item its origin and the
        chain of values it superseded."""
        if not ref.startswith(ITEM_PREFIX):
            return self.folder.why(ref)
        item = self.item(ref).item
        return WhyReport(
            ref=item.ref,
            store="items",
            present=item.status == "active",
            text=item.content,
            explanation=self.items.why(item.id),
        )

    def record_feedback(
        self, reason: str, *, workspace: str, from_owner: bool = True
    ) -> WriteResult:
        """A thumbs-down or edit reason from the workspace owner becomes a correction the
        agent sees in L0 from then on; a repeat of the same reason replaces its line
        (same subject) instead of piling up. Feedback from anyone else is refused: it
        would let a third party steer the agent's standing instructions."""
        if not from_owner:
            raise FeedbackRefused(workspace)
        if not workspace.strip():
            raise InvalidArgument("feedback needs the workspace it is about")
        digest = hashlib.sha256(normalize_text(reason).encode("utf-8", "surrogatepass"))
        return self.remember(
            reason,
            workspace=workspace,
            subject=f"feedback:{digest.hexdigest()[:12]}",
            kind="correction",
            by="user",
            origin="feedback",
        )

    def run_retention(self, now: datetime | None = None) -> RetentionReport:
        """Drop tombstones, expired items and old superseded revisions (reference §7)."""
        return self.items.run_retention(now)

    def purge_task(self, task_id: str, *, purge_derived: bool = False) -> PurgeReport:
        """Delete a task's items (and what it inferred, with `purge_derived`); a root
        task's swarm folder goes too, in one commit."""
        report = self.items.purge_task(task_id, purge_derived)
        self.swarms.remove_root_folder(task_id)
        return report

    def clear_global_items(self) -> PurgeReport:
        """Delete every global-scope item (the folder is untouched: undo covers it)."""
        return self.items.clear_global_items()

    def clear_workspace(self, workspace: str, *, by: str = "user") -> PurgeReport:
        """Delete a workspace's items and remove its folder file in one commit."""
        key = slugify(workspace)
        report = self.items.clear_workspace(key)
        self.folder.remove_file(f"workspaces/{key}.md", by=by, reason=f"clear workspace {key}")
        return report

    def set_workspace(
        self, workspace: str, *, memory: bool | None = None, privacy: str | None = None
    ) -> WorkspaceSettings:
        """Turn a workspace's memory on or off and set its privacy mode (local config)."""
        key = slugify(workspace)
        current = self.config.workspace(key)
        changes: dict[str, object] = {}
        if memory is not None:
            changes["enabled"] = memory
        if privacy is not None:
            changes["privacy"] = privacy
        try:
            updated = WorkspaceSettings.model_validate({**current.model_dump(), **changes})
        except ValueError as exc:
            raise InvalidArgument(f"privacy={privacy!r}: use normal, strict or disabled") from exc
        self.config.workspaces[key] = updated
        save_config(self.folder.state_dir, self.config)
        return updated

    # --- recall ------------------------------------------------------------------------

    def recall(
        self,
        query: str,
        *,
        limit: int = 10,
        workspace: str | None = None,
        include_private: bool = False,
        contact_ref: str | None = None,
        task_id: str | None = None,
        min_trust: str = "inferred",
        lanes: Sequence[str] | None = None,
        detail: Detail = "snippet",
    ) -> RecallResult:
        """Search every lane and fuse them into one ranked answer (DESIGN §6).

        The query is plain text (never search syntax). Only what this reader may see is
        searched: global facts and the active workspace's, task items for `task_id`,
        contact items for `contact_ref`, private items with `include_private`, trust at
        least `min_trust`. Raises RecallFailed when every lane fails.
        """
        from memrepo.recall.searcher import visibility_for

        visibility = visibility_for(
            workspace=workspace,
            include_private=include_private,
            contact_ref=contact_ref,
            task_id=task_id,
            min_trust=min_trust,
            swarm=self.swarms.audience(task_id),
        )
        return self.searcher.recall(query, visibility, limit=limit, lanes=lanes, detail=detail)

    def expand(self, refs: Sequence[str], **reader: Unpack[ReaderContext]) -> list[RecallHit]:
        """The full text of `refs` under the same visibility as recall (hidden: absent);
        `reader` takes recall's workspace, include_private, contact_ref, task_id and
        min_trust."""
        from memrepo.recall.searcher import visibility_for

        swarm = self.swarms.audience(reader.get("task_id"))
        return self.searcher.expand(refs, visibility_for(swarm=swarm, **reader))

    def mark_used(self, refs: Sequence[str]) -> None:
        """Record that these items were put in a prompt or quoted (folder refs: no-op)."""
        ids = [ref.removeprefix(ITEM_PREFIX) for ref in refs if ref.startswith(ITEM_PREFIX)]
        if ids:
            self.items.mark_used(ids)

    def reindex(self, progress: Callable[[int], None] | None = None) -> ReindexReport:
        """Rebuild the whole index from git and memory_items; `progress` hears the
        running document count every 1,000 documents."""
        return self.searcher.reindex(progress)

    @cached_property
    def context_builder(self) -> ContextBuilder:
        """The prompt-context builder of this root: one per repo, so L0 stays cached
        between turns; team and swarm sources plug in with its `add_source`."""
        from memrepo.recall.context import ContextBuilder
        from memrepo.swarm.context import SwarmContextSource
        from memrepo.sync.team_context import TeamContextSource

        builder = ContextBuilder(self)
        builder.add_source(TeamContextSource(self))
        builder.add_source(SwarmContextSource(self.swarms))
        return builder

    def context(self, request: ContextRequest) -> ContextBlocks:
        """The memory blocks of one prompt turn: gated, budgeted, sanitized (DESIGN §7).

        A task inside a swarm gets the swarm layer without the host naming the swarm:
        the task's parent chain says which one it is (never the caller)."""
        if request.swarm is None and request.task_id:
            swarm = self.swarms.audience(request.task_id)
            if swarm is not None:
                request = request.model_copy(update={"swarm": swarm})
        return self.context_builder.build(request)

    def on_memory_used(self, listener: Callable[[MemoryUsed], None]) -> Callable[[], None]:
        """Hear the refs each surface injected, once per turn and again when they
        change (attribution); returns a function that stops it."""
        return self.context_builder.on_memory_used(listener)

    # --- swarms ------------------------------------------------------------------------

    @cached_property
    def swarms(self) -> Swarms:
        """Swarm folders (DESIGN §10) and the task registry they follow: the local one
        in `.git/memrepo/tasks.json` unless a host calls `swarms.use_registry(...)`."""
        from memrepo.swarm.service import Swarms

        return Swarms(self.folder)

    def resolve_swarm(self, task_id: str) -> SwarmRef:
        """The swarm folder of a task, from its parent chain (never from the caller)."""
        return self.swarms.resolve(task_id)

    def swarm_note(
        self,
        task_id: str,
        kind: str,
        text: str,
        *,
        sources: Sequence[str] | None = None,
        author: str | None = None,
        tainted: bool = False,
        answers: str | None = None,
    ) -> SwarmNoteResult:
        """Append a screened note (finding, ruled_out, question, or an answer naming its
        question) to the task's swarm in one commit with origin swarm."""
        return self.swarms.note(
            task_id, kind, text, sources=sources, author=author, tainted=tainted, answers=answers
        )

    def swarm_view(self, task_id: str) -> SwarmView:
        """The task's swarm: goal, members, latest findings, questions with answers."""
        return self.swarms.view(task_id)

    def swarm_block(self, task_id: str, *, budget: int | None = None) -> str:
        """The `<swarm>` prompt block of the task's swarm within `budget` tokens (default
        400); "" before its first note."""
        return self.swarms.block(task_id, budget).text

    def delete_task_tree(self, task_id: str, *, by: str = "user") -> TaskTreeDeleted:
        """Delete a task and its subtasks: their items, their registry records, and the
        swarm folder (in one commit) when the task is a root."""
        return self.swarms.delete_tree(task_id, self.items.purge_task, by=by)

    # --- export, restore, import (memrepo.transfer) -------------------------------------

    def export(
        self,
        path: str | Path,
        *,
        encrypt: bool = False,
        include_private: bool = False,
        force: bool = False,
        format: ExportFormat = "bundle",
        passphrase: str | None = None,
        kdf: KdfParams | None = None,
    ) -> ExportResult:
        """The whole memory in one file: a git bundle with full history, memory_items rows
        and the local config (never credentials); `format="jsonl"` writes flat facts.
        `encrypt` seals it with AES-256-GCM under a scrypt key from `passphrase`, else
        $MEMREPO_PASSPHRASE, else a terminal prompt. Private items need `encrypt`."""
        from memrepo.transfer.export import export_repo

        return export_repo(
            self, path, encrypt=encrypt, include_private=include_private, force=force,
            format=format, passphrase=passphrase, kdf=kdf,
        )  # fmt: skip

    @classmethod
    def restore(
        cls, path: str | Path, target: str | Path, *, passphrase: str | None = None
    ) -> RestoreResult:
        """A new memory repo at `target` from an export; the whole file is verified first,
        and on any error (wrong passphrase, damage) `target` is left as it was."""
        from memrepo.transfer.restore import restore_archive

        return restore_archive(path, target, passphrase=passphrase)

    def import_memory(
        self,
        path: str | Path,
        *,
        source: ImportFormat,
        dry_run: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> ImportReport:
        """Import another agent's memory (claude-code, letta or jsonl) through the normal
        screening and routing, as one commit; importing the same input again adds
        nothing. `progress` hears the running fact count every 1,000 facts."""
        from memrepo.transfer.importing import import_memory

        return import_memory(self, source, path, dry_run=dry_run, progress=progress)

    def install_git_hooks(self) -> GitHooksReport:
        """Make a plain `git pull` merge entries like sync does (a merge driver) and check
        commits people make by hand (pre-commit: secrets block, format warns). Writes only
        inside .git/; running it again changes nothing."""
        from memrepo.sync.hooks import install_git_hooks

        return install_git_hooks(self.root)

    # --- dreaming ----------------------------------------------------------------------

    def dream(
        self,
        *,
        model: DreamModel | None = None,
        recent_notes: Sequence[RecentNote | str] = (),
        now: datetime | None = None,
        dry_run: bool = False,
    ) -> DreamReport:
        """Clean up the folder (DESIGN §11): safe changes as one undoable commit on main,
        the rest on one `dream/<date>-<n>` review branch; then commitment expiry for
        memory_items. Offline (deterministic passes only) unless a `model` is given."""
        from memrepo.dreaming.run import dream, items_curator

        curator = None if dry_run else items_curator(self.folder.state_dir, lambda: self.items)
        return dream(
            self.folder, model=model, recent_notes=recent_notes, now=now, dry_run=dry_run,
            curator=curator,
        )  # fmt: skip

    def list_reviews(self) -> list[ReviewSummary]:
        """Open dream review branches, oldest first."""
        from memrepo.dreaming.review import list_reviews

        return list_reviews(self.folder)

    def show_review(self, name: str) -> ReviewDetail:
        """A review's operations with a per-entry diff and the reasons."""
        from memrepo.dreaming.review import show_review

        return show_review(self.folder, name)

    def accept_review(self, name: str, ops: Sequence[int | str] | None = None) -> AcceptResult:
        """Apply a review (or the operations numbered / fingerprinted in `ops`) to main as
        one commit; the rest are rejected. ReviewConflict when main changed their lines."""
        from memrepo.dreaming.review import accept_review

        return accept_review(self.folder, name, ops)

    def reject_review(self, name: str) -> RejectResult:
        """Delete a review branch; its changes are never proposed again."""
        from memrepo.dreaming.review import reject_review

        return reject_review(self.folder, name)

    def last_dream(self) -> DreamStatus:
        """When the last dream ran, what it found, and the reviews still open (health)."""
        from memrepo.dreaming.review import last_dream

        return last_dream(self.folder)

    def undo_curation(self, change_id: int) -> CurationChange:
        """Reopen a commitment a dream closed; it is never closed automatically again."""
        from memrepo.items.curation import undo_curation

        return undo_curation(self.items, change_id)

    # --- sync and team memory (memrepo.sync) -------------------------------------------

    @classmethod
    def clone(
        cls, url: str, path: str | Path, *, confirm_private: bool = False,
        ssh_key: str | None = None, **options: Unpack[RepoOptions],
    ) -> MemoryRepo:  # fmt: skip
        """A second machine starts from the user's private remote (refused without
        `confirm_private`); an empty remote gives a new memory the first sync pushes."""
        from memrepo.sync.api import clone

        who, when = options.get("identity"), options.get("clock")
        folder = clone(url, Path(path), confirm_private=confirm_private, ssh_key=ssh_key,
                       identity=who, clock=when)  # fmt: skip
        return cls(folder)

    def set_remote(
        self, url: str, *, confirm_private: bool = False, ssh_key: str | None = None
    ) -> RemoteInfo:
        """Sync with `url`, only once the user confirms it is private and theirs; a URL
        with credentials, or a team repo's, is refused."""
        from memrepo.sync.api import set_remote

        return set_remote(self.folder, url, confirm_private=confirm_private, ssh_key=ssh_key)

    def remote(self) -> RemoteInfo | None:
        """The configured remote, or None."""
        from memrepo.sync.api import remote

        return remote(self.folder)

    def remove_remote(self) -> RemoteInfo | None:
        """Stop syncing (the remote is untouched); returns what was removed."""
        from memrepo.sync.api import remove_remote

        return remove_remote(self.folder)

    def sync(self, *, progress: Callable[[str], None] | None = None) -> SyncReport:
        """Commit pending edits, fetch, merge entry by entry, push main (never forced,
        nothing else), then fetch the team repos; raises when it fails (and records it)."""
        from memrepo.sync.api import sync

        return sync(self.folder, progress=progress)

    def sync_status(self) -> SyncStatus:
        """Last success and error, ahead/behind, conflict branches, teams (no network)."""
        from memrepo.sync.api import sync_status

        return sync_status(self.folder)

    def team_add(self, name: str, url: str) -> TeamInfo:
        """Add a read-only team memory repo (at most three) and fetch it."""
        from memrepo.sync.api import team_add

        return team_add(self.folder, name, url)

    def team_list(self) -> list[TeamInfo]:
        """The team repos and the state of their local clones."""
        from memrepo.sync.api import team_list

        return team_list(self.folder)

    def team_remove(self, name: str) -> TeamInfo:
        """Forget a team repo and delete its local clone."""
        from memrepo.sync.api import team_remove

        return team_remove(self.folder, name)

    def conflicts(self) -> list[ConflictBranch]:
        """Branches holding the losing side of sync merges, oldest first."""
        from memrepo.sync.api import conflicts

        return conflicts(self.folder)

    def conflict(self, name: str) -> ConflictDetail:
        """One conflict branch: both versions of each conflicted path, and the diff."""
        from memrepo.sync.api import conflict

        return conflict(self.folder, name)

    # --- health (memrepo.health) -------------------------------------------------------

    def health(self, preset: str = "default") -> HealthReport:
        """Every check (format, links, L0 size, secrets, duplicates, database, index, lock,
        sync, teams, dreaming) against the thresholds of `preset` (`default` or `ci`).
        Reads only, so it is safe to run while another process writes."""
        from memrepo.health import run_health

        return run_health(
            self.folder, preset=preset, sync_status=self.sync_status, last_dream=self.last_dream
        )

    def sources(self) -> SourcesReport:
        """Counts of active memories per source and producer, folder and items; no text."""
        from memrepo.health import collect_sources

        return collect_sources(self.folder)

    # --- reads -------------------------------------------------------------------------

    def log(self, limit: int | None = None, path: str | None = None) -> list[CommitInfo]:
        """main's history, newest first."""
        return self.folder.log(limit=limit, path=path)

    def entries(self, path: str | None = None) -> list[EntryView]:
        """Every entry at HEAD (swarm folders excluded unless `path` names a file in one)."""
        return self.folder.entries(normalize_target(self.root, path) if path else None)

    def read_text(self, path: str) -> str:
        """A memory file as it is in the working tree (what a person sees in an editor)."""
        relative = normalize_target(self.root, path)
        try:
            data = (self.root / relative).read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            raise EntryNotFound(path, "no such file in the memory repo") from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidUtf8(relative, exc.start) from exc

    def status(self) -> WorktreeStatus:
        """Edits people left uncommitted."""
        return self.folder.status()

    def lint(self) -> LintReport:
        """Format problems, broken links, unlisted files and secrets, with path and line."""
        from memrepo.folder.lint import lint_folder

        return lint_folder(self.folder)


def _item_result(result: ItemWriteResult) -> WriteResult:
    if result.status == "skipped":
        holder = f"{ITEM_PREFIX}{result.holder_id}" if result.holder_id else None
        return WriteResult(status="skipped", store="items", reason=result.reason, ref=holder)
    assert result.item is not None
    return WriteResult(
        status="written",
        store="items",
        action=result.action,
        ref=result.item.ref,
        redacted=result.redacted,
        truncated=result.truncated,
    )


def _clean(value: str) -> str:
    return " ".join(value.split())


def _date_value(value: str | date) -> str:
    text = value.isoformat() if isinstance(value, date) else value.strip()
    if not _DATE.match(text):
        raise InvalidArgument(f"expires={value!r}: use YYYY-MM-DD")
    try:
        date.fromisoformat(text)
    except ValueError as exc:
        raise InvalidArgument(f"expires={value!r}: not a real date") from exc
    return text
