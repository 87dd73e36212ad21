"""`memrepo context`: what the agent would get, the gate's decision, refs; a preview only."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from memrepo import MemoryRepo
from memrepo.models.items import candidate
from memrepo.models.prompt_context import ContextBlocks

pytestmark = pytest.mark.slow

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    memory_repo.remember("The user prefers short answers", by="user")
    memory_repo.remember("We ship the postgres 16 migration on March 3", file="projects/db.md")
    memory_repo.remember("Deploys go through staging first", workspace="Web shop")
    memory_repo.remember("The user's blood type is AB", private=True)
    return cli_in(memory_repo.root, "context")


def test_prints_the_blocks_the_gate_and_the_refs(run: Run) -> None:
    code, out, _ = run("when do we ship the postgres migration")
    assert code == 0
    text, _, report = out.partition("\n\n--- gate\n")
    assert text.startswith('<memory layer="L0">\nSaved memory about the user')
    assert "- The user prefers short answers\n" in text
    assert "- We ship the postgres 16 migration on March 3 (inferred)\n" in text
    assert text.count("</memory>") == 2
    assert "folder_l0         yes  the user's own private context" in report
    assert "private_items     no   private items not asked for" in report
    assert "--- refs (2)\nfolder:MEMORY.md#" in report
    assert "--- L1: " in report and "of 250 tokens" in report


def test_json_is_the_context_blocks_model(run: Run) -> None:
    code, out, _ = run("blood type", "--private", "--surface", "plan_step", "--json")
    assert code == 0
    result = ContextBlocks.model_validate(json.loads(out))
    assert result.surface == "plan_step" and result.decision.private_items
    l1 = result.block("l1")
    assert l1 is not None and l1.budget == 400
    assert [line.text for line in l1.lines] == ["The user's blood type is AB"]
    assert result.text.startswith('<memory layer="L0">')


def test_workspace_and_no_memory(run: Run) -> None:
    assert "- Deploys go through staging first" in run("deploys", "--workspace", "Web shop")[1]
    assert "Deploys go through staging first" not in run("deploys")[1]
    code, out, _ = run("deploys <no-memory>", "--workspace", "Web shop")
    assert code == 0 and out.startswith("(no memory for this turn)\n")
    assert "recall_l1         no   <no-memory> in the current message" in out


def test_a_preview_marks_nothing_used(run: Run, memory_repo: MemoryRepo) -> None:
    result = memory_repo._parts.items.ingest(
        candidate(content="Call me Sam", kind="identity", source="user_stated")
    )
    assert result.item is not None
    out = run("hello", "--json")[1]
    assert result.item.ref in json.loads(out)["refs"]
    assert memory_repo.item(result.item.ref).item.last_used_at is None


def test_bad_surface_is_a_usage_error(run: Run) -> None:
    code, _, err = run("hello", "--surface", "email")
    assert code == 2 and "invalid choice" in err


def test_without_a_query_it_shows_what_stands_in_every_prompt(run: Run) -> None:
    code, out, err = run()
    assert code == 0 and err == ""
    standing, _, report = out.partition("\n\n--- gate\n")
    assert standing.startswith('<memory layer="L0">') and '<memory layer="L1">' not in standing
    assert "- The user prefers short answers\n" in standing
    # Nothing was named for the turn, and the gate says so instead of "the contact
    # this turn handles".
    assert "contact_items     no   no contact named for this turn" in report
    assert "task_items        no   no task named for this turn" in report


def test_a_misspelt_workspace_is_an_error(run: Run) -> None:
    code, out, err = run("deploy", "--workspace", "Web shpo")
    assert code == 1 and out == ""
    assert err.startswith("memrepo: no workspace 'Web shpo' in this memory")
