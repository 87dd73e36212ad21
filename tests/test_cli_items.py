"""The memory_items commands: remember routing flags, items, retention, workspace."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from memrepo import MemoryRepo
from memrepo.cli import main

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], memory_repo: MemoryRepo) -> Run:
    def call(*argv: str) -> tuple[int, str, str]:
        code = main(["--repo", str(memory_repo.root), *argv])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return call


def test_contact_fact_goes_to_items(run: Run, memory_repo: MemoryRepo) -> None:
    code, out, _ = run("remember", "Ana prefers calls after 6pm", "--contact", "mail:ana")
    assert code == 0
    assert out.startswith("inserted memory:") and "not in git" in out
    assert "Ana" not in (memory_repo.root / "MEMORY.md").read_text()
    code, out, _ = run("items", "list", "--json")
    (item,) = json.loads(out)
    assert item["scope"] == "contact" and item["scope_ref"] == "mail:ana"
    assert item["privacy"] == "normal"


def test_private_items_need_the_flag_to_be_listed(run: Run) -> None:
    run("remember", "My blood type is AB", "--private")
    assert run("items", "list")[1].strip() == "no items"
    code, out, _ = run("items", "list", "--private")
    assert code == 0 and "My blood type is AB" in out and "private" in out


def test_show_why_forget(run: Run) -> None:
    _, out, _ = run("remember", "Bo likes tea", "--contact", "bo", "--json")
    ref = json.loads(out)["ref"]
    code, out, _ = run("items", "show", ref)
    assert code == 0 and "Bo likes tea" in out
    code, out, _ = run("items", "why", ref)
    assert code == 0 and "user" in out.lower()
    code, out, _ = run("items", "forget", ref)
    assert code == 0 and out.startswith(f"forgot {ref}")
    code, _, err = run("items", "forget", ref)
    assert code == 1 and "no such memory item" in err


def test_task_scope_and_bad_source_kind(run: Run) -> None:
    code, out, _ = run("remember", "Draft is in branch wip-42", "--task", "t-42", "--scope", "task")
    assert code == 0 and "memory:" in out
    code, _, err = run("remember", "Some fact here", "--source-kind", "rumour")
    assert code == 1 and "source_kind" in err


def test_workspace_memory_off(run: Run) -> None:
    code, out, _ = run("workspace", "set", "Web shop", "--memory", "off")
    assert code == 0 and "memory off" in out
    code, out, err = run("remember", "Agent guess", "--workspace", "Web shop", "--by", "agent")
    assert code == 3 and out == "" and err.strip() == "memrepo: skipped: memory_disabled"
    code, out, _ = run("remember", "User says ship Fridays", "--workspace", "Web shop")
    assert code == 0 and out.startswith("inserted folder:")


def test_retention_reports_counts(run: Run) -> None:
    _, out, _ = run("remember", "Temp fact to drop", "--private", "--json")
    run("forget", json.loads(out)["ref"])
    code, out, _ = run("retention", "--json")
    assert code == 0 and json.loads(out)["tombstones"] == 1
