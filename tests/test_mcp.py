"""`memrepo mcp` end to end: the MCP SDK's own client drives a real server subprocess over
stdio (list tools, remember, recall, forget, resources), then the git CLI checks what
landed in the repo."""

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
from mcp.shared.exceptions import MCPError
from mcp.types import Implementation

from memrepo import MemoryRepo
from memrepo.tools import anthropic_tools

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PROJECT = Path(__file__).resolve().parents[1]
#: `memrepo` as the console script runs it, without depending on where pip put the script.
LAUNCH = "import sys; from memrepo.cli import main; sys.exit(main())"
TASK = "mcp-test-task"


def server(repo: Path, *extra: str) -> StdioServerParameters:
    # The SDK passes only a safe subset of the environment; the isolated git config of
    # this test session has to travel explicitly.
    env = {k: v for k, v in os.environ.items() if k.startswith(("GIT_", "HOME", "XDG_"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")]))
    return StdioServerParameters(
        command=sys.executable,
        args=["-c", LAUNCH, "--repo", str(repo), "mcp", "--task", TASK, *extra],
        env=env,
        cwd=str(PROJECT),
    )


def git_log(repo: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "log", "--format=%s%n%b"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def structured(result: Any) -> dict[str, Any]:
    assert result.is_error is False, result.content
    data: dict[str, Any] = result.structured_content
    return data


async def round_trip(params: StdioServerParameters, user_ref: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with Client(params) as client:
        listed = await client.list_tools()
        seen["tools"] = {t.name: t.input_schema for t in listed.tools}
        seen["remember"] = structured(
            await client.call_tool(
                "memory_remember", {"text": "Deploys go through staging first", "pin": True}
            )
        )
        seen["recall"] = structured(
            await client.call_tool("memory_recall", {"query": "deploys staging"})
        )
        ref = seen["recall"]["hits"][0]["ref"]
        seen["forget"] = structured(await client.call_tool("memory_forget", {"ref": ref}))
        seen["denied"] = await client.call_tool("memory_forget", {"ref": user_ref})
        seen["bad"] = await client.call_tool("memory_recall", {"query": 3, "bogus": True})
        resources = await client.list_resources()
        seen["resources"] = sorted(str(r.uri) for r in resources.resources)
        memory = await client.read_resource("memrepo://MEMORY.md")
        seen["memory_md"] = memory.contents[0].text  # type: ignore[union-attr]
        workspace = await client.read_resource("memrepo://workspace/web-shop")
        seen["workspace_md"] = workspace.contents[0].text  # type: ignore[union-attr]
        with pytest.raises(MCPError, match="no such resource"):
            await client.read_resource("memrepo://workspace/clinic")
    return seen


def test_round_trip_over_stdio(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    with MemoryRepo.init(root) as repo:
        user_ref = repo.remember("Prefers tea over coffee", by="user").ref
    assert user_ref is not None
    seen = anyio.run(round_trip, server(root, "--workspace", "Web shop"), user_ref)

    assert seen["tools"] == {t["name"]: t["input_schema"] for t in anthropic_tools()}
    remembered = seen["remember"]
    assert remembered["status"] == "written" and remembered["path"] == "workspaces/web-shop.md"
    # MCP shows no user messages: a write is the model's inference, never pinned.
    assert remembered["source"] == "inferred" and remembered["pinned"] is False
    (hit,) = seen["recall"]["hits"]
    assert hit["text"] == "Deploys go through staging first" and hit["ref"] == remembered["ref"]
    assert seen["forget"]["approval"] == "own_inference"

    assert seen["denied"].is_error and "not approved" in seen["denied"].content[0].text
    assert seen["bad"].is_error
    assert "memory_recall: invalid arguments" in seen["bad"].content[0].text
    assert "bogus: unknown field" in seen["bad"].content[0].text

    assert seen["resources"] == [
        "memrepo://MEMORY.md",
        "memrepo://context/chat",
        "memrepo://workspace/web-shop",
    ]
    assert "Prefers tea over coffee" in seen["memory_md"]
    assert "Deploys go through staging" not in seen["workspace_md"]

    log = git_log(root)
    assert "Remember: Deploys go through staging first" in log
    assert "Forget: Deploys go through staging first" in log
    assert log.count(f"Memrepo-Task: {TASK}") == 2
    assert "Prefers tea over coffee" in (root / "MEMORY.md").read_text(encoding="utf-8")


async def approved_forget(params: StdioServerParameters, ref: str) -> dict[str, Any]:
    async with Client(params) as client:
        return structured(await client.call_tool("memory_forget", {"ref": ref}))


def test_allow_forget_lets_the_host_approve_everything(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    with MemoryRepo.init(root) as repo:
        ref = repo.remember("Prefers tea over coffee", by="user").ref
    assert ref is not None
    result = anyio.run(approved_forget, server(root, "--allow-forget"), ref)
    assert result["approval"] == "approved"
    assert "Prefers tea" not in (root / "MEMORY.md").read_text(encoding="utf-8")


async def note(params: StdioServerParameters) -> Any:
    async with Client(params) as client:
        return await client.call_tool(
            "swarm_note", {"kind": "finding", "text": "The flake only happens on arm64 runners"}
        )


def test_swarm_note_over_stdio_joins_the_parents_swarm(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    with MemoryRepo.init(root) as repo:
        repo.add_task("fix-ci", "Fix the flaky CI build")
    base = server(root)
    args = [a for a in base.args if a not in ("--task", TASK)]
    params = base.model_copy(
        update={"args": [*args, "--task", "read-logs", "--parent", "fix-ci", "--title", "Logs"]}
    )
    assert structured(anyio.run(note, params))["status"] == "written"
    with MemoryRepo.open(root) as repo:
        view = repo.swarm_view("fix-ci")
        assert [n.text for n in view.findings] == ["The flake only happens on arm64 runners"]
        assert "read-logs" in view.members
    orphan = base.model_copy(update={"args": [*args, "--task", "lost", "--parent", "nowhere"]})
    refused = anyio.run(note, orphan)
    assert refused.is_error and "cannot join a swarm" in refused.content[0].text


# Which agent used a memory (issue #31): the SDK's client names itself in the initialize
# handshake and the usage log a person reads in the Hub says so; `--agent` overrides it.


async def _recall_in_full(root: str, name: str, *extra: str) -> list[str]:
    info = Implementation(name=name, version="1.0")
    async with Client(server(Path(root), *extra), client_info=info) as client:
        found = structured(
            await client.call_tool("memory_recall", {"query": "staging deploys", "detail": "full"})
        )
        await client.read_resource("memrepo://context/chat")
        return [hit["ref"] for hit in found["hits"]]


def test_a_recall_is_logged_as_used_by_the_client_that_made_it(memory_repo: MemoryRepo) -> None:
    repo = memory_repo
    line = repo.remember("Deploys go through staging first", by="user")
    item = repo.remember(
        "The staging host for deploys is stg-3", by="user", scope="task", task_id=TASK
    )
    assert item.store == "items"
    root = str(repo.root)

    refs = anyio.run(_recall_in_full, root, "claude-code")
    assert {line.ref, item.ref} <= set(refs)
    uses = repo.last_uses()
    assert {uses[ref].agent for ref in refs} == {"claude-code"}

    anyio.run(_recall_in_full, root, "some-client", "--agent", "night-shift-bot")
    assert {repo.last_uses()[ref].agent for ref in refs} == {"night-shift-bot"}
