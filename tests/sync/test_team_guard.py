"""The team-repo guard: a team repo is never the user's own remote, however it is spelled,
and sync never merges from or pushes into a remote that turns out to be one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.config import save_config
from memrepo.errors import UnsafeRemote
from memrepo.models.sync import RemoteSettings
from memrepo.sync import api
from memrepo.sync.remote import same_remote

from .conftest import CLOCK, GitDaemon, make_bare, snapshot

Git = Callable[..., str]


def publish(git: Git, work: Path, bare: Path, text: str) -> None:
    """A teammate's push of a team memory to the team repo."""
    if not work.exists():
        git(work.parent, "clone", "-q", str(bare), str(work))
        git(work, "checkout", "-q", "-B", "main")
    (work / "MEMORY.md").write_text(f"# Team\n\n- {text} [by: user]\n\n## Index\n")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", text)
    git(work, "push", "-q", "origin", "main")


@pytest.fixture
def team(tmp_path: Path, git: Git) -> Path:
    bare = make_bare(tmp_path / "teams" / "core.git")
    publish(git, tmp_path / "teammate", bare, "Deploys happen on Tuesdays")
    return bare


LOCAL_ALIASES = {
    "file-localhost": "file://localhost{p}",
    "file-loopback-ip": "file://127.0.0.1{p}",
    "file-empty-host": "file://{p}",
    "file-upper-host-trailing-slash": "file://LOCALHOST{p}/",
    "file-percent-encoded": "file://{q}",
    "trailing-slash": "{p}/",
    "dot-dot": "{parent}/../teams/core.git",
    "dot-segments": "{parent}/./core.git//",
    "no-dot-git": "{stem}",
    "symlinked-folder": "{link}/core.git",
}


@pytest.mark.parametrize("spelling", LOCAL_ALIASES)
def test_no_spelling_of_a_local_team_repo_becomes_the_remote(
    tmp_path: Path, team: Path, git: Git, spelling: str
) -> None:
    link = tmp_path / "elsewhere"
    link.symlink_to(team.parent, target_is_directory=True)
    url = LOCAL_ALIASES[spelling].format(
        p=team,
        q=str(team).replace("core", "%63ore"),
        parent=team.parent,
        stem=str(team).removesuffix(".git"),
        link=link,
    )
    assert git(tmp_path, "ls-remote", url).strip(), "git itself reaches the team by it"
    repo = MemoryRepo.init(tmp_path / "mem", clock=CLOCK)
    api.team_add(repo.folder, "core", str(team))
    before = snapshot(team)
    with pytest.raises(UnsafeRemote, match="team repo 'core'"):
        api.set_remote(repo.folder, url, confirm_private=True)
    assert api.remote(repo.folder) is None
    # The other way round: the team's own spelling is refused when the alias is the remote.
    other = MemoryRepo.init(tmp_path / "other", clock=CLOCK)
    api.set_remote(other.folder, str(team), confirm_private=True)
    with pytest.raises(UnsafeRemote, match="own remote"):
        api.team_add(other.folder, "core", url)
    assert snapshot(team) == before


@pytest.mark.slow
def test_no_spelling_of_a_team_on_a_git_daemon_becomes_the_remote(
    tmp_path: Path, git_daemon: GitDaemon, git: Git
) -> None:
    team = make_bare(git_daemon.base / "team.git")
    publish(git, tmp_path / "teammate", team, "Deploys happen on Tuesdays")
    port = git_daemon.port
    repo = MemoryRepo.init(tmp_path / "mem", clock=CLOCK)
    api.team_add(repo.folder, "core", git_daemon.url("team.git"))
    for url in (
        f"git://localhost:{port}/team.git",
        f"git://LOCALHOST:{port}/team",
        f"git://127.0.0.1:{port}/./team.git/",
        f"git://[::1]:{port}/team.git",
    ):
        with pytest.raises(UnsafeRemote, match="team repo 'core'"):
            api.set_remote(repo.folder, url, confirm_private=True)
    assert api.remote(repo.folder) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ssh://host.example/srv/team.git", "host.example:/srv/team"),
        ("ssh://git@host.example/srv/team.git", "other@HOST.example:srv/team.git/"),
        ("ssh://host.example:22/srv/team", "git+ssh://host.example/srv/team.git"),
        ("git@github.com:acme/team-memory.git", "https://github.com/acme/team-memory"),
        ("https://github.com/acme/team-memory", "http://GitHub.com/acme/Team-Memory.git/"),
        ("ssh://localhost/srv/team.git", "/srv/team.git"),
    ],
)
def test_network_spellings_of_one_repository_are_the_same_remote(a: str, b: str) -> None:
    assert same_remote(a, b) and same_remote(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ssh://host.example/srv/team.git", "ssh://host.example/srv/mine.git"),
        ("ssh://host.example/srv/team.git", "ssh://other.example/srv/team.git"),
        ("https://github.com/acme/team-memory", "https://github.com/me/team-memory"),
        ("git://127.0.0.1:9418/team.git", "/team.git"),
    ],
)
def test_different_repositories_are_not_the_same_remote(a: str, b: str) -> None:
    assert not same_remote(a, b)


def test_two_local_repositories_side_by_side_are_two(tmp_path: Path) -> None:
    plain, dotted = make_bare(tmp_path / "memory"), make_bare(tmp_path / "memory.git")
    assert not same_remote(str(plain), str(dotted))
    assert same_remote(str(dotted), f"file://localhost{tmp_path}/./memory.git/")


@pytest.mark.slow
def test_a_remote_that_holds_a_team_history_is_never_merged_or_pushed(
    tmp_path: Path, git_daemon: GitDaemon, git: Git
) -> None:
    """A spelling no URL rule can see through (the team's folder served by a daemon):
    the fetched history, not the spelling, shows that the remote is the team repo."""
    repo = MemoryRepo.init(tmp_path / "mem", clock=CLOCK)
    repo.remember("My own fact")
    # The team repo started from this memory (someone seeded it), then went its own way.
    team = make_bare(git_daemon.base / "team.git")
    git(repo.root, "push", "-q", str(team), "main")
    publish(git, tmp_path / "teammate", team, "The team's own fact")
    api.team_add(repo.folder, "core", str(team))
    api.set_remote(repo.folder, git_daemon.url("team.git"), confirm_private=True)
    repo.remember("Another fact of mine")
    before_team, before_main = snapshot(team), repo.folder.store.main_id()
    with pytest.raises(UnsafeRemote, match="team repo 'core'"):
        api.sync(repo.folder)
    assert snapshot(team) == before_team
    assert repo.folder.store.main_id() == before_main
    assert "The team's own fact" not in (repo.root / "MEMORY.md").read_text()
    assert api.sync_status(repo.folder).last_error_kind == "UnsafeRemote"


def test_a_hand_edited_remote_naming_a_team_is_refused_before_any_transfer(
    tmp_path: Path, team: Path, git: Git
) -> None:
    repo = MemoryRepo.init(tmp_path / "mem", clock=CLOCK)
    api.team_add(repo.folder, "core", str(team))
    repo.folder.config.remote = RemoteSettings(url=f"file://localhost{team}/", confirmed=True)
    save_config(repo.folder.state_dir, repo.folder.config)
    before = snapshot(team)
    with pytest.raises(UnsafeRemote, match="team repo 'core'"):
        api.sync(repo.folder)
    assert snapshot(team) == before
