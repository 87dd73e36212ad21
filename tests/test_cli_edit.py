"""`memrepo edit` and `memrepo move` against a real memory repo: output, --json, exit codes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from memrepo import MemoryRepo

Run = Callable[..., tuple[int, str, str]]
Git = Callable[..., str]


def _ref(repo: MemoryRepo, text: str, file: str) -> str:
    ref = repo.remember(text, file=file).ref
    assert ref is not None
    return ref


def test_edit_rewords_and_sets_metadata(run: Run, memory_repo: MemoryRepo, git: Git) -> None:
    ref = _ref(memory_repo, "The user drinks tea", "drinks.md")
    repo = ["--repo", str(memory_repo.root)]
    code, out, err = run(
        *repo, "edit", ref, "--text", "The user drinks green tea", "--set", "kind=preference"
    )
    assert code == 0, err
    assert out.startswith(f"edited {ref} (now folder:drinks.md#")
    line = (memory_repo.root / "drinks.md").read_text().splitlines()[-1]
    assert "The user drinks green tea" in line and "kind: preference" in line
    assert git(memory_repo.root, "status", "--porcelain") == ""
    code, out, _ = run(*repo, "undo")
    assert code == 0 and "The user drinks tea" in (memory_repo.root / "drinks.md").read_text()


def test_edit_json_and_unset(run: Run, memory_repo: MemoryRepo) -> None:
    ref = memory_repo.remember("Reads the news at eight", file="day.md", source="chat").ref
    assert ref is not None
    code, out, _ = run("--repo", str(memory_repo.root), "edit", ref, "--unset", "source", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["changed"] is True and data["ref"] == ref and data["commit"]
    assert "source:" not in (memory_repo.root / "day.md").read_text()


def test_bad_edit_is_one_line_and_exit_1(run: Run, memory_repo: MemoryRepo) -> None:
    ref = _ref(memory_repo, "Walks the dog at seven", "dog.md")
    repo = ["--repo", str(memory_repo.root)]
    for argv in (
        ["edit", ref],
        ["edit", ref, "--set", "novalue"],
        ["edit", ref, "--set", "bad key=x"],
        ["edit", "folder:dog.md#0000000000", "--text", "Something else"],
        ["move", ref, "../escape.md"],
        ["move", ref, "dog.md"],
    ):
        code, out, err = run(*repo, *argv)
        assert code == 1 and out == "", argv
        assert len(err.splitlines()) == 1 and err.startswith("memrepo: "), (argv, err)
    assert "Walks the dog at seven" in (memory_repo.root / "dog.md").read_text()


def test_move_prints_the_new_ref(run: Run, memory_repo: MemoryRepo, tmp_path: Path) -> None:
    ref = _ref(memory_repo, "Uses ruff for linting", "misc.md")
    code, out, err = run("--repo", str(memory_repo.root), "move", ref, "tools/python")
    assert code == 0, err
    assert out.startswith("moved to folder:tools/python.md#")
    assert "Uses ruff for linting" in (memory_repo.root / "tools/python.md").read_text()
