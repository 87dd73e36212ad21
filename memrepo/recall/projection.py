"""The index as a projection of git and memory_items, kept in step incrementally.

The index records the commit of main it reflects, the item store's hot version, and
which files it took from the working tree. `sync` applies only the difference: the tree
diff from the reflected commit to HEAD, files people edited without committing (read
from the working tree, marked uncommitted), and item changes. Anything it cannot bridge
(a reflected commit that is gone, items changed by another process) falls back to
re-reading that part in full. Nothing here is a source of truth.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from memrepo.errors import StoreError
from memrepo.folder.repo import MemoryFolder
from memrepo.index import IndexDoc, IndexStore
from memrepo.items import ItemWriter
from memrepo.layout import ITEM_REF_PREFIX
from memrepo.models.items import ItemFilters
from memrepo.recall import expiry as expiries
from memrepo.recall import oversized
from memrepo.recall.documents import MAIN, entry_docs, indexed_path, item_doc
from memrepo.recall.expiry import EXPIRY_KEY, ExpiryWatch
from memrepo.recall.oversized import TOO_LARGE_KEY, Skipped
from memrepo.recall.teams import (
    TEAMS_KEY,
    OpenClones,
    join_key,
    sync_team_lane,
    team_docs,
    team_key,
)

__all__ = [
    "ITEMS_KEY",
    "MAIN",
    "WORKTREE_KEY",
    "LineMaps",
    "PendingItems",
    "Projection",
    "entry_docs",
    "item_doc",
]

WORKTREE_KEY = "main:worktree"
ITEMS_KEY = "items"
#: What this code projects, beyond the index schema: an index projected by another
#: version is re-projected on the next sync (2: the privacy classes of `privacy_class`;
#: 3: expired entries and items left out; 4: files over the size limit left out and
#: recorded, `memrepo.recall.oversized`).
PROJECTION_KEY = "projection"
PROJECTION_VERSION = "4"


class Projection:
    """Builds and updates the index of one memory root."""

    def __init__(
        self,
        folder: MemoryFolder,
        open_items: Callable[[], ItemWriter],
        team_clones: OpenClones = None,
    ) -> None:
        self.folder = folder
        self._open_items = open_items
        #: Why memory_items could not be read at the last sync (None: it could).
        self.items_error: StoreError | None = None
        #: Counts of the last rebuild the index asked for on open (None: none yet).
        self.last_rebuild: tuple[int, int] | None = None
        #: Who hears the document count of a rebuild the index asks for on open.
        self.progress: Callable[[int], None] | None = None
        #: The moment of the running sync, and the expiries it saw (see `_watch_now`).
        self._watch = ExpiryWatch(folder.clock.now())
        #: How the team lane reads the team clones: given by the engine (the clones are
        #: sync's), asked only when teams are configured. None: no team lane.
        self.team_clones = team_clones

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
        watch = self._watch_now()
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
        too_large: dict[str, int | str] = {}

        teams = team_key(
            self.folder, self.team_clones
        )  # before reading, so a fetch meanwhile is caught
        team_watch = ExpiryWatch(watch.now)  # team paths are not the folder's paths

        def everything() -> Iterator[IndexDoc]:
            # In the same commit: no second writer pass.
            yield from team_docs(self.folder, self.team_clones, team_watch)
            folder_docs = self._folder_docs(head, dirty, too_large)
            for lane, docs in enumerate((folder_docs, item_docs)):
                for doc in docs:
                    counts[lane] += 1
                    if progress is not None and sum(counts) % 1000 == 0:
                        progress(sum(counts))
                    yield doc

        store.bulk_load(everything())
        store.set_reflected(TEAMS_KEY, join_key(teams, team_watch))
        store.set_reflected(MAIN, head)
        store.set_reflected(WORKTREE_KEY, json.dumps(sorted(dirty)))
        store.set_reflected(ITEMS_KEY, hot)
        store.set_reflected(EXPIRY_KEY, expiries.dump(watch.seen))
        store.set_reflected(TOO_LARGE_KEY, oversized.dump(too_large))
        store.set_reflected(PROJECTION_KEY, PROJECTION_VERSION)
        return counts[0], counts[1]

    def _folder_docs(
        self, head: str, dirty: set[str], too_large: dict[str, int | str]
    ) -> Iterator[IndexDoc]:
        """The documents of every file at `head` (edited ones from the working tree);
        files over the size limit are left out and noted in `too_large`."""
        commit = self.folder.store.commit_by_id(head)
        if commit is None:
            files: Iterable[tuple[str, bytes]] = ()
        else:
            files = self.folder.store.iter_files(commit)
        for path, data in files:
            if indexed_path(path) and path not in dirty:
                yield from self._file_docs(path, data, head, too_large)
        for path in sorted(dirty):
            edited = self.folder.store.read_worktree(path)
            if edited is not None:
                yield from self._file_docs(path, edited, "", too_large)

    def _file_docs(
        self, path: str, data: bytes, commit: str, too_large: dict[str, int | str]
    ) -> list[IndexDoc]:
        """One file's documents (`commit` "" : read from the working tree), or none and
        a note in `too_large` when it is over the size memrepo indexes."""
        too_large.pop(path, None)
        if oversized.is_too_large(data):
            too_large[path] = len(data)
            return []
        reason = oversized.unreadable_reason(data)
        if reason is not None:
            too_large[path] = reason  # committed with plain git or brought by a sync
            return []
        return entry_docs(path, data, commit=commit, uncommitted=not commit, expiry=self._watch)

    def too_large(self, store: IndexStore) -> list[Skipped]:
        """The files the index left out, for their size or for not being text, as it
        last recorded them."""
        return oversized.skipped(oversized.load(store.reflected(TOO_LARGE_KEY)))

    def _item_docs(self) -> Iterator[IndexDoc]:
        filters = ItemFilters(status="active", include_private=True)
        for item in self.items.store.list(filters):
            if not self._watch.item_expired(item.id, item.expires_at):
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
        watch = self._watch_now()
        dirty = self._dirty_paths() if dirty is None else dirty
        self._sync_folder(store, dirty)
        self._sync_items(store, changed_items or PendingItems())
        sync_team_lane(store, self.folder, self.team_clones)
        self._sync_expiry(store, watch, dirty)

    def _watch_now(self) -> ExpiryWatch:
        self._watch = ExpiryWatch(self.folder.clock.now())
        return self._watch

    def _sync_expiry(self, store: IndexStore, watch: ExpiryWatch, dirty: set[str]) -> None:
        """Re-project what expired since the last sync; remember what expires later."""
        raw = store.reflected(EXPIRY_KEY)
        due = expiries.load(raw)
        due.update(watch.seen)
        pending, come = expiries.split_due(due, watch.now)
        if come:
            watch.seen = {}
            paths = {t.removeprefix(expiries.PATH) for t in come if t.startswith(expiries.PATH)}
            self._project_paths(store, paths, dirty, self.folder.store.main_id())
            ids = [t.removeprefix(expiries.ITEM) for t in come if t.startswith(expiries.ITEM)]
            if ids:
                self._apply_items(store, ids)
            pending.update(watch.seen)
        text = expiries.dump(pending)
        if text != raw:
            store.set_reflected(EXPIRY_KEY, text)

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
        paths = {p for p in changed if indexed_path(p)} | dirty | was_dirty
        self._project_paths(store, paths, dirty, head_id)
        store.set_reflected_many({MAIN: head_id, WORKTREE_KEY: json.dumps(sorted(dirty))})

    def _project_paths(
        self, store: IndexStore, paths: set[str], dirty: set[str], head_id: str
    ) -> None:
        """Replace the documents of `paths`: from the working tree when edited, else HEAD."""
        head = self.folder.store.commit_by_id(head_id)
        files: dict[str, list[IndexDoc]] = {}
        raw = store.reflected(TOO_LARGE_KEY)
        too_large = oversized.load(raw)
        for path in sorted(paths):
            files[path] = []
            too_large.pop(path, None)  # gone, or read again below
            if path in dirty:
                edited = self.folder.store.read_worktree(path)
                if edited is not None:
                    files[path] = self._file_docs(path, edited, "", too_large)
                    LINE_MAPS.record(path, edited, files[path])
            elif head is not None:
                data = self.folder.store.read(path, head)
                if data is not None:
                    files[path] = self._file_docs(path, data, head_id, too_large)
                    LINE_MAPS.record(path, data, files[path])
        store.sync_files(MAIN, files)
        if oversized.dump(too_large) != (raw or "{}"):
            store.set_reflected(TOO_LARGE_KEY, oversized.dump(too_large))

    def _refresh_folder(self, store: IndexStore, head: str, dirty: set[str]) -> None:
        """The reflected commit is gone (history rewritten): re-read every file."""
        too_large: dict[str, int | str] = {}
        docs = list(self._folder_docs(head, dirty, too_large))
        store.replace(docs, delete_lanes=["folder", "swarm"])
        store.set_reflected(TOO_LARGE_KEY, oversized.dump(too_large))
        store.set_reflected(MAIN, head)
        store.set_reflected(WORKTREE_KEY, json.dumps(sorted(dirty)))

    def _dirty_paths(self) -> set[str]:
        pending = self.folder.store.pending_edits()
        return {p for p in (*pending.modified, *pending.added) if indexed_path(p)} | {
            p for p in pending.deleted if indexed_path(p)
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
            if (
                detail is not None
                and detail.item.status == "active"
                and not self._watch.item_expired(item_id, detail.item.expires_at)
            ):
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


class LineMaps:
    """Each entry's line in a version of a file, by ref, for the files read last.

    The index keeps a folder document whose only change is its line (an entry inserted
    above it) as it was, with the commit it was read at (`memrepo.index.store
    .stored_fields`): rewriting every document below an insertion made each `remember`
    into a large file cost 0.8 s (issue #28). A recall reads the current line back
    here. The projection records the files it just read, so the writer pays for the
    map, not the next recall; a version of a file never projected in this process (a
    commit another process made) is parsed once. Shared by every handle of the
    process (a server's writer and its readers), keyed by the file's git blob id.
    """

    LIMIT = 256

    def __init__(self) -> None:
        self._maps: OrderedDict[tuple[str, str], dict[str, int]] = OrderedDict()
        self._lock = threading.Lock()

    def record(self, path: str, data: bytes, docs: Iterable[IndexDoc]) -> None:
        self._keep((path, _git_blob_id(data)), {doc.ref: doc.line for doc in docs})

    def lines(self, path: str, data: bytes) -> dict[str, int]:
        key = (path, _git_blob_id(data))
        with self._lock:
            found = self._maps.get(key)
            if found is not None:
                self._maps.move_to_end(key)
                return found
        docs = entry_docs(path, data, commit="", uncommitted=False)
        return self._keep(key, {doc.ref: doc.line for doc in docs})

    def _keep(self, key: tuple[str, str], lines: dict[str, int]) -> dict[str, int]:
        with self._lock:
            self._maps[key] = lines
            self._maps.move_to_end(key)
            while len(self._maps) > self.LIMIT:
                self._maps.popitem(last=False)
        return lines


LINE_MAPS = LineMaps()


def line_now(
    folder: MemoryFolder, reflected: str | None, path: str, ref: str, commit: str | None
) -> tuple[int, str | None] | None:
    """(line, commit) where `ref` is now: in the working tree (`commit` None: read from
    it), or in the commit the index reflects; None when the stored pair still holds (the
    file is the same there) or the entry cannot be found."""
    store = folder.store
    if commit is None:
        data = store.read_worktree(path)
    else:
        if not reflected or commit == reflected:
            return None
        now, then = store.commit_by_id(reflected), store.commit_by_id(commit)
        if now is None or _blob_id(now, path) == _blob_id(then, path):
            return None  # the file did not change since the document was read
        data = store.read(path, now)
    if data is None:
        return None
    line = LINE_MAPS.lines(path, data).get(ref)
    return None if line is None else (line, reflected if commit is not None else None)


def _blob_id(commit: Any, path: str) -> str | None:
    """The blob id of `path` in `commit` (a pygit2 commit; typed loosely: only the
    git layers import pygit2, tests/test_architecture.py)."""
    if commit is None:
        return None
    try:
        return str(commit.tree[path].id)
    except KeyError:
        return None


def _git_blob_id(data: bytes) -> str:
    """The id git gives `data` as a blob (what pygit2.hash says; only the git layers
    import pygit2, tests/test_layers.py)."""
    return hashlib.sha1(b"blob %d\x00" % len(data) + data, usedforsecurity=False).hexdigest()
