"""A person's recall asks the whole memory (issue #31): a fact in a workspace file is
found without `--workspace`, labelled with its workspace; a misspelt `--workspace` is an
error naming the nearest workspace, not "nothing found". Agents keep their scope."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memrepo import MemoryRepo
from memrepo.tools import MemoryTools, ToolContext

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def repo(memory_repo: MemoryRepo) -> MemoryRepo:
    memory_repo.remember("Deploy freeze on Fridays", by="user")
    memory_repo.remember("Deploy runs through the ops pipeline", workspace="ops", by="user")
    memory_repo.remember("The clinic deploy is manual", workspace="Clinic", by="user")
    memory_repo.remember("Clinic billing code is 4711", workspace="Clinic", by="user", private=True)
    return memory_repo


@pytest.mark.slow
def test_recall_without_a_workspace_finds_every_workspace_and_says_where(
    run: Run, repo: MemoryRepo
) -> None:
    code, out, err = run("--repo", str(repo.root), "recall", "deploy")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert "Deploy freeze on Fridays" in out
    ops = lines.index(next(line for line in lines if "ops pipeline" in line))
    assert "workspace ops" in lines[ops + 1]
    clinic = lines.index(next(line for line in lines if "clinic deploy" in line))
    assert "workspace clinic" in lines[clinic + 1]
    freeze = lines.index(next(line for line in lines if "Deploy freeze" in line))
    assert "workspace" not in lines[freeze + 1]
    assert "4711" not in out  # private stays out unless asked for


@pytest.mark.slow
def test_a_misspelt_workspace_is_an_error_with_the_nearest_name(run: Run, repo: MemoryRepo) -> None:
    code, out, err = run("--repo", str(repo.root), "recall", "deploy", "--workspace", "opps")
    assert code == 1 and out == ""
    assert err == "memrepo: no workspace 'opps' in this memory; did you mean 'ops'?\n"
    code, out, _ = run("--repo", str(repo.root), "recall", "deploy", "--workspace", "Clinic")
    assert code == 0 and "clinic deploy" in out and "ops pipeline" not in out


@pytest.mark.slow
def test_an_agent_keeps_its_scope(repo: MemoryRepo) -> None:
    tools = MemoryTools(repo, ToolContext(task_id="t1", workspace="ops"))
    found = tools.dispatch("memory_recall", {"query": "deploy"})
    texts = " ".join(hit["text"] for hit in found["hits"])
    assert "ops pipeline" in texts and "clinic" not in texts.lower()
