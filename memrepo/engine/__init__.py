"""MemoryRepo: the one object per memory root that every face (CLI, tools, MCP) calls.

One object, many verbs. So that no module carries them all, the verbs are grouped by
area, one class each, and `MemoryRepo` is composed of them (docs/architecture.md §1):

- `core`: `RepoParts`, the folder, the config and the services opened on first use (item
  writer, search index, swarms, context builder), which every area takes; `Area`, their
  base class.
- `writes`: remember, forget, undo, feedback (the write pipeline of docs/architecture.md §3).
- `edits_api`: edit an entry in place, move one to another file, the memory tool.
- `items_api`: memory_items reads, revisions, purges and workspace settings.
- `recall_api`: recall, expand, reindex, prompt context.
- `meaning_api`: the meaning lane's switch and status (issue #29).
- `swarm_api`, `transfer_api`, `dream_api`, `sync_api`, `health_api` (with the daily
  maintenance pass), `reads`: one area
  each, mostly thin calls into the layer that owns the work, imported inside the method
  so a one-shot command loads only what it runs.

The class body below is the whole public surface: each verb is declared as the area
method it is (`verb`). A new verb goes into the class of its area and gets its line here.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Self, Unpack

from memrepo.engine.core import ITEM_PREFIX, RepoOptions, RepoParts
from memrepo.engine.dream_api import DreamApi
from memrepo.engine.edits_api import EditsApi
from memrepo.engine.health_api import HealthApi
from memrepo.engine.items_api import ItemsApi
from memrepo.engine.meaning_api import MeaningApi
from memrepo.engine.reads import ReadsApi
from memrepo.engine.recall_api import ReaderContext, RecallApi
from memrepo.engine.swarm_api import SwarmApi
from memrepo.engine.sync_api import SyncApi
from memrepo.engine.transfer_api import TransferApi
from memrepo.engine.verb import verb
from memrepo.engine.writes import BY_VALUES, WritesApi
from memrepo.folder.repo import MemoryFolder

if TYPE_CHECKING:
    from memrepo.config import LocalConfig
    from memrepo.models.transfer import RestoreResult
    from memrepo.recall.context_lines import ContextSource
    from memrepo.recall.lanes import Lane
    from memrepo.swarm.registry import TaskRegistry

__all__ = ["BY_VALUES", "ITEM_PREFIX", "MemoryRepo", "ReaderContext", "RepoOptions", "RepoParts"]


class MemoryRepo:
    """A memory root: the folder (git) and its companion store (memory_items).

    The item store, the search index and lint load on first use, so a one-shot command
    pays only for what it runs.
    """

    def __init__(self, folder: MemoryFolder) -> None:
        self._parts = parts = RepoParts(folder)
        self._writes = WritesApi(parts)
        self._edits = EditsApi(parts)
        self._item_verbs = ItemsApi(parts)
        self._recall = RecallApi(parts)
        self._swarm_verbs = SwarmApi(parts)
        self._transfer = TransferApi(parts)
        self._dream = DreamApi(parts)
        self._sync = SyncApi(parts)
        self._health = HealthApi(parts)
        self._meaning = MeaningApi(parts)
        self._reads = ReadsApi(parts)
        # A handle dropped without close() gives back what it holds (the working-tree
        # watch, of which a process has 16; the database; the index): its parts outlive
        # it through their own threads and callbacks otherwise.
        weakref.finalize(self, parts.close)

    # --- opening ------------------------------------------------------------------------

    @classmethod
    def init(cls, path: str | Path, *, adopt: bool = False, **options: Unpack[RepoOptions]) -> Self:
        """Create a memory repo at `path` (or make one of an existing git repo). A folder
        holding files other than memory markdown is refused unless `adopt` (its own
        files then stay the person's: memrepo never commits them)."""
        return cls(MemoryFolder.init(Path(path), adopt=adopt, **options))

    @classmethod
    def open(cls, path: str | Path, **options: Unpack[RepoOptions]) -> Self:
        """Open an existing memory repo; NotAMemoryRepo says why when it is not one."""
        return cls(MemoryFolder.open(Path(path), **options))

    @classmethod
    def clone(
        cls, url: str, path: str | Path, *, confirm_private: bool = False,
        ssh_key: str | None = None, **options: Unpack[RepoOptions],
    ) -> Self:  # fmt: skip
        """A second machine starts from the user's private remote (refused without
        `confirm_private`); an empty remote gives a new memory the first sync pushes."""
        from memrepo.sync.api import clone

        who, when = options.get("identity"), options.get("clock")
        folder = clone(url, Path(path), confirm_private=confirm_private, ssh_key=ssh_key,
                       identity=who, clock=when)  # fmt: skip
        return cls(folder)

    @classmethod
    def restore(
        cls, path: str | Path, target: str | Path, *, passphrase: str | None = None
    ) -> RestoreResult:
        """A new memory repo at `target` from an export; the whole file is verified first,
        and on any error (wrong passphrase, damage) `target` is left as it was."""
        from memrepo.transfer.restore import restore_archive

        return restore_archive(path, target, passphrase=passphrase)

    def close(self) -> None:
        """Finish queued item writes, close the database and the index, and give back the
        folder's working-tree watch (the repo stays usable: what is used again reopens)."""
        self._parts.close()

    def holding_writes(self) -> AbstractContextManager[object]:
        """Hold the write lock over several writes of this handle: each is still its own
        transaction and commit, but the index catches up once behind them all (a server
        runs the writes queued behind one another so, issue #28). Reads never wait for
        it; other writers do, as for one long write."""
        return self._parts.folder.lock

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- the parts ----------------------------------------------------------------------

    @property
    def folder(self) -> MemoryFolder:
        return self._parts.folder

    @property
    def root(self) -> Path:
        return self._parts.root

    @property
    def config(self) -> LocalConfig:
        return self._parts.config

    # --- extensions: each takes the extension and returns a function that removes it -----

    def plug_lane(self, lane: Lane) -> Callable[[], None]:
        """Search `lane` too on every recall (a host's own store, behind the `Lane`
        protocol), fused with the index lanes; the returned function unplugs it."""
        return self._parts.searcher.add_lane(lane)

    def plug_context_source(self, source: ContextSource) -> Callable[[], None]:
        """Add a layer of lines to every prompt context the gate allows (`ContextSource`);
        the returned function unplugs it."""
        return self._parts.context_builder.add_source(source)

    def plug_task_registry(self, registry: TaskRegistry) -> Callable[[], None]:
        """Follow the host's own task store for swarms (`TaskRegistry`) instead of the
        local `.git/memrepo/tasks.json`; the returned function goes back to the local one."""
        return self._parts.swarms.use_registry(registry)

    # --- writes (docs/architecture.md §3) -------------------------------------------------

    remember = verb("_writes", WritesApi.remember)
    forget = verb("_writes", WritesApi.forget)
    undo = verb("_writes", WritesApi.undo)
    held_writes = verb("_writes", WritesApi.held_writes)
    approve_write = verb("_writes", WritesApi.approve_write)
    reject_write = verb("_writes", WritesApi.reject_write)
    undo_target = verb("_writes", WritesApi.undo_target)
    lint_fix = verb("_writes", WritesApi.lint_fix)
    record_feedback = verb("_writes", WritesApi.record_feedback)
    edit = verb("_edits", EditsApi.edit)
    move = verb("_edits", EditsApi.move)
    memory_tool = verb("_edits", EditsApi.memory_tool)
    async_memory_tool = verb("_edits", EditsApi.async_memory_tool)

    # --- memory_items (docs/architecture.md §5) -------------------------------------------

    list_items = verb("_item_verbs", ItemsApi.list_items)
    item = verb("_item_verbs", ItemsApi.item)
    item_id = verb("_item_verbs", ItemsApi.item_id)
    why = verb("_item_verbs", ItemsApi.why)
    confirm = verb("_item_verbs", ItemsApi.confirm)
    revise_item = verb("_item_verbs", ItemsApi.revise_item)
    pin_item = verb("_item_verbs", ItemsApi.pin_item)
    set_item_due = verb("_item_verbs", ItemsApi.set_item_due)
    run_retention = verb("_item_verbs", ItemsApi.run_retention)
    purge_task = verb("_item_verbs", ItemsApi.purge_task)
    clear_global_items = verb("_item_verbs", ItemsApi.clear_global_items)
    clear_workspace = verb("_item_verbs", ItemsApi.clear_workspace)
    set_workspace = verb("_item_verbs", ItemsApi.set_workspace)
    secret_rules = verb("_item_verbs", ItemsApi.secret_rules)
    add_secret_rule = verb("_item_verbs", ItemsApi.add_secret_rule)
    remove_secret_rule = verb("_item_verbs", ItemsApi.remove_secret_rule)
    check_secrets = verb("_item_verbs", ItemsApi.check_secrets)

    # --- recall and prompt context (docs/architecture.md §6, §7) ----------------------------

    recall = verb("_recall", RecallApi.recall)
    recall_everywhere = verb("_recall", RecallApi.recall_everywhere)
    workspaces = verb("_recall", RecallApi.workspaces)
    known_workspace = verb("_recall", RecallApi.known_workspace)
    expand = verb("_recall", RecallApi.expand)
    mark_used = verb("_recall", RecallApi.mark_used)
    last_uses = verb("_recall", RecallApi.last_uses)
    reindex = verb("_recall", RecallApi.reindex)
    meaning_on = verb("_meaning", MeaningApi.meaning_on)
    meaning_off = verb("_meaning", MeaningApi.meaning_off)
    meaning_status = verb("_meaning", MeaningApi.meaning_status)
    context = verb("_recall", RecallApi.context)
    on_memory_used = verb("_recall", RecallApi.on_memory_used)

    # --- reads of the folder (docs/architecture.md §2) ----------------------------------

    log = verb("_reads", ReadsApi.log)
    on_change = verb("_reads", ReadsApi.on_change)
    show_commit = verb("_reads", ReadsApi.show_commit)
    entries = verb("_reads", ReadsApi.entries)
    read_text = verb("_reads", ReadsApi.read_text)
    backlinks = verb("_reads", ReadsApi.backlinks)
    status = verb("_reads", ReadsApi.status)
    lint = verb("_reads", ReadsApi.lint)

    # --- swarms (docs/architecture.md §10) ----------------------------------------------

    list_swarms = verb("_swarm_verbs", SwarmApi.list_swarms)
    resolve_swarm = verb("_swarm_verbs", SwarmApi.resolve_swarm)
    swarm_note = verb("_swarm_verbs", SwarmApi.swarm_note)
    swarm_view = verb("_swarm_verbs", SwarmApi.swarm_view)
    swarm_block = verb("_swarm_verbs", SwarmApi.swarm_block)
    delete_task_tree = verb("_swarm_verbs", SwarmApi.delete_task_tree)
    add_task = verb("_swarm_verbs", SwarmApi.add_task)
    join_task = verb("_swarm_verbs", SwarmApi.join_task)
    local_tasks = verb("_swarm_verbs", SwarmApi.local_tasks)

    # --- sync and team repos (docs/architecture.md §9) ----------------------------------

    set_remote = verb("_sync", SyncApi.set_remote)
    remote = verb("_sync", SyncApi.remote)
    remove_remote = verb("_sync", SyncApi.remove_remote)
    sync = verb("_sync", SyncApi.sync)
    sync_status = verb("_sync", SyncApi.sync_status)
    team_add = verb("_sync", SyncApi.team_add)
    team_list = verb("_sync", SyncApi.team_list)
    team_remove = verb("_sync", SyncApi.team_remove)
    conflicts = verb("_sync", SyncApi.conflicts)
    conflict = verb("_sync", SyncApi.conflict)
    resolve_conflict = verb("_sync", SyncApi.resolve_conflict)
    install_git_hooks = verb("_sync", SyncApi.install_git_hooks)

    # --- dreaming (docs/architecture.md §11) --------------------------------------------

    dream = verb("_dream", DreamApi.dream)
    list_reviews = verb("_dream", DreamApi.list_reviews)
    show_review = verb("_dream", DreamApi.show_review)
    accept_review = verb("_dream", DreamApi.accept_review)
    reject_review = verb("_dream", DreamApi.reject_review)
    last_dream = verb("_dream", DreamApi.last_dream)
    curation_log = verb("_dream", DreamApi.curation_log)
    undo_curation = verb("_dream", DreamApi.undo_curation)

    # --- health, export, import (docs/architecture.md §12) ------------------------------

    health = verb("_health", HealthApi.health)
    sources = verb("_health", HealthApi.sources)
    maintain = verb("_health", HealthApi.maintain)
    maintenance_runs = verb("_health", HealthApi.maintenance_runs)
    export = verb("_transfer", TransferApi.export)
    import_memory = verb("_transfer", TransferApi.import_memory)
