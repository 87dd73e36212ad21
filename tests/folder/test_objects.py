"""Trees and commits serialized in Python get git's own ids and contents.

Held to libgit2 (TreeBuilder, create_commit) on generated change sets, and to the
`git` CLI (`fsck`, `cat-file`) on what a bulk commit saves.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pygit2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pygit2.enums import FileMode

from memrepo import MemoryRepo
from memrepo.folder import branches
from memrepo.folder.objects import NewObjects
from memrepo.folder.trees import build_tree

Git = Callable[..., str]

# Names that test git's ordering: a file "a.md" and a folder "a" ("a/" sorts after
# "a.md" and "a-b"), a prefix of another name, non-ASCII, a space.
_NAMES = ["a", "a.md", "a-b", "ab", "b", "é.md", "z z.md", "A.md", "a0"]
_PATHS = st.lists(st.sampled_from(_NAMES), min_size=1, max_size=3).map("/".join)
_CHANGES = st.dictionaries(_PATHS, st.one_of(st.none(), st.binary(max_size=20)), max_size=12)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> pygit2.Repository:
    return pygit2.init_repository(str(tmp_path_factory.mktemp("objects")), initial_head="main")


def _libgit2_tree(
    repo: pygit2.Repository, base: pygit2.Tree | None, changes: dict[str, bytes | None]
) -> pygit2.Oid:
    ids = {p: (repo.create_blob(d) if d is not None else None) for p, d in changes.items()}
    return build_tree(repo, base, ids) or repo.TreeBuilder().write()


def _our_tree(
    repo: pygit2.Repository, base: pygit2.Tree | None, changes: dict[str, bytes | None]
) -> pygit2.Oid:
    objects = NewObjects(repo)
    ids = {p: (objects.blob(d) if d is not None else None) for p, d in changes.items()}
    tree = objects.tree(base, ids) or objects.empty_tree()
    objects.save()
    return tree


def _consistent(changes: dict[str, bytes | None]) -> dict[str, bytes | None]:
    """Drop paths that run through another changed path (a file and a folder of one
    name in a single change set is not something a write asks for)."""
    return {
        p: d
        for p, d in changes.items()
        if not any(q != p and (q.startswith(p + "/") or p.startswith(q + "/")) for q in changes)
    }


@pytest.mark.slow
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(first=_CHANGES, second=_CHANGES)
def test_trees_are_the_ones_libgit2_builds(
    repo: pygit2.Repository, first: dict[str, bytes | None], second: dict[str, bytes | None]
) -> None:
    first, second = _consistent(first), _consistent(second)
    base_id = _libgit2_tree(repo, None, first)
    assert _our_tree(repo, None, first) == base_id
    base = repo[base_id]
    assert isinstance(base, pygit2.Tree)
    expected = _libgit2_tree(repo, base, second)
    assert _our_tree(repo, base, second) == expected


def test_an_executable_bit_is_kept_and_a_file_can_become_a_folder(
    repo: pygit2.Repository,
) -> None:
    builder = repo.TreeBuilder()
    builder.insert("run.sh", repo.create_blob(b"#!/bin/sh\n"), FileMode.BLOB_EXECUTABLE)
    builder.insert("notes", repo.create_blob(b"a file\n"), FileMode.BLOB)
    base = repo[builder.write()]
    assert isinstance(base, pygit2.Tree)
    changes: dict[str, bytes | None] = {"run.sh": b"#!/bin/sh\necho\n", "notes/a.md": b"- a\n"}
    ours = repo[_our_tree(repo, base, changes)]
    assert ours.id == _libgit2_tree(repo, base, changes)
    assert isinstance(ours, pygit2.Tree)
    assert ours["run.sh"].filemode == FileMode.BLOB_EXECUTABLE
    assert ours["notes"].filemode == FileMode.TREE


def test_a_name_that_is_not_utf8_survives(tmp_path: Path, git: Git) -> None:
    """A tree written by another tool may hold any bytes as a name: kept as they are."""
    root = tmp_path / "r"
    repo = pygit2.init_repository(str(root), initial_head="main")
    blob = repo.create_blob(b"x\n")
    raw = b"100644 caf\xe9.md\0" + blob.raw
    base = repo[repo.odb.write(pygit2.enums.ObjectType.TREE, raw)]
    assert isinstance(base, pygit2.Tree)
    objects = NewObjects(repo)
    tree = objects.tree(base, {"new.md": objects.blob(b"new\n")})
    objects.save()
    assert tree is not None
    listed = subprocess.run(
        ["git", "-C", str(root), "ls-tree", "--name-only", "-z", str(tree)],
        check=True,
        capture_output=True,
    ).stdout
    assert listed.split(b"\0")[:2] == [b"caf\xe9.md", b"new.md"]
    assert git(root, "fsck", "--no-dangling").strip() == ""


@pytest.mark.parametrize("offset", [0, 60, -90, 330, -720])
@pytest.mark.parametrize(
    "message", ["plain\n", "no newline", "Ünïcode — ✓\n\nbody\n\nTrailer: x\n", ""]
)
def test_commits_are_the_ones_libgit2_writes(
    repo: pygit2.Repository, offset: int, message: str
) -> None:
    tree = repo.TreeBuilder().write()
    parent = repo.create_commit(
        None, pygit2.Signature("P", "p@x.invalid", 1, 0), pygit2.Signature("P", "p@x", 1, 0),
        "parent\n", tree, [],
    )  # fmt: skip
    author = pygit2.Signature("Ana Ñúñez", "ana@example.invalid", 1_764_000_000, offset)
    committer = pygit2.Signature("memrepo", "memrepo@localhost", 1_764_000_123, -offset)
    expected = repo.create_commit(None, author, committer, message, tree, [parent])
    objects = NewObjects(repo)
    assert objects.commit(tree, [parent], author, committer, message) == expected


def test_a_bulk_commit_is_one_pack_and_sound(memory_repo: MemoryRepo, git: Git) -> None:
    """A commit of many files: blobs, trees and the commit in one pack, no loose object,
    and `git fsck` finds nothing wrong."""
    root = memory_repo.root
    loose_before = {p for p in (root / ".git/objects").glob("??/*")}
    changes: dict[str, bytes | None] = {
        f"topics/t{n % 4}/f{n:02d}.md": f"# F{n}\n\n- fact {n} [by: agent]\n".encode()
        for n in range(24)
    }
    folder = memory_repo.folder
    with folder.lock:
        base = branches.begin_dream(folder)
        commit = branches.commit_on_main(folder, changes, "bulk\n", base)
    assert {p for p in (root / ".git/objects").glob("??/*")} == loose_before
    assert len(list((root / ".git/objects/pack").glob("pack-*.pack"))) == 1
    assert git(root, "fsck", "--full", "--no-dangling").strip() == ""
    assert git(root, "rev-parse", "HEAD").strip() == commit
    assert git(root, "status", "--porcelain") == ""
    assert git(root, "show", "HEAD:topics/t1/f05.md") == "# F5\n\n- fact 5 [by: agent]\n"
