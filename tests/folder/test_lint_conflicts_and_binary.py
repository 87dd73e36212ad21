"""lint and the pre-commit hook flag conflict markers and binary-looking memory files.

Both come from people working with plain git: a conflict resolved by committing the
file as git left it, a NUL byte or a Latin-1 save. Either keeps the file from reading
as memory (git calls a file with a NUL binary: no diffs, no entry merge), so lint calls
them errors with the file and the line, the pre-commit hook blocks the commit, and
health's format check fails.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.health import run_health
from memrepo.sync.hooks import check_staged, install_git_hooks

Git = Callable[..., str]

CONFLICTED = (
    "# Notes\n\n- kept fact\n<<<<<<< HEAD\n- ours [by: user]\n=======\n"
    "- theirs [by: agent]\n>>>>>>> origin/main\n- last fact\n"
)


def _lint(repo: MemoryRepo) -> set[tuple[str, str, str, int | None]]:
    return {(p.kind, p.severity, p.path, p.line) for p in repo.lint().problems}


def _commit_by_hand(git: Git, root: Path, files: dict[str, bytes]) -> None:
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "by hand")


def test_committed_conflict_markers_are_lint_errors(memory_repo: MemoryRepo, git: Git) -> None:
    root = memory_repo.root
    _commit_by_hand(git, root, {"notes.md": CONFLICTED.encode()})

    report = memory_repo.lint()

    found = _lint(memory_repo)
    assert {("conflict", "error", "notes.md", n) for n in (4, 6, 8)} <= found
    assert not report.ok
    [first] = [p for p in report.problems if p.kind == "conflict" and p.line == 4]
    assert "conflict marker" in first.message


def test_a_setext_underline_is_no_conflict_marker(memory_repo: MemoryRepo, git: Git) -> None:
    _commit_by_hand(
        git, memory_repo.root, {"notes.md": b"Notes\n=======\n\n- a fact\n\n> quoted\n"}
    )
    assert not any(p.kind == "conflict" for p in memory_repo.lint().problems)


def test_a_half_removed_conflict_is_still_flagged(memory_repo: MemoryRepo) -> None:
    (memory_repo.root / "notes.md").write_text("# Notes\n\n- ours\n>>>>>>> theirs\r\n")
    assert ("conflict", "error", "notes.md", 4) in _lint(memory_repo)


def test_a_nul_byte_in_a_memory_file_is_an_error_naming_line_and_offset(
    memory_repo: MemoryRepo,
) -> None:
    data = b"# Notes\n\n- pasted \x00 junk\n" + b"- more\n" * 2000  # NUL past no probe
    (memory_repo.root / "notes.md").write_bytes(data)
    (memory_repo.root / "late.md").write_bytes(b"- fine\n" * 3000 + b"- late \x00\n")

    report = memory_repo.lint()

    [early] = [p for p in report.problems if p.kind == "binary" and p.path == "notes.md"]
    [late] = [p for p in report.problems if p.kind == "binary" and p.path == "late.md"]
    assert (early.severity, early.line) == ("error", 3)
    assert early.message.startswith("NUL byte at byte offset 18 (line 3)")
    assert (late.severity, late.line) == ("error", 3001)
    assert not report.ok


def test_a_memory_file_that_is_not_utf8_is_an_error_naming_line_and_offset(
    memory_repo: MemoryRepo,
) -> None:
    (memory_repo.root / "notes.md").write_bytes(b"# Notes\n\n- caf\xe9 au lait\n")

    [problem] = [p for p in memory_repo.lint().problems if p.path == "notes.md"]

    assert (problem.kind, problem.severity, problem.line) == ("encoding", "error", 3)
    assert "not valid UTF-8 at byte offset 14 (line 3)" in problem.message


def test_health_fails_the_format_check_on_a_binary_memory_file(
    memory_repo: MemoryRepo, git: Git
) -> None:
    _commit_by_hand(git, memory_repo.root, {"notes.md": b"# Notes\n\n- a \x00 b\n"})

    check = run_health(memory_repo.folder).check("format")

    assert check.status == "FAIL" and "notes.md:3" in check.detail


# --- the pre-commit hook -----------------------------------------------------------------


def _commit(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), "commit", "-m", "by hand"], capture_output=True, text=True
    )


@pytest.mark.slow
@pytest.mark.integration
@pytest.mark.parametrize(
    ("data", "where", "words"),
    [
        (CONFLICTED.encode(), "notes.md:4", "conflict marker"),
        (b"# Notes\n\n- a \x00 b\n", "notes.md:3", "NUL"),
        (b"# Notes\n\n- caf\xe9\n", "notes.md:3", "UTF-8"),
    ],
    ids=["conflict", "nul", "latin-1"],
)
def test_the_pre_commit_hook_blocks_the_commit(
    memory_repo: MemoryRepo, git: Git, data: bytes, where: str, words: str
) -> None:
    root = memory_repo.root
    install_git_hooks(root)
    head = git(root, "rev-parse", "HEAD")
    (root / "notes.md").write_bytes(data)
    git(root, "add", "notes.md")

    result = _commit(root)

    assert result.returncode != 0
    assert f"{where}: error:" in result.stderr and words in result.stderr
    assert git(root, "rev-parse", "HEAD") == head


def test_lint_and_the_hook_apply_the_same_rule(memory_repo: MemoryRepo, git: Git) -> None:
    root = memory_repo.root
    (root / "notes.md").write_bytes(CONFLICTED.encode())
    (root / "nul.md").write_bytes(b"- a \x00 b\n")
    git(root, "add", "notes.md", "nul.md")

    staged = {(p.kind, p.severity, p.path, p.line) for p in check_staged(root).problems}
    linted = {x for x in _lint(memory_repo) if x[0] in ("conflict", "binary")}

    assert linted and linted <= staged
