"""Two machines with one memory, syncing through a bare repo on disk and a git daemon."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import SyncError
from memrepo.sync import api

from .conftest import first_machine, remote_refs, second_machine, texts

pytestmark = pytest.mark.slow

Git = Callable[..., str]


def write_round(repo: MemoryRepo, machine: str, rnd: int, count: int) -> set[str]:
    written = set()
    for n in range(count):
        text = f"Machine {machine} round {rnd} fact {n}"
        # Both machines write to the same files: MEMORY.md and one shared topic file.
        file = "topics/shared.md" if n % 2 else None
        assert repo.remember(text, file=file).written
        written.add(text)
    return written


def assert_same_memory(a: MemoryRepo, b: MemoryRepo, expected: set[str], git: Git) -> None:
    for repo in (a, b):
        found = texts(repo)
        assert sorted(set(found)) == found, "an entry appears twice"
        assert set(found) == expected
        assert git(repo.root, "status", "--porcelain") == ""
    assert a.folder.store.main_id() == b.folder.store.main_id()


def test_two_machines_write_and_sync_in_turns(tmp_path: Path, remote_url: str, git: Git) -> None:
    a = first_machine(tmp_path / "a", remote_url)
    b = second_machine(tmp_path / "b", remote_url)
    expected: set[str] = set()
    for rnd in range(3):
        # Both write before either syncs, so every round needs a real merge.
        expected |= write_round(a, "A", rnd, 4)
        expected |= write_round(b, "B", rnd, 4)
        # A local review branch and a conflict-looking branch must never leave the machine.
        git(a.root, "branch", "-f", f"dream/2026-03-0{rnd + 1}-1", "main")
        git(b.root, "branch", "-f", f"sync/conflict-2026-03-0{rnd + 1}-9", "main")
        first = api.sync(a.folder)
        second = api.sync(b.folder)
        third = api.sync(a.folder)
        assert first.pushed and second.integration == "merged" and second.pushed
        assert third.integration == "fast_forward" and not third.pushed
        assert second.conflicts == ()
        assert_same_memory(a, b, expected, git)
        assert remote_refs(git, remote_url) == {"refs/heads/main"}
    # Histories are shared: both machines' commits are ancestors of the one main.
    log = git(a.root, "log", "--format=%s", "main")
    assert "Remember: Machine A round 0 fact 0" in log
    assert "Remember: Machine B round 2 fact 3" in log
    git(a.root, "fsck", "--strict")


def test_edits_people_made_are_committed_and_pushed(
    tmp_path: Path, remote_url: str, git: Git
) -> None:
    a = first_machine(tmp_path / "a", remote_url)
    b = second_machine(tmp_path / "b", remote_url)
    memory = a.root / "MEMORY.md"
    memory.write_text(memory.read_text().replace("## Index", "- Typed in an editor\n\n## Index"))
    report = api.sync(a.folder)
    assert report.edits_committed is not None and report.pushed
    api.sync(b.folder)
    assert "Typed in an editor" in texts(b)
    assert git(a.root, "status", "--porcelain") == ""


def test_plain_git_users_share_the_same_remote(tmp_path: Path, remote_url: str, git: Git) -> None:
    a = first_machine(tmp_path / "a", remote_url)
    a.remember("Written by memrepo")
    api.sync(a.folder)
    plain = tmp_path / "plain"
    git(tmp_path, "clone", "-q", remote_url, str(plain))
    memory = plain / "MEMORY.md"
    memory.write_text(memory.read_text().replace("## Index", "- Written with git\n\n## Index"))
    (plain / "notes.txt").write_text("a plain file\n")
    git(plain, "add", "-A")
    git(plain, "commit", "-q", "-m", "by hand")
    git(plain, "push", "-q", "origin", "main")
    a.remember("Written by memrepo again")
    report = api.sync(a.folder)
    assert report.integration == "merged" and report.pushed
    assert {"Written with git", "Written by memrepo", "Written by memrepo again"} <= set(texts(a))
    assert (a.root / "notes.txt").read_text() == "a plain file\n"
    git(plain, "pull", "-q", "--no-rebase", "origin", "main")
    assert "Written by memrepo again" in memory.read_text()
    assert git(plain, "rev-parse", "HEAD") == git(a.root, "rev-parse", "main")


def test_a_new_machine_can_start_from_an_empty_remote(
    tmp_path: Path, remote_url: str, git: Git
) -> None:
    b = second_machine(tmp_path / "b", remote_url)
    assert (b.root / "MEMORY.md").exists()
    b.remember("First fact of a fresh memory")
    report = api.sync(b.folder)
    assert report.integration == "first_push" and report.pushed
    assert remote_refs(git, remote_url) == {"refs/heads/main"}
    a = second_machine(tmp_path / "a", remote_url)
    assert texts(a) == ["First fact of a fresh memory"]


def test_clone_refuses_without_confirmation_and_into_a_full_folder(
    tmp_path: Path, remote_url: str
) -> None:
    first_machine(tmp_path / "a", remote_url)
    with pytest.raises(SyncError, match="i-own-this-private-repo"):
        api.clone(remote_url, tmp_path / "b")
    assert not (tmp_path / "b").exists()
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine")
    with pytest.raises(ValueError, match="not empty"):
        api.clone(remote_url, full, confirm_private=True)
    assert [p.name for p in full.iterdir()] == ["keep.txt"]


@pytest.mark.slow
def test_two_machines_syncing_at_the_same_time(tmp_path: Path, remote_url: str, git: Git) -> None:
    """Pushes race: the loser is rejected, fetches, merges and pushes again."""
    a = first_machine(tmp_path / "a", remote_url)
    b = second_machine(tmp_path / "b", remote_url)
    expected: set[str] = set()
    errors: list[BaseException] = []

    def machine(repo: MemoryRepo, name: str) -> None:
        try:
            for rnd in range(4):
                expected.update(write_round(repo, name, rnd, 2))
                api.sync(repo.folder)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=machine, args=(r, n)) for r, n in ((a, "A"), (b, "B"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert errors == []
    api.sync(a.folder)
    api.sync(b.folder)
    api.sync(a.folder)
    assert_same_memory(a, b, expected, git)
    assert remote_refs(git, remote_url) == {"refs/heads/main"}
