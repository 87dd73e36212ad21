"""merge_trees on real repositories, checked with the git CLI."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path

import pygit2
import pytest
from pygit2.enums import FileMode

from memrepo.errors import RepoStateError
from memrepo.sync.treemerge import merge_trees

SIG = pygit2.Signature("Test User", "test@example.com", 1_700_000_000, 0)

Git = Callable[..., str]
"""The `git` fixture of tests/conftest.py: run the git CLI, return stdout."""


def commit(
    repo: pygit2.Repository,
    files: Mapping[str, bytes | tuple[bytes, int]],
    parents: list[pygit2.Oid],
) -> pygit2.Oid:
    index = pygit2.Index()
    for path, content in files.items():
        data, mode = content if isinstance(content, tuple) else (content, pygit2.GIT_FILEMODE_BLOB)
        index.add(pygit2.IndexEntry(path, repo.create_blob(data), FileMode(mode)))
    tree = index.write_tree(repo)
    return repo.create_commit(None, SIG, SIG, "c", tree, parents)


@pytest.fixture
def repo(tmp_path: Path) -> pygit2.Repository:
    return pygit2.init_repository(tmp_path / "r", bare=True)


def show(git: Git, repo: pygit2.Repository, tree: pygit2.Oid, path: str) -> str:
    return git(repo.path, "cat-file", "-p", f"{tree}:{path}")


def paths(git: Git, repo: pygit2.Repository, tree: pygit2.Oid) -> list[str]:
    return git(repo.path, "ls-tree", "-r", "--name-only", str(tree)).split()


BASE = {
    "MEMORY.md": b"# Memory\n\n- a\n\n## Index\n\n- [[tools]]\n",
    "tools.md": b"- hammer\n",
    "keep/same.md": b"- untouched\n",
}


def test_entries_from_both_sides_and_files_from_each_side(
    repo: pygit2.Repository, git: Git
) -> None:
    base = commit(repo, BASE, [])
    ours = commit(
        repo,
        {
            **BASE,
            "MEMORY.md": b"# Memory\n\n- a\n- o\n\n## Index\n\n- [[tools]]\n- [[mine]]\n",
            "mine.md": b"- mine\n",
        },
        [base],
    )
    theirs_files = {k: v for k, v in BASE.items() if k != "tools.md"}
    theirs = commit(
        repo,
        {
            **theirs_files,
            "MEMORY.md": b"# Memory\n\n- a\n- t\n\n## Index\n\n- [[tools]]\n- [[yours]]\n",
            "yours.md": b"- yours\n",
        },
        [base],
    )
    result = merge_trees(repo, base, ours, theirs)
    assert result.conflicts == ()
    assert result.loser_tree is None
    assert paths(git, repo, result.tree) == ["MEMORY.md", "keep/same.md", "mine.md", "yours.md"]
    assert show(git, repo, result.tree, "MEMORY.md") == (
        "# Memory\n\n- a\n- o\n- t\n\n## Index\n\n- [[tools]]\n- [[mine]]\n- [[yours]]\n"
    )
    # Unchanged files keep their very blob.
    assert show(git, repo, result.tree, "keep/same.md") == "- untouched\n"


def test_conflicts_give_a_loser_tree_with_only_the_losing_parts(
    repo: pygit2.Repository, git: Git
) -> None:
    base = commit(repo, {**BASE, "pic.bin": b"\x00base"}, [])
    ours = commit(
        repo,
        {
            **BASE,
            "pic.bin": b"\x00ours",
            "tools.md": b"- hammer\n- tool [subject: best; by: agent; added: 2024-01-01]\n",
        },
        [base],
    )
    theirs = commit(
        repo,
        {
            **BASE,
            "pic.bin": b"\x00theirs",
            "tools.md": b"- hammer\n- saw [subject: best; by: user; added: 2023-01-01]\n- t\n",
        },
        [base],
    )
    result = merge_trees(repo, base, ours, theirs)
    assert sorted((c.path, c.kind) for c in result.conflicts) == [
        ("pic.bin", "binary"),
        ("tools.md", "subject"),
    ]
    assert show(git, repo, result.tree, "tools.md") == (
        "- hammer\n- saw [subject: best; by: user; added: 2023-01-01]\n- t\n"
    )
    assert result.loser_tree is not None
    assert show(git, repo, result.loser_tree, "tools.md") == (
        "- hammer\n- tool [subject: best; by: agent; added: 2024-01-01]\n- t\n"
    )
    diff = git(repo.path, "diff", "--name-only", str(result.tree), str(result.loser_tree))
    assert diff.split() == ["pic.bin", "tools.md"]


def test_delete_against_modify_keeps_the_file_and_the_loser_tree_drops_it(
    repo: pygit2.Repository, git: Git
) -> None:
    base = commit(repo, BASE, [])
    ours = commit(repo, {k: v for k, v in BASE.items() if k != "tools.md"}, [base])
    theirs = commit(repo, {**BASE, "tools.md": b"- hammer\n- saw\n"}, [base])
    result = merge_trees(repo, base, ours, theirs)
    assert [c.kind for c in result.conflicts] == ["delete_modify"]
    assert show(git, repo, result.tree, "tools.md") == "- hammer\n- saw\n"
    assert result.loser_tree is not None
    assert "tools.md" not in paths(git, repo, result.loser_tree)


def test_no_common_base_merges_as_if_both_added_everything(
    repo: pygit2.Repository, git: Git
) -> None:
    ours = commit(repo, {"MEMORY.md": b"# Memory\n\n- o\n"}, [])
    theirs = commit(repo, {"MEMORY.md": b"# Memory\n\n- t\n", "x.md": b"- x\n"}, [])
    result = merge_trees(repo, None, ours, theirs)
    assert result.conflicts == ()
    assert show(git, repo, result.tree, "MEMORY.md") == "# Memory\n\n- o\n- t\n"
    assert paths(git, repo, result.tree) == ["MEMORY.md", "x.md"]


def test_a_file_against_a_folder_of_the_same_name_keeps_ours(
    repo: pygit2.Repository, git: Git
) -> None:
    base = commit(repo, {"MEMORY.md": b"- a\n"}, [])
    ours = commit(repo, {"MEMORY.md": b"- a\n", "notes": b"plain file\n"}, [base])
    theirs = commit(repo, {"MEMORY.md": b"- a\n", "notes/x.md": b"- x\n"}, [base])
    result = merge_trees(repo, base, ours, theirs)
    assert [(c.path, c.kind) for c in result.conflicts] == [("notes/x.md", "delete_modify")]
    assert paths(git, repo, result.tree) == ["MEMORY.md", "notes"]
    subprocess.run(["git", "-C", repo.path, "fsck", "--no-dangling"], check=True)


def test_an_executable_bit_from_one_side_and_content_from_the_other(
    repo: pygit2.Repository, git: Git
) -> None:
    base = commit(repo, {"run.sh": b"a\nb\n"}, [])
    ours = commit(repo, {"run.sh": (b"a\nb\n", pygit2.GIT_FILEMODE_BLOB_EXECUTABLE)}, [base])
    theirs = commit(repo, {"run.sh": b"a\nB\n"}, [base])
    # theirs changed content only; ours changed the mode only: git reports both as changes
    result = merge_trees(repo, base, ours, theirs)
    assert result.conflicts == ()
    listing = git(repo.path, "ls-tree", str(result.tree))
    assert listing.startswith("100755 blob")
    assert show(git, repo, result.tree, "run.sh") == "a\nB\n"


def test_an_unknown_commit_is_a_clear_error(repo: pygit2.Repository) -> None:
    base = commit(repo, BASE, [])
    missing = pygit2.Oid(hex="1" * 40)
    with pytest.raises(RepoStateError, match="fetch it first"):
        merge_trees(repo, base, base, missing)
