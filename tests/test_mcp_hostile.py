"""The MCP server under bad input and pressure: every tool with missing, extra, wrong-typed
and hostile arguments, raw garbage on the wire (dropped by the SDK, the next request
answered), 50 concurrent calls, a second server on
the same repo, another process holding the write lock, a client that gives up mid-call.
Each ends in a readable `isError` (or a JSON-RPC error), nothing half-written, and the
server keeps serving."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

import anyio
from mcp import Client
from mcp.shared.exceptions import MCPError

from memrepo import LocalConfig, MemoryRepo
from memrepo.mcp.server import build_server
from memrepo.tools import MemoryTools, ToolContext, default_registry

pytestmark = [pytest.mark.integration, pytest.mark.slow]
CommitCount = Callable[..., int]

PROJECT = Path(__file__).resolve().parents[1]
HUGE = "x" * 10_000_000
TOOL_NAMES = default_registry().names()
HOSTILE_ARGUMENTS: list[dict[str, Any]] = [
    {"bogus": True},
    {"query": 3, "ref": 5, "path": ["a"], "text": {"t": 1}, "limit": "ten", "name": None},
    {"path": "../../etc/passwd", "ref": "folder:../../etc/passwd#x", "file": "/etc/passwd"},
    {"path": ".git/config", "ref": "folder:.git/config#x", "file": ".git/hooks/pre-commit"},
    {"text": HUGE, "query": HUGE, "ref": HUGE, "path": HUGE, "name": HUGE},
    {"text": "a\x00b", "query": "a\x00b", "ref": "folder:a\x00b.md#x", "path": "a\x00b.md"},
    {"limit": 10**30, "offset": -1},
]


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def fresh(tmp_path: Path, **config: Any) -> MemoryRepo:
    root = tmp_path / "mem"
    MemoryRepo.init(root).close()
    return MemoryRepo.open(root, config=LocalConfig(**config)) if config else MemoryRepo.open(root)


def tools_for(repo: MemoryRepo, task: str = "hostile-task") -> MemoryTools:
    return MemoryTools(repo, ToolContext(task_id=task, workspace="Web shop"))


def test_every_tool_refuses_bad_arguments_and_the_server_keeps_serving(tmp_path: Path) -> None:
    repo = fresh(tmp_path)
    repo.remember("The user prefers tea over coffee", by="user")
    before = git(repo.root, "rev-parse", "HEAD")

    async def go() -> list[tuple[str, Any]]:
        results: list[tuple[str, Any]] = []
        async with Client(build_server(tools_for(repo))) as client:
            for name in TOOL_NAMES:
                for arguments in HOSTILE_ARGUMENTS:
                    results.append((name, await client.call_tool(name, arguments)))
            with pytest.raises(MCPError, match="Unknown tool") as unknown:
                await client.call_tool("no_such_tool", {})
            assert unknown.value.error.code == -32602  # a protocol error (spec 2025-11-25)
            last = await client.call_tool("memory_recall", {"query": "tea"})
            results.append(("after", last))
        return results

    results = anyio.run(go)
    *refused, (_, after) = results
    for name, result in refused:
        assert result.is_error is True, (name, result.structured_content)
        (content,) = result.content
        assert len(content.text) < 2000 and "Traceback" not in content.text, name
    assert after.is_error is False and after.structured_content["hits"]
    assert git(repo.root, "rev-parse", "HEAD") == before  # nothing was written
    assert git(repo.root, "status", "--porcelain") == ""


def test_raw_garbage_on_stdio_is_dropped_and_the_server_answers_next(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    MemoryRepo.init(root).close()
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    launch = "import sys; from memrepo.cli import main; sys.exit(main())"
    proc = subprocess.Popen(
        [sys.executable, "-c", launch, "--repo", str(root), "mcp", "--task", "raw"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def send(message: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(message + "\n")
        proc.stdin.flush()

    def receive() -> dict[str, Any]:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line, "the server closed its output"
        answer: dict[str, Any] = json.loads(line)
        return answer

    try:
        send(json.dumps({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "raw", "version": "0"}},
        }))  # fmt: skip
        assert receive()["id"] == 1
        send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        send('{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": ')
        send("\x00\x01 not json at all")
        send(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}))
        # The SDK drops a line that is not JSON-RPC (it has no id to answer); what matters
        # is that the next request is answered, by the same process.
        listed = receive()
        assert listed["id"] == 3 and len(listed["result"]["tools"]) == len(TOOL_NAMES)
        assert proc.poll() is None
    finally:
        proc.kill()
        proc.communicate(timeout=10)  # closes the pipes too


def test_fifty_concurrent_calls_and_a_second_server_lose_nothing(
    tmp_path: Path, commit_count: CommitCount
) -> None:
    first = fresh(tmp_path)
    second = MemoryRepo.open(first.root)

    async def go() -> list[Any]:
        results: list[Any] = []
        async with (
            Client(build_server(tools_for(first, "task-a"))) as a,
            Client(build_server(tools_for(second, "task-b"))) as b,
        ):

            async def call(client: Client, n: int) -> None:
                text = f"Concurrent fact number {n} about the deploy pipeline"
                results.append(await client.call_tool("memory_remember", {"text": text}))

            async with anyio.create_task_group() as group:
                for n in range(50):
                    group.start_soon(call, a if n % 2 else b, n)
        return results

    results = anyio.run(go)
    assert all(r.is_error is False and r.structured_content["status"] == "written" for r in results)
    text = (first.root / "workspaces/web-shop.md").read_text()
    assert all(f"Concurrent fact number {n} about" in text for n in range(50))
    assert commit_count(first.root) == 50 + 1
    git(first.root, "fsck", "--strict")
    assert git(first.root, "status", "--porcelain") == ""


HOLD_LOCK = """
import sys, time
from pathlib import Path
from memrepo.folder.lock import WriteLock
with WriteLock(Path(sys.argv[1]), 10):
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_a_held_write_lock_never_blocks_listing_and_times_out_as_an_error(tmp_path: Path) -> None:
    repo = fresh(tmp_path, lock_timeout_seconds=1.5)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(repo.folder.state_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    order: list[str] = []

    async def go() -> Any:
        # The initialize-era protocol today's hosts speak: the one that has `ping`.
        async with Client(build_server(tools_for(repo)), mode="legacy") as client:
            outcome: dict[str, Any] = {}

            async def write() -> None:
                outcome["write"] = await client.call_tool(
                    "memory_remember", {"text": "Written while another process holds the lock"}
                )
                order.append("write")

            async with anyio.create_task_group() as group:
                group.start_soon(write)
                await anyio.sleep(0.2)
                # The session's ping: Client.send_ping is marked deprecated for the
                # 2026 era, which has no ping, even on a connection that has one.
                await client.session.send_ping()
                listed = await client.list_tools()
                await client.list_prompts()
                await client.list_resources()
                order.append(f"listed:{len(listed.tools)}")
            return outcome["write"]

    try:
        result = anyio.run(go)
    finally:
        holder.communicate("\n", timeout=10)
    assert order == [f"listed:{len(TOOL_NAMES)}", "write"]
    said = result.content[0].text
    assert result.is_error is True and "lock was held by another memrepo process" in said
    # A remote client reads this: no absolute path of the lock, no process id (#28).
    assert str(repo.root) not in said and "pid" not in said and str(holder.pid) not in said
    assert "Written while another" not in git(repo.root, "log", "--format=%s")


def test_a_client_that_gives_up_mid_call_leaves_the_repo_whole(tmp_path: Path) -> None:
    repo = fresh(tmp_path, lock_timeout_seconds=5)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(repo.folder.state_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    tools = tools_for(repo)

    async def give_up() -> None:
        async with Client(build_server(tools)) as client:
            with anyio.move_on_after(0.3):
                await client.call_tool("memory_remember", {"text": "A write whose caller left"})
            assert holder.stdin is not None
            holder.stdin.write("\n")
            holder.stdin.flush()

    anyio.run(give_up)
    holder.communicate(timeout=10)

    async def again() -> Any:
        async with Client(build_server(tools)) as client:
            return await client.call_tool("memory_remember", {"text": "A later write still lands"})

    assert anyio.run(again).is_error is False
    subjects = git(repo.root, "log", "--format=%s")
    assert "Remember: A later write still lands" in subjects
    assert subjects.count("A write whose caller left") <= 1  # whole or not at all
    git(repo.root, "fsck", "--strict")
    assert git(repo.root, "status", "--porcelain") == ""
