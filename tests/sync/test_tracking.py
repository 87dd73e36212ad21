"""Plain git tells the truth about memrepo's remote (issue #31).

memrepo fetched and pushed by URL and never updated `origin/main`, so after `remote set`,
`clone` or `sync` a person's `git status` said "the upstream is gone". Each test runs
memrepo's CLI against a real `git daemon` on 127.0.0.1 (or a bare repository on disk)
and reads the answer of git's own commands: `git status`, `git log origin/main..`,
`git rev-parse @{upstream}`, `git push` and `git pull`.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .conftest import GitDaemon, make_bare

Run = Callable[..., tuple[int, str, str]]
CONFIRM = "--i-own-this-private-repo"


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def status(root: Path) -> str:
    """The lines of `git status` that speak of the upstream."""
    out = git(root, "status")
    return "\n".join(line for line in out.splitlines() if "origin" in line or "upstream" in line)


@pytest.fixture
def served(git_daemon: GitDaemon) -> str:
    make_bare(git_daemon.base / "memory.git")
    return git_daemon.url("memory.git")


def _machine(tmp_path: Path, name: str, cli_in: Callable[..., Run]) -> tuple[Path, Run]:
    root = tmp_path / name
    return root, cli_in(root)


@pytest.mark.slow
def test_remote_set_then_sync_leaves_git_up_to_date_with_origin_main(
    tmp_path: Path, served: str, cli_in: Callable[..., Run]
) -> None:
    root, run = _machine(tmp_path, "laptop", cli_in)
    assert run("init")[0] == 0
    assert run("remember", "Deploys go out on Tuesdays")[0] == 0

    assert run("remote", "set", served, CONFIRM)[0] == 0
    # Before any contact git knows the remote, not its main: it says nothing false.
    assert git(root, "remote", "get-url", "origin").strip() == served
    assert "gone" not in git(root, "status")

    code, _, err = run("sync")
    assert code == 0, err
    assert status(root) == "Your branch is up to date with 'origin/main'."
    assert git(root, "rev-parse", "origin/main") == git(root, "rev-parse", "main")
    assert git(root, "rev-parse", "--abbrev-ref", "@{upstream}").strip() == "origin/main"

    assert run("remember", "Backups run nightly")[0] == 0
    assert status(root).startswith("Your branch is ahead of 'origin/main' by 1 commit.")
    assert git(root, "log", "--format=%s", "origin/main..") == "Remember: Backups run nightly\n"

    assert run("sync")[0] == 0
    assert status(root) == "Your branch is up to date with 'origin/main'."
    assert git(root, "log", "--format=%s", "origin/main..") == ""


@pytest.mark.slow
def test_a_clone_knows_origin_main_and_hears_the_other_machine_at_sync(
    tmp_path: Path, served: str, cli_in: Callable[..., Run]
) -> None:
    laptop, on_laptop = _machine(tmp_path, "laptop", cli_in)
    on_laptop("init")
    on_laptop("remember", "The editor is helix")
    on_laptop("remote", "set", served, CONFIRM)
    assert on_laptop("sync")[0] == 0
    desk = tmp_path / "desk"

    code, _, err = cli_in()("clone", served, str(desk), CONFIRM)

    assert code == 0, err
    on_desk = cli_in(desk)
    assert status(desk) == "Your branch is up to date with 'origin/main'."
    assert git(desk, "rev-parse", "origin/main") == git(laptop, "rev-parse", "main")
    # The laptop writes and syncs; the desk's sync brings it, and git agrees at each step.
    on_laptop("remember", "Tests run with tox")
    on_laptop("sync")
    assert status(desk) == "Your branch is up to date with 'origin/main'."  # no fetch yet
    on_desk("remember", "Coffee after ten")
    assert on_desk("sync")[0] == 0
    assert status(desk) == "Your branch is up to date with 'origin/main'."
    assert git(desk, "rev-parse", "origin/main") == git(desk, "rev-parse", "main")
    # The laptop's git hears of the desk's push with plain `git fetch`, as on any repo.
    git(laptop, "fetch", "-q")
    assert status(laptop).startswith("Your branch is behind 'origin/main' by 2 commits")


@pytest.mark.slow
def test_plain_git_push_and_pull_work_after_the_first_sync(
    tmp_path: Path, served: str, cli_in: Callable[..., Run], memory_repo: MemoryRepo
) -> None:
    run = cli_in(memory_repo.root)
    run("remote", "set", served, CONFIRM)
    run("sync")
    memory_repo.remember("Pushed with plain git", by="user")

    git(memory_repo.root, "push", "-q")
    git(memory_repo.root, "pull", "-q", "--no-rebase")

    assert status(memory_repo.root) == "Your branch is up to date with 'origin/main'."
    assert run("sync")[0] == 0  # memrepo's own record of the remote agrees with git's
    assert status(memory_repo.root) == "Your branch is up to date with 'origin/main'."


def test_sync_fetching_an_empty_remote_sets_no_upstream_until_it_pushes(
    tmp_path: Path, cli_in: Callable[..., Run], memory_repo: MemoryRepo
) -> None:
    url = str(make_bare(tmp_path / "empty.git"))
    run = cli_in(memory_repo.root)
    run("remote", "set", url, CONFIRM)
    branch_config = subprocess.run(
        ["git", "-C", str(memory_repo.root), "config", "--get", "branch.main.remote"],
        capture_output=True,
        text=True,
    )
    assert branch_config.returncode == 1  # no upstream named before git knows its main

    assert run("sync")[0] == 0

    assert status(memory_repo.root) == "Your branch is up to date with 'origin/main'."


@pytest.mark.slow
def test_a_new_remote_url_drops_what_git_knew_of_the_old_one(
    tmp_path: Path, cli_in: Callable[..., Run], memory_repo: MemoryRepo
) -> None:
    old, new = (str(make_bare(tmp_path / name)) for name in ("old.git", "new.git"))
    run = cli_in(memory_repo.root)
    run("remote", "set", old, CONFIRM)
    run("sync")

    assert run("remote", "set", new, CONFIRM)[0] == 0

    root = memory_repo.root
    assert git(root, "remote", "get-url", "origin").strip() == new
    refs = git(root, "for-each-ref", "--format=%(refname)", "refs/remotes")
    assert refs == ""  # the old repository's main is no upstream of the new one
    assert "gone" not in git(root, "status")
    run("sync")
    assert status(root) == "Your branch is up to date with 'origin/main'."


def test_a_persons_own_origin_stays_theirs_and_memrepo_tracks_under_its_own_name(
    tmp_path: Path, cli_in: Callable[..., Run], memory_repo: MemoryRepo
) -> None:
    theirs = str(make_bare(tmp_path / "theirs.git"))
    mine = str(make_bare(tmp_path / "mine.git"))
    root = memory_repo.root
    git(root, "remote", "add", "origin", theirs)
    run = cli_in(root)

    run("remote", "set", mine, CONFIRM)
    assert run("sync")[0] == 0
    memory_repo.remember("One more fact", by="user")

    assert git(root, "remote", "get-url", "origin").strip() == theirs
    assert git(root, "remote", "get-url", "memrepo").strip() == mine
    out = git(root, "status")
    assert "Your branch is ahead of 'memrepo/main' by 1 commit." in out
    assert git(root, "log", "--format=%s", "memrepo/main..") == "Remember: One more fact\n"


@pytest.mark.slow
def test_remote_set_on_a_remote_with_a_main_tells_git_at_once(
    tmp_path: Path, served: str, cli_in: Callable[..., Run]
) -> None:
    """A second machine that sets the remote instead of cloning: git learns the
    remote's main right away, so `git status` is true and a plain `git pull` works."""
    _, on_laptop = _machine(tmp_path, "laptop", cli_in)
    on_laptop("init")
    on_laptop("remember", "The editor is helix")
    on_laptop("remote", "set", served, CONFIRM)
    on_laptop("sync")
    desk, on_desk = _machine(tmp_path, "desk", cli_in)
    git(tmp_path, "clone", "-q", served, str(desk))  # the same memory, copied by hand
    git(desk, "remote", "remove", "origin")
    assert on_desk("init")[0] == 0
    on_laptop("remember", "Tests run with tox")
    on_laptop("sync")

    assert on_desk("remote", "set", served, CONFIRM)[0] == 0

    assert status(desk).startswith("Your branch is behind 'origin/main' by 1 commit")
    git(desk, "pull", "-q", "--no-rebase")
    assert git(desk, "log", "-1", "--format=%s") == "Remember: Tests run with tox\n"
    assert status(desk) == "Your branch is up to date with 'origin/main'."


@pytest.mark.slow
def test_a_url_git_rewrites_with_insteadof_is_still_the_same_remote(
    tmp_path: Path, served: str, cli_in: Callable[..., Run], memory_repo: MemoryRepo
) -> None:
    """People map `git@github.com:...` to a mirror or another transport with git's
    `url.<base>.insteadOf`; memrepo's remote is the URL as they typed it."""
    typed = "git@github.com:me/agent-memory.git"
    root = memory_repo.root
    git(root, "config", f"url.{served}.insteadOf", typed)
    run = cli_in(root)

    assert run("remote", "set", typed, CONFIRM)[0] == 0
    assert run("sync")[0] == 0

    assert git(root, "config", "remote.origin.url").strip() == typed
    assert status(root) == "Your branch is up to date with 'origin/main'."
