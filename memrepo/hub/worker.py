"""Repo calls off the event loop, one at a time.

The repo's git, SQLite and index handles belong to one thread at a time, and a write
may wait for another process's lock: each call runs in a worker thread behind a
one-slot limiter, so pages keep loading while a write waits (the same pattern as
`memrepo.mcp.server.RepoWorker`, which cannot be imported here: that module needs the
MCP SDK, an extra of its own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import anyio
import anyio.to_thread

from memrepo.engine import MemoryRepo

T = TypeVar("T")


class RepoWorker:
    """Runs `call(repo)` in a worker thread, one call at a time."""

    def __init__(self, repo: MemoryRepo) -> None:
        self.repo = repo
        self._one = anyio.CapacityLimiter(1)

    async def run(self, call: Callable[[MemoryRepo], T]) -> T:
        # Not abandoned on cancel: a browser that goes away mid-write gets no page, but
        # the write it asked for finishes whole.
        return await anyio.to_thread.run_sync(call, self.repo, limiter=self._one)
