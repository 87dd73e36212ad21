"""Importing Letta: agent files (`.af`) and MemFS folders.

The agent file follows Letta's `AgentFileSchema` (letta/schemas/agent_file.py: agents,
blocks with label, value, limit, read_only, ...) with block values written like
Letta's starter human and persona blocks; see fixtures/imports/README.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import ImportSourceError

from .test_import_support import Git, copy_fixture, everything_git_has, state


@pytest.fixture
def agent_file(tmp_path: Path) -> Path:
    return copy_fixture("letta/agent.af", tmp_path / "agents" / "sam.af")


def test_blocks_become_separate_facts_without_placeholders(
    memory_repo: MemoryRepo, agent_file: Path, git: Git
) -> None:
    report = memory_repo.import_memory(agent_file, source="letta")
    assert report.skipped == {"persona": 4, "placeholder": 2, "template": 1}
    assert report.problems == ()
    entries = {e.text: e.metadata for e in memory_repo.entries("imports/letta.md")}
    human = [text for text, meta in entries.items() if meta["kind"] == "human"]
    assert human == [
        "First name: Dana",
        "Occupation: Site reliability engineer at Acme",
        "Interests: Sailing, Formula 1, sourdough baking",
    ]
    assert not any("?" in text or "I should expand this" in text for text in entries)
    refunds = entries["Refunds over 500 EUR need a human approver."]
    assert (refunds["kind"], refunds["limit"], refunds["read-only"]) == ("policies", "2000", "yes")
    assert refunds["source"] == "sam.af/policies#L1"
    assert entries["First name: Dana"]["limit"] == "20000"
    assert "read-only" not in entries["First name: Dana"]
    history = everything_git_has(memory_repo, git)
    assert "My name is Dana and I like sailing" not in history  # messages are not memory
    assert str(agent_file.parent) not in history


def test_reimport_adds_nothing_and_a_removed_line_is_reported(
    memory_repo: MemoryRepo, agent_file: Path, git: Git
) -> None:
    first = memory_repo.import_memory(agent_file, source="letta")
    before = state(memory_repo, git)
    again = memory_repo.import_memory(agent_file, source="letta")
    assert (again.written, again.reinforced, again.commit) == (0, first.written, None)
    assert state(memory_repo, git)[:3] == before[:3]
    document = json.loads(agent_file.read_text())
    human = document["blocks"][0]
    human["value"] = human["value"].replace("Interests: Sailing, Formula 1, sourdough baking\n", "")
    agent_file.write_text(json.dumps(document))
    [gone] = memory_repo.import_memory(agent_file, source="letta").problems
    assert (gone.path, gone.line, gone.reason) == ("sam.af/human", 8, "deleted_upstream")


def test_the_first_agent_file_schema_is_read_too(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    """Agent File's launch schema: one agent object with its blocks as `core_memory`."""
    path = tmp_path / "old.af"
    path.write_text(
        json.dumps(
            {
                "agent_type": "memgpt_agent",
                "name": "old",
                "version": "0.6.45",
                "core_memory": [
                    {"label": "human", "value": "Name: Bo\nCity: ?\n", "limit": 5000},
                    {"label": "persona", "value": "I answer in Portuguese.", "limit": 5000},
                ],
                "messages": [],
                "tools": [],
            }
        )
    )
    report = memory_repo.import_memory(path, source="letta")
    assert (report.written, report.skipped) == (1, {"persona": 1, "placeholder": 1})


def test_memfs_blocks_split_key_value_records(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    source = copy_fixture("letta/memfs", tmp_path / "memory")
    report = memory_repo.import_memory(source, source="letta")
    assert report.skipped == {"placeholder": 1}
    entries = {e.text: e.metadata for e in memory_repo.entries("imports/letta.md")}
    assert set(entries) == {
        "First name: Dana",
        "Occupation: Site reliability engineer at Acme",
        "Prefers answers with the command first, explanation after",
        "Refunds over 500 EUR need a human approver.",
    }
    assert entries["First name: Dana"]["limit"] == "5000"
    assert entries["Refunds over 500 EUR need a human approver."]["read-only"] == "yes"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"agents": [{"name": "sam"}', "not JSON"),
        (b'["a list"]', "a JSON object with `agents` and `blocks`, not a list"),
        (b'{"name": "sam", "tools": []}', "without `agents`, `blocks` or `core_memory`"),
        (b'{"agents": [], "blocks": []}', "without memory blocks"),
        (b'{"blocks": [{"label": "human", "value": "Caf\xe9"}]}', "not UTF-8 at byte 44"),
    ],
)
def test_a_broken_agent_file_is_one_clear_error_and_nothing_is_imported(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git, data: bytes, message: str
) -> None:
    path = tmp_path / "broken.af"
    path.write_bytes(data)
    before = state(memory_repo, git)
    with pytest.raises(ImportSourceError, match=message) as caught:
        memory_repo.import_memory(path, source="letta")
    assert "\n" not in str(caught.value) and str(caught.value).startswith("broken.af: ")
    assert state(memory_repo, git) == before


def test_a_huge_agent_file_is_refused(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    path = tmp_path / "huge.af"
    with open(path, "wb") as handle:
        handle.truncate(65 << 20)
    with pytest.raises(ImportSourceError, match="at most 64 MiB"):
        memory_repo.import_memory(path, source="letta")


def test_memfs_reimport_adds_nothing_and_a_removed_block_is_reported(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    source = copy_fixture("letta/memfs", tmp_path / "memory")
    memory_repo.import_memory(source, source="letta")
    before = state(memory_repo, git)
    again = memory_repo.import_memory(source, source="letta")
    assert (again.written, again.commit, again.problems) == (0, None, ())
    assert state(memory_repo, git)[:3] == before[:3]
    (source / "system" / "policies.md").unlink()
    [gone] = memory_repo.import_memory(source, source="letta").problems
    assert (gone.path, gone.line, gone.reason) == ("system/policies.md", 6, "deleted_upstream")
