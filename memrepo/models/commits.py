"""Models of one commit shown whole: its CommitInfo fields plus each file's diff.

A separate module from `models/folder.py` so the history page pays for these schemas
only when it opens a commit.
"""

from __future__ import annotations

from typing import Literal

from memrepo.models._base import Frozen
from memrepo.models.folder import CommitInfo

FileStatus = Literal["added", "modified", "deleted", "renamed"]


class FileChange(Frozen):
    """One file a commit changed, with its unified diff (empty when `binary`).

    `old_path` is set for a rename. `truncated` says lines were left out, either past the
    per-file cap or because the whole commit's cap was reached.
    """

    path: str
    status: FileStatus
    old_path: str | None = None
    diff: str = ""
    binary: bool = False
    additions: int = 0
    deletions: int = 0
    truncated: bool = False


class CommitDetail(CommitInfo):
    """A commit with what it changed, file by file (`MemoryRepo.show_commit`).

    `truncated` is true when any file's diff was cut to keep the view bounded.
    """

    files: tuple[FileChange, ...] = ()
    truncated: bool = False


class MemoryChange(Frozen):
    """One change to the memory as `MemoryRepo.on_change` tells it: a commit of the
    folder, or a change of memory_items (the one change stream, issue #32).

    `kind` is a folder commit's origin (`remember`, `edit`, `memory-tool`, `sync`, ...;
    `commit` when a person's plain git commit has none) or the items' change kind
    (`ingest`, `status`, `purge`, `retention`).
    """

    store: Literal["folder", "items"]
    kind: str
    commit: str | None = None
    by: str | None = None
    task: str | None = None
    paths: tuple[str, ...] = ()
    item_ids: tuple[str, ...] = ()
    workspace: str | None = None
