"""The `memory` tool over MCP (one tool, a `command` field: how Letta-style hosts call
it), with the official SDK client against the real server: the same commands, the
same commits, and what the session may not see does not exist for it."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

import anyio
from mcp import Client

from memrepo import MemoryRepo
from memrepo.mcp.server import build_server
from memrepo.tools import MemoryTools, ToolContext

pytestmark = pytest.mark.integration


def test_commands_over_mcp_are_agent_commits_and_respect_the_workspace(tmp_path: Path) -> None:
    repo = MemoryRepo.init(tmp_path / "mem")
    repo.remember("Clinic invoices go out on Mondays", workspace="Clinic", by="user")
    (repo.root / "memories").mkdir()
    tools = MemoryTools(repo, ToolContext(task_id="letta-1", workspace="Web shop"))
    calls: list[dict[str, Any]] = [
        {"command": "create", "path": "/memories/shop.md", "file_text": "- Ships on Tuesdays\n"},
        {
            "command": "str_replace",
            "path": "/memories/shop.md",
            "old_str": "Tuesdays",
            "new_str": "Wednesdays",
        },
        {"command": "view", "path": "/memories/shop.md"},
        {"command": "view", "path": "/memories/../workspaces/clinic.md"},
        {"command": "frobnicate", "path": "/memories/shop.md"},
    ]

    async def go() -> list[Any]:
        async with Client(build_server(tools)) as client:
            return [await client.call_tool("memory", call) for call in calls]

    created, replaced, viewed, escaped, unknown = anyio.run(go)
    assert created.is_error is False
    assert created.structured_content == {
        "result": "File created successfully at: /memories/shop.md"
    }
    assert (
        replaced.is_error is False
        and "- Ships on Wednesdays" in replaced.structured_content["result"]
    )
    assert viewed.structured_content["result"].endswith("     1\t- Ships on Wednesdays\n     2\t")
    assert escaped.is_error is True and "would escape /memories" in escaped.content[0].text
    assert unknown.is_error is True
    log = subprocess.run(
        ["git", "-C", str(repo.root), "log", "-2", "--format=%B"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert log.count("Memrepo-Origin: memory-tool") == 2 and log.count("Memrepo-Task: letta-1") == 2
    line = (repo.root / "memories" / "shop.md").read_text()
    assert line.startswith("- Ships on Wednesdays [source: memrepo://tasks/letta-1; added: ")
    assert line.rstrip().endswith("by: agent; origin: memory-tool; tainted: yes]")
    repo.close()


def test_the_memory_tool_is_in_every_schema_export(tmp_path: Path) -> None:
    repo = MemoryRepo.init(tmp_path / "mem")
    tools = MemoryTools(repo)
    anthropic = {t["name"]: t for t in tools.anthropic_tools()}
    openai = {t["function"]["name"]: t for t in tools.openai_tools()}
    for schema in (anthropic["memory"]["input_schema"], openai["memory"]["function"]["parameters"]):
        assert schema["properties"]["command"]["enum"] == [
            "view",
            "create",
            "str_replace",
            "insert",
            "delete",
            "rename",
        ]
        assert schema["required"] == ["command"]
    repo.close()
