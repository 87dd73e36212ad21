"""The commit a write plans on, as files: what a writer outside the folder layer reads.

A plan (`transaction.Plan`) is handed the commit its change will be built on; layers
above the folder never touch git objects (`tests/test_architecture.py`), so they plan
on a `Snapshot` of it instead: a file's bytes, the files below a folder.
"""

from __future__ import annotations

from collections.abc import Callable

import pygit2

from memrepo.folder.repo import MemoryFolder
from memrepo.folder.transaction import Change
from memrepo.folder.trees import walk_tree


class Snapshot:
    """The files of one commit of `folder`."""

    def __init__(self, folder: MemoryFolder, commit: pygit2.Commit) -> None:
        self._folder = folder
        self._commit = commit

    def read(self, path: str) -> bytes | None:
        """A file's bytes, None when it is not there (or is a folder)."""
        return self._folder.store.read(path, self._commit)

    def files_below(self, folder: str) -> list[str]:
        """Every file below `folder` ("" for all), in tree order."""
        prefix = folder + "/" if folder else ""
        return [
            path
            for path, _oid, _mode in walk_tree(self._folder.repo, self._commit.tree)
            if path.startswith(prefix)
        ]


def run_on_snapshot(folder: MemoryFolder, plan: Callable[[Snapshot], Change | None]) -> str | None:
    """`folder`'s write transaction with a plan that reads a `Snapshot`; the commit."""
    return folder.transaction.run(lambda parent: plan(Snapshot(folder, parent)))
