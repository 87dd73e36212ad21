"""A secret passed in any value of a write never lands in git, the index or the stores.

Issue #15: a token given as `--workspace` ended in a file's title and path, `--file` in
a path and the Index, `--task` in a commit trailer. The rule these tests hold memrepo
to, through the real CLI:

- names (a workspace, a file path, a task id, a contact ref) are how later reads and
  writes find the same thing again, so one holding a secret is refused with a one-line
  error that names the kind, never the value, and nothing is written;
- free text about a fact (source, subject, kind, author, a task's title, note sources)
  is written with the secret replaced by its `[redacted <kind>]` marker.

After each write every git object, the repo's own files and the local state (index
built by a recall first, SQLite store, task registry) are searched for the value.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .leaks import AWS_KEY_ID, GITHUB_TOKEN, leaks

pytestmark = pytest.mark.slow

Run = Callable[..., tuple[int, str, str]]
CommitCount = Callable[..., int]


@pytest.fixture
def root(memory_repo: MemoryRepo) -> Path:
    memory_repo.close()
    return memory_repo.root


def _built_index(run: Run, root: Path, query: str) -> str:
    """Recall once (the index is built or synced by it) and return what it printed."""
    code, out, err = run("--repo", str(root), "recall", query, "--private")
    assert code == 0, err
    return out


REFUSED = {
    "workspace": ["--workspace", f"Web shop {GITHUB_TOKEN}"],
    "file": ["--file", f"notes/{GITHUB_TOKEN}"],
    "task trailer": ["--task", GITHUB_TOKEN],
    "task item": ["--task", GITHUB_TOKEN, "--scope", "task"],
    "contact": ["--contact", f"mail:{GITHUB_TOKEN}"],
    "aws workspace": ["--workspace", AWS_KEY_ID],
}


@pytest.mark.parametrize("option", REFUSED.values(), ids=REFUSED.keys())
def test_a_name_holding_a_secret_is_refused_and_nothing_is_written(
    run: Run, commit_count: CommitCount, root: Path, option: list[str]
) -> None:
    before = commit_count(root, "main")
    code, out, err = run("--repo", str(root), "remember", "Deploys go through staging", *option)
    assert code == 1, out
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("memrepo: "), err
    assert "secret" in lines[0]
    secret = GITHUB_TOKEN if GITHUB_TOKEN in " ".join(option) else AWS_KEY_ID
    assert secret not in err and secret.casefold() not in err.casefold()
    assert commit_count(root, "main") == before
    assert "staging" not in _built_index(run, root, "deploys staging")
    assert leaks(root, secret) == []


REDACTED = {
    "source": ["--source", f"https://ci.example.com/run?token={GITHUB_TOKEN}"],
    "subject": ["--subject", f"deploy {GITHUB_TOKEN}"],
    "kind": ["--kind", f"rule {GITHUB_TOKEN}"],
    "private subject": ["--subject", f"deploy {GITHUB_TOKEN}", "--private"],
    "private source": ["--source", f"https://ci.example.com/?t={GITHUB_TOKEN}", "--private"],
}


@pytest.mark.parametrize("option", REDACTED.values(), ids=REDACTED.keys())
def test_free_text_about_a_fact_is_written_redacted(
    run: Run, root: Path, option: list[str]
) -> None:
    code, out, err = run("--repo", str(root), "remember", "Deploys go through staging", *option)
    assert code == 0, err
    assert GITHUB_TOKEN not in out
    assert "staging" in _built_index(run, root, "deploys staging")
    assert leaks(root, GITHUB_TOKEN) == []


def test_an_author_holding_a_secret_is_written_redacted(root: Path) -> None:
    with MemoryRepo.open(root) as repo:
        result = repo.remember("Deploys go through staging", author=f"bot {GITHUB_TOKEN}")
        assert result.status == "written"
        assert repo.recall("deploys staging").hits
        assert "redacted github_token" in (root / "MEMORY.md").read_text()
    assert leaks(root, GITHUB_TOKEN) == []


def test_feedback_for_a_workspace_holding_a_secret_is_refused(root: Path) -> None:
    with MemoryRepo.open(root) as repo, pytest.raises(ValueError, match="secret"):
        repo.record_feedback("Too verbose", workspace=f"shop {GITHUB_TOKEN}")
    assert leaks(root, GITHUB_TOKEN) == []


def test_a_task_id_holding_a_secret_is_refused(run: Run, root: Path) -> None:
    code, _out, err = run("--repo", str(root), "task", "add", GITHUB_TOKEN, "--title", "Fix it")
    assert code == 1
    assert "secret" in err and GITHUB_TOKEN not in err
    assert leaks(root, GITHUB_TOKEN) == []


def test_swarm_title_author_and_sources_are_written_redacted(run: Run, root: Path) -> None:
    repo = ["--repo", str(root)]
    code, out, err = run(*repo, "task", "add", "t-1", "--title", f"Rotate {GITHUB_TOKEN} now")
    assert code == 0, err
    assert GITHUB_TOKEN not in out
    code, out, err = run(
        *repo, "swarm", "note", "t-1", "finding", "The deploy key lives in vault",
        "--author", f"agent {GITHUB_TOKEN}", "--source", f"https://x.example/?key={GITHUB_TOKEN}",
    )  # fmt: skip
    assert code == 0, err
    code, out, err = run(*repo, "swarm", "show", "t-1")
    assert code == 0, err
    assert "deploy key" in out and GITHUB_TOKEN not in out
    with MemoryRepo.open(root) as memory:
        assert memory.recall("deploy key vault", task_id="t-1").hits
    assert leaks(root, GITHUB_TOKEN) == []


def test_forgetting_a_hand_committed_secret_keeps_it_out_of_the_new_commit(
    run: Run, root: Path
) -> None:
    """The entry's text goes into the forget commit's summary: a new object that would
    outlive a history rewrite removing the line. It is screened like any message."""
    memory_md = root / "MEMORY.md"
    memory_md.write_text(
        memory_md.read_text().replace("## Index", f"- CI token is {GITHUB_TOKEN}\n\n## Index")
    )
    subprocess.run(["git", "-C", str(root), "commit", "-qam", "by hand"], check=True)
    with MemoryRepo.open(root) as repo:
        ref = next(e.ref for e in repo.entries() if "CI token" in e.text)
        repo.forget(ref)
    message = subprocess.run(
        ["git", "-C", str(root), "log", "-1", "--format=%B"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert message.startswith("Forget: CI token is [redacted github_token]")
    assert GITHUB_TOKEN not in message
