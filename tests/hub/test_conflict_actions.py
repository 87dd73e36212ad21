"""Review's sync conflicts over HTTP: "Keep main's" and "Keep this version" (issue #19).

The conflict branch is made the real way: two machines change one subject against a bare
remote and the second one's sync keeps the `by: user` value on main.
"""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.clock import FixedClock
from memrepo.sync import api

from .conftest import Serve

pytestmark = pytest.mark.slow

CLOCK = FixedClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
HELIX, VIM = "Editor is helix", "Editor is vim"


def conflicted(tmp_path: Path) -> tuple[Path, str]:
    """Machine b's root after a sync that left vim on a conflict branch, and the branch."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    with MemoryRepo.init(tmp_path / "a", clock=CLOCK) as a:
        api.set_remote(a.folder, str(remote), confirm_private=True)
        api.sync(a.folder)
        with MemoryRepo(api.clone(str(remote), tmp_path / "b", confirm_private=True)) as b:
            a.remember(HELIX, subject="editor", by="user")
            b.remember(VIM, subject="editor", by="agent")
            api.sync(a.folder)
            branch = api.sync(b.folder).conflict_branch
    assert branch is not None
    return tmp_path / "b", branch


def texts(root: Path) -> list[str]:
    with MemoryRepo.open(root) as repo:
        return [e.text for e in repo.entries()]


def test_review_lists_both_buttons_per_conflict(tmp_path: Path, serve: Serve) -> None:
    root, branch = conflicted(tmp_path)
    person = serve(root).login()
    page = person.get("/review").text
    assert f'name="name" value="{branch}"' in page
    assert "Keep main&#39;s" in page  # autoescaped apostrophe
    assert "Keep this version" in page
    assert 'action="/review/conflict/keep"' in page
    detail = person.get("/review/conflict", name=branch).text
    assert "Keep this version" in detail and f'name="name" value="{branch}"' in detail


def test_keep_main_deletes_the_branch(tmp_path: Path, serve: Serve) -> None:
    root, branch = conflicted(tmp_path)
    person = serve(root).login()
    shown = person.follow(
        person.post("/review/conflict/keep", {"name": branch, "side": "main", "back": "/review"})
    )
    assert f"deleted {branch}" in shown.text
    assert f'value="{branch}"' not in shown.text
    assert HELIX in texts(root) and VIM not in texts(root)
    again = person.post("/review/conflict/keep", {"name": branch, "side": "main"})
    assert again.status_code == 404


def test_keep_this_version_puts_it_on_main(tmp_path: Path, serve: Serve) -> None:
    root, branch = conflicted(tmp_path)
    person = serve(root).login()
    shown = person.follow(
        person.post("/review/conflict/keep", {"name": branch, "side": "theirs", "back": "/review"})
    )
    assert f"Kept the version of {branch} on main" in shown.text
    assert VIM in texts(root) and HELIX not in texts(root)
    with MemoryRepo.open(root) as repo:
        assert repo.conflicts() == []


def test_bad_forms_are_refused_and_nothing_changes(tmp_path: Path, serve: Serve) -> None:
    root, branch = conflicted(tmp_path)
    person = serve(root).login()
    assert person.post("/review/conflict/keep", {"name": branch, "side": "both"}).status_code == 400
    assert (
        person.post("/review/conflict/keep", {"name": "dream/x", "side": "main"}).status_code == 400
    )
    assert person.post("/review/conflict/keep", {"name": branch}).status_code == 400
    forged = person.post("/review/conflict/keep", {"name": branch, "side": "main"}, csrf=False)
    assert forged.status_code == 403
    with MemoryRepo.open(root) as repo:
        assert [c.name for c in repo.conflicts()] == [branch]
