"""Secrets and sync (issue #15): a secret the remote brings is reported, never accepted
silently; a secret is never pushed to a remote that did not already have it.

The rule for pushing: the commits a sync would send (main minus the remote's main) may
not add a secret, a value found in a file that none of the commit's parents held in
that file, unless the remote's main already holds it somewhere. So a merge carrying a
secret that came from the remote goes back (nothing new reaches the remote), while a
commit made here with plain git that adds one is refused before any object is sent.

The other machine is a plain `git` clone where a person commits by hand, as people do.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import make_bare, snapshot

pytestmark = pytest.mark.slow

# Built at runtime so the test file itself holds no credential-shaped string.
TOKEN = "ghp_" + "1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"
CONFIRM = "--i-own-this-private-repo"
Run = Callable[..., tuple[int, str, str]]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def _objects_hold(bare: Path, secret: str) -> bool:
    out = subprocess.run(
        ["git", "-C", str(bare), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout
    return secret.encode() in out


def _add_by_hand(clone: Path, line: str, message: str = "by hand") -> None:
    memory_md = clone / "MEMORY.md"
    memory_md.write_text(memory_md.read_text().replace("## Index", f"{line}\n\n## Index"))
    _git(clone, "commit", "-qam", message)


@pytest.fixture
def setup(run: Run, tmp_path: Path) -> tuple[Path, Path, Path]:
    """(this machine's memory, the remote, another machine's plain git clone)."""
    mine, bare, other = tmp_path / "mine", make_bare(tmp_path / "remote.git"), tmp_path / "other"
    assert run("init", str(mine))[0] == 0
    assert run("--repo", str(mine), "remote", "set", str(bare), CONFIRM)[0] == 0
    assert run("--repo", str(mine), "remember", "Deploys go through staging")[0] == 0
    assert run("--repo", str(mine), "sync")[0] == 0
    subprocess.run(["git", "clone", "-q", str(bare), str(other)], check=True)
    return mine, bare, other


def _line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("local_write", [False, True], ids=["fast_forward", "merged"])
def test_a_secret_from_the_remote_is_reported_by_sync_and_lint(
    run: Run, setup: tuple[Path, Path, Path], local_write: bool
) -> None:
    mine, bare, other = setup
    _add_by_hand(other, f"- CI pulls with {TOKEN}")
    _git(other, "push", "-q", "origin", "main")
    if local_write:
        assert run("--repo", str(mine), "remember", "Builds run nightly")[0] == 0

    code, out, err = run("--repo", str(mine), "sync", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["integration"] == ("merged" if local_write else "fast_forward")
    line = _line_of(mine / "MEMORY.md", "CI pulls with")
    assert len(report["warnings"]) == 1
    assert report["warnings"][0].startswith(f"MEMORY.md:{line}: a secret (github_token) came from")
    assert TOKEN not in out + err

    code, out, err = run("--repo", str(mine), "lint")
    assert code == 1
    assert f"MEMORY.md:{line}" in out and "github_token" in out and TOKEN not in out

    # Pushing the merge back sends the remote nothing it did not have.
    assert report["pushed"] is local_write
    assert _git(bare, "rev-parse", "main").strip() == _git(mine, "rev-parse", "main").strip()


def test_the_human_sync_output_names_the_place_not_the_value(
    run: Run, setup: tuple[Path, Path, Path]
) -> None:
    mine, _bare, other = setup
    _add_by_hand(other, f"- CI pulls with {TOKEN}")
    _git(other, "push", "-q", "origin", "main")
    code, out, err = run("--repo", str(mine), "sync")
    assert code == 0, err
    assert "warning: MEMORY.md:" in out and "github_token" in out and TOKEN not in out


def test_a_second_sync_after_receiving_a_secret_still_pushes(
    run: Run, setup: tuple[Path, Path, Path]
) -> None:
    """A write next to the received line puts the secret in a new blob; the parent blob
    held it, so the commit adds nothing the remote lacks."""
    mine, _bare, other = setup
    _add_by_hand(other, f"- CI pulls with {TOKEN}")
    _git(other, "push", "-q", "origin", "main")
    assert run("--repo", str(mine), "sync")[0] == 0
    assert run("--repo", str(mine), "remember", "Releases go out on Tuesdays")[0] == 0
    code, out, err = run("--repo", str(mine), "sync", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["pushed"] is True and report["warnings"] == []


def test_a_local_commit_adding_a_secret_is_never_pushed(
    run: Run, setup: tuple[Path, Path, Path]
) -> None:
    mine, bare, _other = setup
    _add_by_hand(mine, f"- CI pulls with {TOKEN}")  # plain git, no hook installed
    before = snapshot(bare)
    code, out, err = run("--repo", str(mine), "sync")
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("memrepo: "), err
    line = _line_of(mine / "MEMORY.md", "CI pulls with")
    assert f"MEMORY.md:{line} (github_token)" in err and TOKEN not in out + err
    assert snapshot(bare) == before
    assert not _objects_hold(bare, TOKEN)


def test_removing_the_line_does_not_unblock_a_commit_that_holds_it(
    run: Run, setup: tuple[Path, Path, Path]
) -> None:
    """History is pushed, not just the tip: the earlier commit still carries the token."""
    mine, bare, _other = setup
    _add_by_hand(mine, f"- CI pulls with {TOKEN}")
    memory_md = mine / "MEMORY.md"
    memory_md.write_text("".join(line for line in memory_md.read_text().splitlines(True)
                                 if "CI pulls" not in line))  # fmt: skip
    _git(mine, "commit", "-qam", "remove it again")
    code, _out, err = run("--repo", str(mine), "sync")
    assert code == 1 and "secret" in err and TOKEN not in err
    assert not _objects_hold(bare, TOKEN)


def test_a_first_push_of_a_history_with_a_secret_is_refused(run: Run, tmp_path: Path) -> None:
    mine, bare = tmp_path / "mine", make_bare(tmp_path / "remote.git")
    assert run("init", str(mine))[0] == 0
    _add_by_hand(mine, f"- CI pulls with {TOKEN}")
    assert run("--repo", str(mine), "remote", "set", str(bare), CONFIRM)[0] == 0
    code, _out, err = run("--repo", str(mine), "sync")
    assert code == 1 and "github_token" in err and TOKEN not in err
    assert _git(bare, "for-each-ref").strip() == ""
    assert not _objects_hold(bare, TOKEN)
