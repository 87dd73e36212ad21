"""The search side of one memory root: the index, its projection, and the lanes.

The index is opened on first use (a one-shot write never pays for it). Once a handle has
it open, or writes a second time (a server's writer, a host: the index is opened then if
it was ever built), each of its writes brings the index up to date right behind the
write (after the write lock is given back: other writers never wait for the index), so
a read after a write finds nothing to do (issue #28). A read still applies what changed
since the index was last synced (another process's commits, files edited in the working
tree, items changed on another thread) in one index commit, but never waits for a
writer: while a write or its catch-up is under way (`MemoryFolder.writes_settling`) or
another writer holds the index, it answers from the last committed state and the commit
that state reflects, a consistent snapshot, and catches up next time.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
import weakref
from collections.abc import Callable, Collection, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Protocol, TypeVar

from memrepo.errors import (
    IndexLocked,
    IndexUnavailable,
    InvalidArgument,
    RecallFailed,
    StoreError,
)
from memrepo.folder.repo import MemoryFolder
from memrepo.index import IndexListener, IndexStore, PlainQuery
from memrepo.items import ItemWriter
from memrepo.layout import workspace_slug
from memrepo.models.items import ItemChange
from memrepo.models.recall import Detail, RecallHit, RecallResult, ReindexReport
from memrepo.recall.lanes import IndexLane, Lane, LaneHit, SharedIndexSearch
from memrepo.recall.oversized import (
    FileTooLargeWarning,
    FileUnreadableWarning,
    Skipped,
    TooLarge,
)
from memrepo.recall.projection import MAIN, PendingItems, Projection, line_now
from memrepo.recall.service import full_hit, run_recall
from memrepo.recall.teams import OpenClones
from memrepo.recall.visibility import Visibility

INDEX_DIR = "index"
_log = logging.getLogger(__name__)
T = TypeVar("T")
#: What an index deleted or truncated under an open store raises.
_GONE = (OSError, EOFError, IndexUnavailable)
LANE_WEIGHTS = {"folder": 1.0, "memory": 1.0, "team": 0.8, "swarm": 0.7}
#: The lanes served by the one Whoosh index (a host adds its own through `add_lane`).
INDEX_LANES = ("folder", "memory", "swarm", "team")


class MeaningPlug(IndexListener, Protocol):
    """The meaning lane as recall sees it (`memrepo.meaning.service.MeaningPart`, plugged
    in by the engine when a person switched it on, issue #29): it follows the index's
    writes and gives a lane over the index lanes a recall searches."""

    def lane(self, lanes: Collection[str]) -> Lane | None:
        """The lane over these index lanes for one recall (None: not usable now)."""

    def eager(self) -> AbstractContextManager[None]:
        """Inside: a rebuild embeds everything it writes (a person asked for it)."""


class Searcher:
    """Recall, expand, reindex and index upkeep for one memory root."""

    def __init__(
        self,
        folder: MemoryFolder,
        open_items: Callable[[], ItemWriter],
        team_clones: OpenClones = None,
    ) -> None:
        self.folder = folder
        self._open_items = open_items
        self._listening: ItemWriter | None = None
        self.projection = Projection(folder, self._items, team_clones)
        self._store: IndexStore | None = None
        #: Held by a read and by the catch-up behind a write: one thread at a time uses
        #: the index handles (a server's writer runs on any thread of a pool; an item
        #: change may come from the item writer's queue). Re-entrant for a read's own
        #: writes (an item's last use), which `_reading` then leaves to the next read.
        self._busy = threading.RLock()
        #: Inside a read: a change it makes (an item's last use) waits for the next read.
        self._reading = False
        self._pending = PendingItems()
        self._extra_lanes: list[Lane] = []
        #: The meaning lane, when it is on (None: recall by words alone, nothing loaded).
        self.meaning: MeaningPlug | None = None
        #: The skipped files already told in this process (see `_tell_too_large`).
        self._told: set[Skipped] = set()

    def _items(self) -> ItemWriter:
        """The item writer (opened on first use), with this searcher listening to it."""
        writer = self._open_items()
        if writer is not self._listening:
            writer.on_change(self._items_changed)
            self._listening = writer
        return writer

    def store(self) -> IndexStore:
        """The index, opened (and rebuilt with a warning if missing or damaged) on first use."""
        if self._store is None:
            self._store = IndexStore.open(
                self.folder.state_dir / INDEX_DIR,
                rebuild=self.projection.rebuild,
                listener=self.meaning,
            )
            # The searcher holds segment files open; a MemoryRepo dropped without close()
            # still releases them when it is collected, as files would be.
            self._finalizer = weakref.finalize(self, self._store.close)
        return self._store

    def add_lane(self, lane: Lane) -> Callable[[], None]:
        """Search a host's own lane too on every recall, fused with the index lanes; the
        returned function takes it away."""
        self._extra_lanes.append(lane)

        def remove() -> None:
            if lane in self._extra_lanes:
                self._extra_lanes.remove(lane)

        return remove

    def listen(self, meaning: MeaningPlug | None) -> None:
        """Make `meaning` (or nobody) hear the writes of an index already open."""
        self.meaning = meaning
        if self._store is not None:
            self._store.listener = meaning

    def close(self) -> None:
        if self._store is not None:
            self._finalizer.detach()
            self._store.close()
            self._store = None

    def lanes(
        self,
        names: Sequence[str] | None,
        visibility: Visibility | None = None,
        *,
        explain: bool = False,
    ) -> list[Lane]:
        """The lanes to search (all, or `names`). The shared index search asks Whoosh for
        `limit` hits per index lane it covers, so it covers only lanes that can answer
        this reader: the team lane when a team is configured, the swarm lane for a reader
        inside a swarm. An idle lane would double the hits collected and scored."""
        live = self._live_index_lanes(names, visibility)
        shared = SharedIndexSearch(self.store(), live, weights=LANE_WEIGHTS, explain=explain)
        built: list[Lane] = [
            # The index lanes' weights order their shared ranking (see SharedIndexSearch);
            # fusion then takes those ranks as they are.
            *(IndexLane(name, 1.0, shared) for name in INDEX_LANES),
            *self._extra_lanes,
        ]
        if self.meaning is not None and (names is None or "meaning" in names):
            # Over the live index lanes only: a lane shut for this reader stays shut.
            named = names if names is None or set(names) & set(INDEX_LANES) else None
            meaning = self.meaning.lane(self._live_index_lanes(named, visibility))
            if meaning is not None:
                built.append(meaning)
        failure = self.projection.items_error
        if failure is not None:
            built = [
                FailedLane("memory", failure) if lane.name == "memory" else lane for lane in built
            ]
        if names is None:
            return built
        known = {lane.name for lane in built} | ({"meaning"} if self.meaning else set())
        unknown = set(names) - known
        if unknown:
            raise InvalidArgument(f"unknown lane(s): {', '.join(sorted(unknown))}")
        return [lane for lane in built if lane.name in names]

    def _live_index_lanes(
        self, names: Sequence[str] | None, visibility: Visibility | None
    ) -> tuple[str, ...]:
        live = []
        for name in INDEX_LANES:
            if names is not None and name not in names:
                continue
            if name == "team" and not self.folder.config.teams:
                continue
            if name == "swarm" and visibility is not None and not visibility.swarm:
                continue
            live.append(name)
        return tuple(live)

    def _fresh(self, action: Callable[[IndexStore], T]) -> T:
        """Sync the index, then run `action`; an index deleted or damaged under an open
        store is reopened (rebuilt, with a warning) and the action tried once more."""
        with self._busy:
            return self._fresh_held(action)

    def _fresh_held(self, action: Callable[[IndexStore], T]) -> T:
        self._reading = True
        try:
            try:
                store = self.store()
                self._sync_or_snapshot(store)
                with store.pinned():  # the action's reads see the commit just synced
                    return action(store)
            except (*_GONE, RecallFailed):
                self.close()  # reopening checks the index and rebuilds it if damaged
            store = self.store()
            self._sync_or_snapshot(store)
            with store.pinned():
                return action(store)
        finally:
            self._reading = False

    def _sync_or_snapshot(self, store: IndexStore) -> None:
        """Catch the index up, unless a write is under way or another writer holds the
        index: then read the state it last committed (a reader never waits for a writer,
        issue #28). A write under way (its lock, or the lock of its catch-up, held by
        another handle or process) is caught up behind by its writer; a reader that did
        it too did the work twice and stood in the writer's way (with twenty clients,
        most of the readers' time)."""
        if self.folder.writes_settling():
            return
        try:
            with store.without_waiting():
                self._sync(store)
        except IndexLocked:
            pass  # the writer holding it is bringing it up to date; next read sees it

    def _sync(self, store: IndexStore) -> None:
        pending, self._pending = self._pending, PendingItems()
        try:
            self.projection.sync(store, changed_items=pending)
        except BaseException:
            self._pending.ids.update(pending.ids)  # not applied: the next sync tries again
            self._pending.commits += pending.commits
            raise
        self._tell_too_large(store)

    def keep_current(self, *, open_built: bool = False) -> None:
        """Bring the index up to date right behind a write of this handle (see the module
        docstring). An index another writer holds (a rebuild, another process catching
        up) is left for the next read, as is any failure: the write has landed and never
        waits for the index or fails for it. So is an index a read of another thread is
        using: that read catches up itself. `open_built`: open the index first if it is
        not open but was built (a handle that writes again: a server's writer)."""
        if self._reading or not self._busy.acquire(blocking=False):
            return
        try:
            if self._store is None and not (open_built and index_built(self.folder)):
                return  # a one-shot write: the next read opens the index and applies it
            store = self.store()
            with store.without_waiting():
                self._sync(store)
            store.warm()
        except (*_GONE, IndexLocked, StoreError, RecallFailed) as exc:
            _log.info("index left for the next read to catch up: %s", exc)
        finally:
            self._busy.release()

    def _tell_too_large(self, store: IndexStore) -> None:
        """Warn once per process for each file the index leaves out (too large, or not
        text): a recall that answers "nothing found" must never hide that a file was not
        read."""
        for skipped in self.projection.too_large(store):
            if skipped not in self._told:
                self._told.add(skipped)
                kind = (
                    FileTooLargeWarning if isinstance(skipped, TooLarge) else FileUnreadableWarning
                )
                warnings.warn(kind(skipped.notice()), stacklevel=2)

    def recall(
        self,
        query: str,
        visibility: Visibility,
        *,
        limit: int,
        lanes: Sequence[str] | None,
        detail: Detail,
        explain: bool = False,
    ) -> RecallResult:
        def search(_store: IndexStore) -> RecallResult:
            chosen = self.lanes(lanes, visibility, explain=explain)
            today = self.folder.clock.now().date()
            found = run_recall(
                query, chosen, visibility, limit=limit, detail=detail, today=today, explain=explain
            )
            return found.model_copy(update={"hits": self._lines_now(_store, found.hits)})

        return self._fresh(search)

    def expand(self, refs: Iterable[str], visibility: Visibility) -> list[RecallHit]:
        """Full text of `refs` under the same visibility (unknown or hidden refs: absent)."""
        wanted = list(dict.fromkeys(refs))

        def fetch(store: IndexStore) -> list[RecallHit]:
            found = store.fetch(wanted, filter_terms=visibility.filter_terms())
            by_ref = {hit.ref: hit for hit in found}
            hits = [full_hit(ref, by_ref[ref].fields) for ref in wanted if ref in by_ref]
            return list(self._lines_now(store, hits))

        return self._fresh(fetch)

    def index_refs(self, *, catch_up: bool = True) -> set[str]:
        """The ref of every document the index holds (the meaning lane's status counts
        which of them have a vector): caught up first, or (`catch_up=False`, for health,
        which never writes) as it was last committed, nothing when it was never built."""

        def refs(store: IndexStore) -> set[str]:
            def read(searcher: Any, _denied: set[int]) -> set[str]:
                return {str(fields["ref"]) for fields in searcher.reader().all_stored_fields()}

            found: set[str] = store.scan(read, filter_terms={})
            return found

        if catch_up:
            return self._fresh(refs)
        with self._busy:
            if self._store is None and not index_built(self.folder):
                return set()
            store = self.store()
            with store.pinned():
                return refs(store)

    def _lines_now(self, store: IndexStore, hits: Sequence[RecallHit]) -> tuple[RecallHit, ...]:
        """Each folder hit with the line its entry is on now, and the commit that holds
        it there: a document whose only change was its line keeps the line and commit
        it was read at (`LineMaps`)."""
        reflected = store.reflected(MAIN)
        out = []
        for hit in hits:
            where = hit.provenance
            moved = None
            if where.repo == MAIN and where.path and where.line:
                commit = None if where.uncommitted else (where.commit or "")
                moved = line_now(self.folder, reflected, where.path, hit.ref, commit)
            if moved is not None and moved[0] != where.line:  # else the stored pair holds
                line, commit_now = moved
                update = {"line": line, "commit": commit_now or where.commit}
                hit = hit.model_copy(update={"provenance": where.model_copy(update=update)})
            out.append(hit)
        return tuple(out)

    def reindex(self, progress: Callable[[int], None] | None = None) -> ReindexReport:
        """Rebuild the index (and the meaning lane's vectors, when it is on: every line
        they wait for is embedded now)."""
        eager = self.meaning.eager() if self.meaning is not None else nullcontext()
        with self._busy, eager:
            return self._reindex(progress)

    def _reindex(self, progress: Callable[[int], None] | None) -> ReindexReport:
        started = time.perf_counter()
        opened_now = self._store is None
        self.projection.last_rebuild = None
        self.projection.progress = progress
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a rebuild asked for is no surprise
                store = self.store()
        finally:
            self.projection.progress = None
        self._pending = PendingItems()
        if opened_now and self.projection.last_rebuild is not None:
            entries, items = self.projection.last_rebuild  # opening just rebuilt it
        else:
            entries, items = self.projection.rebuild_counting(store, progress)
        return ReindexReport(
            documents=store.doc_count(),
            folder_entries=entries,
            items=items,
            seconds=time.perf_counter() - started,
        )

    def _items_changed(self, change: ItemChange) -> None:
        """Remember which items changed; the next read applies them in one index commit.

        It is applied right away (`keep_current`), on whichever thread made it, unless a
        read is using the index: that read, or the next, syncs first (tree diff,
        worktree, these ids), so a recall never misses a write.
        """
        self._pending.add(change.item_ids)
        self.keep_current()


def index_built(folder: MemoryFolder) -> bool:
    """Whether an index was ever built for this root (opening one that was not would
    build it: seconds of work a write must not pay)."""
    path = folder.state_dir / INDEX_DIR
    return path.is_dir() and path.with_name(INDEX_DIR + ".json").is_file()


class FailedLane:
    """A lane whose source cannot be read: it reports why on every recall (a stale
    answer from the index would hide that memory_items is damaged)."""

    weight = 0.0

    def __init__(self, name: str, error: Exception) -> None:
        self.name = name
        self.error = error

    def search(self, query: PlainQuery, visibility: Visibility, limit: int) -> list[LaneHit]:
        raise self.error


def visibility_for(
    *,
    workspace: str | None = None,
    include_private: bool = False,
    contact_ref: str | None = None,
    task_id: str | None = None,
    min_trust: str = "inferred",
    swarm: str | None = None,
) -> Visibility:
    """The reader's context, with the workspace named as people name it."""
    return Visibility(
        workspace_slug(workspace), include_private, contact_ref, task_id, min_trust, swarm
    )
