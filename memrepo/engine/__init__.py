"""MemoryRepo: the one object per memory root that every face (CLI, tools, MCP) calls.

One object, many verbs: so that no module carries them all, the verbs are grouped by
area, one mixin module each, and `MemoryRepo` combines them:

- `core`: `RepoCore`, the folder, the config and the services opened on first use (item
  writer, search index, swarms, context builder); every area subclasses it.
- `writes`: remember, forget, undo, feedback (the write pipeline of docs/architecture.md §3).
- `edits_api`: edit an entry in place, move one to another file.
- `items_api`: memory_items reads, purges and workspace settings.
- `recall_api`: recall, expand, reindex, prompt context.
- `swarm_api`, `transfer_api`, `dream_api`, `sync_api`, `health_api`, `reads`: one area
  each, mostly thin delegations to the layer that owns the work, imported inside the
  method so a one-shot command loads only what it runs.

A new verb goes into the module of its area (or a new mixin listed below), not here.
"""

from __future__ import annotations

from memrepo.engine.core import ITEM_PREFIX, RepoCore, RepoOptions
from memrepo.engine.dream_api import DreamApi
from memrepo.engine.edits_api import EditsApi
from memrepo.engine.health_api import HealthApi
from memrepo.engine.items_api import ItemsApi
from memrepo.engine.reads import ReadsApi
from memrepo.engine.recall_api import ReaderContext, RecallApi
from memrepo.engine.swarm_api import SwarmApi
from memrepo.engine.sync_api import SyncApi
from memrepo.engine.transfer_api import TransferApi
from memrepo.engine.writes import BY_VALUES, WritesApi

__all__ = ["BY_VALUES", "ITEM_PREFIX", "MemoryRepo", "ReaderContext", "RepoCore", "RepoOptions"]


class MemoryRepo(
    WritesApi,
    EditsApi,
    ItemsApi,
    RecallApi,
    SwarmApi,
    TransferApi,
    HealthApi,  # before DreamApi and SyncApi: the health report stands on both
    DreamApi,
    SyncApi,
    ReadsApi,
):
    """A memory root: the folder (git) and its companion store (memory_items).

    The item store, the search index and lint load on first use, so a one-shot command
    pays only for what it runs.
    """
