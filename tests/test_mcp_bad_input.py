"""Every tool over MCP, one bad field at a time: missing, extra, wrong-typed and hostile
arguments (paths outside the root, `.git/`, 10 MB strings, NUL and other control
characters), each beside a good call of the same tool so the refusal is the bad field's.

The session approves everything (`allow_all`), so no refusal here comes from the approval
seam: each must come from validation or visibility. Every bad call is an `isError` with
one readable line naming what was wrong, the repo is exactly as before (HEAD, worktree,
items), and the server answers the next call.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

import anyio
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.types import TextContent

from memrepo import MemoryRepo
from memrepo.mcp.server import build_server
from memrepo.models.items import ItemFilters
from memrepo.tools import MemoryTools, ToolContext, allow_all, default_registry

pytestmark = [pytest.mark.integration, pytest.mark.slow]

HUGE = "x" * 10_000_000
TASK = "bad-input-task"
OWN = "{own}"  # replaced by the ref of an entry this session wrote
USER = "{user}"  # replaced by the ref of an entry the user wrote
OUTSIDE = "folder:../../etc/passwd#x"
IN_GIT = "folder:.git/config#x"
NOT_VISIBLE = "no memory with this ref is visible"

#: tool -> a call that works, then (bad arguments, what the one error line says).
CASES: dict[str, tuple[dict[str, Any] | None, list[tuple[dict[str, Any], str]]]] = {
    "memory_recall": (
        {"query": "tea"},
        [
            ({}, "query: required field is missing"),
            ({"query": 3}, "query: Input should be a valid string"),
            ({"query": "tea", "limit": "5"}, "limit: Input should be a valid integer"),
            ({"query": "tea", "limit": 5.5}, "limit: must be a whole number"),
            ({"query": "tea", "bogus": True}, "bogus: unknown field"),
            ({"query": HUGE}, "query: String should have at most 1000"),
            ({"query": "tea\x00"}, "query: contains a control character (U+0000)"),
            ({"query": "", "ids": [HUGE]}, "ids.0: String should have at most 500"),
            ({"query": "", "ids": ["folder:MEMORY.md#\x1b[2J"]}, "ids.0: contains a control"),
        ],
    ),
    "memory_remember": (
        {"text": "Deploy freezes start on Fridays"},
        [
            ({}, "text: required field is missing"),
            ({"text": 5}, "text: Input should be a valid string"),
            ({"text": "ok", "by": "user"}, "by: unknown field"),
            ({"text": "ok", "pin": "yes"}, "pin: Input should be a valid boolean"),
            ({"text": HUGE}, "text: String should have at most 4000"),
            ({"text": "a\x00b"}, "text: contains a control character (U+0000)"),
            ({"text": "ok", "file": "../outside.md"}, "would leave the memory root"),
            ({"text": "ok", "file": ".git/config"}, "nothing under .git is memory"),
            ({"text": "ok", "file": "/etc/passwd"}, "absolute paths are not allowed"),
            ({"text": "ok", "file": "swarms/x/notes.md"}, "written with swarm_note"),
            ({"text": "ok", "subject": HUGE}, "subject: String should have at most"),
        ],
    ),
    "memory_forget": (
        {"ref": OWN},
        [
            ({}, "ref: required field is missing"),
            ({"ref": 5}, "ref: Input should be a valid string"),
            ({"ref": OWN, "force": True}, "force: unknown field"),
            ({"ref": OUTSIDE}, NOT_VISIBLE),
            ({"ref": IN_GIT}, NOT_VISIBLE),
            ({"ref": HUGE}, "ref: String should have at most"),
            ({"ref": "folder:MEMORY.md#\x00"}, "ref: contains a control character"),
        ],
    ),
    "memory_read": (
        {"path": "MEMORY.md"},
        [
            ({}, "exactly one of `path` or `ref`"),
            ({"path": 5}, "path: Input should be a valid string"),
            ({"path": "MEMORY.md", "mode": "raw"}, "mode: unknown field"),
            ({"path": "../outside.md"}, "would leave the memory root"),
            ({"path": ".git/config"}, "nothing under .git is memory"),
            ({"path": "/etc/passwd"}, "absolute paths are not allowed"),
            ({"ref": OUTSIDE}, NOT_VISIBLE),
            ({"ref": IN_GIT}, NOT_VISIBLE),
            ({"path": HUGE}, "path: String should have at most 300"),
            ({"path": "MEMORY\x00.md"}, "path: contains a control character"),
        ],
    ),
    "memory_list": (
        {"path": "MEMORY.md"},
        [
            ({"path": "../outside.md"}, "would leave the memory root"),
            ({"path": ".git/HEAD"}, "nothing under .git is memory"),
            ({"limit": "10"}, "limit: Input should be a valid integer"),
            ({"limit": 0}, "limit: Input should be greater than or equal to 1"),
            ({"offset": -1}, "offset: Input should be greater than or equal to 0"),
            ({"path": HUGE}, "path: String should have at most 300"),
            ({"path": "a\x00b.md"}, "path: contains a control character"),
            ({"recursive": True}, "recursive: unknown field"),
        ],
    ),
    "memory_edit": (
        {"ref": OWN, "text": "Deploy freezes start on Thursdays"},
        [
            ({}, "ref: required field is missing"),
            ({"ref": OWN}, "give a new `text`, `metadata` changes, or both"),
            ({"ref": OWN, "text": 5}, "text: Input should be a valid string"),
            ({"ref": OUTSIDE, "text": "y"}, NOT_VISIBLE),
            ({"ref": IN_GIT, "text": "y"}, NOT_VISIBLE),
            ({"ref": OWN, "text": HUGE}, "text: String should have at most 4000"),
            ({"ref": OWN, "text": "a\x00b"}, "text: contains a control character"),
            ({"ref": OWN, "metadata": [{"key": "by", "value": "user"}]}, "the user's to set"),
            ({"ref": OWN, "metadata": [{"key": "k\x00"}]}, "metadata.0.key: contains a control"),
            ({"ref": OWN, "metadata": [{"key": "a]b", "value": "x"}]}, "does not match"),
            ({"ref": OWN, "text": "y", "by": "user"}, "by: unknown field"),
        ],
    ),
    "memory_move": (
        {"ref": OWN, "file": "topics/deploys.md"},
        [
            ({"ref": OWN}, "file: required field is missing"),
            ({"ref": OWN, "file": 5}, "file: Input should be a valid string"),
            ({"ref": OWN, "file": "../outside.md"}, "file: '../outside.md': '..' would leave"),
            ({"ref": OWN, "file": ".git/config"}, "file: '.git/config': nothing under .git"),
            ({"ref": OWN, "file": "/etc/passwd"}, "file: '/etc/passwd': absolute paths"),
            ({"ref": OWN, "file": "workspaces/clinic.md"}, "no such memory file is visible"),
            ({"ref": OWN, "file": HUGE}, "file: String should have at most 300"),
            ({"ref": OWN, "file": "a\x00b.md"}, "file: contains a control character"),
            ({"ref": OUTSIDE, "file": "topics/x.md"}, NOT_VISIBLE),
            ({"ref": OWN, "file": "x.md", "merge": True}, "merge: unknown field"),
        ],
    ),
    "memory_recent": (
        {"limit": 3},
        [
            ({"limit": "5"}, "limit: Input should be a valid integer"),
            ({"limit": 1000}, "limit: Input should be less than or equal to 100"),
            ({"path": "../outside.md"}, "would leave the memory root"),
            ({"path": ".git/config"}, "nothing under .git is memory"),
            ({"path": HUGE}, "path: String should have at most 300"),
            ({"path": "a\x00b.md"}, "path: contains a control character"),
            ({"since": "yesterday"}, "since: unknown field"),
        ],
    ),
    "memory_why": (
        {"ref": USER},
        [
            ({}, "ref: required field is missing"),
            ({"ref": 5}, "ref: Input should be a valid string"),
            ({"ref": OUTSIDE}, NOT_VISIBLE),
            ({"ref": IN_GIT}, NOT_VISIBLE),
            ({"ref": HUGE}, "ref: String should have at most 500"),
            ({"ref": "folder:MEMORY.md#\x00"}, "ref: contains a control character"),
            ({"ref": USER, "deep": True}, "deep: unknown field"),
        ],
    ),
    "memory_undo": (
        {},
        [
            ({"commit": 5}, "commit: Input should be a valid string"),
            ({"commit": "HEAD~1"}, "commit: a commit id as memory_recent shows it"),
            ({"commit": "../../refs/heads/main"}, "commit: a commit id"),
            ({"commit": HUGE}, "commit: String should have at most 64"),
            ({"commit": "abcd\x00"}, "commit: contains a control character"),
            ({"commit": "f" * 40}, "no such commit"),
            ({"all": True}, "all: unknown field"),
        ],
    ),
    "memory_status": ({}, [({"verbose": True}, "verbose: unknown field")]),
    "memory_reviews": (
        {},
        [
            ({"name": 5}, "name: Input should be a valid string"),
            ({"name": "../../HEAD"}, "no pending review of that name"),
            ({"name": HUGE}, "name: String should have at most 200"),
            ({"name": "dream\x00"}, "name: contains a control character"),
            ({"all": True}, "all: unknown field"),
        ],
    ),
    "memory_review": (
        None,  # no review is pending here: test_mcp_surface accepts and rejects real ones
        [
            ({}, "name: required field is missing"),
            ({"name": "x", "decision": "maybe"}, "decision: Input should be 'accept' or"),
            ({"name": "x", "decision": "accept", "ops": ["1"]}, "ops.0: Input should be a"),
            ({"name": HUGE, "decision": "reject"}, "name: String should have at most 200"),
            ({"name": "x\x00", "decision": "reject"}, "name: contains a control character"),
            ({"name": "../../HEAD", "decision": "reject"}, "no pending review of that name"),
            ({"name": "x", "decision": "reject", "force": True}, "force: unknown field"),
        ],
    ),
    "swarm_note": (
        {"kind": "finding", "text": "The flake only happens on arm64 runners"},
        [
            ({}, "kind: required field is missing"),
            ({"kind": "rumour", "text": "x"}, "kind: Input should be"),
            ({"kind": "finding", "text": HUGE}, "text: String should have at most 4000"),
            ({"kind": "finding", "text": "a\x00b"}, "text: contains a control character"),
            ({"kind": "finding", "text": "x", "sources": [HUGE]}, "sources.0: String should"),
            ({"kind": "finding", "text": "x", "sources": ["s"] * 6}, "sources: List should"),
            ({"kind": "finding", "text": "x", "task": "other"}, "task: unknown field"),
        ],
    ),
    "memory": (
        {"command": "view", "path": "/memories"},
        [
            ({}, "command: required field is missing"),
            ({"command": "chmod", "path": "/memories"}, "command: Input should be"),
            (
                {"command": "create", "path": "/memories/a.md", "file_text": HUGE},
                "file_text: String should have at most 100000",
            ),
            ({"command": "view", "path": "/memories/a\x00.md"}, "contains a control character"),
            ({"command": "view", "path": "/memories", "file_text": "x"}, "is not a field of view"),
            ({"command": "delete", "path": "/memories/nothing.md"}, "does not exist"),
            ({"command": "rename", "old_path": "/memories", "new_path": "/memories/x"}, "Cannot"),
        ],
    ),
    "memory_held": (
        {},
        [
            ({"id": "abc"}, "give both `id` and `decision`"),
            ({"id": "x", "decision": "maybe"}, "decision: Input should be 'approve' or"),
            ({"id": "nope", "decision": "approve"}, "no held write with this id is visible"),
        ],
    ),
}


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def state(repo: MemoryRepo) -> tuple[str, str, list[tuple[str, str]]]:
    items = repo.list_items(ItemFilters(status="any", include_private=True))
    return (
        git(repo.root, "rev-parse", "HEAD"),
        git(repo.root, "status", "--porcelain", "--untracked-files=all"),
        sorted((item.id, item.status) for item in items),
    )


def fill(arguments: dict[str, Any], refs: dict[str, str]) -> dict[str, Any]:
    return {
        key: refs.get(value, value) if isinstance(value, str) and len(value) < 10 else value
        for key, value in arguments.items()
    }


def test_the_cases_cover_every_tool() -> None:
    assert list(CASES) == default_registry().names()


def test_every_tool_refuses_each_bad_field_in_one_line(tmp_path: Path) -> None:
    repo = MemoryRepo.init(tmp_path / "mem")
    user_ref = repo.remember("The user prefers tea over coffee", by="user").ref
    assert user_ref is not None
    context = ToolContext(task_id=TASK, workspace="Web shop", task_title="Fix the CI build")
    tools = MemoryTools(repo, context, approval=allow_all)
    schemas = {tool.name: tool.output_schema() for tool in tools.registry}
    refused: list[tuple[str, dict[str, Any], str, str]] = []
    unchanged: list[str] = []

    async def go() -> None:
        async with Client(build_server(tools)) as client:

            async def own_ref() -> str:
                text = f"Scratch note number {len(refused)} about the deploys"
                result = await client.call_tool("memory_remember", {"text": text})
                ref: str = result.structured_content["ref"]
                return ref

            for name, (good, bad_calls) in CASES.items():
                for bad, says in bad_calls:
                    refs = {OWN: await own_ref(), USER: user_ref}
                    before = state(repo)
                    result = await client.call_tool(name, fill(bad, refs))
                    assert result.is_error is True, (name, bad, result.structured_content)
                    (content,) = result.content
                    assert isinstance(content, TextContent)
                    refused.append((name, bad, says, content.text))
                    if state(repo) != before:
                        unchanged.append(f"{name} {bad}")
                if good is not None:  # the same tool still works, with good arguments
                    refs = {OWN: await own_ref(), USER: user_ref}
                    result = await client.call_tool(name, fill(good, refs))
                    assert result.is_error is False, (name, result.content)
                    schema = schemas[name]
                    assert schema is not None
                    Draft202012Validator(schema).validate(result.structured_content)

    anyio.run(go)
    assert unchanged == []  # nothing half-written, nothing written at all
    for name, bad, says, text in refused:
        assert "\n" not in text.strip() and len(text) < 600, (name, text[:700])
        assert text.startswith(name) or "no " in text or "not " in text, (name, text)
        assert says in text, (
            name,
            {k: v[:40] if isinstance(v, str) else v for k, v in bad.items()},
            text,
        )
        assert "x" * 100 not in text  # a 10 MB value is never echoed back
    assert git(repo.root, "status", "--porcelain") == ""
    git(repo.root, "fsck", "--strict")
