"""An editor saving a memory file while memrepo writes it never loses the save.

memrepo commits a person's pending edits first, then builds its change on that commit
and swaps each file in only while it still holds the committed version. A save landing
after the scan (the window these tests aim at) is found at the swap: nothing of the
write is applied, the save is committed as the person's, and the write is made again
on top of it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pygit2
import pytest

from memrepo import MemoryRepo
from memrepo.errors import WorktreeChanged
from memrepo.folder.repo import MemoryFolder

Git = Callable[..., str]


class SaveOnce:
    """A write hook that acts as the person's editor the first time a step is reached."""

    def __init__(self, step: str, save: Callable[[], object]) -> None:
        self.step = step
        self.save = save
        self.saved = 0

    def reached(self, step: str) -> None:
        if step == self.step and not self.saved:
            self.saved += 1
            self.save()


def add_line(path: Path, line: str, *, atomic: bool) -> None:
    """What an editor's save does: the whole file, with one more line above the Index."""
    data = path.read_text().replace("## Index", f"{line}\n\n## Index", 1)
    if atomic:
        tmp = path.with_name(".#" + path.name)
        tmp.write_text(data)
        os.replace(tmp, path)
    else:
        path.write_text(data)


@pytest.mark.parametrize("atomic", [True, False], ids=["rename-save", "in-place-save"])
def test_a_save_between_the_scan_and_the_swap_is_committed_first(
    memory_repo: MemoryRepo, git: Git, atomic: bool
) -> None:
    root = memory_repo.root
    memory = root / "MEMORY.md"
    hook = SaveOnce("journal", lambda: add_line(memory, "- saved mid-write", atomic=atomic))
    repo = MemoryRepo(MemoryFolder.open(root, hooks=hook))
    result = repo.remember("agent fact during the save")
    assert hook.saved == 1
    assert [e.text for e in repo.entries()] == ["saved mid-write", "agent fact during the save"]
    log = repo.log(limit=3)
    assert log[0].id == result.commit and log[0].summary.startswith("Remember")
    assert log[1].origin == "edit" and log[1].paths == ("MEMORY.md",)
    assert git(root, "status", "--porcelain") == ""


def test_a_save_to_a_file_being_removed_is_committed_before_the_removal(
    memory_repo: MemoryRepo, git: Git
) -> None:
    root = memory_repo.root
    memory_repo.remember("topic fact", file="topic.md")
    topic = root / "topic.md"
    hook = SaveOnce("journal", lambda: topic.write_text("# Topic\n\n- kept by the person\n"))
    folder = MemoryFolder.open(root, hooks=hook)
    folder.remove_file("topic.md", by="user", reason="test")
    assert hook.saved == 1
    log = folder.log(limit=2)
    assert log[0].summary.startswith("Remove") and log[1].origin == "edit"
    assert git(root, "show", f"{log[1].id}:topic.md") == "# Topic\n\n- kept by the person\n"
    assert git(root, "status", "--porcelain") == ""


EDITOR = """
import os, random, sys, time
import pygit2
root, saves = sys.argv[1], int(sys.argv[2])
path = os.path.join(root, "MEMORY.md")
repo = pygit2.Repository(root)
lost = 0
for n in range(saves):
    line = f"- editor save {n}"
    data = open(path, encoding="utf-8").read().replace("## Index", line + "\\n\\n## Index", 1)
    tmp = os.path.join(root, ".MEMORY.md.swp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(data)
    os.replace(tmp, path)
    deadline = time.monotonic() + 20
    gone_since = None
    while time.monotonic() < deadline:
        head = repo.revparse_single("HEAD")
        if line.encode() in repo[head.tree["MEMORY.md"].id].data:
            break  # committed
        if line in open(path, encoding="utf-8").read():
            gone_since = None
        elif gone_since is None:
            gone_since = time.monotonic()
        elif time.monotonic() - gone_since > 0.5:
            lost += 1  # replaced on disk, and never committed
            break
        time.sleep(0.002)
    time.sleep(random.uniform(0.003, 0.03))  # an editor's saves do not follow memrepo's
print(lost, flush=True)
open(os.path.join(root, ".git", "editor-done"), "w").close()
"""

WRITER = """
import os, sys
from memrepo import MemoryRepo
from memrepo.errors import WorktreeChanged
repo = MemoryRepo.open(sys.argv[1])
n = 0
while not os.path.exists(os.path.join(sys.argv[1], ".git", "editor-done")):
    repo.remember(f"writer fact number {n}")
    n += 1
print(n, flush=True)
"""


@pytest.mark.slow
def test_an_editor_saving_in_a_loop_while_memrepo_writes_loses_nothing(
    memory_repo: MemoryRepo, git: Git
) -> None:
    root = str(memory_repo.root)
    saves = 150
    editor = subprocess.Popen(
        [sys.executable, "-c", EDITOR, root, str(saves)], stdout=subprocess.PIPE, text=True
    )
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, root], stdout=subprocess.PIPE, text=True
    )
    lost, _ = editor.communicate(timeout=300)
    written, _ = writer.communicate(timeout=300)
    assert writer.returncode == 0
    assert int(lost.strip()) == 0
    assert int(written.strip()) >= saves // 2  # the writes really ran alongside the saves
    repo = pygit2.Repository(root)
    seen: set[int] = set()
    for commit in repo.walk(repo.head.target):
        if "MEMORY.md" in commit.tree:
            blob = repo[commit.tree["MEMORY.md"].id]
            assert isinstance(blob, pygit2.Blob)
            seen.update(n for n in range(saves) if f"- editor save {n}\n".encode() in blob.data)
    assert sorted(set(range(saves)) - seen) == []
    assert git(root, "status", "--porcelain") == ""
    git(root, "fsck")


@pytest.mark.parametrize("cut", [0, 20], ids=["truncated", "half-written"])
@pytest.mark.slow
def test_a_save_held_open_across_a_write_is_never_replaced(
    memory_repo: MemoryRepo, git: Git, cut: int
) -> None:
    """An in-place save still being written (a big file, a slow disk): memrepo neither
    commits the half file as the person's edit nor swaps a file in under the open save."""
    memory = memory_repo.root / "MEMORY.md"
    new = memory.read_text().replace("## Index", "- saved slowly by the editor\n\n## Index")
    with open(memory, "w", encoding="utf-8") as handle:
        handle.write(new[:cut])
        handle.flush()
        with pytest.raises(WorktreeChanged, match="open for writing"):
            memory_repo.remember("written while the editor was saving")
        handle.write(new[cut:])
    assert memory.read_text() == new
    assert memory_repo.remember("written after the editor saved").written
    assert [e.text for e in memory_repo.entries()] == [
        "saved slowly by the editor",
        "written after the editor saved",
    ]
    assert [c.origin for c in memory_repo.log()] == ["remember", "edit", "init"]
    assert git(memory_repo.root, "status", "--porcelain") == ""
