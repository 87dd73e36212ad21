"""install-git-hooks and the pre-commit check, with real `git commit` runs."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.cli import main
from memrepo.errors import NotAMemoryRepo
from memrepo.sync.hooks import ATTRIBUTE_LINE, install_git_hooks

pytestmark = pytest.mark.integration

# Split so secret scanners reading this file do not flag it.
TOKEN = "ghp_1a2B3c4D5e6F7g8H9i0J" + "1k2L3m4N5o6P7q8R"

Git = Callable[..., str]
"""The `git` fixture of tests/conftest.py: run the git CLI, return stdout."""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "mem"
    MemoryRepo.init(path).close()
    return path


def commit(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), "commit", "-m", "by hand", *args],
        capture_output=True,
        text=True,
    )


def test_install_wires_driver_attributes_and_hooks_without_committing(root: Path, git: Git) -> None:
    head = git(root, "rev-parse", "HEAD")
    report = install_git_hooks(root)
    assert report.changed
    driver = git(root, "config", "merge.memrepo.driver").strip()
    assert driver.startswith(sys.executable)
    assert driver.endswith("-m memrepo.cli merge-driver %O %A %B %P")
    assert git(root, "check-attr", "merge", "MEMORY.md", "x/y.md").splitlines() == [
        "MEMORY.md: merge: memrepo",
        "x/y.md: merge: memrepo",
    ]
    assert git(root, "check-attr", "merge", "notes.txt") == "notes.txt: merge: unspecified\n"
    assert [h.state for h in report.hooks] == ["installed", "installed"]
    for name in ("pre-commit", "post-merge"):
        hook = root / ".git" / "hooks" / name
        assert hook.stat().st_mode & 0o111
        assert sys.executable in hook.read_text()
    # Nothing reached the memory itself.
    assert git(root, "rev-parse", "HEAD") == head
    assert git(root, "status", "--porcelain") == ""
    assert not (root / ".gitattributes").exists()


def test_installing_again_changes_nothing(root: Path) -> None:
    install_git_hooks(root)
    files = [root / ".git" / p for p in ("config", "info/attributes", "hooks/pre-commit")]
    before = [f.read_bytes() for f in files]
    again = install_git_hooks(root)
    assert not again.changed
    assert [h.state for h in again.hooks] == ["unchanged", "unchanged"]
    assert [f.read_bytes() for f in files] == before
    attributes = (root / ".git" / "info" / "attributes").read_text()
    assert attributes.splitlines().count(ATTRIBUTE_LINE) == 1


def test_a_users_own_hook_and_attributes_are_kept(root: Path) -> None:
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("#!/bin/sh\necho mine\n")
    attributes = root / ".git" / "info" / "attributes"
    attributes.write_text("*.png binary")  # no final newline
    report = install_git_hooks(root)
    pre_commit = next(h for h in report.hooks if h.name == "pre-commit")
    assert pre_commit.state == "kept_existing"
    assert "git-hook pre-commit" in pre_commit.note
    assert hook.read_text() == "#!/bin/sh\necho mine\n"
    assert attributes.read_text() == f"*.png binary\n{ATTRIBUTE_LINE}\n"


@pytest.mark.slow
def test_a_staged_secret_blocks_the_commit_with_file_and_line(root: Path, git: Git) -> None:
    install_git_hooks(root)
    head = git(root, "rev-parse", "HEAD")
    (root / "notes.md").write_text(f"# Notes\n\n- deploy token is {TOKEN}\n")
    git(root, "add", "notes.md")
    result = commit(root)
    assert result.returncode != 0
    assert "notes.md:3" in result.stderr
    assert "looks like a secret (github_token)" in result.stderr
    assert TOKEN not in result.stderr
    assert git(root, "rev-parse", "HEAD") == head


@pytest.mark.slow
def test_commit_all_is_checked_too(root: Path, git: Git) -> None:
    """`git commit -a` stages into a temporary index; the hook must read that one."""
    install_git_hooks(root)
    memory = root / "MEMORY.md"
    memory.write_text(memory.read_text().replace("## Index", f"- key {TOKEN}\n\n## Index"))
    result = commit(root, "-a")
    assert result.returncode != 0
    assert "MEMORY.md:3" in result.stderr


@pytest.mark.slow
def test_a_format_warning_is_printed_and_the_commit_goes_through(root: Path, git: Git) -> None:
    install_git_hooks(root)
    (root / "topic.md").write_text("- one bullet\n  that goes on\n- fine\n")
    git(root, "add", "topic.md")
    result = commit(root)
    assert result.returncode == 0, result.stderr
    assert "topic.md:1: warning: bullet spans several lines" in result.stderr
    assert git(root, "log", "-1", "--format=%s") == "by hand\n"


@pytest.mark.slow
def test_a_clean_commit_is_silent(root: Path, git: Git) -> None:
    install_git_hooks(root)
    (root / "topic.md").write_text("- fine\n")
    git(root, "add", "topic.md")
    result = commit(root)
    assert result.returncode == 0
    assert "memrepo" not in result.stderr


def test_cli_install_prints_json(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install-git-hooks", "--repo", str(root), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["changed"] is True
    assert main(["--repo", str(root), "install-git-hooks"]) == 0
    assert "already installed; nothing changed" in capsys.readouterr().out


def test_install_outside_a_memory_repo_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install-git-hooks", "--repo", str(tmp_path)]) == 1
    assert "not the top of a git repository" in capsys.readouterr().err
    with pytest.raises(NotAMemoryRepo):
        install_git_hooks(tmp_path)
    assert not (tmp_path / ".git").exists()


@pytest.mark.slow
def test_a_secret_in_a_memory_file_with_a_nul_byte_still_blocks(root: Path, git: Git) -> None:
    """A NUL byte makes git call the file binary; the check still reads a memory file."""
    install_git_hooks(root)
    head = git(root, "rev-parse", "HEAD")
    (root / "notes.md").write_bytes(f"# Notes\n\n- pasted \x00 junk\n- token {TOKEN}\n".encode())
    git(root, "add", "notes.md")
    result = commit(root)
    assert result.returncode != 0
    assert "notes.md:4" in result.stderr and "github_token" in result.stderr
    assert "notes.md:3: error: NUL byte" in result.stderr
    assert git(root, "rev-parse", "HEAD") == head
