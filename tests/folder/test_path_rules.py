"""Every writer checks every path fully before its journal: nothing is half-written, and
the next command works. Also the last line of defence for file contents: memrepo never
writes a markdown file that is not UTF-8 text without NUL bytes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import InvalidArgument, MemoryRepo, PathOutsideRoot
from memrepo.folder.paths import check_path
from memrepo.folder.repo import EntryWrite
from memrepo.folder.swarm_writes import SwarmChange, commit_swarm_change
from memrepo.folder.transaction import Change

Git = Callable[..., str]

BAD_PATHS = [
    "n" * 253 + ".md",  # 256 bytes: one more than a file system takes
    "x" * 300 + ".md",
    "/".join(["d"] * 120) + "/deep.md",
    ".git/config.md",
    "a/.GIT/b.md",
    "a/.git./b.md",
    "GIT~1/x.md",
    "a/git~1/x.md",
    "bad\nname.md",
    "tab\there.md",
    "del\x7fete.md",
    "nul\x00.md",
    "a]]b.md",
    "[[a.md",
    "trailing./x.md",
    "space /x.md",
    "ü" * 130 + ".md",  # 260 bytes of UTF-8 in 130 characters
]


def test_check_path_accepts_ordinary_paths() -> None:
    for good in (
        "MEMORY.md",
        "workspaces/acme.md",
        "a/b/c.md",
        "notes/Ünïcode ok.md",
        "n" * 252 + ".md",
    ):
        check_path(good)


@pytest.mark.parametrize("bad", BAD_PATHS)
def test_check_path_refuses(bad: str) -> None:
    with pytest.raises(PathOutsideRoot):
        check_path(bad)


@pytest.mark.parametrize("bad", BAD_PATHS)
def test_remember_refuses_before_any_journal(memory_repo: MemoryRepo, git: Git, bad: str) -> None:
    with pytest.raises(PathOutsideRoot):
        memory_repo.remember("A fact for a bad path", file=bad)
    assert not (memory_repo.folder.state_dir / "journal.json").exists()
    assert memory_repo.remember("the next write works").written
    assert git(memory_repo.root, "status", "--porcelain") == ""


def test_every_writer_goes_through_the_same_rules(memory_repo: MemoryRepo) -> None:
    folder = memory_repo.folder
    deep = "/".join(["d"] * 40) + "/x.md"
    with pytest.raises(PathOutsideRoot):
        folder.transaction.run(lambda parent: Change({deep: b"# x\n"}, "Remember: x\n"))
    with pytest.raises(PathOutsideRoot):
        folder.write_entry(
            EntryWrite(
                path="a/.Git/x.md",
                text="planted",
                metadata={"by": "agent"},
                by="agent",
                origin="remember",
            )
        )
    with pytest.raises(PathOutsideRoot):
        commit_swarm_change(
            folder, lambda read: SwarmChange({"swarms/s/" + "y" * 300 + ".md": b"x"}, "s")
        )
    assert not (folder.state_dir / "journal.json").exists()
    assert memory_repo.log()[0].origin == "init"


def test_the_whole_path_stays_well_under_path_max(tmp_path: Path) -> None:
    root = tmp_path / ("r" * 200) / ("s" * 200)
    repo = MemoryRepo.init(root)
    long_path = "/".join(["p" * 200] * 19) + "/x.md"  # 19 x 201 bytes: 3.8 kB below the root
    with pytest.raises(PathOutsideRoot, match="long"):
        repo.remember("A fact", file=long_path)
    assert repo.remember("fine").written


@pytest.mark.parametrize("text", ["nul \x00 in the middle", "\x00"])
def test_a_markdown_file_never_gets_a_nul_byte(
    memory_repo: MemoryRepo, git: Git, text: str
) -> None:
    """A NUL makes git treat the file as binary: no diff, no merge driver, lost entries."""
    folder = memory_repo.folder
    write = EntryWrite(
        path="MEMORY.md",
        text=text + " fact",
        metadata={"by": "agent"},
        by="agent",
        origin="remember",
    )
    with pytest.raises(InvalidArgument, match=r"MEMORY\.md"):
        folder.write_entry(write)
    assert b"\x00" not in (memory_repo.root / "MEMORY.md").read_bytes()
    assert memory_repo.log()[0].origin == "init"
    assert git(memory_repo.root, "status", "--porcelain") == ""


def test_a_markdown_file_is_never_written_as_invalid_utf8(memory_repo: MemoryRepo) -> None:
    with pytest.raises(InvalidArgument, match="UTF-8"):
        memory_repo.folder.transaction.run(
            lambda parent: Change({"x.md": b"caf\xe9\n"}, "Remember: x\n")
        )
    assert not (memory_repo.root / "x.md").exists()
