"""Many screened entries in one commit: how an import of 10,000 facts stays one change.

`MemoryFolder.write_entry` commits per entry; a batch of N entries through it would cost
N commits. Here the whole batch is planned at once (`planning.plan_entries`, the rule
`write_entry` plans its one entry by) and lands as one commit (plus the Index links of
new files), or none when nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygit2

from memrepo.folder.entries import EntryWrite
from memrepo.folder.messages import build_message
from memrepo.folder.paths import check_path
from memrepo.folder.planning import plan_entries
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.transaction import Change
from memrepo.models import WriteResult


def write_entries(
    folder: MemoryFolder,
    writes: Sequence[EntryWrite],
    summary: Callable[[int], str],
    *,
    by: str,
    origin: str,
    body: str = "",
    dry_run: bool = False,
) -> tuple[list[WriteResult], str | None]:
    """Apply steps 3-6 of the write pipeline to every write, in order, as one commit.

    `summary(n)` gives the commit's summary line for the n entries added or replaced.
    Returns one result per write (in the order given) and the commit id, or None when
    nothing changed or `dry_run` (which plans everything and writes nothing).
    """
    for path in {write.path for write in writes}:
        check_path(path, folder.root)  # a bad path is an error even in a dry run
    results: list[WriteResult] = []

    def plan(parent: pygit2.Commit) -> Change | None:
        planned, changes = plan_entries(folder.store, writes, parent)
        results[:] = planned
        if not changes or dry_run:
            return None
        changed = sum(1 for r in planned if r.action in ("inserted", "superseded"))
        return Change(changes, build_message(summary(changed), origin=origin, by=by, body=body))

    if dry_run:
        with folder.lock:
            plan(folder.store.require_writable())
        return results, None
    commit = folder.transaction.run(plan)
    if commit is None:
        return results, None
    return [_with_commit(r, commit) for r in results], commit


def _with_commit(result: WriteResult, commit: str) -> WriteResult:
    if result.action in ("inserted", "superseded"):
        return result.model_copy(update={"commit": commit})
    return result
