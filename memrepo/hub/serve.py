"""`memrepo hub`: bind 127.0.0.1 (never another address), print the login URL, serve.

The socket is bound before the app is built, so the gate's Host and Origin rules know
the real port (`--port 0` picks a free one). The URL carries a one-time token; the
browser opens it unless told not to. Ctrl-C stops the server and closes the repo.

While it serves, the memory is kept maintained: every hour the hub looks whether the
daily maintenance pass is due and, when it is, starts it in a process of its own
(`memrepo.maintenance.background`, as `memrepo mcp` does; issue #32).
"""

from __future__ import annotations

import socket
import sys
import webbrowser
from collections.abc import Callable
from typing import Any

from memrepo.engine import MemoryRepo
from memrepo.hub.app import Hub, build_app
from memrepo.maintenance.background import keep_maintained
from memrepo.serving import ReadyServer, bind_tcp, quiet_config

HOST = "127.0.0.1"
DEFAULT_PORT = 8766

Log = Callable[[str], None]


def stderr_log(line: str) -> None:
    print(f"memrepo hub: {line}", file=sys.stderr, flush=True)


def _stdout(line: str) -> None:
    print(line, flush=True)


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:`port` (0: a free one)."""
    return bind_tcp(
        HOST, port, backlog=128, hint="pick another --port (--port 0 takes any free one)"
    )


def server_for(
    repo: MemoryRepo, sock: socket.socket, on_ready: Callable[[Hub], None], log: Log
) -> tuple[ReadyServer, Hub]:
    """The server of `repo` on `sock` (not started) and the hub it serves."""
    app: Any
    app, hub = build_app(repo, port=sock.getsockname()[1], log=log)
    config = quiet_config(app, lifespan="off")
    return ReadyServer(config, lambda: on_ready(hub)), hub


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

            server, hub = server_for(repo, sock, ready, log)
            upkeep = keep_maintained(repo.root, repo.folder.state_dir)
            try:
                server.run(sockets=[sock])
            finally:
                upkeep.set()
                hub.workers.close()
            log("stopped")
    finally:
        repo.close()
