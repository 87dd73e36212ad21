"""Every spelling of privacy an exporter writes keeps the row out of git (issue #27).

The four rows a tester reproduced go through the real CLI; the generated families
(`privacy_cases`) go through `MemoryRepo.import_memory`, one import per half, and are
judged with git's own eyes: no object in the repository may hold the words of a private
or held-back row, and memory_items must hold every private one.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest

from memrepo import MemoryRepo

from .privacy_cases import Case, half
from .test_import_support import ALL_ITEMS

Run = Callable[..., tuple[int, str, str]]
Git = Callable[..., str]


def _dump(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def all_git_objects(root: Path) -> str:
    """The content of every object in the repository (commits, trees, blobs), loose or
    packed, reachable or not: what a push or a copy of `.git` could carry."""
    return subprocess.run(
        ["git", "-C", str(root), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout.decode("utf-8", "replace")


@pytest.mark.parametrize(
    "row",
    [
        {"memory": "Ana door code 4471", "metadata": {"private": "true"}},
        {"memory": "Ana door code 4471", "metadata": {"private": 1}},
        {"memory": "Ana door code 4471", "privacy": "PRIVATE"},
        {"memory": "Ana door code 4471", "contact_id": "c-17"},
    ],
    ids=["private-string", "private-1", "privacy-upper", "contact_id"],
)
def test_the_reported_rows_go_to_items_not_git(
    row: dict[str, object], memory_repo: MemoryRepo, run: Run, tmp_path: Path
) -> None:
    dump = _dump(tmp_path / "dump.jsonl", [row, {"memory": "The build host is osprey"}])
    code, out, err = run("--repo", str(memory_repo.root), "import", "--from", "jsonl", str(dump))
    assert (code, err) == (0, "")
    assert "2 written (1 as memory items)" in out
    [item] = memory_repo.list_items(ALL_ITEMS)
    assert item.content == "Ana door code 4471"
    everything = all_git_objects(memory_repo.root)
    assert "4471" not in everything and "osprey" in everything


def test_a_row_whose_privacy_cannot_be_read_is_held_back_with_one_line(
    memory_repo: MemoryRepo, run: Run, tmp_path: Path
) -> None:
    rows: list[dict[str, object]] = [
        {"memory": "Ana door code 4471", "privacy": {"x": 1}},
        {"memory": "Bo gate code 9932", "metadata": {"private": "maybe"}},
        {"memory": "The build host is osprey"},
    ]
    dump = _dump(tmp_path / "dump.jsonl", rows)
    code, out, err = run("--repo", str(memory_repo.root), "import", "--from", "jsonl", str(dump))
    assert (code, err) == (0, "")
    assert "1 written (0 as memory items)" in out
    lines = [line for line in out.splitlines() if line.startswith("  dump.jsonl:")]
    assert len(lines) == 2
    assert lines[0].startswith("  dump.jsonl:1: ") and "privacy" in lines[0]
    assert lines[1].startswith("  dump.jsonl:2: ") and "metadata.private" in lines[1]
    assert all("held back" in line for line in lines)
    assert memory_repo.list_items(ALL_ITEMS) == []
    everything = all_git_objects(memory_repo.root)
    # As words: four digits turn up by chance inside the hex ids git objects name.
    assert not re.search(r"\b(4471|9932)\b", everything)


def test_public_spellings_and_the_user_themself_stay_in_the_folder(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    rows: list[dict[str, object]] = [
        {"memory": "Uses pnpm", "metadata": {"private": "false"}},
        {"memory": "Uses ruff", "visibility": "public"},
        {"memory": "Likes long runs", "about": "user", "user_id": "dana"},
        {"memory": "Works on kestrel", "categories": ["professional_details"]},
        # Keys that sometimes speak of privacy but here name something else: kept as is.
        {"memory": "Prefers tabs", "metadata": {"classification": "preference"}},
        {"memory": "Runs the on-call rota", "access_level": "admin", "access": "read"},
        {"memory": "Writes for the ops team", "audience": "developers"},
    ]
    report = memory_repo.import_memory(_dump(tmp_path / "d.jsonl", rows), source="jsonl")
    assert (report.written, report.items_written, report.problems) == (7, 0, ())
    assert "Likes long runs" in git(memory_repo.root, "show", "main:imports/jsonl.md")


def _judge(repo: MemoryRepo, cases: list[Case]) -> list[str]:
    """What went wrong for each case, as `id: expected X, got Y`."""
    in_items = {item.content for item in repo.list_items(ALL_ITEMS)}
    everything = all_git_objects(repo.root)
    wrong: list[str] = []
    for case in cases:
        text = str(case.row["memory"])
        got = "items" if text in in_items else "folder" if case.marker in everything else "held"
        if got == "items" and case.marker in everything:
            got = "items+git"
        if got != case.expect:
            wrong.append(f"{case.id}: expected {case.expect}, got {got}")
    return wrong


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tuning", "held-out"])
def test_every_generated_spelling_routes_as_defined(
    name: Literal["tuning", "held-out"], memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    cases = half(name)
    dump = _dump(tmp_path / f"{name}.jsonl", [case.row for case in cases])
    report = memory_repo.import_memory(dump, source="jsonl")
    held = sum(case.expect == "held" for case in cases)
    assert report.skipped.get("privacy_unreadable", 0) == held
    wrong = _judge(memory_repo, cases)
    assert wrong == [], f"{len(wrong)} of {len(cases)} wrong:\n" + "\n".join(wrong[:40])


def _claude_memory(folder: Path, name: str, front: str, body: str) -> None:
    (folder / f"{name}.md").write_text(f"---\nname: {name}\ntype: user\n{front}---\n\n{body}\n")


def test_claude_code_memory_files_honour_the_same_spellings(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "MEMORY.md").write_text("- [a](a.md)\n- [b](b.md)\n- [c](c.md)\n- [d](d.md)\n")
    _claude_memory(folder, "a", "private: yes\n", "Ana's door code is 4471")
    _claude_memory(folder, "b", "metadata:\n  visibility: Personal\n", "Bo's PIN is 9932")
    _claude_memory(folder, "c", "privacy: perhaps\n", "Cy's gate code is 5521")
    _claude_memory(folder, "d", "", "The build host is osprey")
    report = memory_repo.import_memory(folder, source="claude-code")
    assert (report.written, report.items_written) == (3, 2)
    [held] = report.problems
    assert (held.path, held.reason) == ("c.md", "privacy_unreadable")
    everything = all_git_objects(memory_repo.root)
    assert all(code not in everything for code in ("4471", "9932", "5521"))
    assert "osprey" in everything


def test_letta_blocks_honour_the_same_spellings(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    blocks = [
        {"label": "human", "value": "Dana's salary is 91000", "metadata": {"sensitivity": "HIGH"}},
        {"label": "project", "value": "We answer briefly", "metadata": {}},
    ]
    path = tmp_path / "agent.af"
    path.write_text(json.dumps({"agents": [], "blocks": blocks}))
    report = memory_repo.import_memory(path, source="letta")
    assert (report.written, report.items_written) == (2, 1)
    assert "91000" not in all_git_objects(memory_repo.root)
