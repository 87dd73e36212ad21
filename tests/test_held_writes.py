"""Held agent writes (reference §8.7, issue #32): a workspace can make what the agent
writes wait for a person. Judged from outside: git, the held file on disk, `memrepo
pending/approve/reject` and recall as typed, and the agent's own tool."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.tools import MemoryTools, ToolContext

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def memrepo(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memrepo", "--repo", str(root), *argv],
        capture_output=True,
        text=True,
    )


def head(root: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout


@pytest.mark.slow
def test_an_inference_waits_then_lands_as_the_agents_when_approved(memory_repo: MemoryRepo) -> None:
    root = memory_repo.root
    memory_repo.set_workspace("Web shop", approval="background")
    before = head(root)
    tools = MemoryTools(memory_repo, ToolContext(task_id="t-9", workspace="Web shop"))
    said = tools.dispatch(
        "memory_remember", {"text": f"Deploy keys rotate monthly; ci uses {TOKEN}"}
    )
    assert (
        said["status"] == "held" and said["ref"].startswith("held:") and "approval" in said["note"]
    )
    assert head(root) == before
    assert not memory_repo.recall("deploy keys rotate", workspace="Web shop").hits
    stored = next((root / ".git" / "memrepo" / "held").glob("*.json")).read_text()
    assert TOKEN not in stored  # screened before it is kept
    memory_repo.close()
    listed = memrepo(root, "pending")
    held_id = said["ref"].removeprefix("held:")
    assert listed.stdout.startswith(held_id) and "workspace Web shop, task t-9" in listed.stdout
    assert memrepo(root, "approve", held_id[:5]).returncode == 0
    log = subprocess.run(
        ["git", "-C", str(root), "log", "-1", "--format=%B"], capture_output=True, text=True
    ).stdout
    assert "Memrepo-By: agent" in log and "Memrepo-Task: t-9" in log
    assert "Deploy keys rotate monthly" in (root / "workspaces" / "web-shop.md").read_text()
    assert memrepo(root, "pending").stdout.strip() == "no agent writes wait for approval"


@pytest.mark.slow
def test_what_the_user_asked_for_waits_only_when_everything_does(memory_repo: MemoryRepo) -> None:
    root = memory_repo.root
    memory_repo.set_workspace("Web shop", approval="background")
    ask = ToolContext(task_id="t-1", workspace="Web shop").next_turn(
        "Remember that we ship on Mondays"
    )
    tools = MemoryTools(memory_repo, ask)
    said = tools.dispatch("memory_remember", {"text": "We ship on Mondays", "user_asked": True})
    assert said["status"] == "written"
    memory_repo.set_workspace("Web shop", approval="all")
    said = tools.dispatch("memory_remember", {"text": "We ship from Berlin", "user_asked": True})
    assert said["status"] == "held"
    person = memory_repo.remember("Support hours are 9-5", workspace="Web shop", by="user")
    assert person.status == "written"  # a person's own write never waits
    memory_repo.close()
    rejected = memrepo(root, "reject", said["ref"])
    assert rejected.returncode == 0 and "We ship from Berlin" in rejected.stdout
    assert "Berlin" not in (root / "workspaces" / "web-shop.md").read_text()
    assert memrepo(root, "approve", said["ref"]).returncode == 1  # decided already


@pytest.mark.slow
def test_the_setting_is_shown_and_checked(memory_repo: MemoryRepo) -> None:
    root = memory_repo.root
    memory_repo.close()
    done = memrepo(root, "workspace", "set", "Web shop", "--approval", "all")
    assert done.stdout.strip() == "workspace Web shop: memory on, privacy normal, approval all"
    bad = memrepo(root, "workspace", "set", "Web shop", "--approval", "some")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_the_agents_tool_lists_and_a_decision_always_asks_the_user(memory_repo: MemoryRepo) -> None:
    from memrepo.errors import ApprovalDenied
    from memrepo.tools import allow_all, deny_all

    memory_repo.set_workspace("ops", approval="all")
    context = ToolContext(task_id="t-3", workspace="ops")
    tools = MemoryTools(memory_repo, context, approval=deny_all)
    said = tools.dispatch("memory_remember", {"text": "The queue restarts at midnight"})
    listed = tools.dispatch("memory_held", {})
    assert [row["text"] for row in listed["waiting"]] == ["The queue restarts at midnight"]
    held_id = said["ref"].removeprefix("held:")
    before = head(memory_repo.root)
    with pytest.raises(ApprovalDenied, match="approving this held write was not approved"):
        tools.dispatch("memory_held", {"id": held_id, "decision": "approve"})
    assert head(memory_repo.root) == before
    other = MemoryTools(
        memory_repo, ToolContext(task_id="t-4", workspace="web"), approval=allow_all
    )
    assert other.dispatch("memory_held", {})["waiting"] == []  # another workspace's
    approved = MemoryTools(memory_repo, context, approval=allow_all)
    done = approved.dispatch("memory_held", {"id": held_id, "decision": "approve"})
    assert done["decided"] == "approved" and done["ref"].startswith("folder:workspaces/ops.md#")
    assert "queue restarts at midnight" in (memory_repo.root / "workspaces" / "ops.md").read_text()
    memory_repo.close()
