"""A memory file that is not text, committed with plain git, never makes recall silent.

Issue #27: one invalid UTF-8 byte in MEMORY.md, committed, left `recall` answering
"nothing found" with no word of why. memrepo's own writes never commit such a file (the
hand-edit screen holds it back), but a person's `git commit` or a sync can. Recall then
answers from every other file and says, in one line, which file it could not read, at
which line, and what to do.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

Run = Callable[..., tuple[int, str, str]]


def _commit_with_git(root: Path, message: str) -> None:
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True, capture_output=True)
    subprocess.run(
        ["git", "-C", str(root), "commit", "-q", "-m", message], check=True, capture_output=True
    )


@pytest.fixture
def root(memory_repo: MemoryRepo) -> Path:
    memory_repo.remember("Deploys go out on Fridays after the freeze", file="topics/deploys")
    memory_repo.close()
    return memory_repo.root


@pytest.mark.parametrize(
    ("damage", "says"),
    [(b"\xff\xfe", "bytes that are not UTF-8"), (b"\x00", "a NUL byte")],
    ids=["not-utf8", "nul"],
)
@pytest.mark.slow
def test_recall_answers_from_the_rest_and_names_the_unreadable_file(
    cli_in: Callable[..., Run], root: Path, damage: bytes, says: str
) -> None:
    memory = root / "MEMORY.md"
    lines = memory.read_bytes().splitlines(keepends=True)
    lines.insert(1, b"- The wiki password hint is in the vault " + damage + b" ok\n")
    memory.write_bytes(b"".join(lines))
    _commit_with_git(root, "edit with a broken byte")
    run = cli_in(root)

    code, out, err = run("recall", "deploys fridays")
    assert code == 0, err
    assert "Deploys go out on Fridays" in out
    warning = [line for line in err.splitlines() if "MEMORY.md" in line]
    assert warning == [
        f"memrepo: warning: MEMORY.md:2: {says}: recall leaves its entries out until the "
        "file is text again (fix that line in your editor, then commit or run any memrepo "
        "write)"
    ]
    assert "Traceback" not in err

    code, out, err = run("recall", "wiki password hint vault")
    assert code == 0
    assert "MEMORY.md:2" in err  # "nothing found" is never the whole answer


@pytest.mark.slow
def test_a_fixed_file_is_read_again_and_no_longer_named(
    cli_in: Callable[..., Run], root: Path
) -> None:
    memory = root / "MEMORY.md"
    original = memory.read_bytes()
    memory.write_bytes(original + b"- Lunch is at noon \xff\n")
    _commit_with_git(root, "broken")
    run = cli_in(root)
    assert "MEMORY.md:" in run("recall", "lunch noon")[2]
    memory.write_bytes(original + b"- Lunch is at noon\n")
    _commit_with_git(root, "fixed")
    code, out, err = run("recall", "lunch noon")
    assert code == 0 and "Lunch is at noon" in out
    assert "MEMORY.md:" not in err
