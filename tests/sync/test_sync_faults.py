"""Faults: remotes that are unrelated, rewritten, conflicting, moving, or dying mid-transfer."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import (
    HistoryRewritten,
    RemoteUnreachable,
    RepoStateError,
    SyncError,
    SyncRejected,
    UnrelatedHistories,
)
from memrepo.sync import api
from memrepo.sync.service import MAX_ATTEMPTS

from .conftest import (
    CutProxy,
    GitDaemon,
    bare_path,
    first_machine,
    make_bare,
    remote_refs,
    second_machine,
    snapshot,
    texts,
)

Git = Callable[..., str]

MOVING_HOOK = """#!/bin/sh
# Someone else always pushes first: main moves while our push is being received.
unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES
old=$(git rev-parse refs/heads/main)
new=$(git commit-tree -p "$old" -m "someone else pushed first" "$old^{tree}")
git update-ref refs/heads/main "$new" "$old"
"""


def consistent(repo: MemoryRepo, git: Git) -> None:
    """No half-finished write: clean worktree, no journal, objects intact."""
    assert git(repo.root, "status", "--porcelain") == ""
    assert not (repo.folder.state_dir / "journal.json").exists()
    git(repo.root, "fsck", "--strict", "--no-dangling")


@pytest.mark.slow
def test_unrelated_histories_are_refused(
    tmp_path: Path, remote_url: str, git: Git, memory_repo: MemoryRepo
) -> None:
    first_machine(tmp_path / "other", remote_url).remember("Someone else's memory")
    memory_repo.remember("My own memory")
    before_remote = snapshot(bare_path(remote_url, tmp_path))
    before = memory_repo.folder.store.main_id()
    api.set_remote(memory_repo.folder, remote_url, confirm_private=True)
    with pytest.raises(UnrelatedHistories, match="memrepo clone") as caught:
        api.sync(memory_repo.folder)
    assert "empty private repository" in str(caught.value)
    assert memory_repo.folder.store.main_id() == before
    assert texts(memory_repo) == ["My own memory"]
    assert snapshot(bare_path(remote_url, tmp_path)) == before_remote
    assert api.sync_status(memory_repo.folder).last_error_kind == "UnrelatedHistories"
    consistent(memory_repo, git)


@pytest.mark.slow
def test_a_rewritten_remote_is_refused_and_local_work_kept(
    tmp_path: Path, remote_url: str, git: Git
) -> None:
    a = first_machine(tmp_path / "a", remote_url)
    a.remember("Pushed and then dropped by a force push")
    api.sync(a.folder)
    plain = tmp_path / "plain"
    git(tmp_path, "clone", "-q", remote_url, str(plain))
    git(plain, "reset", "-q", "--hard", "HEAD~1")
    (plain / "other.md").write_text("# Other\n\n- Rewritten history's own fact\n")
    git(plain, "add", "-A")
    git(plain, "commit", "-q", "-m", "rewrite")
    git(plain, "push", "-q", "--force", "origin", "main")
    forced = git(plain, "rev-parse", "main").strip()
    a.remember("Written after the rewrite")
    before = a.folder.store.main_id()
    with pytest.raises(HistoryRewritten, match="rewrote its history") as caught:
        api.sync(a.folder)
    assert "remote set" in str(caught.value)
    assert a.folder.store.main_id() == before
    assert texts(a) == ["Pushed and then dropped by a force push", "Written after the rewrite"]
    assert git(plain, "ls-remote", remote_url, "refs/heads/main").split()[0] == forced
    consistent(a, git)
    # Accepting the rewrite: set the remote again; local commits are merged back.
    api.set_remote(a.folder, remote_url, confirm_private=True)
    report = api.sync(a.folder)
    assert report.integration == "merged" and report.pushed
    assert "Rewritten history's own fact" in texts(a)
    assert "Pushed and then dropped by a force push" in texts(a)


def test_a_remote_that_lost_main_is_a_rewrite(tmp_path: Path, git: Git) -> None:
    remote = make_bare(tmp_path / "remote.git")
    a = first_machine(tmp_path / "a", str(remote))
    git(remote, "update-ref", "-d", "refs/heads/main")
    with pytest.raises(HistoryRewritten, match="has no main any more"):
        api.sync(a.folder)
    assert remote_refs(git, str(remote)) == set()


@pytest.mark.slow
def test_binary_conflict_keeps_ours_and_branches_theirs(
    tmp_path: Path, remote_url: str, git: Git
) -> None:
    a = first_machine(tmp_path / "a", remote_url)
    b = second_machine(tmp_path / "b", remote_url)
    (a.root / "logo.bin").write_bytes(b"\x00\x01base")
    git(a.root, "add", "logo.bin")
    git(a.root, "commit", "-q", "-m", "add a binary")
    api.sync(a.folder)
    api.sync(b.folder)
    (a.root / "logo.bin").write_bytes(b"\x00\x02from a")
    (b.root / "logo.bin").write_bytes(b"\x00\x03from b")
    for root in (a.root, b.root):  # memrepo never commits a file that is not markdown (#27)
        git(root, "commit", "-qam", "edit the binary")
    api.sync(a.folder)
    report = api.sync(b.folder)
    assert report.integration == "merged" and report.pushed
    assert [(c.path, c.kind) for c in report.conflicts] == [("logo.bin", "binary")]
    assert report.conflict_branch == "sync/conflict-2026-03-01-1"
    assert (b.root / "logo.bin").read_bytes() == b"\x00\x03from b"
    branch = report.conflict_branch
    assert git(b.root, "cat-file", "blob", f"{branch}:logo.bin") == "\x00\x02from a"
    assert api.sync_status(b.folder).conflict_branches == (branch,)
    listed = api.conflicts(b.folder)
    assert [c.name for c in listed] == [branch]
    assert listed[0].conflicts[0].path == "logo.bin"
    assert listed[0].merge_commit == report.head
    detail = api.conflict(b.folder, branch)
    assert "logo.bin" in detail.files and "logo.bin" in detail.diff
    # main never holds conflict markers, and the conflict branch never leaves the machine.
    for path in b.root.rglob("*"):
        if ".git" not in path.parts and path.is_file():
            assert b"<<<<<<<" not in path.read_bytes(), path
    assert remote_refs(git, remote_url) == {"refs/heads/main"}
    api.sync(a.folder)
    assert (a.root / "logo.bin").read_bytes() == b"\x00\x03from b"
    consistent(b, git)


@pytest.mark.slow
def test_a_subject_changed_on_both_sides_is_resolved_and_reported(
    tmp_path: Path, remote_url: str, git: Git
) -> None:
    a = first_machine(tmp_path / "a", remote_url)
    b = second_machine(tmp_path / "b", remote_url)
    a.remember("Editor is helix", subject="editor", by="user")
    b.remember("Editor is vim", subject="editor", by="agent")
    api.sync(a.folder)
    report = api.sync(b.folder)
    assert [c.kind for c in report.conflicts] == ["subject"]
    assert "Editor is helix" in texts(b) and "Editor is vim" not in texts(b)
    assert report.conflict_branch is not None
    loser = git(b.root, "show", f"{report.conflict_branch}:MEMORY.md")
    assert "Editor is vim" in loser
    second = api.sync(b.folder)  # nothing left to merge: no new branch
    assert second.conflict_branch is None
    assert len(api.conflicts(b.folder)) == 1


@pytest.mark.slow
def test_a_remote_that_keeps_moving_ends_in_sync_rejected(tmp_path: Path, git: Git) -> None:
    remote = make_bare(tmp_path / "remote.git")
    a = first_machine(tmp_path / "a", str(remote))
    hook = remote / "hooks" / "pre-receive"
    hook.write_text(MOVING_HOOK)
    hook.chmod(0o755)
    a.remember("Never accepted by the remote")
    with pytest.raises(SyncRejected, match=f"rejected {MAX_ATTEMPTS} times"):
        api.sync(a.folder)
    # Every remote commit fetched was merged (the one made during the last push was not
    # fetched any more); nothing was forced over them.
    log = git(a.root, "log", "--format=%s", "main")
    assert log.count("someone else pushed first") == MAX_ATTEMPTS - 1
    assert "Never accepted by the remote" in texts(a)
    remote_log = git(remote, "log", "--format=%s", "main")
    assert remote_log.count("someone else pushed first") == MAX_ATTEMPTS
    assert "Remember: Never accepted" not in remote_log
    assert api.sync_status(a.folder).last_error_kind == "SyncRejected"
    consistent(a, git)
    hook.unlink()
    assert api.sync(a.folder).pushed


def big_file(root: Path, name: str) -> None:
    """About a megabyte of incompressible lines, so a transfer takes many packets."""
    lines = [f"- {os.urandom(48).hex()}" for _ in range(10_000)]
    (root / f"{name}.md").write_text("# Bulk\n\n" + "\n".join(lines) + "\n")


@pytest.mark.slow
@pytest.mark.parametrize("direction", ["down", "up"])
def test_daemon_killed_mid_transfer(
    tmp_path: Path, git_daemon: GitDaemon, git: Git, direction: str
) -> None:
    make_bare(git_daemon.base / "remote.git")
    direct = git_daemon.url("remote.git")
    a = first_machine(tmp_path / "a", direct)
    b = second_machine(tmp_path / "b", direct)
    proxy = CutProxy(git_daemon, direction, after_bytes=64_000)
    try:
        api.set_remote(b.folder, proxy.url("remote.git"), confirm_private=True)
        if direction == "down":
            big_file(a.root, "from-a")
            api.sync(a.folder)
        else:
            big_file(b.root, "from-b")
        b.remember("Small fact from b")
        remote_before = snapshot(git_daemon.base / "remote.git")
        with pytest.raises(SyncError) as caught:
            api.sync(b.folder)
        assert proxy.cut.is_set(), repr(caught.value)
        assert isinstance(caught.value, RemoteUnreachable), caught.value
        consistent(b, git)
        assert snapshot(git_daemon.base / "remote.git")[0] == remote_before[0]  # refs
        assert api.sync_status(b.folder).last_error_kind == "RemoteUnreachable"
        git_daemon.start()
        report = api.sync(b.folder)
        assert report.pushed
        assert api.sync_status(b.folder).last_error is None
    finally:
        proxy.close()
    api.sync(a.folder)
    assert texts(a) == texts(b)
    assert "Small fact from b" in texts(a)
    consistent(a, git)
    consistent(b, git)


@pytest.mark.slow
def test_an_untracked_file_in_the_way_is_never_overwritten(
    tmp_path: Path, remote_url: str, git: Git
) -> None:
    a = first_machine(tmp_path / "a", remote_url)
    b = second_machine(tmp_path / "b", remote_url)
    (a.root / "notes.txt").write_text("from machine a\n")
    git(a.root, "add", "notes.txt")
    git(a.root, "commit", "-q", "-m", "notes")
    api.sync(a.folder)
    (b.root / "notes.txt").write_text("b's own untracked notes\n")
    before = b.folder.store.main_id()
    with pytest.raises(RepoStateError, match=r"would overwrite notes\.txt"):
        api.sync(b.folder)
    assert (b.root / "notes.txt").read_text() == "b's own untracked notes\n"
    assert b.folder.store.main_id() == before
    (b.root / "notes.txt").unlink()
    assert api.sync(b.folder).integration == "fast_forward"
    assert (b.root / "notes.txt").read_text() == "from machine a\n"
    consistent(b, git)


def test_a_failed_clone_leaves_nothing_behind(tmp_path: Path) -> None:
    with pytest.raises(RemoteUnreachable):
        api.clone(str(tmp_path / "missing.git"), tmp_path / "b", confirm_private=True)
    assert not (tmp_path / "b").exists()
