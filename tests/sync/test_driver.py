"""The merge driver inside real `git pull` / `git merge` runs between two clones."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.cli import main
from memrepo.sync.driver import run_merge_driver
from memrepo.sync.hooks import install_git_hooks

pytestmark = pytest.mark.integration

Git = Callable[..., str]
"""The `git` fixture of tests/conftest.py: run the git CLI, return stdout."""


def run_git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)


@pytest.fixture
def machines(tmp_path: Path, git: Git) -> tuple[Path, Path]:
    """Two clones of one memory through a bare remote: machine a and machine b."""
    a = tmp_path / "a"
    MemoryRepo.init(a).close()
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "--bare", "-b", "main", str(remote))
    git(a, "remote", "add", "origin", str(remote))
    git(a, "push", "-q", "origin", "main")
    git(tmp_path, "clone", "-q", str(remote), str(tmp_path / "b"))
    return a, tmp_path / "b"


def remember(root: Path, text: str, **options: str) -> None:
    with MemoryRepo.open(root) as repo:
        repo.remember(text, **options)  # type: ignore[arg-type]


def memory_md(root: Path) -> str:
    return (root / "MEMORY.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_git_pull_merges_entries_from_both_machines(machines: tuple[Path, Path], git: Git) -> None:
    a, b = machines
    for root in machines:
        install_git_hooks(root)
    remember(a, "Deploys go through staging first", by="user")
    remember(a, "The CI runs on self-hosted runners", by="user")
    git(a, "push", "-q", "origin", "main")
    remember(b, "Prefers pnpm over npm", by="user")
    pulled = run_git(b, "pull", "--no-rebase", "origin", "main")
    assert pulled.returncode == 0, pulled.stderr
    text = memory_md(b)
    for fact in ("Deploys go through staging", "self-hosted runners", "Prefers pnpm"):
        assert text.count(fact) == 1
    assert "<<<<<<<" not in text and ">>>>>>>" not in text
    assert git(b, "status", "--porcelain") == ""
    assert not (b / ".git" / "MERGE_HEAD").exists()
    assert len(git(b, "log", "-1", "--format=%P").split()) == 2  # a real merge commit
    # The merged memory reads as one: every entry is there for memrepo too.
    with MemoryRepo.open(b) as repo:
        texts = [e.text for e in repo.entries("MEMORY.md")]
    assert sum("pnpm" in t or "staging" in t or "runners" in t for t in texts) == 3


def test_without_the_driver_the_same_pull_conflicts(machines: tuple[Path, Path], git: Git) -> None:
    """The control: plain git leaves markers and a half-finished merge here."""
    a, b = machines
    remember(a, "Deploys go through staging first", by="user")
    git(a, "push", "-q", "origin", "main")
    remember(b, "Prefers pnpm over npm", by="user")
    pulled = run_git(b, "pull", "--no-rebase", "origin", "main")
    assert pulled.returncode != 0
    assert "<<<<<<<" in memory_md(b)
    git(b, "merge", "--abort")


@pytest.mark.slow
def test_a_subject_clash_is_resolved_and_the_loser_kept_on_a_branch(
    machines: tuple[Path, Path], git: Git
) -> None:
    a, b = machines
    for root in machines:
        install_git_hooks(root)
    remember(a, "Editor is helix", subject="editor", by="user")
    git(a, "push", "-q", "origin", "main")
    remember(b, "Editor is vim", subject="editor", by="agent")
    pulled = run_git(b, "pull", "--no-rebase", "origin", "main")
    assert pulled.returncode == 0, pulled.stderr
    assert "MEMORY.md (subject)" in pulled.stderr
    assert "by: user outranks by: agent" in pulled.stderr
    text = memory_md(b)
    assert "Editor is helix" in text and "Editor is vim" not in text
    branches = git(b, "branch", "--list", "sync/conflict-*", "--format=%(refname:short)").split()
    assert len(branches) == 1
    (branch,) = branches
    assert "Editor is vim" in git(b, "show", f"{branch}:MEMORY.md")
    assert git(b, "rev-parse", f"{branch}^") == git(b, "rev-parse", "HEAD")
    assert "MEMORY.md (subject)" in git(b, "log", "-1", "--format=%B", branch)
    # What lost is exactly the one line.
    diff = git(b, "diff", "HEAD", branch, "--", "MEMORY.md")
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in "+++---"]
    assert len(changed) == 2 and "helix" in changed[0] and "vim" in changed[1]
    # No conflict branch ever reaches the remote.
    git(b, "push", "-q", "origin", "main")
    assert "sync/" not in git(b, "ls-remote", "origin")


@pytest.mark.slow
def test_git_merge_of_a_local_branch_uses_the_driver(tmp_path: Path, git: Git) -> None:
    root = tmp_path / "m"
    MemoryRepo.init(root).close()
    install_git_hooks(root)
    git(root, "checkout", "-q", "-b", "side")
    edited = memory_md(root).replace("## Index", "- Side branch fact\n\n## Index", 1)
    (root / "MEMORY.md").write_text(edited, encoding="utf-8")
    git(root, "commit", "-q", "-am", "by hand on a side branch")
    git(root, "checkout", "-q", "main")
    remember(root, "Main branch fact", by="user")
    merged = run_git(root, "merge", "--no-edit", "side")
    assert merged.returncode == 0, merged.stderr
    lines = memory_md(root).splitlines()
    assert lines[:2] == ["# Memory", ""]
    assert lines[2].startswith("- Main branch fact [")
    assert lines[3:] == ["- Side branch fact", "", "## Index"]


def test_the_driver_command_writes_the_result_into_ours(tmp_path: Path) -> None:
    base, ours, theirs = (tmp_path / name for name in ("base", "ours", "theirs"))
    base.write_bytes(b"- a\n")
    ours.write_bytes(b"- a\n- o\n")
    theirs.write_bytes(b"- a\n- t\n")
    code = main(["merge-driver", str(base), str(ours), str(theirs), "notes.md"])
    assert code == 0
    assert ours.read_bytes() == b"- a\n- o\n- t\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base", "ours", "theirs"]


def test_a_missing_input_is_a_clear_error_and_ours_is_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = tmp_path / "ours"
    ours.write_bytes(b"- mine\n")
    code = main(["merge-driver", str(tmp_path / "gone"), str(ours), str(ours), "x.md"])
    assert code == 1
    assert "merge driver cannot read" in capsys.readouterr().err
    assert ours.read_bytes() == b"- mine\n"


def test_a_conflict_outside_a_merge_still_keeps_the_loser_as_an_object(
    tmp_path: Path, git: Git
) -> None:
    root = tmp_path / "m"
    MemoryRepo.init(root).close()
    base, ours, theirs = (tmp_path / name for name in ("base", "ours", "theirs"))
    base.write_bytes(b"line\n")
    ours.write_bytes(b"ours\n")
    theirs.write_bytes(b"theirs\n")
    result = run_merge_driver(base, ours, theirs, "notes.txt", git_dir=root / ".git")
    assert [c.kind for c in result.conflicts] == ["lines"]
    assert ours.read_bytes() == b"ours\n"
    assert result.loser_blob is not None
    assert git(root, "cat-file", "-p", result.loser_blob) == "theirs\n"


@pytest.mark.slow
def test_git_pull_rebase_replays_entries_without_markers(
    machines: tuple[Path, Path], git: Git
) -> None:
    a, b = machines
    for root in machines:
        install_git_hooks(root)
    remember(a, "Deploys go through staging first", by="user")
    git(a, "push", "-q", "origin", "main")
    remember(b, "Prefers pnpm over npm", by="user")
    pulled = run_git(b, "pull", "--rebase", "origin", "main")
    assert pulled.returncode == 0, pulled.stderr
    text = memory_md(b)
    assert text.count("Deploys go through staging") == 1 and text.count("Prefers pnpm") == 1
    assert "<<<<<<<" not in text
    assert len(git(b, "log", "-1", "--format=%P").split()) == 1  # linear history
    assert git(b, "status", "--porcelain") == ""


PULLS = {
    "merge": ("pull", "--no-rebase"),
    "rebase": ("pull", "--rebase"),
    "rebase-merges": ("pull", "--rebase=merges"),
    "rebase-apply-backend": ("-c", "rebase.backend=apply", "pull", "--rebase"),
}


@pytest.mark.slow
@pytest.mark.parametrize("mode", PULLS)
def test_both_pull_modes_keep_every_entry_and_the_newer_local_value(
    machines: tuple[Path, Path], git: Git, mode: str
) -> None:
    """In a rebase git hands the driver the upstream as "ours" and the local commit being
    replayed as "theirs"; the answer must still be the one a merge gives."""
    a, b = machines
    for root in machines:
        install_git_hooks(root)
    remember(a, "Editor is vim", subject="editor", by="user")
    git(a, "push", "-q", "origin", "main")
    git(b, "pull", "-q", "--no-rebase", "origin", "main")
    # The other machine changes the subject and adds a fact, and pushes first...
    remember(a, "Editor is emacs", subject="editor", by="user")
    remember(a, "Deploys go through staging first", by="user")
    git(a, "push", "-q", "origin", "main")
    # ...then this machine changes the same subject (later, same day) and adds its own.
    remember(b, "Prefers pnpm over npm", by="user")
    remember(b, "Editor is helix", subject="editor", by="user")
    pulled = run_git(b, *PULLS[mode], "origin", "main")
    assert pulled.returncode == 0, pulled.stderr
    assert ("git is rebasing" in pulled.stderr) == (mode != "merge")
    text = memory_md(b)
    for fact in ("Deploys go through staging", "Prefers pnpm", "Editor is helix"):
        assert text.count(fact) == 1, (fact, text)
    assert "Editor is emacs" not in text and "Editor is vim" not in text
    assert "MEMORY.md (subject)" in pulled.stderr
    assert git(b, "status", "--porcelain") == ""
    assert not (b / ".git" / "rebase-merge").exists()
    # What lost is the other machine's value, and it is still in the history.
    assert "Editor is emacs" in git(b, "log", "-p", "origin/main", "--", "MEMORY.md")
    # The result is what plain git pushes on: both machines end with the same memory.
    git(b, "push", "-q", "origin", "main")
    git(a, "pull", "-q", "--no-rebase", "origin", "main")
    assert memory_md(a) == text


@pytest.mark.slow
def test_git_pull_merges_a_memory_file_git_calls_binary(
    machines: tuple[Path, Path], git: Git
) -> None:
    a, b = machines
    for root in machines:
        install_git_hooks(root)
    stray = "- Pasted from a terminal \x00 with a NUL [by: user]\n"
    (a / "MEMORY.md").write_text(memory_md(a).replace("## Index", stray + "\n## Index"))
    # The pre-commit hook refuses a NUL byte; the file may still arrive another way.
    git(a, "commit", "-q", "--no-verify", "-am", "by hand, with a NUL")
    remember(a, "Deploys go through staging first", by="user")
    git(a, "push", "-q", "origin", "main")
    remember(b, "Prefers pnpm over npm", by="user")
    pulled = run_git(b, "pull", "--no-rebase", "origin", "main")
    assert pulled.returncode == 0, pulled.stderr
    text = memory_md(b)
    for fact in ("\x00 with a NUL", "Deploys go through staging", "Prefers pnpm"):
        assert text.count(fact) == 1, fact
    assert git(b, "status", "--porcelain") == ""
