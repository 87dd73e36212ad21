"""Making a memory repo of a folder that already holds other files (`init --adopt`).

A memory folder shares its git repository with nothing else by default: `memrepo init`
in a code repository used to adopt it, and the next `remember` committed the person's
half-done `app.py` as "Record edits made outside memrepo" (issue #27). So `init` refuses
a folder holding files other than memory markdown unless told `--adopt`; an adopted
repository is marked in the local state, and its own files (those it held when it was
adopted, and new ones outside the memory layout) stay the person's: memrepo never
commits them (`memrepo.folder.hand_edits`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pygit2
from pygit2.enums import FileMode, FileStatus

from memrepo.errors import RepoStateError
from memrepo.folder.trees import walk_tree

__all__ = ["ADOPTED_FILE", "foreign_files", "record_adoption", "refuse_foreign_files"]

#: The local state file that marks an adopted repository: the commit that was its tip
#: when `memrepo init --adopt` ran ("" for a repository without commits).
ADOPTED_FILE = "adopted"
#: Files of git's own a memory repo may hold beside its markdown.
_GIT_FILES = frozenset({".gitignore", ".gitattributes", ".mailmap"})
_SHOWN = 3


def foreign_files(path: Path, repo: pygit2.Repository | None, limit: int = _SHOWN) -> list[str]:
    """Up to `limit` files of `path` that are not memory markdown: committed at HEAD or
    in the working tree (files git ignores are not counted)."""
    found: list[str] = []
    if repo is None:
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d != ".git")
            for name in sorted(files):
                rel = os.path.relpath(os.path.join(folder, name), path).replace(os.sep, "/")
                if _foreign(rel):
                    found.append(rel)
                    if len(found) >= limit:
                        return found
        return found
    if not repo.head_is_unborn:
        head = repo.head.peel(pygit2.Commit)
        for rel, _oid, mode in walk_tree(repo, head.tree):
            if mode != FileMode.TREE and _foreign(rel):
                found.append(rel)
                if len(found) >= limit:
                    return found
    for rel, flags in sorted(repo.status(untracked_files="all").items()):
        if flags & FileStatus.WT_NEW and _foreign(rel) and rel not in found:
            found.append(rel)
            if len(found) >= limit:
                break
    return found


def _foreign(rel: str) -> bool:
    return not rel.endswith(".md") and rel not in _GIT_FILES


def refuse_foreign_files(path: Path, repo: pygit2.Repository | None) -> None:
    """RepoStateError naming the files when `path` holds any but memory markdown."""
    found = foreign_files(path, repo, _SHOWN + 1)
    if found:
        shown = ", ".join(found[:_SHOWN]) + (" and more" if len(found) > _SHOWN else "")
        raise RepoStateError(
            f"{path} holds files other than memory markdown ({shown}); memrepo would share "
            f"its git history with them. Run `memrepo init --adopt {path}` to keep them as "
            "yours (memrepo never commits them), or use an empty folder; nothing was changed"
        )


def record_adoption(state_dir: Path, base: str) -> None:
    """Mark the repository as adopted at `base` (its tip, "" when it had no commits)."""
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / ADOPTED_FILE).write_text(base + "\n", encoding="utf-8")
