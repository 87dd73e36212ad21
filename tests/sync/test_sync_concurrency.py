"""A sync holds the write lock only for its local steps: writes go on while the remote
is slow, and what they write is never lost (it goes with this sync or the next)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.config import load_config
from memrepo.errors import LockTimeout
from memrepo.models.sync import SyncReport
from memrepo.sync import api

from .conftest import (
    CLOCK,
    STARTUP_SECONDS,
    GateProxy,
    GitDaemon,
    first_machine,
    make_bare,
    second_machine,
    texts,
)

Git = Callable[..., str]
CommitCount = Callable[..., int]


def _machines(tmp_path: Path, daemon: GitDaemon) -> tuple[MemoryRepo, MemoryRepo]:
    """a and b share a remote; a has written something b has not fetched yet."""
    make_bare(daemon.base / "remote.git")
    url = daemon.url("remote.git")
    a = first_machine(tmp_path / "a", url)
    b = second_machine(tmp_path / "b", url)
    a.remember("Fact written on a")
    api.sync(a.folder)
    return a, b


def _quick_writer(root: Path) -> MemoryRepo:
    """Another opener of b whose writes give up after 2 s instead of 30: a write stuck
    behind the sync fails the test with LockTimeout rather than hanging it."""
    state = root / ".git" / "memrepo"
    config = load_config(state).model_copy(update={"lock_timeout_seconds": 2.0})
    return MemoryRepo.open(root, clock=CLOCK, config=config)


def _sync_in_background(pool: ThreadPoolExecutor, root: Path) -> Future[SyncReport]:
    return pool.submit(lambda: api.sync(MemoryRepo.open(root, clock=CLOCK).folder))


def _write_while_held(
    b: MemoryRepo, daemon: GitDaemon, hold: int, text: str, also: Callable[[], None]
) -> SyncReport:
    """Sync b through a proxy that holds its `hold`-th connection; meanwhile write `text`
    with a 2 s lock timeout and run `also`; then let the sync finish."""
    # `remote set` fetches the remote's main once for git (sync/tracking.py): the sync's
    # own connections come after that one.
    proxy = GateProxy(daemon, hold=hold + 1)
    try:
        api.set_remote(b.folder, proxy.url("remote.git"), confirm_private=True)
        with ThreadPoolExecutor(1) as pool:
            syncing = _sync_in_background(pool, b.root)
            assert proxy.holding.wait(STARTUP_SECONDS)
            _quick_writer(b.root).remember(text)
            also()
            proxy.release()
            return syncing.result(timeout=60)
    finally:
        proxy.close()


def _second_sync_gives_up(root: Path) -> Callable[[], None]:
    def check() -> None:
        with pytest.raises(LockTimeout, match=r"the memory.s sync lock was held"):
            api.sync(_quick_writer(root).folder)

    return check


@pytest.mark.slow
def test_a_write_during_a_hanging_fetch_goes_out_with_that_sync(
    tmp_path: Path, git_daemon: GitDaemon, git: Git
) -> None:
    a, b = _machines(tmp_path, git_daemon)
    # A second sync of the same root waits for the first (here: gives up).
    report = _write_while_held(
        b, git_daemon, 1, "Written while the fetch hangs", _second_sync_gives_up(b.root)
    )
    assert report.pushed and report.integration == "merged"
    api.sync(a.folder)
    assert "Written while the fetch hangs" in texts(a)
    assert "Fact written on a" in texts(b)
    assert git(b.root, "status", "--porcelain") == ""


@pytest.mark.slow
def test_a_write_during_a_hanging_push_waits_for_the_next_sync(
    tmp_path: Path, git_daemon: GitDaemon, git: Git
) -> None:
    a, b = _machines(tmp_path, git_daemon)
    b.remember("Fact written on b")  # so the sync has something to push
    remote = git_daemon.base / "remote.git"
    report = _write_while_held(b, git_daemon, 2, "Written while the push hangs", lambda: None)
    # The sync pushed exactly what it had merged; the later write is local, on top.
    assert report.pushed
    assert git(remote, "rev-parse", "main").strip() == report.head
    git(b.root, "merge-base", "--is-ancestor", report.head, "main")
    assert git(b.root, "rev-parse", "main").strip() != report.head
    api.sync(a.folder)
    assert "Written while the push hangs" not in texts(a)
    # ... and the next sync (straight to the daemon now) takes it out.
    api.set_remote(b.folder, git_daemon.url("remote.git"), confirm_private=True)
    assert api.sync(b.folder).pushed
    api.sync(a.folder)
    assert {"Written while the push hangs", "Fact written on b"} <= set(texts(a))
    assert git(b.root, "status", "--porcelain") == ""
    git(b.root, "fsck", "--strict", "--no-dangling")


WORKER = Path(__file__).with_name("machine_worker.py")
ROUNDS = 8


@pytest.mark.slow
@pytest.mark.integration
def test_two_machines_syncing_at_once_lose_nothing(
    tmp_path: Path, git_daemon: GitDaemon, git: Git, commit_count: CommitCount
) -> None:
    """Two processes, one per machine, each writing and syncing in rounds through one
    git daemon at the same time: every entry ends on both machines' main, each subject
    holds its machine's last value, and nothing is there twice."""
    make_bare(git_daemon.base / "remote.git")
    url = git_daemon.url("remote.git")
    machines = {"A": first_machine(tmp_path / "a", url), "B": second_machine(tmp_path / "b", url)}
    meet = tmp_path / "meet"
    meet.mkdir()
    processes = {
        name: subprocess.Popen(
            [sys.executable, str(WORKER), str(repo.root), name, str(ROUNDS), str(meet), "A,B"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, repo in machines.items()
    }
    expected: set[str] = set()
    rejected = 0
    for name, process in processes.items():
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, (name, err)
        result = json.loads(out)
        expected |= set(result["written"])
        rejected += result["rejected"]
    assert len(expected) == 2 * ROUNDS * 3
    a, b = machines["A"], machines["B"]
    for repo in (a, b, a):
        api.sync(repo.folder)
    for repo in (a, b):
        found = texts(repo)
        facts = [t for t in found if " fact " in t]
        assert sorted(set(facts)) == sorted(facts), "an entry appears twice"
        assert set(facts) == expected, f"lost: {sorted(expected - set(facts))}"
        statuses = sorted(t for t in found if " status is " in t)
        last = ROUNDS - 1
        assert statuses == [
            f"Machine A status is round {last}",
            f"Machine B status is round {last}",
        ]
        assert git(repo.root, "status", "--porcelain") == ""
        git(repo.root, "fsck", "--strict", "--no-dangling")
    assert a.folder.store.main_id() == b.folder.store.main_id()
    # Every round was a race: one machine had to merge the other's writes.
    assert commit_count(a.root, "main", "--merges") >= ROUNDS
    assert rejected == 0, "a sync gave up although the other machine only pushed once"
