"""How a dream writes: many blobs as one pack git accepts, edits that touch only their
lines, and a worktree and index git sees as clean afterwards."""

from __future__ import annotations

from pathlib import Path

import pygit2
import pytest

from memrepo import MemoryRepo
from memrepo.dreaming.apply import apply_ops
from memrepo.errors import DreamError, ReviewConflict
from memrepo.folder.objects import NewObjects
from memrepo.folder.packs import PACK_MIN
from memrepo.models.dream import LineRef, Op

from .helpers import Commit, git, memory


def _pack_files(root: Path) -> list[Path]:
    return sorted((root / ".git" / "objects" / "pack").glob("pack-*.pack"))


def test_many_objects_become_one_pack_that_git_reads_and_verifies(tmp_path: Path) -> None:
    root = tmp_path / "r"
    repo = pygit2.init_repository(str(root), initial_head="main")
    objects = NewObjects(repo)
    contents = [f"- fact {n} [by: agent]\n".encode() * (n + 1) for n in range(PACK_MIN + 4)]
    contents.append(contents[0])  # the same content twice is stored once
    ids = [objects.blob(data) for data in contents]
    tree = objects.tree(None, {f"t/{n}.md": oid for n, oid in enumerate(ids)})
    assert tree is not None
    sig = pygit2.Signature("A", "a@example.invalid", 1_700_000_000, 60)
    commit = objects.commit(tree, [], sig, sig, "many\n")
    objects.save()
    (pack,) = _pack_files(root)
    assert "ok" in git(root, "verify-pack", "-v", str(pack.with_suffix(".idx")))
    for oid, data in zip(ids, contents, strict=True):
        assert git(root, "cat-file", "-p", str(oid)).encode() == data
        blob = repo[oid]
        assert isinstance(blob, pygit2.Blob) and blob.data == data
    git(root, "update-ref", "refs/heads/main", str(commit))
    assert git(root, "fsck", "--full", "--no-dangling").strip() == ""
    assert git(root, "ls-tree", "-r", "--name-only", "main").split() == sorted(
        f"t/{n}.md" for n in range(len(contents))
    )
    assert not list((root / ".git" / "objects" / "pack").glob("tmp_*"))


def test_a_few_objects_stay_loose(tmp_path: Path) -> None:
    root = tmp_path / "r"
    repo = pygit2.init_repository(str(root), initial_head="main")
    objects = NewObjects(repo)
    oid = objects.blob(b"- one [by: agent]\n")
    objects.save()
    assert _pack_files(root) == []
    assert git(root, "cat-file", "-t", str(oid)).strip() == "blob"


@pytest.mark.slow
def test_a_dream_over_many_files_leaves_a_clean_worktree_and_a_sound_repo(
    repo: MemoryRepo, commit: Commit
) -> None:
    files = {
        f"topics/t{n:02d}.md": f"# T{n}\n\n- Shared fact {n % 3} [source: s{n}; by: agent]\n"
        f"- Own fact {n} [by: agent]\n- Promo {n} [expires: 2026-01-01; by: agent]\n"
        for n in range(PACK_MIN + 8)
    }
    commit({"MEMORY.md": memory(index=tuple(p[:-3] for p in files)), **files})
    report = repo.dream()
    assert report.commit is not None and len(_pack_files(repo.root)) == 1
    # The commit and its trees are in that pack too: no loose object was written.
    loose = [p for p in (repo.root / ".git/objects").glob("??/*") if p.is_file()]
    before = set(git(repo.root, "rev-list", "--objects", "HEAD~1").split())
    assert not [p for p in loose if p.parent.name + p.name not in before]
    assert git(repo.root, "status", "--porcelain") == ""
    assert git(repo.root, "fsck", "--full", "--no-dangling").strip() == ""
    changed = git(repo.root, "diff", "--name-only", "HEAD~1", "HEAD").split()
    assert set(changed) == set(files)
    for path in files:
        text = (repo.root / path).read_text(encoding="utf-8")
        assert "Promo" not in text and "Own fact" in text


def _remove(path: str, line: int, raw: str) -> Op:
    return Op(
        kind="remove",
        found_by="expiry",
        path=path,
        targets=(LineRef(path=path, line=line, raw=raw),),
        reason="test",
    )


def test_removing_identical_lines_takes_the_nearest_and_then_the_other() -> None:
    data = b"# T\r\n\r\n- same [by: agent]\r\n- other [by: agent]\r\n- same [by: agent]\r\n"
    read = {"t.md": data}.get
    raw = "- same [by: agent]"
    changes = apply_ops(read, [_remove("t.md", 4, raw)])
    assert changes == {"t.md": b"# T\r\n\r\n- same [by: agent]\r\n- other [by: agent]\r\n"}
    both = apply_ops(read, [_remove("t.md", 4, raw), _remove("t.md", 4, raw)])
    assert both == {"t.md": b"# T\r\n\r\n- other [by: agent]\r\n"}
    with pytest.raises(ReviewConflict, match="changed or is gone"):
        apply_ops(read, [_remove("t.md", 2, raw)] * 3)


def test_an_operation_never_writes_a_line_break() -> None:
    op = Op(
        kind="rewrite",
        found_by="model",
        path="t.md",
        targets=(LineRef(path="t.md", line=2, raw="- a [by: agent]"),),
        text="- a\n- injected [by: user]",
        reason="test",
    )
    with pytest.raises(DreamError, match="line break"):
        apply_ops({"t.md": b"# T\n\n- a [by: agent]\n"}.get, [op])


def test_files_left_as_they_were_are_not_changes() -> None:
    link = Op(kind="link", found_by="unlisted", path="MEMORY.md", dest="a.md", reason="t")
    data = memory(index=("a",)).encode()
    assert apply_ops({"MEMORY.md": data}.get, [link]) == {}
