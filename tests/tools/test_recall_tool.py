"""memory_recall: refs a model can act on, expansion under the same visibility, and use
recorded only for what was returned in full."""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo

from .helpers import ToolsFor

pytestmark = pytest.mark.slow


@pytest.fixture
def stocked(repo: MemoryRepo) -> MemoryRepo:
    repo.remember("We ship the postgres 16 migration on March 3")
    repo.remember("Deploys go through staging first", workspace="Web shop")
    repo.remember("Deploys of the clinic app need sign-off", workspace="Clinic")
    repo.remember("Scratch branch for the deploy task is wip-42", scope="task", task_id="t1")
    repo.remember("My deploy key passphrase hint is the cat", private=True, by="user")
    return repo


def texts(result: dict[str, object]) -> list[str]:
    hits = result["hits"]
    assert isinstance(hits, list)
    return sorted(str(hit["text"]) for hit in hits)


def test_hits_carry_refs_and_provenance(stocked: MemoryRepo, tools_for: ToolsFor) -> None:
    result = tools_for(task_id="t9").dispatch("memory_recall", {"query": "postgres migration"})
    (hit,) = result["hits"]
    assert hit["ref"].startswith("folder:MEMORY.md#") and hit["path"] == "MEMORY.md"
    assert hit["by"] == "agent" and hit["trust"] == "inferred" and hit["relevance"] == 1.0


def test_visibility_follows_the_task_context(stocked: MemoryRepo, tools_for: ToolsFor) -> None:
    web = tools_for(task_id="t1", workspace="Web shop").dispatch(
        "memory_recall", {"query": "deploy"}
    )
    assert texts(web) == [
        "Deploys go through staging first",
        "Scratch branch for the deploy task is wip-42",
    ]
    owner = tools_for(include_private=True).dispatch("memory_recall", {"query": "deploy"})
    assert texts(owner) == ["My deploy key passphrase hint is the cat"]
    helper = tools_for(include_private=True, role="sub_agent")
    assert texts(helper.dispatch("memory_recall", {"query": "deploy"})) == []


def test_ids_expand_visible_refs_and_name_the_rest(
    stocked: MemoryRepo, tools_for: ToolsFor
) -> None:
    tools = tools_for(task_id="t1", workspace="Web shop")
    found = tools.dispatch("memory_recall", {"query": "deploy", "detail": "snippet"})
    refs = [hit["ref"] for hit in found["hits"]]
    clinic = "folder:workspaces/clinic.md#" + stocked.entries("workspaces/clinic.md")[0].id
    expanded = tools.dispatch("memory_recall", {"query": "", "ids": [*refs, clinic]})
    assert [hit["ref"] for hit in expanded["hits"]] == refs
    assert all(hit["content"] for hit in expanded["hits"])
    assert expanded["missing"] == [clinic]


def test_only_full_results_count_as_used(stocked: MemoryRepo, tools_for: ToolsFor) -> None:
    tools = tools_for(task_id="t1")
    (ref,) = [hit["ref"] for hit in tools.dispatch("memory_recall", {"query": "scratch"})["hits"]]
    assert stocked.item(ref).item.last_used_at is None
    tools.dispatch("memory_recall", {"query": "scratch", "detail": "full"})
    assert stocked.item(ref).item.last_used_at is not None


def test_scope_picks_a_lane(stocked: MemoryRepo, tools_for: ToolsFor) -> None:
    tools = tools_for(task_id="t1")
    folder = tools.dispatch("memory_recall", {"query": "deploy", "scope": "folder"})
    memory = tools.dispatch("memory_recall", {"query": "deploy", "scope": "memory"})
    assert {hit["lane"] for hit in folder["hits"]} <= {"folder"}
    assert texts(memory) == ["Scratch branch for the deploy task is wip-42"]


def test_team_scope_without_team_repos_finds_nothing(
    stocked: MemoryRepo, tools_for: ToolsFor
) -> None:
    result = tools_for().dispatch("memory_recall", {"query": "deploy", "scope": "team"})
    assert result["hits"] == [] and result["lane_errors"] == {}
