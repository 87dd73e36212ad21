"""`memrepo hub`: bind 127.0.0.1 (never another address), print the login URL, serve.

The socket is bound before the app is built, so the gate's Host and Origin rules know
the real port (`--port 0` picks a free one). The URL carries a one-time token; the
browser opens it unless told not to. Ctrl-C stops the server and closes the repo.
"""

from __future__ import annotations

import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from memrepo.engine import MemoryRepo
from memrepo.errors import InvalidArgument
from memrepo.hub.app import Hub, build_app

HOST = "127.0.0.1"
DEFAULT_PORT = 8766
SHUTDOWN_GRACE_SECONDS = 5

Log = Callable[[str], None]


def stderr_log(line: str) -> None:
    print(f"memrepo hub: {line}", file=sys.stderr, flush=True)


def _stdout(line: str) -> None:
    print(line, flush=True)


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:`port` (0: a free one)."""
    if not 0 <= port <= 65535:
        raise InvalidArgument(f"port {port} is not a TCP port (0 to 65535)")
    # IPPROTO_TCP spelled out: asyncio sets TCP_NODELAY only on sockets that say so
    # (without it each response's last write waits for the client's delayed ACK).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise InvalidArgument(
            f"cannot serve on {HOST}:{port}: {exc.strerror or exc}; pick another --port "
            "(--port 0 takes any free one)"
        ) from exc
    return sock


class HubServer(uvicorn.Server):
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


def server_for(
    repo: MemoryRepo, sock: socket.socket, on_ready: Callable[[Hub], None], log: Log
) -> tuple[HubServer, Hub]:
    """The server of `repo` on `sock` (not started) and the hub it serves."""
    app: Any
    app, hub = build_app(repo, port=sock.getsockname()[1], log=log)
    config = uvicorn.Config(
        app,
        log_config=None,  # uvicorn's own lines would repeat the gate's; errors still show
        log_level="warning",
        access_log=False,
        lifespan="off",
        ws="none",
        proxy_headers=False,  # the client address checked is the peer's, never a header's
        server_header=False,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
    )
    return HubServer(config, lambda: on_ready(hub)), hub


def run_hub(
    repo: MemoryRepo,
    *,
    port: int = DEFAULT_PORT,
    open_browser: bool = True,
    out: Callable[[str], None] | None = None,
    log: Log = stderr_log,
) -> None:
    """Blocking entry point for the CLI: bind, print the login URL, serve until Ctrl-C;
    closes the repo at the end."""
    say = out or _stdout
    try:
        sock = bind(port)
        with sock:

            def ready(hub: Hub) -> None:
                url = hub.login_url
                say(f"Memory Hub of {repo.root}: {url}")
                say("(the address works once; Ctrl-C stops the hub)")
                if open_browser:
                    webbrowser.open(url)

            server, _ = server_for(repo, sock, ready, log)
            server.run(sockets=[sock])
            log("stopped")
    finally:
        repo.close()
