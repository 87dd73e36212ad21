"""The index as a projection of git and memory_items, kept in step incrementally.

The index records the commit of main it reflects, the item store's hot version, and
which files it took from the working tree. `sync` applies only the difference: the tree
diff from the reflected commit to HEAD, files people edited without committing (read
from the working tree, marked uncommitted), and item changes. Anything it cannot bridge
(a reflected commit that is gone, items changed by another process) falls back to
re-reading that part in full. Nothing here is a source of truth.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from memrepo.errors import FormatError, StoreError
from memrepo.folder.repo import SWARM_PREFIX, MemoryFolder, make_ref
from memrepo.formats import parse
from memrepo.index import IndexDoc, IndexStore
from memrepo.items import ItemWriter
from memrepo.models.items import ITEM_REF_PREFIX, ItemFilters, MemoryItem
from memrepo.recall.teams import TEAMS_KEY, sync_team_lane, team_docs, team_key
from memrepo.recall.visibility import privacy_class
from memrepo.routing import BY_TO_SOURCE
from memrepo.swarm.lane import split_note_path, swarm_doc

MAIN = "main"
WORKTREE_KEY = "main:worktree"
ITEMS_KEY = "items"
#: What this code projects, beyond the index schema: an index projected by another
#: version is re-projected on the next sync (2: the privacy classes of `privacy_class`).
PROJECTION_KEY = "projection"
PROJECTION_VERSION = "2"


def entry_docs(path: str, data: bytes, *, commit: str, uncommitted: bool) -> list[IndexDoc]:
    """The index documents of one markdown file (none when it is not readable)."""
    try:
        doc = parse(data, path)
    except FormatError:
        return []  # lint and health report it; the other files stay searchable
    workspace = _workspace_of(path)
    docs: dict[str, IndexDoc] = {}
    for entry in doc.entries:
        ref = make_ref(path, entry.id)
        if ref in docs or not entry.text:
            continue  # a repeated fact in one file is one document
        meta = entry.metadata
        by = meta.get("by", "user")  # a bullet without metadata was written by a person
        docs[ref] = IndexDoc(
            ref=ref,
            lane="folder",
            text=entry.text,
            repo=MAIN,
            path=path,
            line=entry.line_no + 1,
            subject=meta.get("subject", ""),
            workspace=workspace,
            scope="workspace" if workspace else "global",
            privacy="normal",
            trust=BY_TO_SOURCE.get(by, "inferred"),
            status="active",
            by=by,
            added=meta.get("added", ""),
            tainted=meta.get("tainted", "").casefold() == "yes",
            source=meta.get("source", ""),
            commit=commit,
            uncommitted=uncommitted,
            kind=meta.get("kind", ""),
        )
    swarm = split_note_path(path)
    if swarm is not None:  # a swarm's notes: their own lane, seen only inside the swarm
        return [swarm_doc(doc, *swarm) for doc in docs.values()]
    return list(docs.values())


def item_doc(item: MemoryItem) -> IndexDoc:
    """The index document of one active memory item."""
    audience = "all"
    if item.scope in ("task", "contact") and item.scope_ref:
        audience = f"{item.scope}:{item.scope_ref}"
    return IndexDoc(
        ref=item.ref,
        lane="memory",
        text=item.content,
        subject="" if item.derived_subject else item.subject_key,
        workspace=item.workspace_id or "",
        scope=item.scope,
        scope_ref=item.scope_ref or "",
        privacy=privacy_class(item.privacy, item.scope, item.workspace_id),
        trust=item.source,
        status=item.status,
        by=item.source,
        added=item.created_at.date().isoformat(),
        tainted=item.tainted,
        source=f"{item.source_ref.store}:{item.source_ref.id}" if item.source_ref else "",
        task_id=item.task_id or "",
        kind=item.kind,
        audience=audience,
    )


def _workspace_of(path: str) -> str:
    parts = PurePosixPath(path).parts
    if len(parts) == 2 and parts[0] == "workspaces" and parts[1].endswith(".md"):
        return parts[1][:-3]
    return ""


def _indexed(path: str) -> bool:
    """Markdown files, and of swarm folders only the notes (never README.md)."""
    in_swarm = path.startswith(SWARM_PREFIX)
    return path.endswith(".md") and (not in_swarm or split_note_path(path) is not None)


class Projection:
    """Builds and updates the index of one memory root."""

    def __init__(self, folder: MemoryFolder, open_items: Callable[[], ItemWriter]) -> None:
        self.folder = folder
        self._open_items = open_items
        #: Why memory_items could not be read at the last sync (None: it could).
        self.items_error: StoreError | None = None
        #: Counts of the last rebuild the index asked for on open (None: none yet).
        self.last_rebuild: tuple[int, int] | None = None
        #: Who hears the document count of a rebuild the index asks for on open.
        self.progress: Callable[[int], None] | None = None

    @property
    def items(self) -> ItemWriter:
        return self._open_items()

    # --- full rebuild ------------------------------------------------------------------

    def rebuild(self, store: IndexStore) -> None:
        """Replace the whole index (the rebuild callback of `IndexStore.open`)."""
        self.last_rebuild = self.rebuild_counting(store, self.progress)

    def rebuild_counting(
        self, store: IndexStore, progress: Callable[[int], None] | None = None
    ) -> tuple[int, int]:
        """Replace the whole index; returns (folder entries, items) indexed.

        `progress` hears the running document count every 1,000 documents.
        """
        head = self.folder.store.main_id()
        dirty = self._dirty_paths()
        try:
            hot = str(self.items.hot_version)
            item_docs: Iterable[IndexDoc] = self._item_docs()
            self.items_error = None
        except StoreError as exc:
            # The folder stays searchable; the memory lane reports this error instead.
            hot, item_docs, self.items_error = "", (), exc
        counts = [0, 0]

        teams = team_key(self.folder)  # before reading, so a fetch meanwhile is caught

        def everything() -> Iterator[IndexDoc]:
            yield from team_docs(self.folder)  # in the same commit: no second writer pass
            for lane, docs in enumerate((self._folder_docs(head, dirty), item_docs)):
                for doc in docs:
                    counts[lane] += 1
                    if progress is not None and sum(counts) % 1000 == 0:
                        progress(sum(counts))
                    yield doc

        store.bulk_load(everything())
        store.set_reflected(TEAMS_KEY, teams)
        store.set_reflected(MAIN, head)
        store.set_reflected(WORKTREE_KEY, json.dumps(sorted(dirty)))
        store.set_reflected(ITEMS_KEY, hot)
        store.set_reflected(PROJECTION_KEY, PROJECTION_VERSION)
        return counts[0], counts[1]

    def _folder_docs(self, head: str, dirty: set[str]) -> Iterator[IndexDoc]:
        commit = self.folder.store.commit_by_id(head)
        if commit is None:
            files: Iterable[tuple[str, bytes]] = ()
        else:
            files = self.folder.store.iter_files(commit)
        for path, data in files:
            if _indexed(path) and path not in dirty:
                yield from entry_docs(path, data, commit=head, uncommitted=False)
        for path in sorted(dirty):
            edited = self.folder.store.read_worktree(path)
            if edited is not None:
                yield from entry_docs(path, edited, commit="", uncommitted=True)

    def _item_docs(self) -> Iterator[IndexDoc]:
        filters = ItemFilters(status="active", include_private=True)
        for item in self.items.store.list(filters):
            yield item_doc(item)

    # --- incremental -------------------------------------------------------------------

    def sync(
        self,
        store: IndexStore,
        *,
        dirty: set[str] | None = None,
        changed_items: PendingItems | None = None,
    ) -> None:
        """Bring the index up to HEAD, the working tree and the item store.

        `dirty` are the files with uncommitted edits; None asks git (a status scan).
        `changed_items` are the item changes this process made since the last sync.
        An index another version of this code projected is re-projected in full.
        """
        if store.reflected(PROJECTION_KEY) != PROJECTION_VERSION:
            self.rebuild_counting(store)
            return
        self._sync_folder(store, self._dirty_paths() if dirty is None else dirty)
        self._sync_items(store, changed_items or PendingItems())
        sync_team_lane(store, self.folder)

    def _sync_folder(self, store: IndexStore, dirty: set[str]) -> None:
        head_id = self.folder.store.main_id()
        reflected = store.reflected(MAIN)
        was_dirty = set(json.loads(store.reflected(WORKTREE_KEY) or "[]"))
        if reflected == head_id and not dirty and not was_dirty:
            return
        changed = None if reflected is None else self.folder.store.changed_since(reflected, head_id)
        if changed is None:
            self._refresh_folder(store, head_id, dirty)
            return
        head = self.folder.store.commit_by_id(head_id)
        paths = {p for p in changed if _indexed(p)} | dirty | was_dirty
        docs: list[IndexDoc] = []
        for path in sorted(paths):
            if path in dirty:
                edited = self.folder.store.read_worktree(path)
                if edited is not None:
                    docs.extend(entry_docs(path, edited, commit="", uncommitted=True))
            elif head is not None:
                data = self.folder.store.read(path, head)
                if data is not None:
                    docs.extend(entry_docs(path, data, commit=head_id, uncommitted=False))
        store.replace(docs, delete_paths=[(MAIN, p) for p in paths])
        store.set_reflected(MAIN, head_id)
        store.set_reflected(WORKTREE_KEY, json.dumps(sorted(dirty)))

    def _refresh_folder(self, store: IndexStore, head: str, dirty: set[str]) -> None:
        """The reflected commit is gone (history rewritten): re-read every file."""
        docs = list(self._folder_docs(head, dirty))
        store.replace(docs, delete_lanes=["folder", "swarm"])
        store.set_reflected(MAIN, head)
        store.set_reflected(WORKTREE_KEY, json.dumps(sorted(dirty)))

    def _dirty_paths(self) -> set[str]:
        pending = self.folder.store.pending_edits()
        return {p for p in (*pending.modified, *pending.added) if _indexed(p)} | {
            p for p in pending.deleted if _indexed(p)
        }

    def _sync_items(self, store: IndexStore, changed: PendingItems) -> None:
        """Apply item changes: this process's own by id when they account for every
        change since the index was synced (each commit moves the hot version by one),
        otherwise (another process wrote too, or a purge) re-read the active items.
        A store that cannot be read leaves the index as it is and is reported."""
        try:
            hot = self.items.hot_version
        except StoreError as exc:
            self.items_error = exc
            return
        self.items_error = None
        reflected = store.reflected(ITEMS_KEY)
        if reflected == str(hot):
            return
        if (
            reflected is not None
            and reflected.isdigit()
            and int(reflected) + changed.commits == hot
        ):
            self._apply_items(store, changed.ids)
        else:
            store.replace(list(self._item_docs()), delete_lanes=["memory"])
        store.set_reflected(ITEMS_KEY, str(hot))

    def _apply_items(self, store: IndexStore, item_ids: Iterable[str]) -> None:
        docs: list[IndexDoc] = []
        gone: list[str] = []
        for item_id in sorted(set(item_ids)):
            detail = self.items.store.get(item_id)
            if detail is not None and detail.item.status == "active":
                docs.append(item_doc(detail.item))
            else:
                gone.append(f"{ITEM_REF_PREFIX}{item_id}")
        store.replace(docs, delete_refs=gone)


@dataclass(slots=True)
class PendingItems:
    """Item changes made in this process since the index was last synced."""

    ids: set[str] = field(default_factory=set)
    commits: int = 0

    def add(self, item_ids: Iterable[str]) -> None:
        self.ids.update(item_ids)
        self.commits += 1
