"""Reading a memory root: its files at HEAD, its entries as they are on disk, main's
history, one entry's story, and the edits a person has not committed yet.

Nothing here writes or takes the write lock: a reader sees main as it is, and a file a
person edited without committing shows its edited version (what recall and `why` see).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from memrepo.errors import EntryNotFound, FormatError
from memrepo.folder.entries import SWARM_PREFIX
from memrepo.folder.entry_refs import make_ref, parse_ref
from memrepo.folder.gitstore import GitStore
from memrepo.folder.messages import commit_info
from memrepo.folder.trees import changed_paths
from memrepo.folder.undo import first_parent_history
from memrepo.formats import Document, parse
from memrepo.models import CommitInfo, EntryView, WorktreeStatus
from memrepo.models.folder import HeldEditView, WhyReport


def log(store: GitStore, limit: int | None = None, path: str | None = None) -> list[CommitInfo]:
    """main's history, newest first, optionally only commits touching `path`."""
    head = store.main_commit()
    if head is None:
        return []
    out: list[CommitInfo] = []
    for commit in first_parent_history(store.repo, head):
        parent_tree = commit.parents[0].tree if commit.parents else None
        paths = tuple(changed_paths(store.repo, parent_tree, commit.tree))
        if path is not None and not any(p == path or p.startswith(path + "/") for p in paths):
            continue
        out.append(commit_info(commit, paths))
        if limit is not None and len(out) >= limit:
            break
    return out


def documents(store: GitStore, path: str | None = None) -> Iterator[tuple[str, Document]]:
    """Parsed markdown files at HEAD; unreadable ones are skipped (lint reports them)."""
    files: Iterable[tuple[str, bytes]]
    if path is None:
        files = store.iter_files()
    else:  # one file: not the tree
        data = store.read(path)
        files = [] if data is None else [(path, data)]
    for file_path, data in files:
        if not file_path.endswith(".md"):
            continue
        if path is None and file_path.startswith(SWARM_PREFIX):
            continue
        try:
            yield file_path, parse(data, file_path)
        except FormatError:
            continue


def entries(store: GitStore, path: str | None = None) -> list[EntryView]:
    """Every entry of the folder (or of one file) as it is on disk, swarm folders
    excluded: a file a person edited and did not commit shows its edited version, with
    the entries no commit holds yet marked `uncommitted` (recall and why see them the
    same way)."""
    pending = store.pending_edits()
    edited = {*pending.modified, *pending.added}
    views: list[EntryView] = []
    for file_path, doc in _documents_on_disk(store, path, edited, set(pending.deleted)):
        committed = (
            {e.id for e in _head_doc(store, file_path).entries} if file_path in edited else None
        )
        views.extend(
            EntryView(
                ref=make_ref(file_path, e.id),
                id=e.id,
                path=file_path,
                line=e.line_no + 1,
                text=e.text,
                metadata=dict(e.metadata),
                links=e.links,
                uncommitted=committed is not None and e.id not in committed,
            )
            for e in doc.entries
        )
    return views


def _documents_on_disk(
    store: GitStore, path: str | None, edited: set[str], deleted: set[str]
) -> Iterator[tuple[str, Document]]:
    """HEAD's documents, with the edited files read from disk instead (and new ones
    added, deleted ones left out)."""
    seen: set[str] = set()
    for file_path, doc in documents(store, path):
        seen.add(file_path)
        if file_path in deleted:
            continue
        yield file_path, (_disk_doc(store, file_path) or doc) if file_path in edited else doc
    for file_path in sorted(edited - seen):
        if (path is None and file_path.startswith(SWARM_PREFIX)) or (
            path is not None and file_path != path
        ):
            continue
        found = _disk_doc(store, file_path)
        if found is not None:
            yield file_path, found


def _disk_doc(store: GitStore, path: str) -> Document | None:
    data = store.read_worktree(path)
    if data is None or not path.endswith(".md"):
        return None
    try:
        return parse(data, path)
    except FormatError:
        return None


def _head_doc(store: GitStore, path: str) -> Document:
    data = store.read(path)
    try:
        return parse(data if data is not None else b"", path)
    except FormatError:
        return parse(b"", path)


def why(store: GitStore, ref: str) -> WhyReport:
    """The commits that added, changed and moved one entry (see folder/history.py)."""
    from memrepo.folder.history import entry_history, explain

    path, entry_id = parse_ref(ref)
    head = store.main_commit()
    events = entry_history(store.repo, head, entry_id, path) if head is not None else []
    if events and events[-1].action != "removed":
        path = events[-1].path  # it moved: the ref may name where it used to be
    current = next((e for e in entries(store, path) if e.id == entry_id), None)
    if current is None and not events:
        raise EntryNotFound(ref, f"no entry {entry_id!r} in {path}, now or in history")
    text = current.text if current is not None else events[-1].text
    explanation = explain(events)
    if current is not None and current.uncommitted:
        typed = (
            f"Typed in {current.path}:{current.line} and not committed yet: the next "
            "write records it as your edit (origin edit, by user)."
        )
        explanation = f"{explanation}\n{typed}" if events else typed
    return WhyReport(
        ref=ref,
        store="folder",
        present=current is not None,
        text=text,
        explanation=explanation,
        events=tuple(events),
    )


def worktree_status(store: GitStore, root: Path) -> WorktreeStatus:
    """Uncommitted edits a person made (what the next write will commit first)."""
    pending = store.pending_edits()
    head = store.main_commit()
    return WorktreeStatus(
        root=str(root),
        head=str(head.id) if head is not None else None,
        modified=pending.modified,
        added=pending.added,
        deleted=pending.deleted,
        held=tuple(
            HeldEditView(path=h.shown, line=h.line, kind=h.kind, label=h.label, message=str(h))
            for h in pending.held
        ),
    )
