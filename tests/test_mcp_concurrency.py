"""Many agents on one memory (issue #28): reads never wait for writes, cancel means
cancel, long calls report progress. The SDK's own client drives the real server in
process; another process holds the real write lock; the git CLI checks what landed."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

import anyio
import mcp.types as types
from mcp import Client

from memrepo import LocalConfig, MemoryRepo
from memrepo.errors import CallCancelled
from memrepo.folder.lock import WriteLock, cancelled_by
from memrepo.mcp.server import build_server
from memrepo.serving import RepoWorkers
from memrepo.tools import MemoryTools, ToolContext

pytestmark = [pytest.mark.integration]

HOLD = (
    "import fcntl, sys\n"
    "f = open(sys.argv[1], 'a')\n"
    "fcntl.flock(f, fcntl.LOCK_EX)\n"
    "print('held', flush=True)\n"
    "sys.stdin.read()\n"
)


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "mem"
    with MemoryRepo.init(path) as repo:
        repo.remember("Deploys go through staging first")
    return path


@pytest.fixture
def held(root: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the repo's write lock until its stdin closes."""
    lock = root / ".git" / "memrepo" / "write.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(lock)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    yield holder
    release(holder)


def release(holder: subprocess.Popen[str]) -> None:
    if holder.poll() is None:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait()
    if holder.stdout is not None:
        holder.stdout.close()


def tools_for(root: Path) -> MemoryTools:
    # A lock timeout far past any test: a write must wait, never time out, here.
    repo = MemoryRepo.open(root, config=LocalConfig(lock_timeout_seconds=120))
    return MemoryTools(repo, ToolContext(task_id="many-agents", workspace=None))


def data(result: Any) -> dict[str, Any]:
    assert result.is_error is False, result.content
    found: dict[str, Any] = result.structured_content
    return found


@pytest.mark.slow
def test_a_recall_answers_while_a_remember_waits_for_another_process(
    root: Path, held: subprocess.Popen[str]
) -> None:
    order: list[str] = []

    async def scenario() -> dict[str, Any]:
        async with Client(build_server(tools_for(root), log=order.append)) as client:
            async with anyio.create_task_group() as group:

                async def write() -> None:
                    data(
                        await client.call_tool(
                            "memory_remember", {"text": "Reviews need two approvals"}
                        )
                    )
                    order.append("remember")

                group.start_soon(write)
                await anyio.sleep(0.3)  # let the remember reach the lock first
                found = data(await client.call_tool("memory_recall", {"query": "deploys staging"}))
                order.append("recall")
                release(held)
            return found

    found = anyio.run(scenario)
    assert order == ["recall", "remember"]
    assert "staging" in found["hits"][0]["text"]
    assert "Reviews need two approvals" in git(root, "show", "HEAD:MEMORY.md")


@pytest.mark.slow
def test_a_remember_cancelled_while_it_waits_writes_nothing(
    root: Path, held: subprocess.Popen[str]
) -> None:
    lines: list[str] = []
    before = git(root, "rev-parse", "HEAD").strip()

    async def scenario() -> dict[str, Any]:
        async with Client(build_server(tools_for(root), log=lines.append)) as client:
            with anyio.move_on_after(0.5):  # the client gives up: notifications/cancelled
                await client.call_tool("memory_remember", {"text": "Cancelled fact"})
            release(held)
            # Queued behind whatever the cancelled call still does on the writer.
            return data(await client.call_tool("memory_remember", {"text": "Kept fact"}))

    anyio.run(scenario)
    log = git(root, "log", "--format=%s", f"{before}..HEAD")
    assert len(log.splitlines()) == 1
    memory = git(root, "show", "HEAD:MEMORY.md")
    assert "Kept fact" in memory and "Cancelled fact" not in memory
    assert any("memory_remember" in line and "nothing was written" in line for line in lines)


@pytest.mark.slow
def test_cancelling_twice_or_an_unknown_id_is_ignored(root: Path) -> None:
    async def scenario() -> dict[str, Any]:
        async with Client(build_server(tools_for(root))) as client:
            for request_id in (999, 999, "no-such-id"):
                await client.session.send_notification(
                    types.CancelledNotification(
                        params=types.CancelledNotificationParams(request_id=request_id)
                    )
                )
            return data(await client.call_tool("memory_recall", {"query": "deploys"}))

    assert anyio.run(scenario)["hits"]


def test_the_lock_wait_gives_up_at_once_when_its_call_is_cancelled(
    root: Path, held: subprocess.Popen[str]
) -> None:
    lock = WriteLock(root / ".git" / "memrepo", timeout=120)
    flag = threading.Event()
    flag.set()
    with cancelled_by(flag), pytest.raises(CallCancelled, match="nothing was written"):
        lock.acquire()
    release(held)
    with lock:  # the cancelled wait left nothing held
        pass


def test_a_write_cancelled_after_it_holds_the_lock_lands_and_says_so(root: Path) -> None:
    lines: list[str] = []
    holding, finish = threading.Event(), threading.Event()
    repo = MemoryRepo.open(root)
    workers: RepoWorkers[MemoryRepo] = RepoWorkers(repo, lambda: repo, log=lines.append)

    def remember(handle: MemoryRepo) -> str:
        with handle.folder.lock:  # re-entrant: the write inside takes it again
            holding.set()
            finish.wait()
            return handle.remember("Landed fact").commit or ""

    async def scenario() -> None:
        with anyio.CancelScope() as scope:
            async with anyio.create_task_group() as group:
                group.start_soon(workers.write, remember, "memory_remember")
                await anyio.to_thread.run_sync(holding.wait)
                scope.cancel()
                finish.set()

    anyio.run(scenario)
    repo.close()
    assert "Landed fact" in git(root, "show", "HEAD:MEMORY.md")
    assert lines == ["memory_remember: cancelled after it was done; what it wrote stays"]


def test_the_protocol_errors_of_the_spec(root: Path) -> None:
    async def scenario() -> list[Any]:
        errors: list[Any] = []
        async with Client(build_server(tools_for(root))) as client:
            for request in (
                types.CallToolRequest(params=types.CallToolRequestParams(name="no_such_tool")),
                types.ListToolsRequest(params=types.PaginatedRequestParams(cursor="bogus")),
                types.ReadResourceRequest(
                    params=types.ReadResourceRequestParams(uri="memrepo://file/missing.md")
                ),
            ):
                try:
                    await client.session.send_request(request, types.EmptyResult)
                except Exception as exc:
                    errors.append(getattr(exc, "error", exc))
        return errors

    unknown, cursor, missing = anyio.run(scenario)
    assert (unknown.code, cursor.code, missing.code) == (-32602, -32602, -32602)
    assert "no_such_tool" in unknown.message
    assert missing.data == {"uri": "memrepo://file/missing.md"}


@pytest.mark.slow
def test_a_recall_that_builds_the_index_reports_progress(root: Path) -> None:
    seen: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, message))

    async def scenario() -> dict[str, Any]:
        async with Client(build_server(tools_for(root))) as client:
            shutil.rmtree(root / ".git" / "memrepo" / "index", ignore_errors=True)
            return data(
                await client.call_tool(
                    "memory_recall", {"query": "deploys"}, progress_callback=on_progress
                )
            )

    assert anyio.run(scenario)["hits"]
    assert seen, "no notifications/progress for a recall that built the index"
    assert [done for done, _ in seen] == sorted({done for done, _ in seen})
    assert any(message and "index" in message for _, message in seen)


@pytest.mark.slow
def test_a_client_gone_while_its_write_waits_writes_nothing_and_others_are_served(
    root: Path, held: subprocess.Popen[str]
) -> None:
    lines: list[str] = []
    server = build_server(tools_for(root), log=lines.append)

    async def leaver() -> None:
        async with Client(server) as client, anyio.create_task_group() as group:
            group.start_soon(client.call_tool, "memory_remember", {"text": "Abandoned fact"})
            await anyio.sleep(0.3)  # the write waits for the lock; then the client goes
            group.cancel_scope.cancel()

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with Client(server) as other:
            await leaver()
            found = data(await other.call_tool("memory_recall", {"query": "deploys staging"}))
            release(held)
            return found, data(await other.call_tool("memory_remember", {"text": "Other fact"}))

    found, _ = anyio.run(scenario)
    assert "staging" in found["hits"][0]["text"]
    memory = git(root, "show", "HEAD:MEMORY.md")
    assert "Other fact" in memory and "Abandoned fact" not in memory
    assert any("nothing was written" in line for line in lines)


@pytest.mark.slow
def test_writes_queued_together_land_one_commit_each_and_read_back_at_once(
    root: Path, held: subprocess.Popen[str]
) -> None:
    """Writes that queue up while another process holds the lock run as one group under
    one hold of the lock: still one commit each, a cancelled one still writes nothing, and
    each reply comes only once a recall finds what it wrote."""
    lines: list[str] = []
    before = git(root, "rev-parse", "HEAD").strip()
    found: dict[int, list[str]] = {}

    async def scenario() -> None:
        async with Client(build_server(tools_for(root), log=lines.append)) as client:

            async def write_then_read(n: int) -> None:
                data(await client.call_tool("memory_remember", {"text": f"Grouped fact {n}"}))
                hits = data(await client.call_tool("memory_recall", {"query": f"grouped {n}"}))
                found[n] = [hit["text"] for hit in hits["hits"]]

            async with anyio.create_task_group() as group:
                for n in range(6):
                    group.start_soon(write_then_read, n)
                with anyio.move_on_after(0.5):  # queued behind the others, then given up
                    await client.call_tool("memory_remember", {"text": "Grouped fact dropped"})
                release(held)

    anyio.run(scenario)
    subjects = git(root, "log", "--format=%s", f"{before}..HEAD").splitlines()
    assert sorted(subjects) == sorted(f"Remember: Grouped fact {n}" for n in range(6))
    memory = git(root, "show", "HEAD:MEMORY.md")
    assert "Grouped fact dropped" not in memory
    for n in range(6):
        assert any(f"Grouped fact {n}" in text for text in found[n][:1]), found[n]
    assert any("nothing was written" in line for line in lines)
    assert git(root, "fsck", "--no-progress").strip() == ""


def test_a_reader_sees_a_write_under_way_without_taking_its_lock(
    root: Path, held: subprocess.Popen[str]
) -> None:
    """While another process writes (its lock held), a reader reads the index's last
    state and takes no lock a writer would wait for; its own lock counts as no one's."""
    with MemoryRepo.open(root) as repo:
        assert repo.folder.writes_settling()
        release(held)
        assert not repo.folder.writes_settling()
        with repo.folder.lock:
            assert not repo.folder.writes_settling()  # this handle's own write
            other = WriteLock(root / ".git" / "memrepo")
            assert other.held_elsewhere() and not other.try_acquire()


@pytest.mark.slow
def test_a_write_behind_cancelled_ones_still_lands(root: Path, held: subprocess.Popen[str]) -> None:
    """Two writes given up while the lock is held elsewhere (the first waiting for it,
    the second, queued behind, given up before it) leave the third, queued after them,
    to land alone."""
    lines: list[str] = []

    async def scenario() -> dict[str, Any]:
        async with Client(build_server(tools_for(root), log=lines.append)) as client:

            async def given_up(text: str, after: float) -> None:
                with anyio.move_on_after(after):
                    await client.call_tool("memory_remember", {"text": text})

            async with anyio.create_task_group() as group:
                group.start_soon(given_up, "Given up first", 0.8)
                await anyio.sleep(0.1)
                group.start_soon(given_up, "Given up second", 0.2)
                await anyio.sleep(0.1)
                result: dict[str, Any] = {}

                async def keep() -> None:
                    result.update(
                        data(await client.call_tool("memory_remember", {"text": "Kept third"}))
                    )

                group.start_soon(keep)
                await anyio.sleep(1.0)  # both given up by now
                release(held)
            return result

    assert anyio.run(scenario)["status"] == "written"
    memory = git(root, "show", "HEAD:MEMORY.md")
    assert "Kept third" in memory and "Given up" not in memory
