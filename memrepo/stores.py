"""The stores of one memory root, as the layers above them take them.

A memory root is a folder (git) and a companion store (memory_items), with one local
config. The layers that work across both (prompt context, transfer, teams' context)
take this shape instead of the whole `MemoryRepo`: they need the stores, not the verbs,
and a lower layer that held the facade could call any verb of any area
(docs/architecture.md §1). The engine's `RepoParts` is the one implementation.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from memrepo.config import LocalConfig
    from memrepo.folder.repo import MemoryFolder
    from memrepo.items import ItemWriter

__all__ = ["MemoryStores"]


class MemoryStores(Protocol):
    """The folder, the item writer (opened on first use) and the local config."""

    @property
    def folder(self) -> MemoryFolder: ...

    @property
    def root(self) -> Path: ...

    @property
    def config(self) -> LocalConfig: ...

    @property
    def items(self) -> ItemWriter: ...
