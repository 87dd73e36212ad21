"""The folder's batch writer: one commit, and the same bytes as one write at a time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.folder.bulk import write_entries
from memrepo.folder.repo import EntryWrite

Git = Callable[..., str]
CommitCount = Callable[..., int]


def entry(path: str, text: str, by: str = "import", **meta: str) -> EntryWrite:
    metadata = {"by": by, "origin": "import", **meta}
    return EntryWrite(path=path, text=text, metadata=metadata, by=by, origin="import")


BATCHES: dict[str, list[EntryWrite]] = {
    "new files and MEMORY.md": [
        entry("MEMORY.md", "Top level fact"),
        entry("imports/a.md", "First imported fact"),
        entry("imports/a.md", "Second imported fact"),
        entry("imports/b.md", "Another file"),
        entry("MEMORY.md", "Second top level fact"),
    ],
    "duplicates and subjects": [
        entry("topic.md", "Same fact"),
        entry("topic.md", "same   FACT"),
        entry("topic.md", "Editor is vim", subject="editor"),
        entry("topic.md", "Editor is helix", subject="editor"),
        entry("topic.md", "Editor is vim"),
        entry("topic.md", "Shell is zsh", subject="shell"),
    ],
    "existing entries": [
        entry("hand.md", "Written by hand"),
        entry("hand.md", "Theme is light", subject="theme"),
        entry("hand.md", "Font is mono", subject="font"),
        entry("crlf.md", "Line endings are kept"),
        entry("crlf.md", "Still kept"),
    ],
}
PRELUDE = {
    "hand.md": b"# Hand\n\nSome prose.\n- Written by hand\n- Theme is dark [subject: theme]\n"
    b"- Font is serif [subject: font; by: agent]",
    "crlf.md": b"# Windows\r\n\r\n- An old entry\r\n",
}


def prepared(root: Path, git: Git) -> MemoryRepo:
    repo = MemoryRepo.init(root)
    for path, data in PRELUDE.items():
        (root / path).write_bytes(data)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "hand-written files")
    return repo


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.parts
    }


@pytest.mark.parametrize("name", sorted(BATCHES))
def test_a_batch_gives_the_bytes_of_writing_one_at_a_time(
    tmp_path: Path, git: Git, commit_count: CommitCount, name: str
) -> None:
    writes = BATCHES[name]
    one = prepared(tmp_path / "one", git)
    singles = [one.folder.write_entry(w) for w in writes]
    many = prepared(tmp_path / "many", git)
    before = commit_count(many.root, "main")
    results, commit = write_entries(
        many.folder, writes, lambda n: f"Import {n}", by="import", origin="import"
    )
    assert tree(many.root) == tree(one.root)
    assert [(r.status, r.action, r.reason, r.ref) for r in results] == [
        (r.status, r.action, r.reason, r.ref) for r in singles
    ]
    assert commit_count(many.root, "main") == before + 1
    assert commit is not None and all(
        r.commit == commit for r in results if r.action in ("inserted", "superseded")
    )
    assert git(many.root, "status", "--porcelain") == ""


def test_a_user_line_outranks_an_import(tmp_path: Path, git: Git) -> None:
    repo = prepared(tmp_path / "mem", git)
    [result], commit = write_entries(
        repo.folder,
        [entry("hand.md", "Theme is solarized", subject="theme")],
        lambda n: "x",
        by="import",
        origin="import",
    )
    assert (result.status, result.reason, commit) == ("skipped", "outranked", None)


def test_nothing_new_makes_no_commit(memory_repo: MemoryRepo, git: Git) -> None:
    memory_repo.remember("Already known", file="t.md")
    before = git(memory_repo.root, "rev-parse", "main")
    results, commit = write_entries(
        memory_repo.folder,
        [entry("t.md", "already KNOWN")],
        lambda n: "x",
        by="import",
        origin="import",
    )
    assert commit is None and results[0].action == "reinforced"
    assert git(memory_repo.root, "rev-parse", "main") == before
