"""A bullet appended by hand below MEMORY.md's Index is the person's entry.

`echo "- fact" >> MEMORY.md` is the first thing many people try; the line lands in the
Index section. Without a [[link]] it is no index link, so it reads as an entry (recalled,
listed), lint warns that it sits below the Index, and `lint --fix` moves it above the
Index in one undoable commit of its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.cli import main
from memrepo.formats import parse
from memrepo.models.prompt_context import ContextRequest

Git = Callable[..., str]

MEMORY = b"# Memory\n\n- Prefers short answers [by: user]\n\n## Index\n- [[notes]]\n"
NOTES = b"# Notes\n\n- a note\n"


def _repo(memory_repo: MemoryRepo, git: Git) -> Path:
    root = memory_repo.root
    (root / "MEMORY.md").write_bytes(MEMORY)
    (root / "notes.md").write_bytes(NOTES)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "by hand")
    return root


def _append(root: Path, line: str) -> None:
    with open(root / "MEMORY.md", "a", encoding="utf-8") as handle:
        handle.write(line + "\n")  # what `echo "- fact" >> MEMORY.md` does


def test_a_bullet_without_link_below_the_index_is_an_entry() -> None:
    before = parse(MEMORY, "MEMORY.md")
    doc = parse(MEMORY + b"- The staging DB is pg-stage-2\n", "MEMORY.md")

    assert [e.text for e in doc.entries] == [
        "Prefers short answers",
        "The staging DB is pg-stage-2",
    ]
    assert doc.entries[0].id == before.entries[0].id
    assert [link.target for link in doc.index_links] == ["notes"]
    assert [e.line_no for e in doc.index_entries] == [6]
    [problem] = doc.problems
    assert problem.line_no == 6 and "below ## Index" in problem.message
    # Only MEMORY.md has an Index: elsewhere a "## Index" section holds plain entries.
    other = parse(b"## Index\n- [[a]]\n- fact\n", "notes.md")
    assert [e.text for e in other.entries] == ["[[a]]", "fact"] and other.problems == []


@pytest.mark.slow
def test_the_hand_written_bullet_is_recalled_and_listed(memory_repo: MemoryRepo, git: Git) -> None:
    root = _repo(memory_repo, git)
    _append(root, "- The staging database is pg-stage-2")
    git(root, "commit", "-q", "-am", "note by hand")

    listed = [e.text for e in memory_repo.entries("MEMORY.md")]
    hits = memory_repo.recall("staging database").hits

    assert "The staging database is pg-stage-2" in listed
    assert hits and hits[0].text == "The staging database is pg-stage-2"


def test_lint_warns_and_changes_nothing(memory_repo: MemoryRepo, git: Git) -> None:
    root = _repo(memory_repo, git)
    _append(root, "- fact typed at the end")
    head = git(root, "rev-parse", "HEAD")

    report = memory_repo.lint()

    found = [(p.kind, p.severity, p.path, p.line) for p in report.problems]
    assert found == [("format", "warning", "MEMORY.md", 7)]
    assert "memrepo lint --fix" in report.problems[0].message
    assert report.ok
    assert git(root, "rev-parse", "HEAD") == head
    assert (root / "MEMORY.md").read_bytes().endswith(b"- fact typed at the end\n")


def test_lint_fix_moves_it_above_the_index_in_its_own_undoable_commit(
    memory_repo: MemoryRepo, git: Git
) -> None:
    root = _repo(memory_repo, git)
    _append(root, "- fact typed at the end")
    _append(root, "* another, with its own marker")
    refs = [r for t, r in _entries_now(root) if t != "Prefers short answers"]
    ref = refs[0]

    result = memory_repo.lint_fix()

    assert result.moved == tuple(refs) and len(refs) == 2
    assert result.report.ok and result.report.problems == ()
    assert (root / "MEMORY.md").read_bytes() == (
        b"# Memory\n\n- Prefers short answers [by: user]\n- fact typed at the end\n"
        b"* another, with its own marker\n\n## Index\n- [[notes]]\n"
    )
    assert git(root, "status", "--porcelain") == ""
    log = git(root, "log", "-3", "--format=%s%n%b%x00").split("\x00")
    assert "Memrepo-Origin: lint" in log[0] and "Memrepo-By: user" in log[0]
    assert "Memrepo-Origin: edit" in log[1]  # the person's append, committed first as theirs
    assert git(root, "diff", "--stat", "HEAD~1", "HEAD").count("MEMORY.md") == 1
    assert ref in {e.ref for e in memory_repo.entries("MEMORY.md")}  # same id, same ref

    undone = memory_repo.undo()

    assert undone.undone == result.commit
    assert (root / "MEMORY.md").read_bytes() == MEMORY + (
        b"- fact typed at the end\n* another, with its own marker\n"
    )


def _entries_now(root: Path) -> list[tuple[str, str]]:
    doc = parse((root / "MEMORY.md").read_bytes(), "MEMORY.md")
    return [(e.text, f"folder:MEMORY.md#{e.id}") for e in doc.entries]


def test_lint_fix_with_nothing_to_move_makes_no_commit(memory_repo: MemoryRepo, git: Git) -> None:
    root = _repo(memory_repo, git)
    head = git(root, "rev-parse", "HEAD")

    result = memory_repo.lint_fix()

    assert (result.commit, result.moved) == (None, ())
    assert git(root, "rev-parse", "HEAD") == head


@pytest.mark.integration
def test_the_cli_fixes_and_reports(
    memory_repo: MemoryRepo, git: Git, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(memory_repo, git)
    _append(root, "- fact typed at the end")

    assert main(["--repo", str(root), "lint"]) == 0
    assert "MEMORY.md:7: warning format:" in capsys.readouterr().out
    assert main(["--repo", str(root), "lint", "--fix", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)

    assert len(data["moved"]) == 1 and data["commit"] and data["report"]["problems"] == []
    assert main(["--repo", str(root), "lint", "--fix"]) == 0
    assert "nothing to fix" in capsys.readouterr().out


def test_an_appended_bullet_stands_in_l0_like_the_ones_above(
    memory_repo: MemoryRepo, git: Git
) -> None:
    root = _repo(memory_repo, git)
    _append(root, "- Always answer in English")
    l0 = memory_repo.context(ContextRequest(preview=True)).text
    assert "Always answer in English" in l0 and "Prefers short answers" in l0
