"""RepoParts: the stores and services of one memory root, which every area stands on.

The folder, the local config and the services the verbs share (the item writer, the
search index, the swarm service, the prompt-context builder). Each opens on first use,
so a one-shot command pays only for what it runs. `RepoParts` holds no verbs: the areas
of `MemoryRepo` (one class each, see `memrepo.engine`) take it, and the layers below
the engine take it as the `MemoryStores` shape, never the facade (docs/architecture.md
§1).
"""

from __future__ import annotations

import warnings
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from memrepo.clock import Clock, Identity
from memrepo.config import CONFIG_NAME, LocalConfig, load_config
from memrepo.errors import MeaningExtraMissing, MemrepoError, ReadOnlyRef
from memrepo.folder.repo import MemoryFolder
from memrepo.layout import ITEM_REF_PREFIX, TEAM_REF_PREFIX
from memrepo.models.items import WorkspacePolicy

if TYPE_CHECKING:
    from memrepo.items import ItemWriter
    from memrepo.recall.context_builder import ContextBuilder
    from memrepo.recall.searcher import Searcher
    from memrepo.recall.teams import TeamClones
    from memrepo.swarm.service import Swarms

ITEM_PREFIX = ITEM_REF_PREFIX


class RepoOptions(TypedDict, total=False):
    """Seams for tests and hosts: who commits, what time it is, local settings."""

    identity: Identity | None
    clock: Clock | None
    config: LocalConfig | None


class RepoParts:
    """The state of one memory root and its lazily opened services (no verbs)."""

    def __init__(self, folder: MemoryFolder) -> None:
        self.folder = folder
        install_secret_rules(folder.config)
        self._items: ItemWriter | None = None
        self._searcher: Searcher | None = None
        #: Writes of this handle that moved main (see `_index_behind_write`).
        self._writes = 0
        #: The config file as this handle read it (see `follow_meaning_switch`).
        self._config_stamp = _stamp(folder.state_dir / CONFIG_NAME)
        self.folder.after_write(self._index_behind_write)

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

            # The team lane reads sync's clones: given here, loaded on first need.
            self._searcher = Searcher(self.folder, lambda: self.items, self._team_clones)
            if self.config.meaning.enabled:
                self.plug_meaning(self._searcher)
        return self._searcher

    def follow_meaning_switch(self) -> None:
        """A handle that lives on (a server) follows `memrepo meaning on|off` run beside
        it at its next recall: one `stat` of the config file when nothing changed."""
        stamp = _stamp(self.folder.state_dir / CONFIG_NAME)
        if stamp == self._config_stamp:
            return
        self._config_stamp = stamp
        try:
            fresh = load_config(self.folder.state_dir).meaning
        except MemrepoError:
            return  # a config being edited by hand: keep what this handle has
        if fresh != self.config.meaning:
            self.config.meaning = fresh
            if self._searcher is not None:
                self.plug_meaning(self._searcher)

    def plug_meaning(self, searcher: Searcher | None = None) -> None:
        """Give the searcher the meaning lane (issue #29), or take it away when the
        config says it is off. Only a handle with the lane on imports `memrepo.meaning`."""
        searcher = searcher or self.searcher
        settings = self.config.meaning
        part = None
        if settings.enabled:
            try:
                from memrepo.meaning.service import MeaningPart, chosen_model
            except ImportError as exc:  # switched on, then the extra was uninstalled
                warnings.warn(str(MeaningExtraMissing(exc.name or "numpy")), stacklevel=2)
                searcher.listen(None)
                return
            part = MeaningPart(
                self.folder.state_dir,
                chosen_model(settings.model),
                searcher.store,
                self.config.lock_timeout_seconds,
            )
        searcher.listen(part)

    @cached_property
    def swarms(self) -> Swarms:
        """Swarm folders (docs/architecture.md §10) and the task registry they follow: the
        local one in `.git/memrepo/tasks.json` unless a host plugs in its own
        (`MemoryRepo.plug_task_registry`)."""
        from memrepo.swarm.service import Swarms

        return Swarms(self.folder)

    @cached_property
    def context_builder(self) -> ContextBuilder:
        """The prompt-context builder of this root: one per repo, so L0 stays cached
        between turns. The team and swarm layers are plugged in here, by the engine:
        recall knows the seam, not the layers above it."""
        from memrepo.recall.context_builder import ContextBuilder
        from memrepo.swarm.context_source import SwarmContextSource
        from memrepo.sync.team_context import TeamContextSource

        sources = (TeamContextSource(self.folder), SwarmContextSource(self.swarms))
        return ContextBuilder(self, sources=sources)

    def _index_behind_write(self) -> None:
        """The writer keeps the index current (docs/architecture.md §6, issue #28): an
        open index is brought up to date right behind each write; from a handle's second
        write on (a server's writer, a host: handles that write again), a built index
        is opened to be kept current too. A one-shot write (the CLI) leaves the index to
        the next read, never loading the index code or opening it for one write."""
        self._writes += 1
        if self._searcher is None and self._writes < 2:
            return
        self.searcher.keep_current(open_built=self._writes > 1)

    def close(self) -> None:
        """Finish queued item writes, close the database and the index, and give back
        the folder's working-tree watch."""
        self.folder.close()
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None
        if self._items is not None:
            self._items.close()
            self._items.store.close()
            self._items = None

    def _team_clones(self) -> TeamClones:
        from memrepo.sync.teams import LocalTeamClones

        return LocalTeamClones(self.folder.state_dir)

    def _workspace_policy(self, workspace_id: str | None) -> WorkspacePolicy:
        settings = self.config.workspace(workspace_id)
        return WorkspacePolicy(enabled=settings.enabled, privacy=settings.privacy)


class Area:
    """One area of verbs: it holds the parts and nothing else, so an area calls another
    only when the facade hands it that area explicitly (see `MemoryRepo.__init__`)."""

    def __init__(self, parts: RepoParts) -> None:
        self.parts = parts

    @property
    def folder(self) -> MemoryFolder:
        return self.parts.folder

    @property
    def root(self) -> Path:
        return self.parts.root

    @property
    def config(self) -> LocalConfig:
        return self.parts.config

    @property
    def items(self) -> ItemWriter:
        return self.parts.items

    def whole_ref(self, ref: str) -> str:
        """A ref as a person may type it (a unique id prefix, `engine/refs.py`), whole."""
        from memrepo.engine.refs import resolve_ref

        return resolve_ref(ref, self.folder, self.items.store)


def install_secret_rules(config: LocalConfig) -> None:
    """Add the person's own secret rules (local config) to every screening of this
    process: remember, imports, hand edits and sync all share one detector."""
    if config.secret_rules:
        from memrepo.hygiene.custom import compile_custom_rule, install_custom_rules

        install_custom_rules(compile_custom_rule(r.kind, r.pattern) for r in config.secret_rules)


def refuse_team_ref(ref: str) -> None:
    """Team repos are read-only (docs/architecture.md §9): every write verb given a team
    entry's ref (or a `team:` file name) raises ReadOnlyRef before anything is read."""
    if ref.startswith(TEAM_REF_PREFIX):
        raise ReadOnlyRef(ref)


def _stamp(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None
