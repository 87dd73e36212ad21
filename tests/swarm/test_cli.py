"""`memrepo task` and `memrepo swarm` against a real memory repo, in process and as a
real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

import pytest

from memrepo import MemoryRepo

from .conftest import CommitCount, Git

Run = Callable[..., tuple[int, str, str]]
CLI = "import sys; from memrepo.cli import main; sys.exit(main())"


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    return cli_in(memory_repo.root)


def test_tasks_notes_and_show(run: Run, memory_repo: MemoryRepo, commit_count: CommitCount) -> None:
    assert run("task", "add", "t-root", "--title", "Ship v2")[0] == 0
    code, out, _ = run("task", "add", "t-kid", "--title", "Check docs", "--parent", "t-root")
    assert (code, out) == (0, "task t-kid: Check docs (under t-root)\n")
    code, out, _ = run("swarm", "note", "t-kid", "question", "Who signs the release?", "--json")
    question = json.loads(out)
    assert code == 0 and question["status"] == "written"
    code, out, _ = run(
        "swarm", "note", "t-root", "answer", "The release manager", "--answers", question["ref"]
    )
    assert code == 0 and out.startswith("inserted swarm:ship-v2-t-root:questions.md#")
    code, out, _ = run("swarm", "note", "t-kid", "finding", "Docs build is green", "--source", "ci")
    assert code == 0
    code, out, _ = run("swarm", "show", "t-root", "--json")
    view = json.loads(out)
    assert view["members"] == ["t-kid", "t-root"] and view["total_findings"] == 1
    assert view["questions"][0]["answers"][0]["text"] == "The release manager"
    code, out, _ = run("swarm", "show", "t-kid", "--block")
    assert out.startswith('<swarm name="ship-v2-t-root">') and "Docs build is green" in out
    code, out, _ = run("swarm", "list", "--json")
    assert json.loads(out) == [
        {
            "folder": "swarms/ship-v2-t-root",
            "goal": "Ship v2",
            "root_id": "t-root",
            "members": 2,
            "findings": 1,
            "questions": 1,
        }
    ]
    count = commit_count(memory_repo.root)
    code, out, _ = run("task", "delete", "t-root")
    assert code == 0 and "removed swarms/ship-v2-t-root" in out
    assert commit_count(memory_repo.root) == count + 1
    assert run("swarm", "list")[1] == "no swarm folders\n"
    assert run("task", "list")[1] == "no tasks\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["task", "add", "../x", "--title", "T"], "task id '../x'"),
        (["task", "add", "kid", "--title", "T", "--parent", "nobody"], "parent task 'nobody'"),
        (["swarm", "note", "nobody", "finding", "Some text"], "'nobody' is not registered"),
        (["swarm", "show", "a/b"], "task id 'a/b'"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_1(run: Run, argv: list[str], message: str) -> None:
    code, out, err = run(*argv)
    assert (code, out) == (1, "")
    assert err.startswith("memrepo: ") and message in err and len(err.splitlines()) == 1


def test_an_unknown_kind_is_a_usage_error(run: Run) -> None:
    run("task", "add", "t1", "--title", "T")
    assert run("swarm", "note", "t1", "guess", "Some text")[0] == 2


def test_a_secret_only_note_is_reported_as_skipped(run: Run, memory_repo: MemoryRepo) -> None:
    run("task", "add", "t1", "--title", "T")
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    assert run("swarm", "note", "t1", "finding", token) == (
        0,
        "skipped: secret_only (nothing written)\n",
        "",
    )
    assert not (memory_repo.root / "swarms").exists()


@pytest.mark.slow
def test_the_installed_command_writes_a_note(memory_repo: MemoryRepo, git: Git) -> None:
    def memrepo(*argv: str) -> str:
        return subprocess.run(
            [sys.executable, "-c", CLI, "--repo", str(memory_repo.root), *argv],
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    memrepo("task", "add", "p1", "--title", "Plan the move")
    memrepo("swarm", "note", "p1", "ruled_out", "Not the disk: iostat is flat")
    assert "Not the disk" in git(
        memory_repo.root, "show", "HEAD:swarms/plan-the-move-p1/findings.md"
    )
