"""`memrepo clone | remote | sync | team | conflicts` against real bare repositories."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import ReadOnlyRef

Git = Callable[..., str]
Run = Callable[..., tuple[int, str, str]]

CONFIRM = "--i-own-this-private-repo"


def make_bare(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


def remote_refs(git: Git, url: str) -> set[str]:
    out = git(".", "ls-remote", url)
    return {line.split("\t")[1] for line in out.splitlines() if not line.endswith("\tHEAD")}


@pytest.fixture
def remote(tmp_path: Path) -> str:
    return str(make_bare(tmp_path / "remote.git"))


def test_remote_set_needs_the_confirmation_flag(
    run: Run, memory_repo: MemoryRepo, remote: str
) -> None:
    repo = ["--repo", str(memory_repo.root)]
    code, out, err = run(*repo, "remote", "set", remote)
    assert (code, out) == (1, "")
    assert CONFIRM in err
    code, out, _ = run(*repo, "remote", "set", remote, CONFIRM)
    assert code == 0 and remote in out
    code, out, _ = run(*repo, "remote", "show", "--json")
    assert json.loads(out)["remote"] == remote
    code, out, _ = run(*repo, "remote", "remove")
    assert out.strip() == f"removed remote {remote}"
    code, out, _ = run(*repo, "remote", "show")
    assert out.startswith("remote: (none")


def test_a_url_with_credentials_is_refused_with_the_reason(
    run: Run, memory_repo: MemoryRepo
) -> None:
    url = "https://me:hunter2@example.com/memory.git"
    code, _, err = run("--repo", str(memory_repo.root), "remote", "set", url, CONFIRM)
    assert code == 1
    assert "carries credentials" in err and "hunter2" not in err


@pytest.mark.slow
def test_clone_sync_and_conflicts_end_to_end(
    run: Run, tmp_path: Path, remote: str, git: Git
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert run("init", str(a))[0] == 0
    assert run("--repo", str(a), "remote", "set", remote, CONFIRM)[0] == 0
    assert run("--repo", str(a), "remember", "Editor is helix", "--subject", "editor",
               "--by", "user")[0] == 0  # fmt: skip
    code, out, _ = run("--repo", str(a), "sync")
    assert code == 0 and out.startswith("pushed main to the empty remote")
    code, out, _ = run("clone", remote, str(b), CONFIRM)
    assert code == 0 and "1 entries" in out
    run("--repo", str(a), "remember", "Editor is zed", "--subject", "editor", "--by", "user")
    run("--repo", str(b), "remember", "Editor is vim", "--subject", "editor")
    assert run("--repo", str(a), "sync")[0] == 0
    code, out, _ = run("--repo", str(b), "sync", "--json")
    report = json.loads(out)
    assert report["integration"] == "merged" and report["pushed"] is True
    assert [c["kind"] for c in report["conflicts"]] == ["subject"]
    branch = report["conflict_branch"]
    code, out, _ = run("--repo", str(b), "conflicts", "list")
    assert out.startswith(branch) and "MEMORY.md (subject)" in out
    code, out, _ = run("--repo", str(b), "conflicts", "show", branch)
    assert code == 0 and "Editor is vim" in out
    code, out, _ = run("--repo", str(b), "remote", "show")
    assert f"conflict branch: {branch}" in out and "last sync:" in out
    assert remote_refs(git, remote) == {"refs/heads/main"}


@pytest.mark.slow
def test_team_commands_and_read_only_refs(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    team = make_bare(tmp_path / "team.git")
    work = tmp_path / "teammate"
    git(tmp_path, "clone", "-q", str(team), str(work))
    (work / "MEMORY.md").write_text("# Team\n\n- Releases are frozen in December\n")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "team")
    git(work, "push", "-q", "origin", "HEAD:main")
    repo = ["--repo", str(memory_repo.root)]
    code, out, _ = run(*repo, "team", "add", "platform", str(team))
    assert code == 0 and out.startswith("team platform:")
    code, out, _ = run(*repo, "team", "list", "--json")
    assert [t["name"] for t in json.loads(out)] == ["platform"]
    code, out, _ = run(*repo, "recall", "frozen in december", "--json")
    ref = json.loads(out)["hits"][0]["ref"]
    assert ref.startswith("team:platform:MEMORY.md#")
    code, _, err = run(*repo, "forget", ref)
    assert code == 1 and "belongs to a team repo, which memrepo never writes" in err
    with pytest.raises(ReadOnlyRef):
        MemoryRepo.open(memory_repo.root).forget(ref)
    code, out, _ = run(*repo, "team", "remove", "platform")
    assert out.strip() == "removed team platform"
    code, _, err = run(*repo, "team", "remove", "platform")
    assert code == 1 and "no such team" in err


@pytest.mark.slow
def test_sync_shows_progress_only_on_a_terminal(tmp_path: Path, remote: str) -> None:
    repo = MemoryRepo.init(tmp_path / "mem")
    repo.set_remote(remote, confirm_private=True)
    command = [sys.executable, "-m", "memrepo.cli", "--repo", str(repo.root), "sync"]
    piped = subprocess.run(command, capture_output=True, text=True, check=True)
    assert piped.stderr == ""  # not a terminal: no progress lines
    assert piped.stdout.startswith("pushed main")
    leader, follower = pty.openpty()
    try:
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=follower, check=True)
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the terminal's other end is closed and drained
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
    assert "memrepo: fetching main from" in shown.decode()
