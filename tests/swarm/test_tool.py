"""The swarm_note tool: task, swarm and taint from the host's context; verifiers refused."""

from __future__ import annotations

import pytest

from memrepo import EntryNotFound, MemoryRepo
from memrepo.errors import RoleRefused, ToolInputError
from memrepo.tools import MemoryTools, ToolContext, default_registry
from memrepo.tools.swarm_note import SWARM_NOTE

from .conftest import CHILD, GRANDCHILD, OTHER_ROOT, ROOT, Git, head

FOLDER = "swarms/fix-the-flaky-ci-build-root-4f2"


def tools(repo: MemoryRepo, context: ToolContext) -> MemoryTools:
    return MemoryTools(repo, context, registry=default_registry())


def test_the_tool_is_listed_with_its_schema(repo: MemoryRepo) -> None:
    toolbox = tools(repo, ToolContext(task_id=CHILD))
    [spec] = [t for t in toolbox.openai_tools() if t["function"]["name"] == SWARM_NOTE]
    properties = spec["function"]["parameters"]["properties"]
    assert set(properties) == {"kind", "text", "sources", "answers"}
    assert properties["kind"]["enum"] == ["finding", "ruled_out", "question", "answer"]


def test_a_note_lands_in_the_swarm_of_the_context_task(repo: MemoryRepo) -> None:
    toolbox = tools(repo, ToolContext(task_id=GRANDCHILD).after_untrusted())
    out = toolbox.dispatch(SWARM_NOTE, '{"kind": "finding", "text": "The runner is arm64"}')
    assert out["status"] == "written" and out["tainted"] is True
    line = (repo.root / FOLDER / "findings.md").read_text().splitlines()[-1]
    assert f"source: memrepo://tasks/{GRANDCHILD}" in line and "tainted: yes" in line
    question = tools(repo, ToolContext(task_id=ROOT)).dispatch(
        SWARM_NOTE, {"kind": "question", "text": "Which runner image do we use?"}
    )
    answer = tools(repo, ToolContext(task_id=CHILD)).dispatch(
        SWARM_NOTE, {"kind": "answer", "text": "ubuntu-22.04", "answers": question["ref"]}
    )
    assert answer["status"] == "written"
    assert "ubuntu-22.04" in repo.swarm_block(ROOT)


@pytest.mark.slow
def test_a_verifier_may_read_but_not_write(repo: MemoryRepo, git: Git) -> None:
    repo.swarm_note(CHILD, "finding", "The cache key ignores the lockfile")
    before = head(git, repo.root)
    verifier = tools(repo, ToolContext(task_id=GRANDCHILD, role="verifier"))
    with pytest.raises(RoleRefused, match="verifier reads the swarm but does not write"):
        verifier.dispatch(SWARM_NOTE, {"kind": "finding", "text": "I checked it"})
    assert head(git, repo.root) == before
    hits = verifier.dispatch("memory_recall", {"query": "lockfile cache", "scope": "swarm"})
    assert [h["text"] for h in hits["hits"]] == ["The cache key ignores the lockfile"]


def test_bad_calls_are_model_readable_and_write_nothing(repo: MemoryRepo, git: Git) -> None:
    before = head(git, repo.root)
    toolbox = tools(repo, ToolContext(task_id=CHILD))
    with pytest.raises(ToolInputError, match="kind"):
        toolbox.dispatch(SWARM_NOTE, {"kind": "order", "text": "Do this"})
    with pytest.raises(ToolInputError, match="unknown field"):
        toolbox.dispatch(SWARM_NOTE, {"kind": "finding", "text": "x y z", "task": OTHER_ROOT})
    with pytest.raises(ToolInputError, match="must name the question"):
        toolbox.dispatch(SWARM_NOTE, {"kind": "answer", "text": "Yes it is"})
    with pytest.raises(EntryNotFound, match="no such question"):
        toolbox.dispatch(SWARM_NOTE, {"kind": "answer", "text": "Yes", "answers": "abc123"})
    with pytest.raises(ToolInputError, match="no task"):
        tools(repo, ToolContext()).dispatch(SWARM_NOTE, {"kind": "finding", "text": "A note"})
    assert head(git, repo.root) == before
