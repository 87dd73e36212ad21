"""A hostile remote (issue #27): commits that add a symlink, turn a file or a folder into
one, or add a submodule never reach main's tree or the worktree.

The remote is a bare repository served by a real `git daemon`; the other machine is a
plain `git` clone where someone commits `ln -s /etc/passwd MEMORY.md` and pushes. What
the person on the memrepo side sees is checked: one `refused:` line naming the path and
the conflict branch, exit code 0 (the sync finished: main is whole and pushed), their
files still regular files with their content, the refused version on the branch (read
with the git CLI), and later writes and syncs working.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import GitDaemon, make_bare

pytestmark = pytest.mark.slow

CONFIRM = "--i-own-this-private-repo"
Run = Callable[..., tuple[int, str, str]]
REGULAR = "100644"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def _mode(repo: Path, rev: str, path: str) -> str:
    """The mode git records for `path` at `rev` ('' when absent)."""
    out = _git(repo, "ls-tree", rev, "--", path)
    return out.split(" ", 1)[0] if out else ""


def _push(other: Path, message: str) -> None:
    _git(other, "add", "-A")
    _git(other, "commit", "-qm", message)
    _git(other, "push", "-q", "origin", "main")


def _refused_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("refused:")]


def _branch_of(line: str) -> str:
    return next(word.strip(",.;()") for word in line.split() if word.startswith("sync/conflict-"))


@pytest.fixture
def setup(run: Run, git_daemon: GitDaemon, tmp_path: Path) -> tuple[Path, str, Path]:
    """(this machine's memory, the remote's URL, another machine's plain git clone)."""
    make_bare(git_daemon.base / "remote.git")
    url = git_daemon.url("remote.git")
    mine, other = tmp_path / "mine", tmp_path / "other"
    assert run("init", str(mine))[0] == 0
    assert run("--repo", str(mine), "remote", "set", url, CONFIRM)[0] == 0
    assert run("--repo", str(mine), "remember", "Deploys go through staging")[0] == 0
    topic = ["--file", "topics/deploy.md"]
    assert run("--repo", str(mine), "remember", "Staging runs on Fridays", *topic)[0] == 0
    assert run("--repo", str(mine), "sync")[0] == 0
    subprocess.run(["git", "clone", "-q", url, str(other)], check=True)
    return mine, url, other


def _sync_refuses(run: Run, mine: Path, *words: str) -> str:
    """Sync, check the one refusal line, return the conflict branch it names."""
    code, out, err = run("--repo", str(mine), "sync")
    assert code == 0, err
    refused = _refused_lines(out)
    assert len(refused) == 1, out
    assert all(word in refused[0] for word in words), refused[0]
    assert "conflict:" not in out  # the one line says it all
    return _branch_of(refused[0])


def _later_work_goes_on(run: Run, mine: Path, url: str, tmp_path: Path) -> None:
    """A write and a sync after the refusal work, and the remote's main is clean again."""
    assert run("--repo", str(mine), "remember", "Rollbacks need two approvals")[0] == 0
    code, out, err = run("--repo", str(mine), "sync")
    assert code == 0, err
    assert not _refused_lines(out)
    bare = tmp_path / "served" / "remote.git"
    assert _git(bare, "rev-parse", "main") == _git(mine, "rev-parse", "main")
    assert _mode(bare, "main", "MEMORY.md") == REGULAR
    assert "Rollbacks need two approvals" in (mine / "MEMORY.md").read_text()


def test_memory_md_replaced_by_a_symlink_is_refused(
    run: Run, setup: tuple[Path, str, Path], tmp_path: Path
) -> None:
    mine, url, other = setup
    (other / "MEMORY.md").unlink()
    os.symlink("/etc/passwd", other / "MEMORY.md")
    _push(other, "point MEMORY.md at passwd")

    branch = _sync_refuses(run, mine, "MEMORY.md", "symlink", "/etc/passwd")

    memory_md = mine / "MEMORY.md"
    assert not os.path.islink(memory_md)
    assert "Deploys go through staging" in memory_md.read_text()
    assert _mode(mine, "main", "MEMORY.md") == REGULAR
    assert _mode(mine, branch, "MEMORY.md") == "120000"
    assert "point MEMORY.md at passwd" in _git(mine, "log", "--format=%s", branch)
    code, out, err = run("--repo", str(mine), "recall", "staging root")
    assert code == 0, err
    assert "Deploys go through staging" in out and "root:x:" not in out
    _later_work_goes_on(run, mine, url, tmp_path)


def test_a_symlink_added_in_a_topic_folder_is_refused(
    run: Run, setup: tuple[Path, str, Path], tmp_path: Path
) -> None:
    mine, url, other = setup
    os.symlink("/etc/passwd", other / "topics" / "creds.md")
    _push(other, "add a link")

    branch = _sync_refuses(run, mine, "topics/creds.md", "symlink")

    assert not os.path.lexists(mine / "topics" / "creds.md")
    assert _mode(mine, "main", "topics/creds.md") == ""
    assert _mode(mine, branch, "topics/creds.md") == "120000"
    assert "Staging runs on Fridays" in (mine / "topics" / "deploy.md").read_text()
    _later_work_goes_on(run, mine, url, tmp_path)


def test_a_folder_turned_into_a_symlinked_directory_is_refused(
    run: Run, setup: tuple[Path, str, Path], tmp_path: Path
) -> None:
    mine, url, other = setup
    _git(other, "rm", "-rq", "topics")
    os.symlink("/etc", other / "topics")
    _push(other, "topics is /etc now")

    branch = _sync_refuses(run, mine, "topics", "symlink", "/etc")

    deploy = mine / "topics" / "deploy.md"
    assert not os.path.islink(mine / "topics") and not os.path.islink(deploy)
    assert "Staging runs on Fridays" in deploy.read_text()
    assert _mode(mine, "main", "topics/deploy.md") == REGULAR
    assert _mode(mine, branch, "topics") == "120000"
    _later_work_goes_on(run, mine, url, tmp_path)


def test_a_submodule_entry_is_refused(
    run: Run, setup: tuple[Path, str, Path], tmp_path: Path
) -> None:
    mine, url, other = setup
    head = _git(other, "rev-parse", "HEAD").strip()
    _git(other, "update-index", "--add", "--cacheinfo", f"160000,{head},vendor/tool")
    _git(other, "commit", "-qm", "add a submodule")
    _git(other, "push", "-q", "origin", "main")

    branch = _sync_refuses(run, mine, "vendor/tool", "submodule")

    assert not os.path.lexists(mine / "vendor")
    assert _mode(mine, "main", "vendor/tool") == ""
    assert _mode(mine, branch, "vendor/tool") == "160000"
    _later_work_goes_on(run, mine, url, tmp_path)


@pytest.mark.parametrize("local_write", [False, True], ids=["fast_forward", "merged"])
def test_the_clean_commit_before_a_hostile_one_is_merged(
    run: Run, setup: tuple[Path, str, Path], tmp_path: Path, local_write: bool
) -> None:
    """Refusal is per path: the first commit's entry and the second commit's other
    changes arrive; only the symlink stays out of main (docs/architecture.md §9)."""
    mine, url, other = setup
    memory_md = other / "MEMORY.md"
    text = memory_md.read_text().replace("## Index", "- Oncall rotates weekly\n\n## Index")
    memory_md.write_text(text)
    _push(other, "a clean entry")
    os.symlink("/etc/shadow", other / "topics" / "shadow.md")
    (other / "topics" / "deploy.md").write_text(
        (other / "topics" / "deploy.md").read_text() + "- Canary first\n"
    )
    _push(other, "a link and a line")
    if local_write:
        assert run("--repo", str(mine), "remember", "Tests run on every push")[0] == 0

    branch = _sync_refuses(run, mine, "topics/shadow.md", "/etc/shadow")

    assert "Oncall rotates weekly" in (mine / "MEMORY.md").read_text()
    assert "Canary first" in (mine / "topics" / "deploy.md").read_text()
    assert not os.path.lexists(mine / "topics" / "shadow.md")
    assert "a link and a line" in _git(mine, "log", "--format=%s", branch)
    _later_work_goes_on(run, mine, url, tmp_path)


def test_taking_the_refused_side_is_refused(run: Run, setup: tuple[Path, str, Path]) -> None:
    """`conflicts keep --side theirs` on a refused symlink writes nothing: main is never
    given the link (nor a file holding its target), and the branch stays."""
    mine, _url, other = setup
    (other / "MEMORY.md").unlink()
    os.symlink("/etc/passwd", other / "MEMORY.md")
    _push(other, "point MEMORY.md at passwd")
    branch = _sync_refuses(run, mine, "MEMORY.md")
    head = _git(mine, "rev-parse", "main")

    code, out, err = run("--repo", str(mine), "conflicts", "keep", branch, "--side", "theirs")

    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and "symlink" in err, err
    assert _git(mine, "rev-parse", "main") == head
    assert not os.path.islink(mine / "MEMORY.md")
    assert "Deploys go through staging" in (mine / "MEMORY.md").read_text()
    assert branch in _git(mine, "branch", "--list", "sync/*")


def test_a_clone_of_a_hostile_remote_keeps_regular_files(
    run: Run, setup: tuple[Path, str, Path], tmp_path: Path
) -> None:
    _mine, url, other = setup
    (other / "MEMORY.md").unlink()
    os.symlink("/etc/passwd", other / "MEMORY.md")
    os.symlink("/etc", other / "notes")
    _push(other, "links")
    fresh = tmp_path / "fresh"

    code, out, err = run("clone", url, str(fresh), CONFIRM)

    assert code == 0, err
    refused = _refused_lines(out)
    assert len(refused) == 1, out
    assert "MEMORY.md" in refused[0] and "notes" in refused[0] and "symlink" in refused[0]
    branch = _branch_of(refused[0])
    assert not os.path.islink(fresh / "MEMORY.md") and not os.path.lexists(fresh / "notes")
    assert "Deploys go through staging" in (fresh / "MEMORY.md").read_text()
    assert _mode(fresh, branch, "MEMORY.md") == "120000"
    assert "links" in _git(fresh, "log", "--format=%s", branch)
    # The clone works on: a write, then a sync that mends the remote's main.
    assert run("--repo", str(fresh), "remember", "Rollbacks need two approvals")[0] == 0
    code, out, err = run("--repo", str(fresh), "sync")
    assert code == 0, err
    bare = tmp_path / "served" / "remote.git"
    assert _mode(bare, "main", "MEMORY.md") == REGULAR
    assert _mode(bare, "main", "notes") == ""


def test_a_team_repo_with_symlinks_is_read_without_following_them(
    run: Run, git_daemon: GitDaemon, tmp_path: Path
) -> None:
    """A team clone is bare and read from git's objects: a link is never followed, its
    target never read, and nothing of it appears in recall or the prompt's L0."""
    team = tmp_path / "team-work"
    _git(tmp_path, "init", "-q", "-b", "main", str(team))
    os.symlink("/etc/passwd", team / "MEMORY.md")
    os.symlink("/etc", team / "topics")
    (team / "notes.md").write_text("- The team deploys at noon\n")
    _git(team, "add", "-A")
    _git(team, "commit", "-qm", "hostile team")
    make_bare(git_daemon.base / "team.git")
    _git(team, "push", "-q", git_daemon.url("team.git"), "main")
    mine = tmp_path / "mine"
    assert run("init", str(mine))[0] == 0

    code, _out, err = run("--repo", str(mine), "team", "add", "ops", git_daemon.url("team.git"))
    assert code == 0, err

    clone = mine / ".git" / "memrepo" / "teams" / "ops"
    links = [p for p in clone.rglob("*") if p.is_symlink()]
    assert links == []
    code, out, _err = run("--repo", str(mine), "recall", "root daemon bin bash")
    assert "root:" not in out and "/bin/" not in out
    code, out, _err = run("--repo", str(mine), "context", "--json")
    assert "root:" not in out


def test_restoring_an_export_that_holds_a_symlink_is_refused(run: Run, tmp_path: Path) -> None:
    """An export is input like a remote: one whose main holds a symlink restores nothing
    (one line saying which path), rather than a folder whose MEMORY.md reads /etc/passwd."""
    mine = tmp_path / "mine"
    assert run("init", str(mine))[0] == 0
    assert run("--repo", str(mine), "remember", "Deploys go through staging")[0] == 0
    (mine / "MEMORY.md").unlink()
    os.symlink("/etc/passwd", mine / "MEMORY.md")
    _git(mine, "add", "-A")
    _git(mine, "commit", "-qm", "by hand: a link")
    export, target = tmp_path / "memory.export", tmp_path / "restored"
    code, _out, err = run("--repo", str(mine), "export", str(export))
    assert code == 0, err

    code, out, err = run("restore", str(export), str(target))

    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and "MEMORY.md" in err and "symlink" in err, err
    assert not os.path.lexists(target) or not any(target.iterdir())


def test_an_executable_bit_and_a_symlink_both_sides_hold_are_not_refused(
    run: Run, setup: tuple[Path, str, Path]
) -> None:
    """Only what the remote changes into a non-file is refused: a file made executable
    is still a file, and a link this side committed too is nothing new."""
    mine, _url, other = setup
    deploy = other / "topics" / "deploy.md"
    deploy.write_text(deploy.read_text() + "- Canary first\n")
    deploy.chmod(0o755)
    os.symlink("deploy.md", other / "topics" / "alias.md")
    _push(other, "executable, and a link")
    os.symlink("deploy.md", mine / "topics" / "alias.md")
    _git(mine, "add", "topics/alias.md")
    _git(mine, "commit", "-qm", "the same link, by hand")

    code, out, err = run("--repo", str(mine), "sync")

    assert code == 0, err
    assert not _refused_lines(out), out
    assert "Canary first" in (mine / "topics" / "deploy.md").read_text()
