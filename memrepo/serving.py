"""What the two servers memrepo runs share: `memrepo mcp --http` and `memrepo hub`.

Both serve one `MemoryRepo` from an asyncio loop (uvicorn), so both need the same
things: a request body read only up to a limit; repo calls off the loop, reads beside
the one write (`RepoWorkers`); a listening socket bound before the app is built (the
Host rules need the real port, `--port 0` picks a free one); and a uvicorn server that
says when it is ready and stops on Ctrl-C or SIGTERM without a traceback.
Needs uvicorn, starlette and anyio, which both extras (`mcp`, `hub`) bring.
"""

from __future__ import annotations

import signal
import socket
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import anyio
import anyio.to_thread
import uvicorn
from starlette.types import Receive

from memrepo.errors import CallCancelled, InvalidArgument
from memrepo.folder.lock import cancelled_by

if TYPE_CHECKING:
    from memrepo.engine import MemoryRepo

T = TypeVar("T")
H = TypeVar("H")

#: How long a stopping server lets requests in flight finish.
SHUTDOWN_GRACE_SECONDS = 5
#: Reads served at once, each on its own handles. Two cores and one GIL: more readers
#: than this only queue inside Python instead of in front of it (issue #28's profile).
READERS = 4
#: Most writes run under one hold of the write lock: other processes' writers wait for
#: the group as for one long write, so it is bounded.
GROUP_LIMIT = 64


@dataclass(frozen=True, slots=True)
class _Outcome(Generic[T]):
    """What a call in a worker thread gave: a value or the exception it raised (so the
    exception leaves the task group that watches for cancellation unwrapped)."""

    value: T | None = None
    error: BaseException | None = None

    def unwrap(self) -> T:
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[return-value]  # a call may return None


def _capture(flag: threading.Event, call: Callable[[H], T], handle: H) -> _Outcome[T]:
    with cancelled_by(flag):
        try:
            return _Outcome(value=call(handle))
        except Exception as exc:
            return _Outcome(error=exc)


@dataclass(eq=False, slots=True)
class _Write(Generic[H]):
    """One queued write: `state` goes queued -> running or dropped (cancelled before it
    began), decided under `turn` against `flag`, so a cancel never races the start."""

    call: Callable[[H], Any]
    flag: threading.Event = field(default_factory=threading.Event)
    state: Literal["queued", "running", "dropped"] = "queued"
    outcome: _Outcome[Any] | None = None

    def begin(self, turn: threading.Lock) -> bool:
        with turn:
            self.state = "dropped" if self.flag.is_set() else "running"
        return self.state == "running"


async def _flag_on_cancel(flag: threading.Event, finished: anyio.Event) -> None:
    """Raise `flag` when the call's task is cancelled (a `notifications/cancelled`, a
    client gone): the worker thread sees it where a write waits (docs/architecture.md §8)."""
    try:
        await finished.wait()
    except anyio.get_cancelled_exc_class():
        flag.set()
        raise


class RepoWorkers(Generic[H]):
    """Repo calls off the event loop: writes one at a time on the writer's handles,
    reads beside them on handles of their own (issue #28: a read never queues behind a
    write, which may wait up to the lock timeout for another process).

    A handle (a `MemoryRepo`, or `MemoryTools` over one) holds git, SQLite and index
    handles that belong to one thread at a time, so each reader thread takes one from a
    pool of `READERS`, opened with `open_reader` on first need, and gives it back. Two
    handles on one root are as safe together as two processes: writes still serialize on
    the cross-process write lock.

    Writes that queue up behind one another run as a group under one hold of the write
    lock (`hold`): each is still its own transaction and its own commit, but the index
    catches up once behind the group and readers open its new state once, instead of
    once a write (with twenty clients writing, that catch-up was most of a write's time).
    No write of a group answers before the index has caught up, so a client that reads
    right after its write finds it."""

    def __init__(
        self,
        writer: H,
        open_reader: Callable[[], H],
        *,
        hold: Callable[[H], AbstractContextManager[Any]] | None = None,
        close: Callable[[H], None] = lambda handle: None,
        log: Callable[[str], None] = lambda line: None,
        readers: int = READERS,
    ) -> None:
        self.writer = writer
        self._open_reader = open_reader
        self._hold = hold
        self._close = close
        self.log = log
        self._one = anyio.CapacityLimiter(1)
        self._readers = anyio.CapacityLimiter(readers)
        self._free: list[H] = []
        self._opened: list[H] = []
        self._pool = threading.Lock()
        self._queued: deque[_Write[H]] = deque()
        self._turn = threading.Lock()

    async def read(self, call: Callable[[H], T]) -> T:
        """`call` on a reader handle. Not abandoned on cancel: the handle is in use until
        the call returns, and a read changes nothing a cancel would need to undo."""
        return await anyio.to_thread.run_sync(self._on_reader, call, limiter=self._readers)

    async def write(self, call: Callable[[H], T], what: str) -> T:
        """`call` on the writer, after the writes queued before it. Cancelled while it
        queues or waits for the write lock, it writes nothing (`CallCancelled`);
        cancelled once it began, it finishes whole (the transaction is all or nothing)
        and the log says it landed. `what` names the call in those lines."""
        pending: _Write[H] = _Write(call)
        with self._turn:
            self._queued.append(pending)
        finished = anyio.Event()
        try:
            async with anyio.create_task_group() as watch:
                watch.start_soon(_flag_on_cancel, pending.flag, finished)
                try:
                    await anyio.to_thread.run_sync(self._drain, pending, limiter=self._one)
                finally:
                    finished.set()
                    self._tell(what, pending)
        except anyio.get_cancelled_exc_class():
            if pending.outcome is None:  # else `_tell` said what became of it
                with self._turn:
                    began = pending.state == "running"
                self.log(
                    f"{what}: cancelled while it ran; it lands whole"
                    if began
                    else f"{what}: cancelled before it began; nothing was written"
                )
            raise
        assert pending.outcome is not None  # _drain returns once it has run
        result: T = pending.outcome.unwrap()
        return result

    def _drain(self, own: _Write[H]) -> None:
        """Run queued writes, oldest first, until the caller's own has run (a group
        before may have run it already). Each round, only the oldest waits for the lock
        (a write queued behind it can still be cancelled at once, and is dropped when its
        turn comes); the writes queued meanwhile run under the same hold. Until `own` has
        run it is still queued: whoever popped it ran it before giving up `_one`."""
        while own.outcome is None:
            with self._turn:
                first = self._queued.popleft()
            if self._hold is None:
                self._run(first)
                continue
            try:
                with cancelled_by(first.flag), self._hold(self.writer):
                    self._run(first)
                    self._run_queued(GROUP_LIMIT - 1)
            except Exception as exc:  # the lock was not had (cancelled, its timeout)
                if first.outcome is None:
                    first.outcome = _Outcome(error=exc)

    def _run_queued(self, most: int) -> None:
        for _ in range(most):
            with self._turn:
                if not self._queued:
                    return
                pending = self._queued.popleft()
            self._run(pending)

    def _run(self, pending: _Write[H]) -> None:
        if pending.begin(self._turn):
            pending.outcome = _capture(pending.flag, pending.call, self.writer)
        else:
            pending.outcome = _Outcome(error=CallCancelled())

    def _tell(self, what: str, pending: _Write[H]) -> None:
        outcome = pending.outcome
        if outcome is None or not pending.flag.is_set():
            return
        if isinstance(outcome.error, CallCancelled):
            self.log(f"{what}: cancelled while it waited for the write lock; nothing was written")
        elif outcome.error is None:
            self.log(f"{what}: cancelled after it was done; what it wrote stays")

    def _on_reader(self, call: Callable[[H], T]) -> T:
        handle = self._take()
        try:
            return call(handle)
        finally:
            with self._pool:
                self._free.append(handle)

    def _take(self) -> H:
        with self._pool:
            if self._free:
                return self._free.pop()
        handle = self._open_reader()  # outside the pool's lock: opening reads the disk
        with self._pool:
            self._opened.append(handle)
        return handle

    def close(self) -> None:
        """Close the reader handles (the writer's belong to whoever made them); call it
        once the server has stopped, when no call runs."""
        with self._pool:
            opened, self._opened, self._free = self._opened, [], []
        for handle in opened:
            self._close(handle)


def reader_repo(repo: MemoryRepo) -> MemoryRepo:
    """`repo`'s root opened again, with handles of its own for a reader thread: the same
    identity, clock and settings object (a setting a write changes is seen at once)."""
    folder = repo.folder
    return type(repo).open(
        folder.root, identity=folder.identity, clock=folder.clock, config=folder.config
    )


def bind_tcp(host: str, port: int, *, backlog: int, hint: str) -> socket.socket:
    """A listening TCP socket on `host`:`port` (0: a free one); a port that cannot be
    had is an `InvalidArgument` naming it, with `hint` saying what to change."""
    if not 0 <= port <= 65535:
        raise InvalidArgument(f"port {port} is not a TCP port (0 to 65535)")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP spelled out: asyncio sets TCP_NODELAY only on sockets that say so, and
    # without it Nagle holds each response's last write for the client's delayed ACK
    # (40 ms a call on Linux).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(backlog)
    except OSError as exc:
        sock.close()
        where = f"[{host.strip('[]')}]:{port}" if ":" in host else f"{host}:{port}"
        raise InvalidArgument(f"cannot serve on {where}: {exc.strerror or exc}; {hint}") from exc
    return sock


def quiet_config(app: Any, *, lifespan: Literal["on", "off"]) -> uvicorn.Config:
    """uvicorn as both servers run it: its own log lines off (the servers log each
    request themselves, without memory text), no proxy headers (the peer address is the
    one checked and logged, never a header's claim), no websockets, no Server header."""
    return uvicorn.Config(
        app,
        log_config=None,
        log_level="warning",
        access_log=False,
        lifespan=lifespan,
        ws="none",
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
    )


class ReadyServer(uvicorn.Server):
    """uvicorn, told when it is ready, and stopped by Ctrl-C or SIGTERM without the
    signal being raised again afterwards (which would end in a traceback)."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[], None]) -> None:
        super().__init__(config)
        self.on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self.on_ready()

    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield  # signals reach the main thread only; its owner stops this server
            return
        handled = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


async def read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole request body, or None as soon as it grows past `limit` bytes (the rest
    is never read, so an oversized body costs nothing)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away
            break
        chunk: bytes = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)
