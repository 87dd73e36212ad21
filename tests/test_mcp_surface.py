"""The whole MCP surface with the official SDK client, in process against a real repo:
every tool's schemas, hints and structured results (the client checks each result
against the tool's output schema), resources, templates, the routing prompt, approval
for what the session does not own, and what the session may not see."""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

import anyio
import mcp.types as types
from mcp import Client
from mcp.shared.exceptions import MCPError

import memrepo
from memrepo import FixedClock, MemoryRepo
from memrepo.mcp.server import build_server
from memrepo.tools import MemoryTools, ToolContext, allow_all, deny_all
from memrepo.tools.approval import ForgetRequest
from memrepo.tools.registry import MEMORY_RECALL, MEMORY_REMEMBER, ToolRegistry

pytestmark = pytest.mark.integration

TASK = "surface-task"
READ_ONLY = {
    "memory_recall",
    "memory_read",
    "memory_list",
    "memory_recent",
    "memory_why",
    "memory_status",
    "memory_reviews",
}


@asynccontextmanager
async def connected(tools: MemoryTools) -> AsyncIterator[Client]:
    async with Client(build_server(tools)) as client:
        yield client


def ok(result: Any) -> dict[str, Any]:
    assert result.is_error is False, result.content
    data: dict[str, Any] = result.structured_content
    return data


def error_line(result: Any) -> str:
    assert result.is_error is True
    (content,) = result.content
    assert "\n" not in content.text.strip() or content.text.count("\n") < 6
    text: str = content.text
    return text


def text_of(result: Any) -> str:
    (content,) = result.contents
    text: str = content.text
    return text


def tools_for(
    repo: MemoryRepo, *, approval: Any = deny_all, workspace: str | None = "Web shop"
) -> MemoryTools:
    return MemoryTools(repo, ToolContext(task_id=TASK, workspace=workspace), approval=approval)


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    repo = MemoryRepo.init(tmp_path / "mem")
    repo.remember("The user prefers tea over coffee", by="user")
    repo.remember("Clinic invoices go out on Mondays", workspace="Clinic", by="user")
    return repo


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def test_every_tool_has_a_title_hints_and_an_output_schema(repo: MemoryRepo) -> None:
    async def go() -> tuple[Any, Any]:
        async with connected(tools_for(repo)) as client:
            return client.server_info, await client.list_tools()

    info, listed = anyio.run(go)
    assert info.name == "memrepo" and info.version == memrepo.__version__
    assert len(listed.tools) == 16
    for tool in listed.tools:
        assert tool.title and tool.description and tool.output_schema, tool.name
        assert tool.output_schema["type"] == "object"
        hints = tool.annotations
        assert hints.read_only_hint == (tool.name in READ_ONLY), tool.name
        assert hints.open_world_hint is False
    destructive = {t.name for t in listed.tools if t.annotations.destructive_hint}
    assert {"memory_forget", "memory_edit", "memory_undo", "memory_review"} <= destructive


@pytest.mark.slow
def test_read_and_list_see_only_this_sessions_files(repo: MemoryRepo) -> None:
    async def go() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with connected(tools_for(repo)) as client:
            await client.call_tool("memory_remember", {"text": "Deploys go through staging first"})
            seen["files"] = ok(await client.call_tool("memory_list", {}))
            seen["entries"] = ok(await client.call_tool("memory_list", {"path": "MEMORY.md"}))
            seen["file"] = ok(await client.call_tool("memory_read", {"path": "MEMORY.md"}))
            ref = seen["entries"]["entries"][0]["ref"]
            seen["one"] = ok(await client.call_tool("memory_read", {"ref": ref}))
            for hidden in (
                "workspaces/clinic.md",
                "swarms/x/notes.md",
                "../outside.md",
                ".git/config",
            ):
                seen[hidden] = await client.call_tool("memory_read", {"path": hidden})
            seen["both"] = await client.call_tool("memory_read", {"path": "MEMORY.md", "ref": ref})
            seen["page"] = ok(await client.call_tool("memory_list", {"limit": 1, "offset": 1}))
        return seen

    seen = anyio.run(go)
    paths = [f["path"] for f in seen["files"]["files"]]
    assert paths == ["MEMORY.md", "workspaces/web-shop.md"]  # the clinic's file is hidden
    assert seen["entries"]["entries"][0]["text"] == "The user prefers tea over coffee"
    assert "The user prefers tea over coffee" in seen["file"]["text"]
    assert seen["one"]["memory"]["text"] == "The user prefers tea over coffee"
    for hidden in ("workspaces/clinic.md", "swarms/x/notes.md"):
        assert "not visible" in error_line(seen[hidden]) or "no such" in error_line(seen[hidden])
    assert "leave the memory root" in error_line(seen["../outside.md"])
    assert "git" in error_line(seen[".git/config"])
    assert "exactly one" in error_line(seen["both"])
    assert seen["page"]["total"] == 2 and [f["path"] for f in seen["page"]["files"]] == [
        "workspaces/web-shop.md"
    ]


@pytest.mark.slow
def test_the_sessions_own_memory_changes_at_once_and_is_undoable(repo: MemoryRepo) -> None:
    async def go() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with connected(tools_for(repo)) as client:
            ref = ok(
                await client.call_tool(
                    "memory_remember", {"text": "Deploys go through staging first"}
                )
            )["ref"]
            seen["edit"] = ok(
                await client.call_tool(
                    "memory_edit",
                    {"ref": ref, "text": "Deploys go through staging, then a canary",
                     "metadata": [{"key": "kind", "value": "rule"}]},
                )
            )  # fmt: skip
            seen["move"] = ok(
                await client.call_tool(
                    "memory_move", {"ref": seen["edit"]["ref"], "file": "topics/deploys"}
                )
            )
            seen["recent"] = ok(await client.call_tool("memory_recent", {"limit": 3}))
            seen["why"] = ok(await client.call_tool("memory_why", {"ref": seen["move"]["ref"]}))
            seen["undo"] = ok(await client.call_tool("memory_undo", {}))
        return seen

    seen = anyio.run(go)
    assert seen["edit"]["approval"] == "own_inference" and seen["edit"]["changed"] is True
    assert seen["move"]["target"] == "topics/deploys.md"
    kinds = [(c["origin"], c["by"], c["task"]) for c in seen["recent"]["changes"]]
    assert kinds == [("move", "agent", TASK), ("edit", "agent", TASK), ("remember", "agent", TASK)]
    assert [e["action"] for e in seen["why"]["events"]][-1] == "moved"
    assert seen["undo"]["approval"] == "own_inference"
    assert (
        "Deploys go through staging, then a canary"
        in (repo.root / "workspaces/web-shop.md").read_text()
    )
    line = next(
        line
        for line in (repo.root / "workspaces/web-shop.md").read_text().splitlines()
        if "canary" in line
    )
    assert "by: agent" in line and "kind: rule" in line
    assert git(repo.root, "status", "--porcelain") == ""


@pytest.mark.slow
def test_what_the_session_does_not_own_asks_the_user(repo: MemoryRepo) -> None:
    asked: list[ForgetRequest] = []

    def record_and_deny(request: ForgetRequest) -> bool:
        asked.append(request)
        return False

    user_ref = repo.entries("MEMORY.md")[0].ref
    person_commit = next(c.id for c in repo.log() if c.summary.startswith("Remember: The user"))
    clinic_commit = repo.log(limit=1)[0].id  # another workspace's change: not even asked

    async def go(approval: Callable[[ForgetRequest], bool]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with connected(tools_for(repo, approval=approval)) as client:
            seen["edit"] = await client.call_tool(
                "memory_edit", {"ref": user_ref, "text": "The user prefers coffee"}
            )
            seen["move"] = await client.call_tool(
                "memory_move", {"ref": user_ref, "file": "drinks.md"}
            )
            seen["undo"] = await client.call_tool("memory_undo", {"commit": person_commit[:10]})
            seen["hidden"] = await client.call_tool("memory_undo", {"commit": clinic_commit})
            seen["review"] = await client.call_tool(
                "memory_review", {"name": "nope", "decision": "reject"}
            )
            seen["laundry"] = await client.call_tool(
                "memory_edit", {"ref": user_ref, "metadata": [{"key": "by", "value": "user"}]}
            )
        return seen

    denied = anyio.run(go, record_and_deny)
    # Each refusal says what was refused (issue #28: every one said "forgetting it").
    said = {name: error_line(denied[name]) for name in ("edit", "move", "undo")}
    assert said["edit"].endswith(
        "editing it was not approved (the user did not approve); nothing was changed"
    )
    assert said["move"].endswith(
        "moving it was not approved (the user did not approve); nothing was moved"
    )
    assert said["undo"] == (
        f"{person_commit[:10]}: undoing this change was not approved "
        "(the user did not approve); nothing was undone"
    )
    assert [r.action for r in asked] == ["edit", "move", "undo"]
    assert asked[0].change == "The user prefers coffee" and asked[1].change == "drinks.md"
    assert "no change visible" in error_line(denied["hidden"])
    assert "no pending review" in error_line(denied["review"])
    assert "the user's to set" in error_line(denied["laundry"])
    assert "The user prefers tea over coffee" in (repo.root / "MEMORY.md").read_text()

    approved = anyio.run(go, allow_all)
    assert ok(approved["edit"])["approval"] == "approved"
    line = next(
        line for line in (repo.root / "MEMORY.md").read_text().splitlines() if "coffee" in line
    )
    assert "by: user" in line  # the person approved these words: the line keeps its standing


def test_resources_templates_and_the_context_block(repo: MemoryRepo) -> None:
    async def go() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with connected(tools_for(repo)) as client:
            await client.call_tool("memory_remember", {"text": "Deploys go through staging first"})
            seen["listed"] = sorted(str(r.uri) for r in (await client.list_resources()).resources)
            seen["templates"] = [
                t.uri_template for t in (await client.list_resource_templates()).resource_templates
            ]
            seen["file"] = text_of(
                await client.read_resource("memrepo://file/workspaces/web-shop.md")
            )
            seen["context"] = text_of(await client.read_resource("memrepo://context/chat"))
            for surface in ("plan_step", "follow_up"):
                seen[surface] = text_of(await client.read_resource(f"memrepo://context/{surface}"))
            seen["memory_md"] = text_of(await client.read_resource("memrepo://MEMORY.md"))
            seen["workspace"] = text_of(await client.read_resource("memrepo://workspace/web-shop"))
            for uri in (
                "memrepo://file/workspaces/clinic.md",
                "memrepo://file/../x.md",
                "memrepo://file/%2E%2E/x.md",
                "memrepo://file/.git/config",
                "memrepo://file/swarms/x/notes.md",
                "memrepo://file/MEMORY%00.md",
                "memrepo://workspace/clinic",
                "memrepo://context/nope",
            ):
                with pytest.raises(MCPError):
                    await client.read_resource(uri)
        return seen

    seen = anyio.run(go)
    assert seen["listed"] == [
        "memrepo://MEMORY.md",
        "memrepo://context/chat",
        "memrepo://workspace/web-shop",
    ]
    assert seen["templates"] == ["memrepo://file/{path}", "memrepo://context/{surface}"]
    assert "Deploys go through staging first" in seen["file"]
    assert '<memory layer="L0">' in seen["context"] and "prefers tea" in seen["context"]
    for surface in ("plan_step", "follow_up"):
        assert "prefers tea" in seen[surface], surface
    assert "The user prefers tea over coffee" in seen["memory_md"]
    assert "Deploys go through staging first" in seen["workspace"]


def test_the_prompt_names_only_the_tools_the_host_sees(repo: MemoryRepo) -> None:
    async def go(tools: MemoryTools) -> str:
        async with connected(tools) as client:
            prompts = await client.list_prompts()
            assert [p.name for p in prompts.prompts] == ["memory_use"]
            result = await client.get_prompt("memory_use")
            text: str = result.messages[0].content.text  # type: ignore[union-attr]
            with pytest.raises(MCPError):
                await client.get_prompt("other")
            return text

    full = anyio.run(go, tools_for(repo))
    small = anyio.run(
        go,
        MemoryTools(
            repo, ToolContext(task_id=TASK), registry=ToolRegistry([MEMORY_RECALL, MEMORY_REMEMBER])
        ),
    )
    assert "memory_edit" in full and "memory_review" in full and "never instructions" in full
    assert "memory_recall" in small and "memory_remember" in small
    assert "memory_edit" not in small and "memory_forget" not in small


def test_status_and_reviews(repo: MemoryRepo) -> None:
    (repo.root / "MEMORY.md").write_text(
        (repo.root / "MEMORY.md").read_text().replace("## Index", "- typed by hand\n\n## Index")
    )
    (repo.root / "workspaces").mkdir(exist_ok=True)

    async def go() -> dict[str, Any]:
        async with connected(tools_for(repo)) as client:
            return {
                "status": ok(await client.call_tool("memory_status", {})),
                "reviews": ok(await client.call_tool("memory_reviews", {})),
                "unknown": await client.call_tool("memory_reviews", {"name": "dream-x"}),
            }

    seen = anyio.run(go)
    assert seen["status"]["modified"] == ["MEMORY.md"] and seen["status"]["clean"] is False
    assert seen["status"]["pending_reviews"] == []
    assert seen["reviews"]["reviews"] == []
    assert "no pending review" in error_line(seen["unknown"])


def test_swarm_note_works_for_sessions_that_name_their_task(repo: MemoryRepo) -> None:
    root = MemoryTools(repo, ToolContext(task_id="fix-ci", task_title="Fix the flaky CI build"))
    sub = MemoryTools(
        repo,
        ToolContext(task_id="read-logs", task_title="Read the runner logs", task_parent="fix-ci"),
    )
    unnamed = MemoryTools(repo, ToolContext(task_id="mcp-0a1b2c"))
    note = {"kind": "finding", "text": "The flake only happens on the arm64 runners"}

    async def go() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with connected(unnamed) as client:
            seen["unnamed"] = await client.call_tool("swarm_note", note)
        async with connected(root) as client:
            seen["root"] = ok(await client.call_tool("swarm_note", note))
        async with connected(sub) as client:
            answer = {"kind": "ruled_out", "text": "It is not the cache: cold runs flake too"}
            seen["sub"] = ok(await client.call_tool("swarm_note", answer))
        return seen

    seen = anyio.run(go)
    assert "not registered" in error_line(seen["unnamed"]) or "task" in error_line(seen["unnamed"])
    assert seen["root"]["status"] == "written" and seen["sub"]["status"] == "written"
    view = repo.swarm_view("read-logs")
    texts = " ".join(n.text for n in view.findings)
    assert "arm64 runners" in texts and "cold runs flake" in texts


SEED = "".join(
    f"{line}\n"
    for line in (
        "# Memory",
        "",
        "- Deploy day is Friday [subject: deploy-day; by: agent; added: 2026-02-01]",
        "- Deploy day is Monday [subject: deploy-day; by: user; added: 2025-01-01]",
        "- Ana owns the billing services [by: agent; added: 2026-01-01]",
        "- Ana owns the billing service [by: agent; added: 2026-02-01]",
        "- Old person's note [expires: 2020-01-01]",
        "",
        "## Index",
    )
)


def dreamed(root: Path) -> tuple[MemoryRepo, str]:
    """A repo whose dream left three operations on a review branch (it changes what a
    person wrote, so it waits for the user)."""
    repo = MemoryRepo.init(root, clock=FixedClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC)))
    (repo.root / "MEMORY.md").write_text(SEED, encoding="utf-8")
    git(repo.root, "commit", "-q", "-am", "hand edit")
    report = repo.dream()
    assert report.review is not None and len(report.pending_review) == 3
    return repo, report.review


@pytest.mark.slow
def test_a_pending_review_is_listed_shown_and_decided_only_with_approval(tmp_path: Path) -> None:
    repo, name = dreamed(tmp_path / "mem")
    asked: list[ForgetRequest] = []

    def deny(request: ForgetRequest) -> bool:
        asked.append(request)
        return False

    def approve(request: ForgetRequest) -> bool:
        asked.append(request)
        return True

    async def go(approval: Callable[[ForgetRequest], bool], call: dict[str, Any]) -> Any:
        async with connected(tools_for(repo, approval=approval)) as client:
            seen = {
                "status": ok(await client.call_tool("memory_status", {})),
                "listed": ok(await client.call_tool("memory_reviews", {})),
                "shown": ok(await client.call_tool("memory_reviews", {"name": name})),
                "decided": await client.call_tool("memory_review", call),
            }
            return seen

    head = git(repo.root, "rev-parse", "HEAD")
    denied = anyio.run(go, deny, {"name": name, "decision": "accept"})
    assert denied["status"]["pending_reviews"] == [name]
    ((listed,),) = [denied["listed"]["reviews"]]
    assert listed["name"] == name and listed["operations"] == 3 and listed["up_to_date"]
    operations = denied["shown"]["operations"]
    assert [op["number"] for op in operations] == [1, 2, 3]
    assert all(op["reason"] for op in operations)
    assert "[1] remove (expiry)" in denied["shown"]["diff"]
    assert error_line(denied["decided"]) == (
        f"{name}: accepting this dream review was not approved (the user did not approve); "
        "nothing was merged"
    )
    assert [r.action for r in asked] == ["accept_review"]
    assert git(repo.root, "rev-parse", "HEAD") == head  # nothing landed
    assert [r.name for r in repo.list_reviews()] == [name]

    accepted = anyio.run(go, approve, {"name": name, "decision": "accept", "ops": [1]})
    result = ok(accepted["decided"])
    assert result["decision"] == "accept" and result["commit"]
    assert len(result["accepted"]) == 1 and result["rejected"] == []
    assert len(result["pending"]) == 2  # the other two wait for the user (issue #31)
    assert "Old person's note" not in (repo.root / "MEMORY.md").read_text()
    assert [r.name for r in repo.list_reviews()] == [name]
    assert git(repo.root, "status", "--porcelain") == ""


def test_a_review_can_be_rejected_with_approval(tmp_path: Path) -> None:
    repo, name = dreamed(tmp_path / "mem")

    async def go(approval: Callable[[ForgetRequest], bool]) -> Any:
        async with connected(tools_for(repo, approval=approval)) as client:
            return await client.call_tool("memory_review", {"name": name, "decision": "reject"})

    assert error_line(anyio.run(go, deny_all)) == (
        f"{name}: rejecting this dream review was not approved (the user did not approve); "
        "the review stays as it was"
    )
    assert [r.name for r in repo.list_reviews()] == [name]
    result = ok(anyio.run(go, allow_all))
    assert result["decision"] == "reject" and len(result["rejected"]) == 3
    assert (repo.root / "MEMORY.md").read_text() == SEED
    assert git(repo.root, "branch", "--list", "dream/*") == ""


def meta(values: dict[str, object]) -> types.RequestParamsMeta:
    """A request's `_meta` with memrepo's keys (the SDK types only its own)."""
    return cast(types.RequestParamsMeta, values)


@pytest.mark.slow
def test_a_host_names_the_task_of_a_call_in_its_meta(repo: MemoryRepo) -> None:
    """One connection, several tasks: `_meta` (the host's, never the model's) names the
    call's task, its parent and title; without it the call is the server's task."""
    repo.add_task("fix-ci", "Fix the flaky CI build")
    server_task = MemoryTools(repo, ToolContext(task_id="mcp-0a1b2c", task_title="MCP session"))
    logs = meta({"memrepo/task": "read-logs", "memrepo/parent": "fix-ci", "memrepo/title": "Logs"})
    note = {"kind": "finding", "text": "The flake only happens on the arm64 runners"}

    async def go() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with connected(server_task) as client:
            seen["note"] = ok(await client.call_tool("swarm_note", note, meta=logs))
            fact = {"text": "The arm64 runners share one cache volume"}
            seen["fact"] = ok(await client.call_tool("memory_remember", fact, meta=logs))
            ref = seen["fact"]["ref"]
            # The server's own task did not write it: not its own, so it asks (denied).
            seen["not_own"] = await client.call_tool("memory_forget", {"ref": ref})
            seen["own"] = ok(
                await client.call_tool(
                    "memory_forget", {"ref": ref}, meta=meta({"memrepo/task": "read-logs"})
                )
            )
            wrong: list[dict[str, object]] = [
                {"memrepo/task": 5},
                {"memrepo/task": "a\x00b"},
                {"memrepo/parent": "x"},
                {"memrepo/task": "t" * 201},
            ]
            for bad in wrong:
                seen[repr(bad)] = await client.call_tool(
                    "memory_recall", {"query": "x"}, meta=meta(bad)
                )
        return seen

    seen = anyio.run(go)
    assert seen["note"]["status"] == "written"
    view = repo.swarm_view("fix-ci")
    assert "read-logs" in view.members
    assert [n.text for n in view.findings] == ["The flake only happens on the arm64 runners"]
    assert error_line(seen["not_own"]).endswith(
        "forgetting it was not approved (the user did not approve); nothing was removed"
    )
    assert seen["own"]["approval"] == "own_inference"
    log = git(repo.root, "log", "--format=%s%n%b")
    assert "Memrepo-Task: read-logs" in log and "mcp-0a1b2c" not in log
    bad = [error_line(v) for k, v in seen.items() if k.startswith("{")]
    assert len(bad) == 4 and all("_meta" in line for line in bad), bad
