"""Sync, team repo and dreaming checks: state reported by those layers, branches in git."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memrepo import MemoryRepo
from memrepo.clock import FixedClock
from memrepo.models.dream import DreamStatus
from memrepo.models.sync import SyncStatus, TeamInfo

from .conftest import Git, health

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
URL = "ssh://git@example.com/me/memory.git"


def _at(repo: MemoryRepo, when: datetime) -> MemoryRepo:
    return MemoryRepo.open(repo.root, clock=FixedClock(when))


def test_sync_without_a_remote_is_skipped(memory_repo: MemoryRepo) -> None:
    assert health(memory_repo).check("sync").status == "SKIP"
    found = health(memory_repo, sync=SyncStatus()).check("sync")
    assert (found.status, found.fix) == ("SKIP", "")


def test_recent_sync_passes_with_its_distance(memory_repo: MemoryRepo) -> None:
    status = SyncStatus(
        remote=URL, confirmed=True, last_success=NOW - timedelta(hours=12), ahead=2, behind=0
    )
    found = health(_at(memory_repo, NOW), sync=status).check("sync")
    assert (found.status, found.figure, found.threshold) == ("PASS", 0.5, 7)
    assert found.detail == "last success 0.5 days ago; 2 ahead, 0 behind"


def test_old_sync_warns(memory_repo: MemoryRepo) -> None:
    status = SyncStatus(remote=URL, confirmed=True, last_success=NOW - timedelta(days=10))
    found = health(_at(memory_repo, NOW), sync=status).check("sync")
    assert (found.status, found.figure, found.fix) == ("WARN", 10, "memrepo sync")


def test_sync_failing_since_its_last_success_warns(memory_repo: MemoryRepo) -> None:
    status = SyncStatus(
        remote=URL,
        confirmed=True,
        last_success=NOW - timedelta(days=1),
        last_error="could not reach example.com",
        last_error_kind="RemoteUnreachable",
        last_error_at=NOW - timedelta(hours=1),
    )
    found = health(_at(memory_repo, NOW), sync=status).check("sync")
    assert found.status == "WARN"
    assert found.detail.startswith("last sync failed (RemoteUnreachable): could not reach")


def test_an_error_before_the_last_success_is_history(memory_repo: MemoryRepo) -> None:
    status = SyncStatus(
        remote=URL,
        confirmed=True,
        last_success=NOW - timedelta(hours=1),
        last_error="timeout",
        last_error_at=NOW - timedelta(days=2),
    )
    assert health(_at(memory_repo, NOW), sync=status).check("sync").status == "PASS"


def test_conflict_branches_and_unconfirmed_remotes_warn(memory_repo: MemoryRepo) -> None:
    waiting = SyncStatus(
        remote=URL,
        confirmed=True,
        last_success=NOW,
        conflict_branches=("sync/conflict-2026-03-01-1",),
    )
    found = health(_at(memory_repo, NOW), sync=waiting).check("sync")
    assert found.status == "WARN"
    assert "1 conflict branch waiting: sync/conflict-2026-03-01-1" in found.detail
    unconfirmed = health(memory_repo, sync=SyncStatus(remote=URL)).check("sync")
    assert unconfirmed.status == "WARN" and "not confirmed" in unconfirmed.detail


def test_each_team_repo_is_its_own_check(memory_repo: MemoryRepo) -> None:
    teams = (
        TeamInfo(name="platform", url=URL, last_fetch=NOW - timedelta(days=1)),
        TeamInfo(
            name="design",
            url=URL,
            last_fetch=NOW - timedelta(days=3),
            last_error="repository not found",
            last_error_at=NOW - timedelta(hours=2),
        ),
        TeamInfo(name="infra", url=URL),
    )
    report = health(_at(memory_repo, NOW), sync=SyncStatus(teams=teams))
    assert (report.check("team:platform").status, report.check("team:platform").figure) == (
        "PASS",
        1,
    )
    design = report.check("team:design")
    assert design.status == "WARN" and "last fetch failed: repository not found" in design.detail
    assert report.check("team:infra").detail == "never fetched"
    assert "teams" not in [c.name for c in report.checks]


def test_no_team_repos_is_skipped(memory_repo: MemoryRepo) -> None:
    assert health(memory_repo).check("teams").status == "SKIP"


def test_dreaming_reports_its_last_run(memory_repo: MemoryRepo) -> None:
    assert health(memory_repo).check("dreaming").status == "SKIP"  # nobody reports it
    never = health(memory_repo, dream=DreamStatus()).check("dreaming")
    assert (never.status, never.fix) == ("INFO", "memrepo dream")
    ran = DreamStatus(last_at=NOW - timedelta(days=2), counts={"duplicates": 2, "links": 1})
    found = health(_at(memory_repo, NOW), dream=ran).check("dreaming")
    assert (found.status, found.figure) == ("INFO", 2)
    assert found.detail == "last dream 2.0 days ago (2026-02-27), 3 changes proposed or made"


def test_review_branches_age_from_their_tip_commit(memory_repo: MemoryRepo, git: Git) -> None:
    assert health(memory_repo).check("review_branches").status == "PASS"
    git(memory_repo.root, "branch", "dream/2026-01-01-1", "main")
    tip = datetime.fromtimestamp(int(git(memory_repo.root, "log", "-1", "--format=%ct")), UTC)
    fresh = health(_at(memory_repo, tip + timedelta(days=3))).check("review_branches")
    assert (fresh.status, fresh.figure) == ("PASS", 3)
    stale = health(_at(memory_repo, tip + timedelta(days=20))).check("review_branches")
    assert (stale.status, stale.figure, stale.threshold) == ("WARN", 20, 14)
    assert "over the limit: dream/2026-01-01-1" in stale.detail
    assert stale.fix == "memrepo review show dream/2026-01-01-1, then accept or reject it"


def test_other_branches_are_not_review_branches(memory_repo: MemoryRepo, git: Git) -> None:
    git(memory_repo.root, "branch", "experiment", "main")
    tip = datetime.fromtimestamp(int(git(memory_repo.root, "log", "-1", "--format=%ct")), UTC)
    found = health(_at(memory_repo, tip + timedelta(days=30))).check("review_branches")
    assert (found.status, found.detail) == ("PASS", "no review branches waiting")
