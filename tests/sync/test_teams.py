"""Team memory repos: configured, fetched, read in recall and L0, never written or pushed."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import EntryNotFound, InvalidArgument, SyncError, UnsafeRemote
from memrepo.sync import api
from memrepo.sync.teams import team_dir, team_l0_entries

from .conftest import GitDaemon, make_bare, snapshot

Git = Callable[..., str]

TEAM_MEMORY = """# Team memory

- Deploys happen on Tuesdays [by: user; added: 2026-02-01]
- The staging cluster is called kestrel [by: agent; added: 2026-02-02]

## Index
- [[runbooks/oncall]]
"""
ONCALL = "# Oncall\n\n- Page the database owner before failover [by: user]\n"


def publish(git: Git, work: Path, bare: Path, files: dict[str, str], message: str) -> None:
    """What a teammate does: edit a clone of the team repo and push main."""
    if not work.exists():
        git(work.parent, "clone", "-q", str(bare), str(work))
        git(work, "checkout", "-q", "-B", "main")
    for path, text in files.items():
        target = work / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", message)
    git(work, "push", "-q", "origin", "main")


@pytest.fixture
def team(tmp_path: Path, git: Git) -> Path:
    bare = make_bare(tmp_path / "team-core.git")
    files = {"MEMORY.md": TEAM_MEMORY, "runbooks/oncall.md": ONCALL}
    publish(git, tmp_path / "teammate", bare, files, "team memory")
    return bare


@pytest.mark.slow
def test_a_team_is_added_fetched_and_recalled(
    memory_repo: MemoryRepo, team: Path, git: Git
) -> None:
    before = snapshot(team)
    info = api.team_add(memory_repo.folder, "core", str(team))
    assert info.commit == git(team, "rev-parse", "main").strip()
    assert info.last_error is None and info.last_fetch is not None
    result = memory_repo.recall("staging cluster kestrel")
    hit = result.hits[0]
    assert hit.lane == "team"
    assert hit.ref.startswith("team:core:MEMORY.md#")
    assert hit.provenance.repo == "team:core" and hit.provenance.path == "MEMORY.md"
    oncall = memory_repo.recall("failover database owner").hits[0]
    assert oncall.ref.startswith("team:core:runbooks/oncall.md#")
    assert memory_repo.recall("kestrel", lanes=["folder"]).hits == ()
    assert snapshot(team) == before


def test_team_l0_entries_are_the_team_memory_md(memory_repo: MemoryRepo, team: Path) -> None:
    assert team_l0_entries(memory_repo.folder) == []
    api.team_add(memory_repo.folder, "core", str(team))
    entries = team_l0_entries(memory_repo.folder)
    assert [e.text for e in entries] == [
        "Deploys happen on Tuesdays",
        "The staging cluster is called kestrel",
    ]
    assert entries[0].team == "core" and entries[0].metadata["by"] == "user"
    assert entries[0].ref.startswith("team:core:MEMORY.md#") and entries[0].line == 3


@pytest.mark.slow
def test_sync_moves_teams_to_their_main(
    memory_repo: MemoryRepo, team: Path, git: Git, tmp_path: Path
) -> None:
    api.team_add(memory_repo.folder, "core", str(team))
    assert memory_repo.recall("kestrel").hits
    changed = TEAM_MEMORY.replace("called kestrel", "called osprey")
    publish(git, tmp_path / "teammate", team, {"MEMORY.md": changed}, "rename")
    before = snapshot(team)
    report = api.sync(memory_repo.folder)  # no remote of our own: teams only
    assert report.integration == "no_remote"
    assert [(t.name, t.changed, t.error) for t in report.teams] == [("core", True, None)]
    assert [h.text for h in memory_repo.recall("osprey").hits] == [
        "The staging cluster is called osprey"
    ]
    assert memory_repo.recall("kestrel").hits == ()
    assert snapshot(team) == before


def test_a_team_that_rewrote_history_is_followed(
    memory_repo: MemoryRepo, team: Path, git: Git, tmp_path: Path
) -> None:
    api.team_add(memory_repo.folder, "core", str(team))
    work = tmp_path / "teammate"
    git(work, "reset", "-q", "--hard", "HEAD")
    (work / "MEMORY.md").write_text("# Team memory\n\n- Started over\n")
    git(work, "commit", "-q", "-a", "--amend", "-m", "fresh start")
    git(work, "push", "-q", "--force", "origin", "main")
    api.sync(memory_repo.folder)
    assert [e.text for e in team_l0_entries(memory_repo.folder)] == ["Started over"]


@pytest.mark.slow
def test_an_unreachable_team_keeps_its_last_state(
    memory_repo: MemoryRepo, team: Path, tmp_path: Path
) -> None:
    api.team_add(memory_repo.folder, "core", str(team))
    shutil.move(team, tmp_path / "moved-away.git")
    report = api.sync(memory_repo.folder)
    (result,) = report.teams
    assert result.error is not None and "could not be reached" in result.error
    assert not result.changed and result.commit is not None
    status = api.sync_status(memory_repo.folder)
    assert status.teams[0].last_error == result.error
    assert status.teams[0].commit == result.commit
    assert memory_repo.recall("kestrel").hits  # still read from the last fetch
    assert len(team_l0_entries(memory_repo.folder)) == 2


@pytest.mark.slow
def test_team_over_the_git_daemon_is_never_pushed_to(
    tmp_path: Path, git_daemon: GitDaemon, git: Git
) -> None:
    team = make_bare(git_daemon.base / "team.git")
    publish(git, tmp_path / "teammate", team, {"MEMORY.md": TEAM_MEMORY}, "team memory")
    own = make_bare(git_daemon.base / "own.git")
    repo = MemoryRepo.init(tmp_path / "mem")
    before = snapshot(team)
    api.team_add(repo.folder, "core", git_daemon.url("team.git"))
    api.set_remote(repo.folder, git_daemon.url("own.git"), confirm_private=True)
    for n in range(2):
        repo.remember(f"My own fact {n}")
        report = api.sync(repo.folder)
        assert report.pushed and report.teams[0].error is None
        assert snapshot(team) == before
    assert repo.recall("kestrel").hits[0].lane == "team"
    assert snapshot(own) != before
    # The clone under .git/memrepo/teams has no branch but main, and no commit of ours.
    clone = team_dir(repo.folder.state_dir, "core")
    assert git(clone, "for-each-ref", "--format=%(refname)").split() == ["refs/heads/main"]
    assert git(clone, "rev-parse", "main") == git(team, "rev-parse", "main")


def test_team_names_urls_and_limits(memory_repo: MemoryRepo, team: Path, tmp_path: Path) -> None:
    folder = memory_repo.folder
    with pytest.raises(InvalidArgument, match="team name"):
        api.team_add(folder, "Core Team", str(team))
    with pytest.raises(UnsafeRemote, match="carries credentials"):
        api.team_add(folder, "core", "https://bob:hunter2@example.com/team.git")
    api.team_add(folder, "core", str(team))
    with pytest.raises(InvalidArgument, match="already exists"):
        api.team_add(folder, "core", str(make_bare(tmp_path / "x.git")))
    with pytest.raises(InvalidArgument, match="already configured"):
        api.team_add(folder, "again", f"{team}/")
    api.team_add(folder, "two", str(make_bare(tmp_path / "two.git")))
    api.team_add(folder, "three", str(make_bare(tmp_path / "three.git")))
    with pytest.raises(InvalidArgument, match="at most 3"):
        api.team_add(folder, "four", str(make_bare(tmp_path / "four.git")))
    assert [t.name for t in api.team_list(MemoryRepo.open(memory_repo.root).folder)] == [
        "core", "two", "three",
    ]  # fmt: skip
    empty = api.team_list(folder)[1]
    assert empty.commit is None and empty.last_error is not None  # no main yet: reported


@pytest.mark.slow
def test_removing_a_team_drops_its_clone_and_entries(memory_repo: MemoryRepo, team: Path) -> None:
    api.team_add(memory_repo.folder, "core", str(team))
    assert memory_repo.recall("kestrel").hits
    removed = api.team_remove(memory_repo.folder, "core")
    assert removed.name == "core"
    assert not team_dir(memory_repo.folder.state_dir, "core").exists()
    assert memory_repo.recall("kestrel").hits == ()
    assert api.sync_status(memory_repo.folder).teams == ()
    with pytest.raises(EntryNotFound, match="no such team"):
        api.team_remove(memory_repo.folder, "core")


@pytest.mark.slow
def test_a_reindex_keeps_the_team_lane(memory_repo: MemoryRepo, team: Path) -> None:
    api.team_add(memory_repo.folder, "core", str(team))
    memory_repo.reindex()
    assert memory_repo.recall("kestrel").hits[0].lane == "team"


def test_an_unreachable_team_is_not_added_and_leaves_nothing(memory_repo: MemoryRepo) -> None:
    from memrepo.cli import main

    code = main(
        ["--repo", str(memory_repo.root), "team", "add", "gone", "http://127.0.0.1:9/x.git"]
    )
    assert code == 1
    assert api.team_list(memory_repo.folder) == []
    assert not team_dir(memory_repo.folder.state_dir, "gone").exists()
    with pytest.raises(SyncError, match="team gone was not added"):
        api.team_add(memory_repo.folder, "gone", "http://127.0.0.1:9/x.git")
    assert api.team_list(MemoryRepo.open(memory_repo.root).folder) == []
