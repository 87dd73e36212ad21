"""`memrepo mcp --http`: the same MCP server as stdio, over the SDK's Streamable HTTP
transport, for agents that run on other machines than their memory.

What stands between the network and the memory (`Gate`, in this order, on every request):

- `Host` must name the address served (DNS rebinding: a web page that got a hostile name
  to resolve to 127.0.0.1 still sends its own name), else 421; an `Origin`, when a browser
  sends one, must be that same address, else 403. The SDK checks the same lists again
  (`TransportSecuritySettings`); ours runs first so nothing unchecked reaches a session.
- `Authorization: Bearer <token>`, compared in constant time, else 401. A token is
  mandatory off loopback: the server refuses to start without one.
- The body is read up to `max_body` bytes, never further; beyond it 413 (a declared
  `Content-Length` over the limit is refused before a byte is read).

Every request leaves one line on stderr: client address, HTTP method, JSON-RPC method,
tool name, status, duration. Never arguments, results or memory text.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import os
import re
import socket
import sys
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp.server.transport_security import TransportSecuritySettings
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memrepo.engine import MemoryRepo
from memrepo.errors import InvalidArgument
from memrepo.mcp.readers import MAX_READ_PROCESSES, ReaderSpec, ReadProcesses
from memrepo.mcp.server import build_server, workers_for
from memrepo.serving import ReadyServer, RepoWorkers, bind_tcp, quiet_config, read_body
from memrepo.tools import MemoryTools

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
ENDPOINT = "/mcp"
TOKEN_ENV = "MEMREPO_MCP_TOKEN"
MAX_BODY_BYTES = 1024 * 1024
MIN_TOKEN_CHARS = 16
TOKEN_HINT = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'
#: How long Ctrl-C waits for calls in flight before cancelling them.

Log = Callable[[str], None]

_LOOPBACK_NAMES = ("localhost",)
_WILDCARDS = ("0.0.0.0", "::", "")
#: Client-chosen names (method, tool) are logged only when they look like names, so a
#: hostile client cannot put memory text or forged lines into the log through them.
_NAME = re.compile(r"[A-Za-z0-9_./-]{1,64}")
_TOKEN_CHARS = re.compile(r"[\x21-\x7e]+")
_WITHOUT_BODY = {"GET": "event stream", "DELETE": "end session"}


def stderr_log(line: str) -> None:
    """The default `Log`: one line on stderr, flushed (a supervisor may be tailing it)."""
    print(f"memrepo mcp: {line}", file=sys.stderr, flush=True)


@dataclass(frozen=True, slots=True)
class HttpSettings:
    """Where and how `memrepo mcp --http` serves; `check()` says whether it may."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    token: str | None = field(default=None, repr=False)
    max_body: int = MAX_BODY_BYTES
    #: More `Host` values to accept (the name behind a reverse proxy, a DNS name).
    extra_hosts: tuple[str, ...] = ()
    #: Processes that run read-only tool calls beside the server (`memrepo.mcp.readers`);
    #: 0 runs them on the server's reader threads.
    read_processes: int = 0

    def check(self) -> None:
        """InvalidArgument when serving like this would be unsafe or cannot work."""
        if not 0 <= self.port <= 65535:
            raise InvalidArgument(f"port {self.port} is not a TCP port (0 to 65535)")
        if self.max_body <= 0:
            raise InvalidArgument("the request size limit must be a positive number of bytes")
        if not 0 <= self.read_processes <= MAX_READ_PROCESSES:
            raise InvalidArgument(
                f"--read-processes {self.read_processes}: use 0 to {MAX_READ_PROCESSES}"
            )
        if self.token is None:
            if not is_loopback(self.host):
                raise InvalidArgument(
                    f"refusing to serve on {self.host}, which is not a loopback address, "
                    f"without a bearer token: pass --token-file or set ${TOKEN_ENV} "
                    f"(make one with: {TOKEN_HINT})"
                )
            return
        if len(self.token) < MIN_TOKEN_CHARS or not _TOKEN_CHARS.fullmatch(self.token):
            raise InvalidArgument(
                f"the bearer token must be at least {MIN_TOKEN_CHARS} visible ASCII "
                f"characters without spaces (make one with: {TOKEN_HINT})"
            )


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address to bind) is reachable from this machine only."""
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to anything


def load_token(token_file: Path | None, environ: Mapping[str, str]) -> str | None:
    """The bearer token from `token_file` (its text, trimmed), else `$MEMREPO_MCP_TOKEN`,
    else None. A token file others can read is served, with a warning."""
    if token_file is None:
        value = environ.get(TOKEN_ENV, "").strip()
        return value or None
    try:
        text = token_file.read_text(encoding="utf-8")
        mode = token_file.stat().st_mode
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise InvalidArgument(f"cannot read the token file {token_file}: {reason}") from exc
    token = text.strip()
    if not token:
        raise InvalidArgument(f"the token file {token_file} is empty (make one with: {TOKEN_HINT})")
    if os.name == "posix" and mode & 0o077:
        warnings.warn(
            f"the token file {token_file} is readable by other users; chmod 600 it",
            UserWarning,
            stacklevel=2,
        )
    return token


def host_header(host: str, port: int) -> str:
    """How a client writes `host`:`port` in a `Host` header (IPv6 in brackets)."""
    name = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"{name}:{port}"


def allowed_hosts(host: str, port: int, extra: tuple[str, ...] = ()) -> list[str]:
    """The `Host` values a request may carry: the address served, its loopback names
    when it is loopback, this machine's names when it is bound to every interface."""
    names = [host]
    if is_loopback(host) or host in _WILDCARDS:
        names += ["127.0.0.1", "localhost", "::1"]
    if host in _WILDCARDS:
        names += _machine_names()
    found = [host_header(name, port) for name in names if name not in _WILDCARDS]
    if port == 80:  # a client may leave the default port out
        found += [value.rsplit(":", 1)[0] for value in found]
    found += list(extra)
    return list(dict.fromkeys(value.lower() for value in found))


def _machine_names() -> list[str]:
    """This machine's host names and the addresses they resolve to (best effort: a
    machine without DNS still serves its names and loopback)."""
    names = [socket.gethostname(), socket.getfqdn()]
    for name in list(names):
        try:
            infos = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
        except OSError:
            continue
        names += [str(info[4][0]) for info in infos]
    return names


def security_settings(hosts: list[str]) -> TransportSecuritySettings:
    """The SDK's own Host/Origin check, fed the same exact lists as `Gate`."""
    origins = [f"{scheme}://{value}" for value in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


# --- the gate ---------------------------------------------------------------------------


class Gate:
    """ASGI middleware in front of the SDK's app: Host, Origin, token, body size, log."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        settings: TransportSecuritySettings,
        token: str | None,
        max_body: int,
        log: Log,
    ) -> None:
        self.app = app
        # Host names are case-insensitive (RFC 9110); compared lower-case on both sides.
        self.hosts = frozenset(value.lower() for value in settings.allowed_hosts)
        self.origins = frozenset(value.lower() for value in settings.allowed_origins)
        self.digest = _digest(token) if token is not None else None
        self.max_body = max_body
        self.log = log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan; websockets are off in uvicorn
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = [0, 0]  # the HTTP status, whether the response was finished

        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            elif not message.get("more_body", False):
                status[1] = 1
            await send(message)

        what = "-"
        try:
            refusal = self._refusal(_headers(scope))
            if refusal is None:
                body = await read_body(receive, self.max_body)
                if body is None:
                    refusal = (413, "request body too large")
                else:
                    what = describe(body) if body else _WITHOUT_BODY.get(scope["method"], "-")
                    await self.app(scope, _replay(body, receive), watched)
                    if status[0] and not status[1]:
                        # An SSE stream cut short at shutdown: end it properly.
                        await send({"type": "http.response.body", "body": b""})
            if refusal is not None:
                code, reason = refusal
                what = f"refused ({reason})"
                await _plain(code, reason)(scope, receive, watched)
        finally:  # a call that failed or was cut off is logged too
            self.log(_line(scope, what, status[0], time.perf_counter() - started))

    def _refusal(self, headers: Mapping[str, str]) -> tuple[int, str] | None:
        if headers.get("host", "").lower() not in self.hosts:
            return 421, "wrong Host header"
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self.origins:
            return 403, "Origin not allowed"
        if self.digest is not None and not self._authorized(headers.get("authorization")):
            return 401, "missing or wrong bearer token"
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return 413, "request body too large"
        return None

    def _authorized(self, header: str | None) -> bool:
        assert self.digest is not None
        scheme, _, given = (header or "").partition(" ")
        # Digests of equal length: compare_digest then takes the same time for every
        # wrong token, and not even the token's length leaks.
        matches = hmac.compare_digest(_digest(given.strip()), self.digest)
        return scheme.lower() == "bearer" and matches


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest()


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name; a repeated header counts as wrong."""
    found: dict[str, str] = {}
    for raw_name, raw_value in scope["headers"]:
        name = raw_name.decode("latin-1").lower()
        value = raw_value.decode("latin-1")
        found[name] = "\x00repeated" if name in found else value
    return found


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the app the body already read, then the client's events."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> Message:
        return pending.pop() if pending else await receive()

    return replay


def _plain(code: int, reason: str) -> ASGIApp:
    headers = {"WWW-Authenticate": 'Bearer realm="memrepo"'} if code == 401 else None
    return PlainTextResponse(f"{reason}\n", status_code=code, headers=headers)


def describe(body: bytes) -> str:
    """What a request body asks for, in names only: `tools/call memory_recall`,
    `initialize`, `response` (a reply to the server), `?` (not JSON-RPC)."""
    try:
        decoded = json.loads(body)
    except (ValueError, RecursionError):
        return "?"
    messages = decoded if isinstance(decoded, list) else [decoded]
    return ", ".join(_describe_one(message) for message in messages[:10]) or "?"


def _describe_one(message: object) -> str:
    if not isinstance(message, dict):
        return "?"
    method = message.get("method")
    if method is None:
        return "response"
    if not isinstance(method, str) or not _NAME.fullmatch(method):
        return "?"
    params = message.get("params")
    name = params.get("name") if isinstance(params, dict) else None
    if method == "tools/call":
        return f"{method} {name if isinstance(name, str) and _NAME.fullmatch(name) else '?'}"
    return method


def _line(scope: Scope, what: str, status: int, seconds: float) -> str:
    client = scope.get("client")
    who = host_header(str(client[0]), int(client[1])) if client else "?"
    return f"{who} {scope['method']} {what} -> {status} in {seconds * 1000:.1f} ms"


# --- serving ----------------------------------------------------------------------------


def build_app(
    tools: MemoryTools,
    settings: HttpSettings,
    port: int,
    log: Log,
    workers: RepoWorkers[MemoryTools] | None = None,
    processes: ReadProcesses | None = None,
) -> ASGIApp:
    """The ASGI app that serves `tools` at /mcp on `port`, behind the gate. Every
    session shares `workers` (one writer and one pool of reader threads per repo) and
    `processes`, the reader processes, when there are any."""
    hosts = allowed_hosts(settings.host, port, settings.extra_hosts)
    security = security_settings(hosts)
    # With its input schemas looked up once, not per call.
    server = build_server(tools, workers or workers_for(tools, log), log, processes)
    app = server.streamable_http_app(
        streamable_http_path=ENDPOINT,
        # One JSON body per call instead of an SSE stream per POST: a plain response
        # keeps the client's connection alive (SSE costs a new connection a call,
        # ~4 ms); the price is that progress notifications have no stream to go on.
        json_response=True,
        transport_security=security,
        max_request_body_size=settings.max_body,
        host=settings.host,
    )
    return Gate(app, settings=security, token=settings.token, max_body=settings.max_body, log=log)


def bind(settings: HttpSettings) -> socket.socket:
    """A listening socket on the settings' address (port 0: a free one), bound before
    the app is built so the `Host` rules know the real port."""
    return bind_tcp(
        settings.host, settings.port, backlog=2048, hint="pick another --host or --port"
    )


def url_of(settings: HttpSettings, sock: socket.socket) -> str:
    host = "127.0.0.1" if settings.host in _WILDCARDS else settings.host
    return f"http://{host_header(host, sock.getsockname()[1])}{ENDPOINT}"


def serve_http(
    tools: MemoryTools, settings: HttpSettings, sock: socket.socket, log: Log = stderr_log
) -> None:
    """Serve `tools` on `sock` until Ctrl-C or SIGTERM; prints the URL when ready."""
    workers = workers_for(tools, log)
    processes = None
    if settings.read_processes:
        processes = ReadProcesses(ReaderSpec.of(tools), processes=settings.read_processes, log=log)
        processes.start()
    app: Any = build_app(tools, settings, sock.getsockname()[1], log, workers, processes)
    config = quiet_config(app, lifespan="on")
    url = url_of(settings, sock)
    server = ReadyServer(config, lambda: log(f"serving {url} (Ctrl-C to stop)"))
    try:
        server.run(sockets=[sock])
    finally:
        workers.close()
        if processes is not None:
            processes.close()
    log("stopped")


def run_http(
    repo: MemoryRepo, tools: MemoryTools, settings: HttpSettings, log: Log = stderr_log
) -> None:
    """Blocking entry point for the CLI: check, bind, serve; closes the repo at the end.
    While it serves, the memory's daily maintenance pass is started when due."""
    from memrepo.maintenance.background import keep_maintained

    upkeep = keep_maintained(repo.root, repo.folder.state_dir)
    try:
        settings.check()
        sock = bind(settings)
        with sock:
            serve_http(tools, settings, sock, log)
    finally:
        upkeep.set()
        repo.close()
