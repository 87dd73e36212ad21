"""The meaning lane on the agent's surfaces (issue #29, "Show it"): an MCP server already
running when a person switches the lane on (or off) follows the switch at its next
recall, driven by the MCP SDK's own client over stdio."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from memrepo import MemoryRepo

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PROJECT = Path(__file__).resolve().parents[2]
LAUNCH = "import sys; from memrepo.cli import main; sys.exit(main())"
SNOW = "which hobby involves snow and mountains?"


def cli(root: Path, *argv: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    done = subprocess.run(
        [sys.executable, "-c", LAUNCH, "--repo", str(root), *argv],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


async def recalls_while_switching(root: Path) -> list[list[str]]:
    env = {k: v for k, v in os.environ.items() if k.startswith(("GIT_", "HOME", "XDG_"))}
    env["PYTHONPATH"] = str(PROJECT)
    params = StdioServerParameters(
        command=sys.executable, args=["-c", LAUNCH, "--repo", str(root), "mcp"], env=env
    )
    seen: list[list[str]] = []

    async def texts() -> list[str]:
        result = await client.call_tool("memory_recall", {"query": SNOW, "limit": 1})
        assert result.is_error is False, result.content
        data: dict[str, Any] = result.structured_content or {}
        return [hit["text"] for hit in data["hits"]]

    async with Client(params) as client:
        seen.append(await texts())
        await anyio.to_thread.run_sync(lambda: cli(root, "meaning", "on"))
        seen.append(await texts())
        await anyio.to_thread.run_sync(lambda: cli(root, "meaning", "off"))
        seen.append(await texts())
    return seen


def test_a_running_mcp_server_follows_the_switch(tmp_path: Path) -> None:
    with MemoryRepo.init(tmp_path / "mem") as repo:
        repo.remember("Kate goes skiing in the Alps every January")
        repo.remember("The deploy script lives in ops/deploy.sh")
    before, on, off = anyio.run(recalls_while_switching, tmp_path / "mem")
    assert before == [] and off == []
    assert on == ["Kate goes skiing in the Alps every January"]
