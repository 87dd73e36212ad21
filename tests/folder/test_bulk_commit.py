"""Commits of many files at once (a dream's): index by blob id, then a stat refresh.

Checked with the real `git` CLI: the index must match the commit, carry fresh stat data
(`git diff-files` does not refresh, so stale stat data would list files), and still
notice a person's edit made right after the write.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygit2

from memrepo import MemoryRepo
from memrepo.folder import branches, bulkwrite
from memrepo.folder.blob_ids import file_blob_id
from memrepo.folder.bulkwrite import BULK_MIN
from memrepo.folder.trees import build_tree

Git = Callable[..., str]

FILES = BULK_MIN + 4


def _topic(n: int) -> str:
    return f"topics/t{n % 3}/file{n:02d}.md"


def _content(n: int, version: str) -> bytes:
    return f"# Topic {n}\n\n- fact {n} in version {version} [by: agent]\n".encode()


def _seeded(memory_repo: MemoryRepo) -> tuple[MemoryRepo, str]:
    """A repo with FILES topic files plus one lone file, committed the small way."""
    folder = memory_repo.folder
    with folder.lock:
        base = branches.begin_dream(folder)
        for n in range(FILES):
            changes: dict[str, bytes | None] = {_topic(n): _content(n, "one")}
            base = branches.commit_on_main(folder, changes, f"seed {n}\n", base)
        seed: dict[str, bytes | None] = {"lone/only.md": b"# Lone\n", "swap/old.md": b"# Old\n"}
        base = branches.commit_on_main(folder, seed, "lone\n", base)
    return memory_repo, base


def _large_change() -> dict[str, bytes | None]:
    changes: dict[str, bytes | None] = {_topic(n): _content(n, "two") for n in range(FILES)}
    changes["lone/only.md"] = None
    # Deleting the folder's only file, then writing a new one into that folder.
    changes["swap/old.md"] = None
    changes["swap/new.md"] = b"# New in swap\n"
    changes["fresh/dir/new.md"] = b"# New\n\n- a brand new file [by: agent]\n"
    return changes


def _committed_large_change(memory_repo: MemoryRepo) -> Path:
    """The seeded repo with `_large_change` committed the bulk way; its root."""
    repo, base = _seeded(memory_repo)
    with repo.folder.lock:
        branches.commit_on_main(repo.folder, _large_change(), "dream: many files\n", base)
    return repo.root


def test_large_commit_leaves_index_matching_and_fresh(memory_repo: MemoryRepo, git: Git) -> None:
    root = _committed_large_change(memory_repo)
    # diff-files compares stat data without refreshing it: stale entries would show here.
    assert git(root, "diff-files", "--name-only") == ""
    assert git(root, "ls-files", "-s").split() == _staged_from_head(git, root)
    assert git(root, "status", "--porcelain", "--untracked-files=all") == ""
    git(root, "diff", "--quiet")
    git(root, "diff", "--cached", "--quiet")
    assert not (root / "lone").exists()
    assert (root / _topic(0)).read_bytes() == _content(0, "two")
    assert (root / "fresh/dir/new.md").exists()
    assert sorted(p.name for p in (root / "swap").iterdir()) == ["new.md"]


def _staged_from_head(git: Git, root: Path) -> list[str]:
    """`git ls-files -s` as it would read for an index that is exactly HEAD's tree."""
    rows = []
    for line in git(root, "ls-tree", "-r", "HEAD").splitlines():
        meta, path = line.split("\t")
        mode, _kind, oid = meta.split()
        rows += [mode, oid, "0", path]
    return rows


def test_edit_right_after_a_large_commit_is_detected(memory_repo: MemoryRepo, git: Git) -> None:
    root = _committed_large_change(memory_repo)
    edited = _topic(5)
    # Same size as what memrepo wrote, written within the same instant: only the content
    # (and git's racy-timestamp check) can tell the difference.
    (root / edited).write_bytes(_content(5, "TWO"))
    assert git(root, "diff", "--name-only") == f"{edited}\n"
    assert git(root, "status", "--porcelain") == f" M {edited}\n"
    assert memory_repo.folder.store.pending_edits().modified == (edited,)


def test_crash_mid_large_write_is_rolled_forward(memory_repo: MemoryRepo, git: Git) -> None:
    """Journal written, half the files in the worktree, main not moved: open finishes."""
    repo, base = _seeded(memory_repo)
    root = repo.root
    folder = repo.folder
    changes = _large_change()
    commit_id = _commit_object(folder.repo, base, changes)
    blob_ids = {p: pygit2.hash(d) if d is not None else None for p, d in changes.items()}
    folder.store.journal.write(commit_id, pygit2.Oid(hex=base), blob_ids)
    for path, data in list(changes.items())[: FILES // 2]:
        assert data is not None
        (root / path).write_bytes(data)
    reopened = MemoryRepo.open(root)
    reopened.remember("written after the crash")
    assert git(root, "rev-parse", "HEAD~1").strip() == str(commit_id)
    for path, data in changes.items():
        if data is None:
            assert not (root / path).exists()
        else:
            assert (root / path).read_bytes() == data
    assert git(root, "diff-files", "--name-only") == ""
    assert git(root, "status", "--porcelain", "--untracked-files=all") == ""


def test_crash_after_main_moved_catches_worktree_and_index_up(
    memory_repo: MemoryRepo, git: Git
) -> None:
    repo, base = _seeded(memory_repo)
    root = repo.root
    folder = repo.folder
    changes = _large_change()
    commit_id = _commit_object(folder.repo, base, changes)
    blob_ids = {p: pygit2.hash(d) if d is not None else None for p, d in changes.items()}
    folder.store.journal.write(commit_id, pygit2.Oid(hex=base), blob_ids)
    folder.repo.references["refs/heads/main"].set_target(commit_id)
    MemoryRepo.open(root).entries()
    assert (root / "fresh/dir/new.md").read_bytes() == changes["fresh/dir/new.md"]
    assert not (root / "lone").exists()
    assert git(root, "diff-files", "--name-only") == ""
    assert git(root, "status", "--porcelain", "--untracked-files=all") == ""


def _commit_object(
    repo: pygit2.Repository, base: str, changes: dict[str, bytes | None]
) -> pygit2.Oid:
    """The commit a crashed writer had already stored before touching the worktree."""
    parent = repo[base]
    assert isinstance(parent, pygit2.Commit)
    ids = {p: (repo.create_blob(d) if d is not None else None) for p, d in changes.items()}
    tree = build_tree(repo, parent.tree, ids)
    assert tree is not None
    sig = pygit2.Signature("memrepo", "memrepo@localhost")
    return repo.create_commit(None, sig, sig, "dream: crashed\n", tree, [parent.id])


def _write_and_stage(
    repo: MemoryRepo, changes: dict[str, bytes | None], *, with_stats: bool, edit: str = ""
) -> None:
    """The worktree and index steps of a commit, on their own (HEAD not moved)."""
    folder = repo.folder
    ids = {p: (folder.repo.create_blob(d) if d is not None else None) for p, d in changes.items()}
    tmp = folder.state_dir / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    head = folder.store.main_commit()
    assert head is not None
    expected = {p: file_blob_id(head.tree, p) for p in changes}
    plan = bulkwrite.WorktreePlan(changes, ids, expected)
    stats = bulkwrite.write_files(folder.repo, tmp, plan)
    assert set(stats) == {p for p, d in changes.items() if d is not None}
    if edit:
        # A person's editor saves (a new file renamed over ours) before the index step.
        (repo.root / "edit.tmp").write_bytes(b"X" * len(changes[edit] or b""))
        (repo.root / "edit.tmp").replace(repo.root / edit)
    index = folder.repo.index
    index.read(False)
    bulkwrite.stage_blobs(index, ids, stats if with_stats else {})
    index.write()


def test_stat_data_from_the_write_or_from_a_refresh_leave_git_clean(
    memory_repo: MemoryRepo, git: Git
) -> None:
    """Both ways of giving the index stat data: the files' own (what a dream uses when
    pygit2 allows it) and the refresh fallback."""
    for round_, with_stats in enumerate((True, False)):
        changes: dict[str, bytes | None] = {
            _topic(n): _content(n, f"round {round_}") for n in range(FILES)
        }
        _write_and_stage(memory_repo, changes, with_stats=with_stats)
        assert git(memory_repo.root, "diff-files", "--name-only") == ""
        git(memory_repo.root, "add", "-A")  # commit what the index holds, as a person would
        git(memory_repo.root, "commit", "-q", "-m", f"round {round_}")
        assert git(memory_repo.root, "status", "--porcelain", "--untracked-files=all") == ""


def test_an_edit_before_the_index_step_is_never_hidden(memory_repo: MemoryRepo, git: Git) -> None:
    changes: dict[str, bytes | None] = {_topic(n): _content(n, "three") for n in range(FILES)}
    edited = _topic(2)
    _write_and_stage(memory_repo, changes, with_stats=True, edit=edited)
    # The index holds our blob; the file on disk is the person's: git must see the edit.
    assert git(memory_repo.root, "diff", "--name-only") == f"{edited}\n"
    assert git(memory_repo.root, "diff-files", "--name-only") == f"{edited}\n"


def test_a_few_files_without_stat_data_are_compared_by_content(
    memory_repo: MemoryRepo, git: Git
) -> None:
    """Below BULK_MIN no refresh runs: git must still see the files as clean, and a
    person's edit as a modification."""
    changes: dict[str, bytes | None] = {_topic(n): _content(n, "few") for n in range(3)}
    _write_and_stage(memory_repo, changes, with_stats=False)
    git(memory_repo.root, "commit", "-q", "-m", "few")
    assert git(memory_repo.root, "status", "--porcelain", "--untracked-files=all") == ""
    assert memory_repo.folder.store.pending_edits().modified == ()
    (memory_repo.root / _topic(1)).write_bytes(_content(1, "FEW"))
    assert git(memory_repo.root, "status", "--porcelain") == f" M {_topic(1)}\n"
    assert memory_repo.folder.store.pending_edits().modified == (_topic(1),)
