"""What the two servers memrepo runs share: `memrepo mcp --http` and `memrepo hub`.

Both serve one `MemoryRepo` from an asyncio loop (uvicorn), so both need the same
things: a request body read only up to a limit; repo calls off the loop, one at a time;
a listening socket bound before the app is built (the Host rules need the real port,
`--port 0` picks a free one); and a uvicorn server that says when it is ready and stops
on Ctrl-C or SIGTERM without a traceback.
Needs uvicorn, starlette and anyio, which both extras (`mcp`, `hub`) bring.
"""

from __future__ import annotations

import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal, TypeVar

import anyio
import anyio.to_thread
import uvicorn
from starlette.types import Receive

from memrepo.errors import InvalidArgument

T = TypeVar("T")

#: How long a stopping server lets requests in flight finish.
SHUTDOWN_GRACE_SECONDS = 5


class RepoWorker:
    """Runs repo calls in a worker thread, one at a time, off the event loop.

    The repo's git, SQLite and index handles belong to one thread at a time, and a write
    may wait for another process's lock: the loop keeps answering (`ping`, other pages)
    meanwhile."""

    def __init__(self) -> None:
        self._one = anyio.CapacityLimiter(1)

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        # Not abandoned on cancel: a client that goes away mid-write gets no answer, but
        # the write it asked for finishes whole (the transaction is all or nothing).
        return await anyio.to_thread.run_sync(call, *args, limiter=self._one)


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
