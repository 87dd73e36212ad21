"""RepoCore: what every area of `MemoryRepo` stands on.

The folder, the local config and the services the verbs share (the item writer, the
search index, the swarm service, the prompt-context builder). Each opens on first use,
so a one-shot command pays only for what it runs; every area mixin subclasses this class
so the type checker sees the services wherever a verb calls across areas.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Self, TypedDict, Unpack, cast

from memrepo.clock import Clock, Identity
from memrepo.config import LocalConfig
from memrepo.folder.repo import MemoryFolder
from memrepo.models.items import ITEM_REF_PREFIX, WorkspacePolicy

if TYPE_CHECKING:
    from memrepo.engine import MemoryRepo
    from memrepo.items import ItemWriter
    from memrepo.recall.context import ContextBuilder
    from memrepo.recall.searcher import Searcher
    from memrepo.swarm.service import Swarms

ITEM_PREFIX = ITEM_REF_PREFIX


class RepoOptions(TypedDict, total=False):
    """Seams for tests and hosts: who commits, what time it is, local settings."""

    identity: Identity | None
    clock: Clock | None
    config: LocalConfig | None


class RepoCore:
    """The state of one memory root and its lazily opened services (no verbs)."""

    def __init__(self, folder: MemoryFolder) -> None:
        self.folder = folder
        self._items: ItemWriter | None = None
        self._searcher: Searcher | None = None

    @classmethod
    def init(cls, path: str | Path, **options: Unpack[RepoOptions]) -> Self:
        """Create a memory repo at `path` (or adopt an existing git repo without one)."""
        return cls(MemoryFolder.init(Path(path), **options))

    @classmethod
    def open(cls, path: str | Path, **options: Unpack[RepoOptions]) -> Self:
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

    @cached_property
    def swarms(self) -> Swarms:
        """Swarm folders (docs/architecture.md §10) and the task registry they follow: the local one
        in `.git/memrepo/tasks.json` unless a host calls `swarms.use_registry(...)`."""
        from memrepo.swarm.service import Swarms

        return Swarms(self.folder)

    @cached_property
    def context_builder(self) -> ContextBuilder:
        """The prompt-context builder of this root: one per repo, so L0 stays cached
        between turns; team and swarm sources plug in with its `add_source`."""
        from memrepo.recall.context import ContextBuilder
        from memrepo.swarm.context import SwarmContextSource
        from memrepo.sync.team_context import TeamContextSource

        builder = ContextBuilder(self._repo)
        builder.add_source(TeamContextSource(self._repo))
        builder.add_source(SwarmContextSource(self.swarms))
        return builder

    def close(self) -> None:
        """Finish queued item writes and close the database (the folder needs no closing)."""
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None
        if self._items is not None:
            self._items.close()
            self._items.store.close()
            self._items = None

    def __enter__(self) -> Self:
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

    @property
    def _repo(self) -> MemoryRepo:
        """This root as the `MemoryRepo` it is: services such as the context builder and
        the transfer functions call verbs of several areas, so they take the whole object
        (only `MemoryRepo` combines the areas; nothing else instantiates them)."""
        return cast("MemoryRepo", self)
