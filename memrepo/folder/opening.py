"""Finding or making the git repository of a memory root.

What is refused is said in terms of the folder a person named (`NotAMemoryRepo`), not
libgit2's: a missing folder, one that is not the top of a repository, a bare one.
"""

from __future__ import annotations

from pathlib import Path

import pygit2

from memrepo.errors import NotAMemoryRepo
from memrepo.folder.adoption import refuse_foreign_files
from memrepo.folder.working_branch import MAIN


def existing_repository(path: Path) -> pygit2.Repository:
    """The repository whose working tree is `path`; NotAMemoryRepo when there is none."""
    if not path.is_dir():
        raise NotAMemoryRepo(str(path), "no such directory")
    if not (path / ".git").exists():
        raise NotAMemoryRepo(str(path), "not the top of a git repository")
    return open_worktree(path, "edit")


def open_worktree(root: Path, doing: str) -> pygit2.Repository:
    """The non-bare repository at `root`, for a caller that will `doing` its files."""
    try:
        repo = pygit2.Repository(str(root))
    except pygit2.GitError as exc:
        raise NotAMemoryRepo(str(root), f"git cannot open it: {exc}") from exc
    if repo.is_bare:
        raise NotAMemoryRepo(str(root), f"a bare repository has no files to {doing}")
    return repo


def new_or_existing_repository(path: Path, *, adopt: bool) -> pygit2.Repository:
    """The repository at `path`, made (with the folder) when there is none. A new one is
    refused over files other than memory markdown unless `adopt`, before .git exists:
    nothing is changed."""
    path.mkdir(parents=True, exist_ok=True)
    if (path / ".git").exists():
        return pygit2.Repository(str(path))
    if not adopt:
        refuse_foreign_files(path, None)
    return pygit2.init_repository(str(path), initial_head="main")


def start_on_main(repo: pygit2.Repository) -> None:
    """An unborn HEAD naming another branch is pointed at main, the first commit's home."""
    head = repo.references.get("HEAD")
    if repo.head_is_unborn and (str(head.target) if head is not None else "") != MAIN:
        repo.set_head(MAIN)
