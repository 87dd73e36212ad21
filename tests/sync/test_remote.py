"""Setting the remote: confirmation, URLs carrying credentials, team repos as remotes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import (
    InvalidArgument,
    RemoteNotConfirmed,
    RemoteUnreachable,
    UnsafeRemote,
)
from memrepo.sync import api
from memrepo.sync.remote import check_url, same_remote
from memrepo.sync.status import load_state

from .conftest import make_bare

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def saved_config(repo: MemoryRepo) -> dict[str, object]:
    path = repo.folder.state_dir / "config.json"
    if not path.exists():
        return {}
    data: dict[str, object] = json.loads(path.read_text())
    return data


def test_set_remote_needs_the_confirmation(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    url = str(make_bare(tmp_path / "remote.git"))
    with pytest.raises(RemoteNotConfirmed, match="i-own-this-private-repo"):
        api.set_remote(memory_repo.folder, url)
    assert api.remote(memory_repo.folder) is None
    assert "remote" not in saved_config(memory_repo)
    info = api.set_remote(memory_repo.folder, url, confirm_private=True)
    assert info.url == url and info.confirmed
    reopened = MemoryRepo.open(memory_repo.root)
    assert api.remote(reopened.folder) == info


@pytest.mark.parametrize(
    "url",
    [
        "https://alice:hunter2@example.com/alice/memory.git",
        f"https://{TOKEN}@github.com/alice/memory.git",
        f"https://example.com/alice/memory.git?access_token={TOKEN}",
        "ssh://git:s3cret@example.com/alice/memory.git",
        f"{TOKEN}@example.com:alice/memory.git",
    ],
)
def test_urls_with_credentials_are_refused_and_never_stored(
    memory_repo: MemoryRepo, url: str
) -> None:
    with pytest.raises(UnsafeRemote, match="carries credentials") as caught:
        api.set_remote(memory_repo.folder, url, confirm_private=True)
    for secret in ("hunter2", "s3cret", TOKEN):
        assert secret not in str(caught.value)
    assert "credential helper" in str(caught.value)  # the way forward
    assert "remote" not in saved_config(memory_repo)


@pytest.mark.parametrize(
    "url", ["ext::sh -c touch% /tmp/pwned", "-uhelp", "", "ftp://example.com/x.git"]
)
def test_unusable_urls_are_refused(memory_repo: MemoryRepo, url: str) -> None:
    with pytest.raises(UnsafeRemote):
        api.set_remote(memory_repo.folder, url, confirm_private=True)


def test_plain_urls_are_accepted() -> None:
    for url in (
        "git@github.com:alice/memory.git",
        "ssh://git@example.com:2222/alice/memory.git",
        "https://alice@example.com/alice/memory.git",
        "https://example.com/alice/memory.git",
        "git://127.0.0.1:9418/memory.git",
        "/srv/git/memory.git",
    ):
        assert check_url(url) == url


def test_same_remote_ignores_spelling(tmp_path: Path) -> None:
    bare = make_bare(tmp_path / "team.git")
    assert same_remote(str(bare), f"file://{bare}/")
    assert same_remote("https://example.com/a/b.git", "https://example.com/a/b")
    assert not same_remote("https://example.com/a/b.git", "https://example.com/a/c.git")


def test_a_team_repo_cannot_be_the_remote(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    team = make_bare(tmp_path / "team.git")
    api.team_add(memory_repo.folder, "core", str(team))
    with pytest.raises(UnsafeRemote, match="team repo 'core'"):
        api.set_remote(memory_repo.folder, f"{team}/", confirm_private=True)
    assert api.remote(memory_repo.folder) is None


def test_the_remote_cannot_become_a_team(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    own = make_bare(tmp_path / "own.git")
    api.set_remote(memory_repo.folder, str(own), confirm_private=True)
    with pytest.raises(UnsafeRemote, match="own remote"):
        api.team_add(memory_repo.folder, "core", str(own))
    assert api.team_list(memory_repo.folder) == []


def test_ssh_key_must_exist_outside_the_repo(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    url = str(make_bare(tmp_path / "remote.git"))
    with pytest.raises(InvalidArgument, match="no such file"):
        api.set_remote(memory_repo.folder, url, confirm_private=True, ssh_key=str(tmp_path / "k"))
    inside = memory_repo.root / "id_ed25519"
    inside.write_text("key")
    with pytest.raises(InvalidArgument, match="inside the memory repo"):
        api.set_remote(memory_repo.folder, url, confirm_private=True, ssh_key=str(inside))
    outside = tmp_path / "id_ed25519"
    outside.write_text("PRIVATE-KEY-MATERIAL")
    info = api.set_remote(memory_repo.folder, url, confirm_private=True, ssh_key=str(outside))
    assert info.ssh_key == str(outside.resolve())
    assert saved_config(memory_repo)["remote"] == {
        "url": url,
        "confirmed": True,
        "ssh_key": str(outside.resolve()),
    }
    assert "PRIVATE-KEY-MATERIAL" not in json.dumps(saved_config(memory_repo))


def test_remove_remote(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    url = str(make_bare(tmp_path / "remote.git"))
    assert api.remove_remote(memory_repo.folder) is None
    api.set_remote(memory_repo.folder, url, confirm_private=True)
    removed = api.remove_remote(memory_repo.folder)
    assert removed is not None and removed.url == url
    with pytest.raises(RemoteNotConfirmed, match="no remote is set"):
        api.sync(memory_repo.folder)
    assert load_state(memory_repo.folder.state_dir).last_error_kind == "RemoteNotConfirmed"


def test_a_hand_edited_unconfirmed_remote_is_not_used(memory_repo: MemoryRepo) -> None:
    config = saved_config(memory_repo)
    config["remote"] = {"url": "/srv/git/memory.git", "confirmed": False}
    (memory_repo.folder.state_dir / "config.json").write_text(json.dumps(config))
    reopened = MemoryRepo.open(memory_repo.root)
    with pytest.raises(RemoteNotConfirmed, match="never confirmed"):
        api.sync(reopened.folder)


def test_missing_remote_is_unreachable_and_recorded(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    api.set_remote(memory_repo.folder, str(tmp_path / "gone.git"), confirm_private=True)
    with pytest.raises(RemoteUnreachable, match="local memory is unchanged"):
        api.sync(memory_repo.folder)
    status = api.sync_status(memory_repo.folder)
    assert status.last_error_kind == "RemoteUnreachable"
    assert status.last_success is None
    # Everything local keeps working offline.
    assert memory_repo.remember("Offline fact still lands").written


def test_plain_git_pull_and_push_reach_the_confirmed_remote(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    url = str(make_bare(tmp_path / "remote.git"))
    info = api.set_remote(memory_repo.folder, url, confirm_private=True)
    assert info.git_remote == "origin"
    api.sync(memory_repo.folder)  # git learns the remote's main, and main's upstream on it
    memory_repo.remember("Pushed with plain git", by="user")
    git = ["git", "-C", str(memory_repo.root)]
    subprocess.run([*git, "push", "-q"], check=True, capture_output=True)
    assert subprocess.run([*git, "pull", "--no-rebase", "-q"], capture_output=True).returncode == 0
    upstream = subprocess.run(
        [*git, "rev-parse", "--abbrev-ref", "@{upstream}"], capture_output=True, text=True
    )
    assert upstream.stdout.strip() == "origin/main"


def test_an_origin_the_user_pointed_elsewhere_is_left_alone(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    theirs = str(make_bare(tmp_path / "theirs.git"))
    subprocess.run(
        ["git", "-C", str(memory_repo.root), "remote", "add", "origin", theirs], check=True
    )
    info = api.set_remote(
        memory_repo.folder, str(make_bare(tmp_path / "mem.git")), confirm_private=True
    )
    assert info.git_remote == "memrepo"  # memrepo's remote under a name of its own
    assert api.remote(memory_repo.folder) == info
    origin = subprocess.run(
        ["git", "-C", str(memory_repo.root), "remote", "get-url", "origin"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert origin.stdout.strip() == theirs
