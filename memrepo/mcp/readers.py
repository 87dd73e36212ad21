"""Read-only tool calls in processes of their own, for `memrepo mcp --http` (issue #28).

One Python process runs Python on one core at a time. With reads on threads
(`memrepo.serving.RepoWorkers`) they never wait for a write, but twenty HTTP clients still
got 1.08x one client's recalls per second: the recall itself (about two thirds of a
call's CPU time) and the protocol work shared the server's one interpreter. Here each
reader process opens the same root with handles of its own, exactly as a reader thread
does (docs/architecture.md §8: two handles on one root are as safe together as two
processes, and a read takes no lock), so the protocol work stays in the server and the
searches run beside it on the other cores.

What crosses a process boundary is plain data: the tool's name, its arguments and the
call's `ToolContext` go in; the result, or the one line a refusal says, comes back.
Exceptions are not sent across (a `MemrepoError` subclass with keyword fields need not
unpickle): a refusal comes back as `ReadRefused`, which the server answers as it answers
any `MemrepoError`, and a bug as `ReaderFailed` naming the original exception's type.

A reader process takes the server's settings as they were when it started, as a reader
thread takes the server's settings object. A process that dies takes only the calls it
was running: they run again on the server's reader threads, and the next read starts a
new set of processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from memrepo.clock import Clock, Identity
from memrepo.config import LocalConfig
from memrepo.errors import MemrepoError
from memrepo.tools import MemoryTools, ToolContext

#: Reader processes `memrepo mcp --http` starts by default: one per core, at most four
#: (each holds its own index and git handles, about 60 MB).
DEFAULT_PROCESSES = max(1, min(4, os.cpu_count() or 1))
#: More would only queue on the cores, each holding its own handles.
MAX_READ_PROCESSES = 32

Outcome = tuple[Literal["ok", "refused", "failed"], Any]


class ReadRefused(MemrepoError):
    """A reader process's `MemrepoError`, carried back as its message."""


class ReaderFailed(RuntimeError):
    """A reader process's unexpected exception, carried back as its type and message."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class ReaderSpec:
    """What a reader process opens: the server's root with its identity, clock and
    settings (all plain, picklable values)."""

    root: Path
    identity: Identity
    clock: Clock
    config: LocalConfig

    @classmethod
    def of(cls, tools: MemoryTools) -> ReaderSpec:
        folder = tools.repo.folder
        return cls(folder.root, folder.identity, folder.clock, folder.config)


_tools: MemoryTools | None = None


def _open_reader(spec: ReaderSpec) -> None:
    """A reader process's start: open the repo once and warm its index, so the first
    call pays neither. Ctrl-C reaches the whole process group; the server stops its
    readers itself, so they ignore it (no traceback from each of them)."""
    global _tools
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from memrepo.engine import MemoryRepo

    repo = MemoryRepo.open(spec.root, identity=spec.identity, clock=spec.clock, config=spec.config)
    _tools = MemoryTools(repo)
    with contextlib.suppress(Exception):  # a courtesy: a real call says what is wrong
        _tools.dispatch("memory_recall", {"query": "warm", "limit": 1}, ToolContext())


def _run(name: str, arguments: Mapping[str, Any], context: ToolContext) -> Outcome:
    assert _tools is not None, "reader process used before it opened the repo"
    try:
        return "ok", _tools.dispatch(name, dict(arguments), context)
    except MemrepoError as exc:
        return "refused", str(exc)
    except Exception as exc:
        return "failed", (type(exc).__name__, str(exc))


class ReadProcesses:
    """A pool of reader processes for one server's read-only tool calls.

    `fallback` runs a call on the server's own reader threads; it serves the calls a
    dead process took down."""

    def __init__(
        self,
        spec: ReaderSpec,
        *,
        processes: int = DEFAULT_PROCESSES,
        log: Callable[[str], None] = lambda line: None,
    ) -> None:
        self._spec = spec
        self._processes = processes
        self._log = log
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the processes now (each opens the repo and warms its index), so the
        first clients do not wait for them."""
        pool = self._current()
        for _ in range(self._processes):
            pool.submit(os.getpid)

    async def call(
        self,
        name: str,
        arguments: Mapping[str, Any],
        context: ToolContext,
        fallback: Callable[[], Awaitable[dict[str, Any]]],
    ) -> dict[str, Any]:
        """The tool's result from a reader process: `ReadRefused` for what the tool
        refused, `ReaderFailed` for a bug; if the process died, `fallback()`'s result."""
        pool = self._current()
        try:
            future: Future[Outcome] = pool.submit(_run, name, arguments, context)
            kind, value = await asyncio.wrap_future(future)
        except BrokenProcessPool:
            self._restart(pool)
            return await fallback()
        if kind == "ok":
            return dict(value)
        if kind == "refused":
            raise ReadRefused(str(value))
        raise ReaderFailed(*value)

    def _current(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # spawn, not fork: the server has threads (uvicorn's, the readers'), and a
                # fork copies their locks in whatever state they are.
                self._pool = ProcessPoolExecutor(
                    self._processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_open_reader,
                    initargs=(self._spec,),
                )
            return self._pool

    def _restart(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is not broken:
                return  # another call restarted it already
            self._pool = None
        self._log("a reader process stopped; its reads ran on the server's threads")
        broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the processes; the calls they run finish first."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
