"""`memrepo dream` and `memrepo review ...` drive the same API and print its models."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from memrepo import MemoryRepo
from memrepo.cli import main

from .helpers import Commit, git, memory

Run = Callable[..., tuple[int, str, str]]

SEED = memory(
    "- Promo [expires: 2020-01-01; by: agent]",
    "- Deploy day is Friday [subject: deploy-day; by: agent; added: 2026-02-01]",
    "- Deploy day is Monday [subject: deploy-day; by: user; added: 2025-01-01]",
)


@pytest.fixture
def run(cli_in: Callable[..., Run], repo: MemoryRepo) -> Run:
    return cli_in(repo.root)


def test_dream_then_review_from_the_command_line(
    run: Run, repo: MemoryRepo, commit: Commit
) -> None:
    commit({"MEMORY.md": SEED})
    code, out, _ = run("dream", "--dry-run")
    assert code == 0 and out.startswith("dry run: nothing written (offline): 1 safe, 1 for review")
    code, out, _ = run("dream", "--json")
    report = json.loads(out)
    assert code == 0 and report["review"].startswith("dream/") and report["commit"]
    name = report["review"]
    code, out, _ = run("review", "list")
    assert out.startswith(f"{name}  1 change(s): subjects")
    code, out, _ = run("review", "show", name)
    assert "[1] remove (subjects)" in out and "why: subject 'deploy-day'" in out
    code, out, _ = run("review", "accept", name, "--op", "1", "--json")
    assert code == 0 and len(json.loads(out)["accepted"]) == 1
    assert "Friday" not in (repo.root / "MEMORY.md").read_text()
    code, _, err = run("review", "reject", name)
    assert code == 1 and "no review branch" in err


def test_reject_from_the_command_line(run: Run, repo: MemoryRepo, commit: Commit) -> None:
    commit({"MEMORY.md": SEED})
    name = json.loads(run("dream", "--json")[1])["review"]
    code, out, _ = run("review", "reject", name)
    assert code == 0 and out == f"rejected {name}: 1 change(s) never proposed again\n"
    assert git(repo.root, "branch", "--list", "dream/*") == ""


@pytest.mark.parametrize("argv", [("dream",), ("review",)])
def test_help_has_examples(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    assert main([*argv, "--help"]) == 0
    assert "Example:\n  memrepo " in capsys.readouterr().out
