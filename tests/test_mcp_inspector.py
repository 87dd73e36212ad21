"""`memrepo mcp` driven by the official MCP Inspector's CLI (`mcp-inspector --cli`), the
tool hosts' developers use to check a server: tools, a call, prompts, resource templates.

`.ci/run` installs a pinned Inspector into `.ci/inspector/` from the npm registry; one on
PATH works too. Without Node.js or the registry, the test skips and says so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

from memrepo import MemoryRepo
from memrepo.tools import default_registry

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PROJECT = Path(__file__).resolve().parents[1]
PINNED = PROJECT / ".ci" / "inspector" / "node_modules" / ".bin" / "mcp-inspector"


def inspector() -> str:
    found = str(PINNED) if PINNED.exists() else shutil.which("mcp-inspector")
    if found is None or shutil.which("node") is None:
        pytest.skip("the MCP Inspector is not installed (.ci/run installs it with npm)")
    return found


def ask(root: Path, *method: str) -> dict[str, Any]:
    """One Inspector CLI request against a fresh `memrepo mcp` process."""
    launch = [sys.executable, "-m", "memrepo.cli", "--repo", str(root), "mcp", "--task", "inspect"]
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    done = subprocess.run(
        [inspector(), "--cli", *launch, "--method", *method],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def test_the_inspector_sees_every_tool_and_can_call_one(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    with MemoryRepo.init(root) as repo:
        repo.remember("The user prefers tea over coffee", by="user")
    listed = ask(root, "tools/list")
    assert [t["name"] for t in listed["tools"]] == default_registry().names()
    assert all(t["outputSchema"]["type"] == "object" for t in listed["tools"])
    called = ask(root, "tools/call", "--tool-name", "memory_recall", "--tool-arg", "query=tea")
    assert called["isError"] is False
    assert called["structuredContent"]["hits"][0]["text"] == "The user prefers tea over coffee"
    prompts = ask(root, "prompts/list")
    assert [p["name"] for p in prompts["prompts"]] == ["memory_use"]
    templates = ask(root, "resources/templates/list")
    assert {t["uriTemplate"] for t in templates["resourceTemplates"]} == {
        "memrepo://file/{path}",
        "memrepo://context/{surface}",
    }
