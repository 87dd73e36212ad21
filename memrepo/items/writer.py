"""`ItemWriter`: the one pipeline every producer's facts take into memory_items.

Steps (reference §3): 1-2 screen and redact with `memrepo.hygiene.screen` (the folder's
own screen); 3 policy (`items.policy`); 4-6 edit / dedupe / supersede / persist in one
transaction (`items._resolve`); 7 bump the hot-memory version in that same transaction,
so no process can see the rows without the bump; 8 tell the change listeners, after the
commit. Status changes, retention and purges go through the same commit-bump-notify path.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import date, datetime
from types import TracebackType
from typing import TypeVar

from memrepo import hygiene
from memrepo.clock import Clock
from memrepo.errors import EntryNotFound, StoreError
from memrepo.formats import normalize_text
from memrepo.items import retention, status, usage
from memrepo.items._resolve import Outcome, Prepared, resolve, resolve_revision
from memrepo.items._tx import ScopeKey, Tx
from memrepo.items.policy import SettingsLookup, decide, default_settings
from memrepo.items.store import ItemStore
from memrepo.items.why import explain
from memrepo.models.items import (
    ItemCandidate,
    ItemChange,
    ItemSkipReason,
    ItemWriteResult,
    PurgeReport,
    RetentionReport,
    Scope,
)

T = TypeVar("T")
Listener = Callable[[ItemChange], None]
MAX_CHARS = 1000

_log = logging.getLogger(__name__)


def content_hash(text: str) -> str:
    """sha256 of the normalized text: two spellings of one fact hash the same."""
    return hashlib.sha256(normalize_text(text).encode("utf-8", "surrogatepass")).hexdigest()


def derived_subject(kind: str, digest: str) -> str:
    """The subject of an unnamed fact; the kind is in it because the hash index is per kind."""
    return "hash:" + hashlib.sha256(f"{kind}:{digest}".encode()).hexdigest()[:16]


class ItemWriter:
    """Writes memory_items for one store; calls from one writer are serialized."""

    def __init__(
        self,
        store: ItemStore,
        clock: Clock,
        settings_lookup: SettingsLookup = default_settings,
    ) -> None:
        self.store = store
        self.clock = clock
        self.settings_lookup = settings_lookup
        self._listeners: list[Listener] = []
        self._listeners_lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._closed = False

    # Listeners and the hot version ----------------------------------------------------

    def on_change(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` after every committed change; returns a function that stops it."""
        with self._listeners_lock:
            self._listeners.append(listener)

        def remove() -> None:
            with self._listeners_lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return remove

    @property
    def hot_version(self) -> int:
        """Grows with every change by any process; cached L0 blocks rebuild when it moves."""
        return int(self.store.meta("hot_version") or 0)

    def _commit(
        self,
        kind: str,
        work: Callable[[Tx], tuple[T, list[str]]],
        workspace_id: str | None = None,
        scope: Scope | None = None,
    ) -> T:
        with self.store.transaction() as tx:
            result, changed = work(tx)
            if changed:
                tx.bump_hot_version()
        if changed:
            change = ItemChange.model_validate(
                {"kind": kind, "item_ids": tuple(dict.fromkeys(changed)),
                 "workspace_id": workspace_id, "scope": scope}
            )  # fmt: skip
            with self._listeners_lock:
                listeners = list(self._listeners)
            for listener in listeners:
                try:
                    listener(change)
                except Exception:
                    # The change is committed; one broken listener must not undo the
                    # write's success for the caller or starve the other listeners.
                    _log.exception("memory_items change listener %r failed", listener)
        return result

    # Ingest -----------------------------------------------------------------------------

    def ingest(self, candidate: ItemCandidate) -> ItemWriteResult:
        """Run the whole pipeline for one candidate; skipped writes change nothing."""
        return self._write(candidate, resolve)

    def revise(self, item_id: str, candidate: ItemCandidate) -> ItemWriteResult:
        """A person's new text for the active item `item_id` (reference §5a: a person's
        correction supersedes): the same screen and policy as `ingest`, then the edit
        step of `_resolve` on that row, so the new row supersedes it and the chain shows
        the old value. EntryNotFound when `item_id` is not an active item."""

        def edit(tx: Tx, prepared: Prepared) -> Outcome:
            target = tx.get(item_id)
            if target is None or target.status != "active":
                raise EntryNotFound(f"memory:{item_id}", "no such active memory item")
            return resolve_revision(tx, prepared, target)

        return self._write(candidate, edit)

    def _write(
        self, candidate: ItemCandidate, step: Callable[[Tx, Prepared], Outcome]
    ) -> ItemWriteResult:
        screened = hygiene.screen(
            candidate.content,
            origin_text=candidate.origin_text,
            no_memory=candidate.no_memory,
            max_chars=MAX_CHARS,
        )
        if screened.text is None:
            reason: ItemSkipReason = screened.skip_reason  # type: ignore[assignment]
            return ItemWriteResult(status="skipped", reason=reason, redacted=screened.redacted)
        decision = decide(candidate, self.settings_lookup)
        if decision.reason is not None:
            return ItemWriteResult(
                status="skipped", reason=decision.reason, redacted=screened.redacted
            )
        digest = content_hash(screened.text)
        prepared = Prepared(
            candidate=candidate,
            content=screened.text,
            content_hash=digest,
            subject_key=candidate.subject_key or derived_subject(candidate.kind, digest),
            named=candidate.subject_key is not None,
            privacy=decision.privacy,
            task_id=decision.task_id,
            key=ScopeKey(candidate.workspace_id, candidate.scope, candidate.scope_ref),
            now=self.clock.now(),
        )

        def work(tx: Tx) -> tuple[ItemWriteResult, list[str]]:
            outcome = step(tx, prepared)
            if outcome.action is None:
                skipped = ItemWriteResult(
                    status="skipped",
                    reason="outranked",
                    holder_id=outcome.holder_id,
                    redacted=screened.redacted,
                )
                return skipped, []
            assert outcome.item is not None
            written = ItemWriteResult(
                status="written",
                action=outcome.action,
                item=outcome.item,
                superseded_ids=outcome.superseded_ids,
                redacted=screened.redacted,
                truncated=screened.truncated,
            )
            return written, [outcome.item.id, *outcome.superseded_ids]

        return self._commit("ingest", work, candidate.workspace_id, candidate.scope)

    def write_in_background(self, candidate: ItemCandidate) -> Future[ItemWriteResult]:
        """Queue an ingest on the writer's one worker thread: results land in call order."""
        if self._closed:
            raise StoreError(f"{self.store.path}: the item writer is closed")
        if self._executor is None:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="memrepo-items")
        return self._executor.submit(self.ingest, candidate)

    def flush(self) -> None:
        """Wait until every queued background write has finished."""
        if self._executor is not None:
            self._executor.submit(lambda: None).result()

    def close(self) -> None:
        """Finish queued writes and stop the worker (the store stays open: its owner closes
        it)."""
        self._closed = True
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None

    def __enter__(self) -> ItemWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # Status, use, provenance -----------------------------------------------------------

    def set_status(self, item_id: str, new_status: str) -> tuple[str, ...]:
        """Archive, supersede or delete the record `item_id`; returns the ids changed."""
        now = self.clock.now()
        return self._commit(
            "status", lambda tx: _ids(status.set_status(tx, item_id, new_status, now))
        )

    def set_status_by_source_ref(self, store: str, ref_id: str, new_status: str) -> tuple[str, ...]:
        """`set_status` for every item that answers to `store:ref_id` (its ref or an alias)."""
        now = self.clock.now()
        return self._commit(
            "status",
            lambda tx: _ids(status.set_status_by_source_ref(tx, store, ref_id, new_status, now)),
        )

    def confirm(self, item_id: str) -> bool:
        """A person confirms the item (`status.confirm`); False when nothing changed."""
        now = self.clock.now()
        changed = self._commit("status", lambda tx: _ids(status.confirm(tx, item_id, now)))
        return bool(changed)

    def set_pinned(self, item_id: str, pinned: bool) -> bool:
        """A person pins or unpins the item (`status.set_pinned`); False when nothing
        changed."""
        now = self.clock.now()
        changed = self._commit(
            "status", lambda tx: _ids(status.set_pinned(tx, item_id, pinned, now))
        )
        return bool(changed)

    def set_due(self, item_id: str, day: date | None) -> bool:
        """A person sets or clears the item's due day (`status.set_due`); False when
        nothing changed."""
        now = self.clock.now()
        return bool(self._commit("status", lambda tx: _ids(status.set_due(tx, item_id, day, now))))

    def mark_used(
        self, refs: Iterable[str], agent: str | None = None, now: datetime | None = None
    ) -> None:
        """Record use of memories actually injected or quoted, and by which agent (no
        hot-version bump: a prompt's cache stays valid). `agent` is the host's own name
        for itself, kept as one short printable line."""
        found = list(refs)
        if found:
            with self.store.transaction() as tx:
                usage.mark_used(tx, found, usage.agent_label(agent), now or self.clock.now())

    def why(self, item_id: str) -> str:
        """A plain-language origin of the item; `EntryNotFound` when there is none."""
        detail = self.store.get(item_id)
        if detail is None:
            raise EntryNotFound(f"memory:{item_id}")
        return explain(detail)

    # Retention and purges ----------------------------------------------------------------

    def run_retention(self, now: datetime | None = None) -> RetentionReport:
        """Drop tombstones, expired items and old superseded revisions (reference §7)."""
        when = now or self.clock.now()

        def work(tx: Tx) -> tuple[RetentionReport, list[str]]:
            dropped = retention.run_retention(tx, when)
            report = RetentionReport(
                ran_at=when,
                tombstones=len(dropped.tombstones),
                expired=len(dropped.expired),
                revisions=len(dropped.revisions),
            )
            return report, [*dropped.tombstones, *dropped.expired, *dropped.revisions]

        return self._commit("retention", work)

    def purge_task(self, task_id: str, purge_derived: bool = False) -> PurgeReport:
        """Delete a task's items (and with `purge_derived` what it inferred); detach the rest."""

        def work(tx: Tx) -> tuple[PurgeReport, list[str]]:
            deleted, detached = retention.purge_task(tx, task_id, purge_derived)
            return PurgeReport(deleted=len(deleted), detached=len(detached)), deleted + detached

        return self._commit("purge", work)

    def clear_workspace(self, workspace_id: str) -> PurgeReport:
        """Delete every item of the workspace (global items are not the workspace's)."""

        def work(tx: Tx) -> tuple[PurgeReport, list[str]]:
            deleted = retention.clear_workspace(tx, workspace_id)
            return PurgeReport(deleted=len(deleted)), deleted

        return self._commit("purge", work, workspace_id=workspace_id)

    def clear_global_items(self) -> PurgeReport:
        """Delete every global-scope item."""

        def work(tx: Tx) -> tuple[PurgeReport, list[str]]:
            deleted = retention.clear_global_items(tx)
            return PurgeReport(deleted=len(deleted)), deleted

        return self._commit("purge", work, scope="global")


def _ids(changed: list[str]) -> tuple[tuple[str, ...], list[str]]:
    return tuple(changed), changed
