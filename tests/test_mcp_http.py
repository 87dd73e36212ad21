"""`memrepo mcp --http` end to end: real server processes on 127.0.0.1 (a free port each),
driven with the MCP SDK's own Streamable HTTP client and with raw HTTP where the client
would never send what an attacker does; the git CLI checks what landed in the repo."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from starlette.responses import PlainTextResponse

from memrepo import MemoryRepo
from memrepo.cli import mcp as cli_mcp
from memrepo.errors import MemrepoError
from memrepo.mcp import http as mcp_http
from memrepo.tools import MemoryTools, anthropic_tools, default_registry

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PROJECT = Path(__file__).resolve().parents[1]
#: `memrepo` as the console script runs it, without depending on where pip put the script.
LAUNCH = "import sys; from memrepo.cli import main; sys.exit(main())"
TASK = "mcp-http-test-task"
TOKEN = "s3cret-token-for-the-http-tests"
MIB = 1024 * 1024
#: Only a guard against a hang; nothing here asserts how fast anything is.
PATIENCE = 60.0


@dataclass
class Served:
    """One `memrepo mcp --http` process and what it printed on stderr."""

    process: subprocess.Popen[str]
    url: str
    reader: threading.Thread
    lines: list[str] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].split("/")[0])

    def log(self) -> str:
        return "\n".join(self.lines)

    def stop(self) -> int:
        """Ctrl-C, as a person stops it; the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=PATIENCE)


Serve = Callable[..., Served]


def command(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-c", LAUNCH, "--repo", str(root), "mcp", "--task", TASK, *args]


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != mcp_http.TOKEN_ENV}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")]))
    return env | extra


@pytest.fixture
def serve() -> Iterator[Serve]:
    """Start servers (`serve(root, "--token-file", path)`) on free ports; each one is
    killed with its process group when the test ends, however it ends."""
    started: list[Served] = []

    def start(root: Path, *args: str, **env: str) -> Served:
        process = subprocess.Popen(
            command(root, "--http", "--port", "0", *args),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True, env=environment(**env), cwd=PROJECT, start_new_session=True,
        )  # fmt: skip
        lines: list[str] = []
        ready: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            assert process.stderr is not None
            for line in process.stderr:
                lines.append(line.rstrip("\n"))
                if "serving http://" in line:
                    ready.put(line.split("serving ", 1)[1].split()[0])
            ready.put(None)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        url = ready.get(timeout=PATIENCE)
        served = Served(process, url or "", reader, lines)
        started.append(served)
        assert url is not None, served.log()
        return served

    try:
        yield start
    finally:
        for served in started:
            if served.process.poll() is None:
                os.killpg(served.process.pid, signal.SIGKILL)
            served.process.wait()
            served.reader.join(timeout=PATIENCE)
            assert served.process.stderr is not None
            served.process.stderr.close()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "mem"
    MemoryRepo.init(path).close()
    return path


@pytest.fixture
def token_file(tmp_path: Path) -> Path:
    path = tmp_path / "token"
    path.write_text(f"{TOKEN}\n", encoding="utf-8")
    path.chmod(0o600)
    return path


def git_log(repo: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "log", "--format=%s%n%b"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


@asynccontextmanager
async def client(url: str, token: str | None = TOKEN, mode: Any = "auto") -> AsyncIterator[Client]:
    """The SDK's client over its Streamable HTTP transport, sending `token`."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(PATIENCE)) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode) as session,
    ):
        yield session


def structured(result: Any) -> dict[str, Any]:
    assert result.is_error is False, result.content
    data: dict[str, Any] = result.structured_content
    return data


# --- the round trip -----------------------------------------------------------------------


async def round_trip(url: str, mode: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with client(url, mode=mode) as session:
        listed = await session.list_tools()
        seen["tools"] = sorted(t.name for t in listed.tools)
        seen["schemas"] = {t.name: t.input_schema for t in listed.tools}
        seen["remember"] = structured(
            await session.call_tool("memory_remember", {"text": "Deploys go through staging"})
        )
        seen["recall"] = structured(
            await session.call_tool("memory_recall", {"query": "deploys staging"})
        )
    return seen


@pytest.mark.parametrize("mode", ["auto", "legacy"])
@pytest.mark.slow
def test_round_trip_over_http(serve: Serve, root: Path, token_file: Path, mode: str) -> None:
    """Both eras of the protocol: the 2026 per-request one the SDK negotiates by default,
    and the initialize handshake with a session that today's hosts speak."""
    served = serve(root, "--token-file", str(token_file))
    assert served.url == f"http://127.0.0.1:{served.port}/mcp"
    seen = anyio.run(round_trip, served.url, mode)

    assert seen["tools"] == sorted(t["name"] for t in anthropic_tools())
    # memrepo.mcp.http hands the SDK these schemas for its per-call Mcp-Param check:
    # they must be the ones tools/list advertises.
    assert seen["schemas"] == {tool.name: tool.parameters() for tool in default_registry()}
    assert seen["remember"]["status"] == "written"
    (hit,) = seen["recall"]["hits"]
    assert hit["text"] == "Deploys go through staging" and hit["ref"] == seen["remember"]["ref"]
    log = git_log(root)
    assert "Remember: Deploys go through staging" in log
    assert f"Memrepo-Task: {TASK}" in log

    assert served.stop() == 0
    text = served.log()
    assert "tools/call memory_remember -> 200" in text
    assert "tools/call memory_recall -> 200" in text
    # Who called what, never what was said, never the credential.
    assert "Deploys" not in text and "staging" not in text and TOKEN not in text
    assert served.lines[-1] == "memrepo mcp: stopped"
    assert "Traceback" not in text


async def call_with_open_session_then(url: str, stop: Callable[[], int]) -> int:
    async with client(url, mode="legacy") as session:  # holds its GET event stream open
        await session.list_tools()
        return await anyio.to_thread.run_sync(stop)


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_while_a_session_is_open(
    serve: Serve, root: Path, token_file: Path
) -> None:
    served = serve(root, "--token-file", str(token_file))
    assert anyio.run(call_with_open_session_then, served.url, served.stop) == 0
    assert served.lines[-1] == "memrepo mcp: stopped"
    assert "event stream -> 200" in served.log()
    assert "Traceback" not in served.log() and "ASGI" not in served.log()


# --- refusals -------------------------------------------------------------------------------


def post(url: str, headers: dict[str, str], body: bytes = b"{}") -> httpx2.Response:
    base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    return httpx2.post(url, headers=base | headers, content=body, timeout=PATIENCE)


#: The opening request of a session: the one request a client may send with no session.
OPENING = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw-http-test", "version": "1"},
        },
    }
).encode()


@pytest.mark.slow
def test_requests_without_the_right_token_host_or_origin_are_refused(
    serve: Serve, root: Path
) -> None:
    served = serve(root, "--allowed-host", "memory.example", MEMREPO_MCP_TOKEN=TOKEN)
    good = {"Authorization": f"Bearer {TOKEN}"}

    def status(headers: dict[str, str]) -> int:
        return post(served.url, headers, OPENING).status_code

    missing = post(served.url, {}, OPENING)
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"].startswith("Bearer")
    assert status({"Authorization": "Bearer wrong-token-wrong-token"}) == 401
    assert status({"Authorization": f"Bearer {TOKEN}x"}) == 401
    assert status({"Authorization": f"Basic {TOKEN}"}) == 401
    # DNS rebinding: the right token cannot make a foreign name acceptable.
    assert status(good | {"Host": f"evil.example:{served.port}"}) == 421
    assert status(good | {"Host": "127.0.0.1:1"}) == 421
    assert status(good | {"Origin": "http://evil.example"}) == 403
    assert status(good | {"Origin": "null"}) == 403

    # What is allowed still gets through, on the same server.
    assert status(good | {"Host": f"localhost:{served.port}"}) == 200
    assert status(good | {"Origin": f"http://127.0.0.1:{served.port}"}) == 200
    # The name a TLS proxy in front forwards, as --allowed-host named it.
    assert status(good | {"Host": "memory.example", "Origin": "https://memory.example"}) == 200
    assert status(good) == 200

    log = served.log()
    assert log.count("refused (missing or wrong bearer token) -> 401") == 4
    assert log.count("refused (wrong Host header) -> 421") == 2
    assert log.count("refused (Origin not allowed) -> 403") == 2
    assert "evil.example" not in log and TOKEN not in log


async def list_tools(url: str, token: str | None) -> list[str]:
    async with client(url, token=token) as session:
        return [t.name for t in (await session.list_tools()).tools]


@pytest.mark.slow
def test_the_sdk_client_without_the_token_gets_nothing(
    serve: Serve, root: Path, token_file: Path
) -> None:
    served = serve(root, "--token-file", str(token_file))
    for token in (None, "not-the-token-at-all"):
        with pytest.raises(BaseExceptionGroup) as caught:
            anyio.run(list_tools, served.url, token)
        assert caught.group_contains(MCPError, depth=None)
    assert "memory_recall" in anyio.run(list_tools, served.url, TOKEN)


async def remember_too_much(url: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with client(url) as session:
        with pytest.raises(MCPError) as refused:
            await session.call_tool("memory_remember", {"text": "x" * (2 * MIB)})
        seen["refused"] = str(refused.value)
        seen["after"] = structured(await session.call_tool("memory_recall", {"query": "x"}))
    return seen


def raw_reply(port: int, head: bytes, body: bytes) -> bytes:
    """Send `head` and `body` as they are and read the first bytes of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as sock:
        sock.sendall(head + body)
        return sock.recv(4096)


def request_head(port: int, *lines: str) -> bytes:
    fixed = [
        "POST /mcp HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        f"Authorization: Bearer {TOKEN}",
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        *lines,
    ]
    return ("\r\n".join(fixed) + "\r\n\r\n").encode()


@pytest.mark.slow
def test_an_oversized_body_is_refused_and_the_server_keeps_serving(
    serve: Serve, root: Path, token_file: Path
) -> None:
    served = serve(root, "--token-file", str(token_file))
    seen = anyio.run(remember_too_much, served.url)
    assert seen["after"]["hits"] == []
    assert "Remember:" not in git_log(root)

    # A declared length over the limit is refused before the body is sent at all: the
    # answer comes although 100 MiB never arrive.
    head = request_head(served.port, f"Content-Length: {100 * MIB}")
    assert raw_reply(served.port, head, b"{").startswith(b"HTTP/1.1 413")
    # Without a length (chunked), reading stops at the limit.
    chunk = b"%x\r\n%s\r\n" % (64 * 1024, b" " * (64 * 1024))
    head = request_head(served.port, "Transfer-Encoding: chunked")
    assert raw_reply(served.port, head, chunk * 17).startswith(b"HTTP/1.1 413")

    assert post(served.url, {"Authorization": f"Bearer {TOKEN}"}, OPENING).status_code == 200
    assert served.log().count("refused (request body too large) -> 413") == 3


@pytest.mark.parametrize(
    ("body", "logged"),
    [
        (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "memory_recall",'
         b' "arguments": {"query": "the secret plan"}}}', "tools/call memory_recall"),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x\\nforged"}}',
         "tools/call ?"),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "the secret plan"}', "?"),
        (b'{"jsonrpc": "2.0", "id": 1, "result": {}}', "response"),
        (b"[" * 100_000, "?"),
        (b"not json", "?"),
    ],
)  # fmt: skip
def test_the_log_names_what_was_called_and_nothing_a_client_wrote(body: bytes, logged: str) -> None:
    assert mcp_http.describe(body) == logged


def test_which_hosts_are_accepted() -> None:
    assert mcp_http.is_loopback("127.0.0.1") and mcp_http.is_loopback("::1")
    assert mcp_http.is_loopback("localhost")
    assert not mcp_http.is_loopback("0.0.0.0") and not mcp_http.is_loopback("10.0.0.5")
    assert not mcp_http.is_loopback("memory.example")
    assert mcp_http.allowed_hosts("127.0.0.1", 8765) == [
        "127.0.0.1:8765", "localhost:8765", "[::1]:8765",
    ]  # fmt: skip
    assert mcp_http.allowed_hosts("10.0.0.5", 8765) == ["10.0.0.5:8765"]
    everywhere = mcp_http.allowed_hosts("0.0.0.0", 8765, ("memory.example",))
    assert "localhost:8765" in everywhere and "memory.example" in everywhere
    assert "0.0.0.0:8765" not in everywhere


# --- refusing to start ----------------------------------------------------------------------


def refused_start(root: Path, *args: str, **env: str) -> tuple[int, str]:
    done = subprocess.run(
        command(root, *args),
        capture_output=True, text=True, env=environment(**env), cwd=PROJECT,
        timeout=PATIENCE,
    )  # fmt: skip
    return done.returncode, done.stderr


@pytest.mark.slow
def test_it_will_not_serve_beyond_loopback_without_a_token(root: Path, tmp_path: Path) -> None:
    code, err = refused_start(root, "--http", "--host", "0.0.0.0", "--port", "0")
    assert code == 1
    (line,) = err.splitlines()
    assert line.startswith("memrepo: refusing to serve on 0.0.0.0")
    assert "--token-file" in line and mcp_http.TOKEN_ENV in line

    code, err = refused_start(
        root, "--http", "--host", "0.0.0.0", "--port", "0", MEMREPO_MCP_TOKEN="short"
    )
    assert code == 1 and "at least 16" in err and len(err.splitlines()) == 1

    empty = tmp_path / "empty-token"
    empty.write_text("\n")
    code, err = refused_start(root, "--http", "--port", "0", "--token-file", str(empty))
    assert code == 1 and "is empty" in err

    code, err = refused_start(root, "--port", "8000")
    assert code == 2 and "--port only apply with --http" in err


def test_the_cli_default_port_is_the_servers() -> None:
    assert cli_mcp.DEFAULT_PORT == mcp_http.DEFAULT_PORT
    assert cli_mcp.TOKEN_ENV == mcp_http.TOKEN_ENV


# --- many clients -----------------------------------------------------------------------------

CLIENTS = 20
WRITES = 3


def fact(client_no: int, write_no: int) -> str:
    shelf = client_no * 10 + write_no
    return f"Client {client_no} note {write_no}: the build cache lives on shelf {shelf}"


async def one_client(url: str, client_no: int, results: list[dict[str, Any]]) -> None:
    async with client(url) as session:
        for write_no in range(WRITES):
            text = fact(client_no, write_no)
            results.append(structured(await session.call_tool("memory_remember", {"text": text})))
        results.append(structured(await session.call_tool("memory_recall", {"query": "shelf"})))


async def many_clients(url: str) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    async with anyio.create_task_group() as group:
        for client_no in range(CLIENTS):
            group.start_soon(one_client, url, client_no, results)
    return results


@pytest.mark.slow
def test_twenty_concurrent_clients_lose_nothing(serve: Serve, root: Path) -> None:
    served = serve(root, MEMREPO_MCP_TOKEN=TOKEN)
    results = anyio.run(many_clients, served.url)

    writes = [r for r in results if "status" in r]
    assert len(writes) == CLIENTS * WRITES
    assert all(r["status"] == "written" for r in writes)
    assert len({r["commit"] for r in writes}) == CLIENTS * WRITES
    assert sum("hits" in r for r in results) == CLIENTS
    log = git_log(root)
    for client_no in range(CLIENTS):
        for write_no in range(WRITES):
            assert f"Remember: {fact(client_no, write_no)}" in log
    assert served.log().count("tools/call memory_remember -> 200") == CLIENTS * WRITES
    assert served.stop() == 0


# --- what the SDK's own client sends wrong, invalid JSON, a client that hangs up ---------


async def list_tools_with(url: str, headers: dict[str, str]) -> list[str]:
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(PATIENCE)) as http,
        Client(streamable_http_client(url, http_client=http)) as session,
    ):
        return [t.name for t in (await session.list_tools()).tools]


def test_the_sdk_client_with_a_foreign_host_or_origin_gets_nothing(
    serve: Serve, root: Path, token_file: Path
) -> None:
    served = serve(root, "--token-file", str(token_file))
    good = {"Authorization": f"Bearer {TOKEN}"}
    for wrong in ({"Host": f"evil.example:{served.port}"}, {"Origin": "http://evil.example"}):
        with pytest.raises(BaseExceptionGroup) as caught:
            anyio.run(list_tools_with, served.url, good | wrong)
        assert caught.group_contains(MCPError, depth=None)
    assert "memory_recall" in anyio.run(list_tools_with, served.url, good)
    log = served.log()
    assert "refused (wrong Host header) -> 421" in log
    assert "refused (Origin not allowed) -> 403" in log


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{not json", -32700),
        (b"\xff\xfe\x00", -32700),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ', -32700),
        (b"[]", -32602),
        (b'"a string"', -32602),
        (b'{"jsonrpc": "2.0"}', -32602),
    ],
)
def test_invalid_json_is_a_json_rpc_error_and_the_server_keeps_serving(
    serve: Serve, root: Path, token_file: Path, body: bytes, code: int
) -> None:
    served = serve(root, "--token-file", str(token_file))
    answer = post(served.url, {"Authorization": f"Bearer {TOKEN}"}, body)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == code
    assert post(served.url, {"Authorization": f"Bearer {TOKEN}"}, OPENING).status_code == 200
    assert "Remember:" not in git_log(root)
    assert served.log().count(" -> 400 in ") == 1 and "Traceback" not in served.log()


HOLD_LOCK = """
import sys
from pathlib import Path
from memrepo.folder.lock import WriteLock
with WriteLock(Path(sys.argv[1]), 10):
    print("held", flush=True)
    sys.stdin.readline()
"""


def modern_call(port: int, name: str, arguments: dict[str, Any]) -> bytes:
    """One tools/call POST of the 2026 protocol era (no session needed), as raw bytes."""
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    version = MODERN_PROTOCOL_VERSIONS[-1]
    meta = {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": {"name": "hang-up", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    params = {"name": name, "arguments": arguments, "_meta": meta}
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params})
    head = request_head(
        port,
        f"Content-Length: {len(body)}",
        f"MCP-Protocol-Version: {version}",
        "Mcp-Method: tools/call",
        f"Mcp-Name: {name}",
    )
    return head + body.encode()


def test_a_client_that_hangs_up_mid_call_leaves_the_repo_whole(
    serve: Serve, root: Path, token_file: Path
) -> None:
    """The call waits for another process's write lock; the client closes its connection;
    then the lock is released. The write lands whole or not at all, and the same server
    goes on answering."""
    served = serve(root, "--token-file", str(token_file))
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(root / ".git" / "memrepo")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=environment(),
    )  # fmt: skip
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    try:
        with socket.create_connection(("127.0.0.1", served.port), timeout=PATIENCE) as sock:
            sock.sendall(modern_call(served.port, "memory_remember", {"text": "Left mid-call"}))
            # Not a timing assertion: only a moment for the call to reach the lock.
            threading.Event().wait(0.5)
    finally:
        holder.communicate("\n", timeout=PATIENCE)

    async def again() -> dict[str, Any]:
        async with client(served.url) as session:
            return structured(
                await session.call_tool("memory_remember", {"text": "A later write lands"})
            )

    assert anyio.run(again)["status"] == "written"
    log = git_log(root)
    assert "Remember: A later write lands" in log
    assert log.count("Remember: Left mid-call") <= 1  # whole or not at all
    done = subprocess.run(["git", "-C", str(root), "fsck", "--strict"], capture_output=True)
    assert done.returncode == 0, done.stderr
    status = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain"], capture_output=True, text=True
    )
    assert status.stdout == ""
    assert served.process.poll() is None and "Traceback" not in served.log()


async def write_through(session: Client, label: str, count: int) -> list[dict[str, Any]]:
    return [
        structured(
            await session.call_tool(
                "memory_remember", {"text": f"Server {label} fact {n} about the build cache"}
            )
        )
        for n in range(count)
    ]


def test_a_stdio_server_and_an_http_server_on_one_repo_lose_nothing(
    serve: Serve, root: Path, token_file: Path
) -> None:
    """Two server processes on the same repo, writing at once: every write lands, one
    commit each, and git finds nothing wrong."""
    from mcp.client.stdio import StdioServerParameters

    served = serve(root, "--token-file", str(token_file))
    stdio = StdioServerParameters(
        command=sys.executable,
        args=command(root)[1:],
        env={k: v for k, v in environment().items() if k.startswith(("GIT_", "HOME", "PY"))},
        cwd=str(PROJECT),
    )
    per_server = 25

    async def both() -> list[dict[str, Any]]:
        results: list[dict[str, Any]] = []
        async with client(served.url) as remote, Client(stdio) as local:

            async def run(session: Client, label: str) -> None:
                results.extend(await write_through(session, label, per_server))

            async with anyio.create_task_group() as group:
                group.start_soon(run, remote, "http")
                group.start_soon(run, local, "stdio")
        return results

    results = anyio.run(both)
    assert len(results) == 2 * per_server and all(r["status"] == "written" for r in results)
    assert len({r["commit"] for r in results}) == 2 * per_server
    log = git_log(root)
    for label in ("http", "stdio"):
        for n in range(per_server):
            assert f"Remember: Server {label} fact {n} about the build cache" in log
    done = subprocess.run(["git", "-C", str(root), "fsck", "--strict"], capture_output=True)
    assert done.returncode == 0, done.stderr


def test_the_token_check_compares_digests_of_one_length() -> None:
    """Constant time by construction: whatever a client sends is hashed to 32 bytes
    before `hmac.compare_digest` compares it with the token's digest, so neither a wrong
    token's content nor its length changes what is compared (no timing is measured here:
    the suite has no timed assertions)."""
    hosts = mcp_http.allowed_hosts("127.0.0.1", 8765)
    logged: list[str] = []
    gate = mcp_http.Gate(
        PlainTextResponse("ok"),
        settings=mcp_http.security_settings(hosts),
        token=TOKEN,
        max_body=MIB,
        log=logged.append,
    )
    assert gate.digest is not None
    for given in ("", "x", TOKEN[:-1], TOKEN + "x", "y" * 10_000):
        assert len(mcp_http._digest(given)) == len(gate.digest) == 32
    assert gate._authorized(f"Bearer {TOKEN}") and gate._authorized(f"bearer {TOKEN}")
    for header in (None, "", "Bearer", f"Bearer {TOKEN[:-1]}", f"Bearer {TOKEN}x",
                   f"Basic {TOKEN}", TOKEN, f"Bearer{TOKEN}"):  # fmt: skip
        assert not gate._authorized(header), header


# --- reader processes (issue #28) ---------------------------------------------------------


def children(pid: int) -> list[int]:
    """The server's reader processes, as `ps --ppid` lists them (not multiprocessing's
    resource tracker, which runs beside them)."""
    done = subprocess.run(
        ["ps", "-ww", "-o", "pid=,args=", "--ppid", str(pid)],
        capture_output=True,
        text=True,
        check=False,
    )
    rows = [line.split(None, 1) for line in done.stdout.splitlines() if line.strip()]
    return [int(row[0]) for row in rows if "spawn_main" in row[-1]]


def wait_for_children(pid: int, count: int) -> list[int]:
    deadline = time.monotonic() + PATIENCE
    found = children(pid)
    while len(found) < count and time.monotonic() < deadline:
        time.sleep(0.05)
        found = children(pid)
    return found


async def remember_then_recall(url: str, n: int) -> dict[str, Any]:
    async with client(url) as session:
        structured(await session.call_tool("memory_remember", {"text": f"Kite number {n} is red"}))
        return structured(await session.call_tool("memory_recall", {"query": f"kite {n} red"}))


def test_reads_in_reader_processes_see_each_write_and_survive_a_killed_reader(
    serve: Serve, root: Path, token_file: Path
) -> None:
    served = serve(root, "--token-file", str(token_file), "--read-processes", "2")
    readers = wait_for_children(served.process.pid, 2)
    assert len(readers) == 2

    for n in range(3):  # each recall runs in another process, right after the write
        found = anyio.run(remember_then_recall, served.url, n)
        assert f"Kite number {n} is red" in found["hits"][0]["text"]

    os.kill(readers[0], signal.SIGKILL)
    found = anyio.run(remember_then_recall, served.url, 7)
    assert "Kite number 7 is red" in found["hits"][0]["text"]
    found = anyio.run(remember_then_recall, served.url, 8)  # on new reader processes
    assert "Kite number 8 is red" in found["hits"][0]["text"]
    assert "a reader process stopped" in served.log()
    assert served.stop() == 0
    assert children(served.process.pid) == []


def test_a_refusal_in_a_reader_process_reads_as_in_the_server(
    serve: Serve, root: Path, token_file: Path
) -> None:
    arguments = {"path": "../outside.md"}
    with MemoryRepo.open(root) as repo, pytest.raises(MemrepoError) as refused:
        MemoryTools(repo).dispatch("memory_read", arguments)
    served = serve(root, "--token-file", str(token_file), "--read-processes", "1")

    async def read() -> Any:
        async with client(served.url) as session:
            return await session.call_tool("memory_read", arguments)

    result = anyio.run(read)
    assert result.is_error is True
    assert result.content[0].text == str(refused.value)
    assert "Traceback" not in served.log()


def test_the_read_processes_option_is_checked(root: Path) -> None:
    code, err = refused_start(root, "--read-processes", "2")
    assert code == 2 and err.strip() == "memrepo: --read-processes only apply with --http"
    code, err = refused_start(root, "--http", "--port", "0", "--read-processes", "99")
    assert code == 1 and err.strip() == "memrepo: --read-processes 99: use 0 to 32"
