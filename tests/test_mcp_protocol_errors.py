"""Three protocol errors the official conformance suite does not check (issue #28), over
both real transports (`memrepo mcp` on stdio, `memrepo mcp --http`) with the SDK client:

- an unknown tool is the protocol error -32602 (spec 2025-11-25), not an `isError`
  result a host would show as the tool's own failure;
- a pagination cursor this server never gave out is -32602 on every list, not the first
  page again (a host paging on would loop forever);
- a resource that cannot be read (missing, hidden from the session, an unknown scheme or
  surface) is an error whose `data.uri` names it, so a host can tell which of several
  reads failed.

Each check ends with a call that works: an error never ends the session.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from memrepo import MemoryRepo
from memrepo.layout import workspace_file, workspace_slug

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PROJECT = Path(__file__).resolve().parents[1]
LAUNCH = "import sys; from memrepo.cli import main; sys.exit(main())"
TRANSPORTS = ("stdio", "http")
#: -32602 (invalid params) is what SEP-2164 and the SDKs in TypeScript and Python answer;
#: -32002 is the older spec's suggestion for a resource: either tells a host what it was.
NOT_FOUND_CODES = (-32602, -32002)
HIDDEN = f"memrepo://file/{workspace_file(workspace_slug('Clinic') or '')}"
UNREADABLE = (
    "memrepo://file/missing.md",
    HIDDEN,  # another workspace's file reads as missing, never as "forbidden"
    "memrepo://file/../outside.md",
    "memrepo://nothing-here",
    "memrepo://context/no-such-surface",
)


def command(root: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-c",
        LAUNCH,
        "--repo",
        str(root),
        "mcp",
        "--workspace",
        "Web shop",
        *extra,
    ]


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "MEMREPO_MCP_TOKEN"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")]))
    return env


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("protocol") / "mem"
    with MemoryRepo.init(path) as repo:
        repo.remember("The user prefers tea over coffee", by="user")
        repo.remember("Clinic invoices go out on Mondays", workspace="Clinic", by="user")
    return path


@pytest.fixture(scope="module")
def http_url(root: Path) -> Iterator[str]:
    """One `memrepo mcp --http` on a free loopback port for the module; its URL."""
    process = subprocess.Popen(
        [*command(root, "--http", "--port", "0")], stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment(),
        cwd=PROJECT, start_new_session=True,
    )  # fmt: skip
    assert process.stderr is not None
    try:
        line = process.stderr.readline()
        assert "serving http://" in line, line
        yield line.split("serving ", 1)[1].split()[0]
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        process.stderr.close()


@pytest.fixture(params=TRANSPORTS)
def connect(request: pytest.FixtureRequest, root: Path) -> Callable[[], Any]:
    """A context manager opening an SDK client over the parametrized transport."""
    if request.param == "http":
        url: str = request.getfixturevalue("http_url")

        @asynccontextmanager
        async def over_http() -> AsyncIterator[Client]:
            async with Client(url) as client:
                yield client

        return over_http
    env = {
        k: v for k, v in environment().items() if k.startswith(("GIT_", "HOME", "XDG_", "PYTHON"))
    }
    cmd = command(root)
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=env, cwd=str(PROJECT))

    @asynccontextmanager
    async def over_stdio() -> AsyncIterator[Client]:
        async with Client(params) as client:
            yield client

    return over_stdio


async def error_of(call: Awaitable[Any]) -> Any:
    """The JSON-RPC error `call` was answered with; fails if it was answered with a result."""
    try:
        result = await call
    except MCPError as exc:
        return exc.error
    raise AssertionError(f"answered with a result, not a protocol error: {result!r:.300}")


def test_an_unknown_tool_is_the_protocol_error_invalid_params(connect: Callable[[], Any]) -> None:
    async def go() -> tuple[Any, list[str]]:
        async with connect() as client:
            error = await error_of(client.call_tool("memory_delete_everything", {}))
            listed = await client.list_tools()
            return error, [tool.name for tool in listed.tools]

    error, names = anyio.run(go)
    assert error.code == -32602
    assert "memory_delete_everything" in error.message and "memory_recall" in error.message
    assert "memory_recall" in names  # still serving


def test_a_cursor_never_given_out_is_invalid_params_on_every_list(
    connect: Callable[[], Any],
) -> None:
    async def go() -> tuple[dict[str, Any], int]:
        async with connect() as client:
            lists = {
                "tools/list": client.list_tools,
                "resources/list": client.list_resources,
                "resources/templates/list": client.list_resource_templates,
                "prompts/list": client.list_prompts,
            }
            errors = {
                name: await error_of(method(cursor="bogus")) for name, method in lists.items()
            }
            return errors, len((await client.list_tools()).tools)

    errors, tools = anyio.run(go)
    assert {name: error.code for name, error in errors.items()} == dict.fromkeys(errors, -32602)
    assert all("cursor" in error.message for error in errors.values()), errors
    assert tools == 16  # the first page, without a cursor, is whole


def test_a_resource_that_cannot_be_read_names_its_uri(connect: Callable[[], Any]) -> None:
    async def go() -> tuple[dict[str, Any], str]:
        async with connect() as client:
            errors = {uri: await error_of(client.read_resource(uri)) for uri in UNREADABLE}
            entry = await client.read_resource("memrepo://MEMORY.md")
            return errors, entry.contents[0].text

    errors, entry = anyio.run(go)
    for uri, error in errors.items():
        assert error.code in NOT_FOUND_CODES, (uri, error)
        assert error.data == {"uri": uri}, (uri, error)
        assert "Mondays" not in error.message  # the hidden file's text never leaks
    assert "tea over coffee" in entry
