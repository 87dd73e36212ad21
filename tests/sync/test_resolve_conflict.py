"""Settling a `sync/conflict-*` branch: keep main's side or the branch's (issue #19).

Two machines change the same subject against a real bare remote; the second machine's
sync keeps the `by: user` value on main and the other on a conflict branch. Resolving
it is checked through the API, the CLI and git itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import MemrepoError
from memrepo.sync import api

from .conftest import first_machine, make_bare, remote_refs, second_machine, texts

pytestmark = pytest.mark.slow

Git = Callable[..., str]
Run = Callable[..., tuple[int, str, str]]

HELIX, VIM = "Editor is helix", "Editor is vim"


def conflicted(tmp_path: Path) -> tuple[MemoryRepo, str, str]:
    """Machine b after a sync whose subject conflict main won with helix; vim is on the
    returned branch. Also returns the remote's URL."""
    remote = str(make_bare(tmp_path / "remote.git"))
    a = first_machine(tmp_path / "a", remote)
    b = second_machine(tmp_path / "b", remote)
    a.remember(HELIX, subject="editor", by="user")
    b.remember(VIM, subject="editor", by="agent")
    api.sync(a.folder)
    report = api.sync(b.folder)
    assert report.conflict_branch is not None
    assert HELIX in texts(b) and VIM not in texts(b)
    return b, report.conflict_branch, remote


def branches(git: Git, root: Path) -> list[str]:
    return git(root, "branch", "--format=%(refname:short)").split()


def test_keep_main_deletes_the_branch_and_changes_nothing(tmp_path: Path, git: Git) -> None:
    b, branch, _ = conflicted(tmp_path)
    before = b.folder.store.main_id()
    assert b.resolve_conflict(branch, "main") is None
    assert b.folder.store.main_id() == before
    assert b.conflicts() == []
    assert branch not in branches(git, b.root)
    assert HELIX in texts(b) and VIM not in texts(b)


def test_keep_theirs_puts_the_lost_value_on_main_as_the_users_choice(
    tmp_path: Path, git: Git
) -> None:
    b, branch, remote = conflicted(tmp_path)
    before = b.folder.store.main_id()
    commit = b.resolve_conflict(branch, "theirs")
    assert commit is not None and b.folder.store.main_id() == commit
    assert git(b.root, "rev-parse", "main^").strip() == before  # one commit
    assert VIM in texts(b) and HELIX not in texts(b)
    assert "Memrepo-By: user" in git(b.root, "log", "-1", "--format=%B", commit)
    assert branch not in branches(git, b.root) and b.conflicts() == []
    assert git(b.root, "status", "--porcelain").strip() == ""
    # The choice travels like any write; the conflict branch never did.
    api.sync(b.folder)
    assert remote_refs(git, remote) == {"refs/heads/main"}
    # And it is undoable: main's value is back.
    b.undo(commit)
    assert HELIX in texts(b) and VIM not in texts(b)


def test_keep_theirs_is_refused_when_main_changed_the_file_since(tmp_path: Path, git: Git) -> None:
    b, branch, _ = conflicted(tmp_path)
    b.remember("Shell is fish", subject="shell", by="user")
    before = b.folder.store.main_id()
    with pytest.raises(MemrepoError, match="changed on main since the merge"):
        b.resolve_conflict(branch, "theirs")
    assert b.folder.store.main_id() == before
    assert branch in branches(git, b.root)  # nothing lost: keep main's, or edit by hand


def test_a_name_that_is_not_a_conflict_branch_is_refused(tmp_path: Path, git: Git) -> None:
    b, branch, _ = conflicted(tmp_path)
    git(b.root, "branch", "mine", "main")
    for name in ("mine", "main", "sync/conflict-2000-01-01-1", "dream/2026-03-01-1"):
        with pytest.raises(MemrepoError, match="no such conflict branch"):
            b.resolve_conflict(name, "main")
    with pytest.raises(MemrepoError, match="keep must be"):
        b.resolve_conflict(branch, "both")  # type: ignore[arg-type]
    assert {"mine", "main", branch} <= set(branches(git, b.root))


def test_cli_conflicts_keep(tmp_path: Path, git: Git, run: Run) -> None:
    b, branch, _ = conflicted(tmp_path)
    code, out, err = run("--repo", str(b.root), "conflicts", "keep", branch)
    assert code != 0 and "--side" in err
    code, out, err = run("--repo", str(b.root), "conflicts", "keep", "nope", "--side", "main")
    assert code != 0 and "no such conflict branch" in err and "Traceback" not in err
    code, out, _ = run("--repo", str(b.root), "conflicts", "keep", branch, "--side", "theirs",
                       "--json")  # fmt: skip
    assert code == 0, out
    result = json.loads(out)
    assert result["side"] == "theirs" and result["commit"] == b.folder.store.main_id()
    assert VIM in texts(b) and branch not in branches(git, b.root)


def test_cli_conflicts_keep_main_says_what_it_did(tmp_path: Path, run: Run) -> None:
    b, branch, _ = conflicted(tmp_path)
    code, out, _ = run("--repo", str(b.root), "conflicts", "keep", branch, "--side", "main")
    assert (code, out) == (0, f"main was kept; deleted {branch}\n")
    code, out, _ = run("--repo", str(b.root), "conflicts", "keep", "--help")
    assert code == 0 and "--side theirs" in out
