"""The write verbs of a memory root: remember one entry, forget one, remove a file,
undo a commit. Each is one commit through the write transaction (`transaction.py`):
a plan works the change out from the commit it will be built on, and may run again
when a person saves a file meanwhile, so it writes nothing itself.
"""

from __future__ import annotations

from pathlib import Path

import pygit2

from memrepo.errors import EntryNotFound
from memrepo.folder import reinforcements
from memrepo.folder.entries import ENTRY_POINT, EntryWrite
from memrepo.folder.entry_refs import entry_at, parse_ref
from memrepo.folder.gitstore import GitStore
from memrepo.folder.messages import build_message, commit_info, summarize
from memrepo.folder.paths import check_path, link_target
from memrepo.folder.planning import plan_entries
from memrepo.folder.transaction import Change, WriteTransaction
from memrepo.folder.trees import changed_paths
from memrepo.folder.undo import UndoPlan, default_target, plan_undo
from memrepo.formats import parse, serialize
from memrepo.models import CommitInfo, ForgetResult, UndoResult, WriteResult


def write_entry(transaction: WriteTransaction, root: Path, write: EntryWrite) -> WriteResult:
    """Steps 3-6 of the write pipeline for one screened entry: a text already there is
    reinforced (no commit), a subject's holder is replaced unless it outranks the writer,
    else the line is added (and a new file linked from MEMORY.md's Index)."""
    store = transaction.store
    check_path(write.path, root)  # before anything, even a reinforcement
    outcome: list[WriteResult] = []

    def plan(parent: pygit2.Commit) -> Change | None:
        planned, changes = plan_entries(store, [write], parent)
        outcome[:] = planned
        if not changes:
            return None  # reinforced, or outranked by the subject's holder
        verb = "Update" if planned[0].action == "superseded" else "Remember"
        message = build_message(
            summarize(verb, write.text), origin=write.origin, by=write.by, task=write.task
        )
        return Change(changes, message)

    with transaction.lock:
        commit = transaction.run(plan)
        result = outcome[0]
        if result.action == "reinforced" and result.ref is not None:
            reinforcements.record(store.state_dir, result.ref, write.by, write.task)
    return result if commit is None else result.model_copy(update={"commit": commit})


def forget(transaction: WriteTransaction, ref: str, *, by: str, task: str | None) -> ForgetResult:
    """Remove one entry in one commit."""
    path, _ = parse_ref(ref)
    found: list[str] = []

    def plan(parent: pygit2.Commit) -> Change:
        doc, entry = entry_at(transaction.store, parent, ref)
        doc.remove_line(entry.line_no)
        found[:] = [entry.text]
        message = build_message(summarize("Forget", entry.text), origin="forget", by=by, task=task)
        return Change({path: serialize(doc)}, message)

    commit = transaction.run(plan)
    assert commit is not None
    return ForgetResult(ref=ref, path=path, text=found[0], commit=commit)


def remove_file(transaction: WriteTransaction, path: str, *, by: str, reason: str) -> str | None:
    """Remove a file and its Index link in one commit; None when it is not there."""
    store = transaction.store

    def plan(parent: pygit2.Commit) -> Change | None:
        if store.read(path, parent) is None:
            return None
        changes: dict[str, bytes | None] = {path: None}
        memory = store.read(ENTRY_POINT, parent)
        if memory is not None and path != ENTRY_POINT:
            doc = parse(memory, ENTRY_POINT)
            target = link_target(path)
            for link in reversed(doc.index_links):
                if link.target == target:
                    doc.remove_line(link.line_no)
            changes[ENTRY_POINT] = serialize(doc)
        message = build_message(summarize("Remove", f"{path} ({reason})"), origin="edit", by=by)
        return Change(changes, message)

    return transaction.run(plan)


def undo(transaction: WriteTransaction, commit: str | None, *, by: str) -> UndoResult:
    """Reverse one commit (default: the newest memrepo commit not yet undone).

    The target is chosen before a person's pending edits are committed, so a bare
    `undo` reverses the last memrepo write, never the edit commit it makes itself.
    """
    repo = transaction.store.repo
    with transaction.lock:
        head = transaction.current()
        target = _resolve_commit(repo, commit) if commit else default_target(repo, head)
        summary = target.message.split("\n", 1)[0]
        message = build_message(
            summarize("Undo", summary), origin="undo", by=by, undoes=str(target.id)
        )
        plans: list[UndoPlan] = []

        def plan(parent: pygit2.Commit) -> Change:
            plans[:] = [plan_undo(repo, target, parent)]
            return Change(plans[0].changes, message)

        new = transaction.run(plan)
        assert new is not None
        return UndoResult(
            undone=str(target.id),
            commit=new,
            paths=tuple(sorted(plans[0].changes)),
            entries_removed=plans[0].entries_removed,
            entries_restored=plans[0].entries_restored,
        )


def undo_target(store: GitStore, commit: str | None) -> CommitInfo:
    """The commit `undo(commit)` would reverse, with the paths it changed, without
    reversing it: what a host shows before it asks its user."""
    head = store.main_commit()
    if commit:
        target = _resolve_commit(store.repo, commit)
    elif head is not None:
        target = default_target(store.repo, head)
    else:
        raise EntryNotFound("HEAD", "nothing to undo")
    parent_tree = target.parents[0].tree if target.parents else None
    return commit_info(target, tuple(changed_paths(store.repo, parent_tree, target.tree)))


def _resolve_commit(repo: pygit2.Repository, spec: str) -> pygit2.Commit:
    try:
        obj = repo.revparse_single(spec)
        commit = obj.peel(pygit2.Commit)
    except (KeyError, ValueError, pygit2.GitError) as exc:
        raise EntryNotFound(spec, "no such commit") from exc
    assert isinstance(commit, pygit2.Commit)
    return commit
