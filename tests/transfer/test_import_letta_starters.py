"""Letta agents as they are shipped and first created: double-encoded agent files,
starter scaffolding, and the persona (the agent's words about itself).

Built by `exporters` from Letta's AgentFileSchema, letta-ai/agent-file's stored
memgpt_agent.af (a JSON string of the document) and Letta Code's starter blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .exporters import (
    MEMGPT_HUMAN,
    MEMGPT_PERSONA,
    double_encoded,
    letta_agent_file,
    letta_code_memfs,
)
from .test_import_support import Git, everything_git_has

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    return cli_in(memory_repo.root)


def test_a_double_encoded_agent_file_imports_its_human_facts_only(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    path = tmp_path / "memgpt_agent.af"
    path.write_text(
        double_encoded(letta_agent_file({"human": MEMGPT_HUMAN, "persona": MEMGPT_PERSONA}))
    )
    code, out, err = run("import", "--from", "letta", str(path))
    assert (code, err) == (0, "")
    lines = (memory_repo.root / "imports" / "letta.md").read_text()
    for fact in ("First name: Chad", "Gender: Male", "Occupation: Computer science PhD"):
        assert fact in lines
    history = everything_git_has(memory_repo, git)
    for scaffold in ("Last name: ?", "This is what I know so far", "I am Sam", "soft"):
        assert scaffold not in history
    assert "skipped: persona 6, placeholder 3, template 1" in out


def test_a_fresh_letta_code_agent_has_nothing_to_import(run: Run, tmp_path: Path) -> None:
    """Every block of a just-created agent is scaffolding: nothing comes in, exit 1."""
    folder = letta_code_memfs(tmp_path / "memory")
    code, out, err = run("import", "--from", "letta", str(folder))
    assert code == 1
    assert "written" in out and " 0 written" in out
    assert err.startswith("memrepo: nothing imported from memory: none of its")
    assert "persona 2" in err and "placeholder" in err and "template" in err


@pytest.mark.slow
def test_what_the_agent_learns_later_comes_in_and_its_persona_stays_out(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    folder = letta_code_memfs(tmp_path / "memory")
    human = folder / "system" / "human.md"
    human.write_text(human.read_text() + "\n- Dana ships on Fridays only after a green canary\n")
    persona = folder / "system" / "persona.md"
    persona.write_text(persona.read_text() + "\n- I always answer with the command first\n")
    report = memory_repo.import_memory(folder, source="letta")
    assert report.written == 1
    [entry] = memory_repo.entries("imports/letta.md")
    assert entry.text == "Dana ships on Fridays only after a green canary"
    assert entry.metadata["kind"] == "human"
    assert not [h for h in memory_repo.recall("command first").hits if "command" in h.text]
