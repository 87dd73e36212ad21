"""Bad memory-tool calls: each is one error result the model can read (the SDK's
`ToolError`, which its runner returns with `is_error`), and nothing is written: the
branch, the working tree and the files are as they were (judged by the `git` CLI)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from anthropic.lib.tools import ToolError
from anthropic.types.beta import BetaMemoryTool20250818StrReplaceCommand

from memrepo import MemoryRepo
from memrepo.memtool.anthropic_sdk import GitMemoryTool

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
NOTES = "# Notes\n\n- Deploys on Fridays\n- Deploys on Fridays too\n"


@pytest.fixture
def tool(memory_repo: MemoryRepo) -> Iterator[GitMemoryTool]:
    tool = memory_repo.memory_tool(task_id="t1")
    tool.call({"command": "create", "path": "/memories/notes.md", "file_text": NOTES})
    tool.call({"command": "create", "path": "/memories/other.md", "file_text": "- Other\n"})
    yield tool
    memory_repo.close()


def state(root: Path) -> tuple[str, str, str]:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True
        ).stdout

    return (
        git("rev-parse", "HEAD"),
        git("status", "--porcelain", "--untracked-files=all"),
        git("ls-files", "-s"),
    )


BAD: list[tuple[dict[str, Any], str]] = [
    ({"path": "/memories/notes.md"}, "`command` is required"),
    ({"command": "chmod", "path": "/memories/notes.md"}, "Unknown command 'chmod'"),
    ({"command": "create", "path": "/memories/a.md"}, "`file_text` is required for create"),
    (
        {"command": "view", "path": "/memories", "file_text": "x"},
        "`file_text` is not a field of view",
    ),
    (
        {
            "command": "insert",
            "path": "/memories/notes.md",
            "insert_line": "2",
            "insert_text": "- x",
        },
        "`insert_line` must be an integer",
    ),
    (
        {
            "command": "insert",
            "path": "/memories/notes.md",
            "insert_line": True,
            "insert_text": "- x",
        },
        "`insert_line` must be an integer",
    ),
    (
        {"command": "view", "path": "/memories/notes.md", "view_range": [1]},
        "`view_range` must be two integers",
    ),
    ({"command": "delete", "path": 7}, "`path` must be a string"),
    ({"command": "view", "path": "/memories/../MEMORY.md"}, "would escape /memories directory"),
    (
        {"command": "create", "path": "/etc/passwd.md", "file_text": "- x"},
        "Path must start with /memories, got: /etc/passwd.md",
    ),
    (
        {"command": "create", "path": "/memoriesX/a.md", "file_text": "- x"},
        "Path must start with /memories",
    ),
    ({"command": "create", "path": "/memories/.git/config.md", "file_text": "- x"}, "hidden names"),
    ({"command": "create", "path": "/memories/a\x00.md", "file_text": "- x"}, "control character"),
    ({"command": "create", "path": "/memories/a.md", "file_text": "- x\x00y"}, "control character"),
    (
        {"command": "create", "path": "/memories/a.md", "file_text": "x" * 10_000_000},
        "at most 100,000 are accepted",
    ),
    ({"command": "create", "path": f"/memories/{TOKEN}.md", "file_text": "- x"}, "secret"),
    (
        {"command": "create", "path": "/memories/notes.md", "file_text": "- x"},
        "File /memories/notes.md already exists",
    ),
    (
        {
            "command": "str_replace",
            "path": "/memories/notes.md",
            "old_str": "Mondays",
            "new_str": "x",
        },
        "did not appear verbatim in /memories/notes.md",
    ),
    (
        {
            "command": "str_replace",
            "path": "/memories/notes.md",
            "old_str": "Deploys on Fridays",
            "new_str": "x",
        },
        "Multiple occurrences of old_str `Deploys on Fridays` in lines: 3, 4",
    ),
    (
        {"command": "str_replace", "path": "/memories/none.md", "old_str": "a", "new_str": "b"},
        "The path /memories/none.md does not exist",
    ),
    (
        {
            "command": "insert",
            "path": "/memories/notes.md",
            "insert_line": 99,
            "insert_text": "- x",
        },
        "Invalid `insert_line` parameter: 99. It should be within the range [0, 4].",
    ),
    (
        {
            "command": "insert",
            "path": "/memories/notes.md",
            "insert_line": -1,
            "insert_text": "- x",
        },
        "Invalid `insert_line` parameter: -1",
    ),
    (
        {"command": "rename", "old_path": "/memories/notes.md", "new_path": "/memories/other.md"},
        "The destination /memories/other.md already exists",
    ),
    (
        {
            "command": "rename",
            "old_path": "/memories/notes.md",
            "new_path": "/memories/../workspaces/clinic.md",
        },
        "would escape",
    ),
    (
        {"command": "rename", "old_path": "/memories", "new_path": "/memories/x"},
        "Cannot rename the /memories directory itself",
    ),
    (
        {"command": "rename", "old_path": "/memories/gone.md", "new_path": "/memories/x.md"},
        "The path /memories/gone.md does not exist",
    ),
    ({"command": "delete", "path": "/memories"}, "Cannot delete the /memories directory itself"),
    (
        {"command": "delete", "path": "/memories/gone.md"},
        "The path /memories/gone.md does not exist",
    ),
    (
        {"command": "view", "path": "/memories/gone.md"},
        "The path /memories/gone.md does not exist. Please provide a valid path.",
    ),
]


@pytest.mark.parametrize(
    ("call", "says"), BAD, ids=[f"{i}-{c.get('command')}" for i, (c, _) in enumerate(BAD)]
)
def test_a_bad_call_is_one_error_and_writes_nothing(
    tool: GitMemoryTool, memory_repo: MemoryRepo, call: dict[str, Any], says: str
) -> None:
    before = state(memory_repo.root)
    notes = (memory_repo.root / "memories" / "notes.md").read_bytes()
    with pytest.raises(ToolError) as caught:
        tool.call(call)
    message = str(caught.value)
    assert says in message and "Traceback" not in message and TOKEN not in message
    assert state(memory_repo.root) == before
    assert (memory_repo.root / "memories" / "notes.md").read_bytes() == notes


def test_a_symlink_out_of_the_folder_is_refused(
    tool: GitMemoryTool, memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, memory_repo.root / "memories" / "link")
    with pytest.raises(ToolError, match="via symlink"):
        tool.call({"command": "create", "path": "/memories/link/a.md", "file_text": "- x"})
    assert list(outside.iterdir()) == []


def test_another_workspace_is_not_there_for_a_mount_of_the_whole_repo(
    memory_repo: MemoryRepo,
) -> None:
    memory_repo.remember("Clinic invoices go out on Mondays", workspace="Clinic", by="user")
    tool = memory_repo.memory_tool("", workspace="Web shop")
    listing = tool.call({"command": "view", "path": "/memories"})
    assert "MEMORY.md" in str(listing) and "clinic" not in str(listing)
    for call in (
        {"command": "view", "path": "/memories/workspaces/clinic.md"},
        {"command": "create", "path": "/memories/workspaces/clinic2.md", "file_text": "- x"},
        {"command": "delete", "path": "/memories/MEMORY.md"},
    ):
        with pytest.raises(ToolError):
            tool.call(call)


def test_secrets_are_redacted_and_said_so(tool: GitMemoryTool, memory_repo: MemoryRepo) -> None:
    said = tool.call(
        {
            "command": "create",
            "path": "/memories/keys.md",
            "file_text": f"- The CI token is {TOKEN}\u200b\n",
        }
    )
    assert "secret" in str(said) and TOKEN not in str(said)
    on_disk = (memory_repo.root / "memories" / "keys.md").read_text()
    assert TOKEN not in on_disk and "\u200b" not in on_disk
    history = subprocess.run(
        ["git", "-C", str(memory_repo.root), "log", "-p", "--all"], capture_output=True, text=True
    ).stdout
    assert TOKEN not in history
    # The next write is not blocked by anything this one left.
    tool.call(
        {
            "command": "insert",
            "path": "/memories/keys.md",
            "insert_line": 0,
            "insert_text": "# Keys\n",
        }
    )


@pytest.mark.slow
def test_a_file_stays_under_its_size_bound(tool: GitMemoryTool, memory_repo: MemoryRepo) -> None:
    chunk = "- " + "word " * 19_000 + "\n"
    with pytest.raises(ToolError, match="a memory file holds at most 1,048,576"):
        for _ in range(12):
            tool.call(
                {
                    "command": "insert",
                    "path": "/memories/other.md",
                    "insert_line": 0,
                    "insert_text": chunk,
                }
            )
    assert (memory_repo.root / "memories" / "other.md").stat().st_size <= 1024 * 1024


def test_the_sdks_own_command_models_run_too(tool: GitMemoryTool, memory_repo: MemoryRepo) -> None:
    command = BetaMemoryTool20250818StrReplaceCommand(
        command="str_replace", path="/memories/other.md", old_str="Other", new_str="Another"
    )
    assert "- Another" in str(tool.execute(command))
    assert (memory_repo.root / "memories" / "other.md").read_text().startswith("- Another [")


def test_the_async_twin_runs_the_same_commands(memory_repo: MemoryRepo) -> None:
    tool = memory_repo.async_memory_tool(task_id="t2")
    said = anyio.run(
        tool.call, {"command": "create", "path": "/memories/a.md", "file_text": "- A\n"}
    )
    assert said == "File created successfully at: /memories/a.md"
    with pytest.raises(ToolError, match="already exists"):
        anyio.run(tool.call, {"command": "create", "path": "/memories/a.md", "file_text": "- B\n"})
    memory_repo.close()
