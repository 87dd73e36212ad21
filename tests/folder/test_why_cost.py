"""`why` costs what the entry's history does, not what the repository holds (issue #28,
"`why` proportional"): the walk reads only the files the entry lived in, whether the
repository has 40 files or 400 around it, and still follows a move.

The repositories are real: files written to disk and committed with the git CLI.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pygit2
import pytest

from memrepo import MemoryRepo
from memrepo.folder.history import entry_history

FOLLOWED = "- Deploys happen on Tuesdays [subject: deploy-window; by: user]"


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def _commit(root: Path, message: str) -> None:
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", message)


def _wide_repo(root: Path, files: int) -> None:
    """`files` topic files of 5 entries; the followed entry added to one of them by the
    corpus commit, then changed by the next."""
    MemoryRepo.init(root)
    for f in range(files):
        path = root / f"topics/t{f % 7}/file{f:04d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        facts = [f"- Fact {f}-{e} about part {e} [by: agent]" for e in range(5)]
        extra = [FOLLOWED] if f == 3 else []
        path.write_text(f"# Topic {f}\n\n" + "\n".join(facts + extra) + "\n")
    _commit(root, "corpus")
    path = root / "topics/t3/file0003.md"
    path.write_text(path.read_text().replace("Tuesdays", "Wednesdays"))
    _commit(root, "deploy window changed")


def _why(root: Path, path: str) -> tuple[list[str], list[str]]:
    """The events' actions and the files the walk read, for the followed entry."""
    repo = pygit2.Repository(str(root))
    reads: list[str] = []
    head = repo.head.peel(pygit2.Commit)
    events = entry_history(repo, head, "deploy-window", path, reads=reads)
    return [e.action for e in events], reads


@pytest.mark.slow
def test_the_walk_reads_only_the_entrys_file_at_40_and_400_files(tmp_path: Path) -> None:
    counts = []
    for files in (40, 400):
        root = tmp_path / f"mem{files}"
        _wide_repo(root, files)
        actions, reads = _why(root, "topics/t3/file0003.md")
        assert actions == ["added", "changed"]
        assert set(reads) == {"topics/t3/file0003.md"}
        counts.append(len(reads))
    assert counts[0] == counts[1]


def test_a_move_is_followed_reading_only_the_files_the_commits_changed(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    _wide_repo(root, 60)
    old, new = root / "topics/t3/file0003.md", root / "topics/t5/file0005.md"
    line = next(x for x in old.read_text().splitlines() if "deploy-window" in x)
    old.write_text(old.read_text().replace(line + "\n", ""))
    new.write_text(new.read_text() + line + "\n")
    _commit(root, "moved")
    actions, reads = _why(root, "topics/t5/file0005.md")
    assert actions == ["added", "changed", "moved"]
    assert set(reads) == {"topics/t3/file0003.md", "topics/t5/file0005.md"}
    # The same answer through the public API, from the new ref and from the old one.
    mem = MemoryRepo.open(root)
    for ref in (
        "folder:topics/t5/file0005.md#deploy-window",
        "folder:topics/t3/file0003.md#deploy-window",
    ):
        assert [e.action for e in mem.why(ref).events] == ["added", "changed", "moved"]


def test_an_entry_written_again_elsewhere_is_followed_from_its_rewriting(tmp_path: Path) -> None:
    """The documented limit of following the ref's file (README, `why REF`): a forget in
    one commit and a remember in another file later are two lives; the ref's file shows
    the second, and the ref to the first file, where it is gone, still walks everything."""
    root = tmp_path / "mem"
    _wide_repo(root, 20)
    old, new = root / "topics/t3/file0003.md", root / "topics/t5/file0005.md"
    line = next(x for x in old.read_text().splitlines() if "deploy-window" in x)
    old.write_text(old.read_text().replace(line + "\n", ""))
    _commit(root, "forgot it")
    new.write_text(new.read_text() + line + "\n")
    _commit(root, "remembered it again")
    actions, reads = _why(root, "topics/t5/file0005.md")
    assert actions == ["added"]
    assert set(reads) == {"topics/t5/file0005.md"}
    actions, _ = _why(root, "topics/t3/file0003.md")
    assert actions == ["added", "changed", "removed", "added"]
