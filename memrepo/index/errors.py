"""The index layer's warning; its errors live in `memrepo.errors` with all the others."""

from __future__ import annotations

from memrepo.errors import IndexLocked, IndexUnavailable

__all__ = ["IndexLocked", "IndexRebuiltWarning", "IndexUnavailable"]


class IndexRebuiltWarning(UserWarning):
    """The index was missing, stale or corrupt and has been rebuilt from the sources."""
