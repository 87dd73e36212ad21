"""Retention and purges (reference §7): what leaves memory_items for good.

Retention drops tombstones, expired items and superseded revisions superseded more than
180 days ago, except the newest 5 superseded revisions of each chain (counted from the
current row down `supersedes_id`, so history keeps its latest steps), curation log
rows applied more than 90 days ago (reference §5b; an item's rows also go with it), and
usage rows (who last put a memory in a prompt) older than 90 days.
Dropping a revision only shortens the tail of a chain: `ON DELETE SET NULL` unlinks the
row above it. Purges are hard deletes; memory_item_refs rows go with them by `ON DELETE CASCADE`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from memrepo.items._rows import to_ms
from memrepo.items._tx import Tx
from memrepo.items.vocab import DERIVED_SOURCES

REVISION_RETENTION = timedelta(days=180)
CURATION_LOG_RETENTION = timedelta(days=90)
#: The usage log (who last put a memory in a prompt) keeps 90 days, as the curation log.
USAGE_RETENTION = timedelta(days=90)
REVISIONS_KEPT = 5
LAST_RUN_KEY = "last_retention_at"

_OLD_REVISIONS = """
WITH RECURSIVE chain(head, id, depth) AS (
    SELECT m.id, m.id, 0 FROM memory_items AS m
     WHERE NOT EXISTS (SELECT 1 FROM memory_items AS n WHERE n.supersedes_id = m.id)
    UNION ALL
    SELECT chain.head, m.supersedes_id, chain.depth + 1
      FROM chain JOIN memory_items AS m ON m.id = chain.id
     WHERE m.supersedes_id IS NOT NULL AND chain.depth < 100000
)
SELECT id FROM (
    SELECT c.id, m.updated_at,
           ROW_NUMBER() OVER (PARTITION BY c.head ORDER BY c.depth) AS newest
      FROM chain AS c JOIN memory_items AS m ON m.id = c.id
     WHERE m.status = 'superseded'
) WHERE newest > ? AND updated_at < ?
"""


@dataclass(frozen=True, slots=True)
class Dropped:
    """Ids one retention run deleted, by rule."""

    tombstones: list[str]
    expired: list[str]
    revisions: list[str]


def run_retention(tx: Tx, now: datetime) -> Dropped:
    """Apply the three retention rules and record when they ran."""
    tombstones = tx.delete_where("status = 'deleted'", ())
    expired = tx.delete_where("expires_at IS NOT NULL AND expires_at <= ?", (to_ms(now),))
    cutoff = to_ms(now - REVISION_RETENTION)
    old = [str(row[0]) for row in tx.conn.execute(_OLD_REVISIONS, (REVISIONS_KEPT, cutoff))]
    revisions: list[str] = []
    for start in range(0, len(old), 500):
        batch = old[start : start + 500]
        marks = ",".join("?" for _ in batch)
        revisions += tx.delete_where(f"id IN ({marks})", batch)
    tx.conn.execute(
        "DELETE FROM memory_curation_log WHERE applied_at < ?",
        (to_ms(now - CURATION_LOG_RETENTION),),
    )
    tx.conn.execute("DELETE FROM memory_usage WHERE used_at < ?", (to_ms(now - USAGE_RETENTION),))
    tx.set_meta(LAST_RUN_KEY, str(to_ms(now)))
    return Dropped(tombstones, expired, revisions)


def purge_task(tx: Tx, task_id: str, purge_derived: bool) -> tuple[list[str], list[str]]:
    """Delete the task's own items (and, asked, what it inferred); detach the rest.

    Returns (deleted ids, ids whose task_id was cleared).
    """
    deleted = tx.delete_where("scope = 'task' AND scope_ref = ?", (task_id,))
    if purge_derived:
        marks = ",".join("?" for _ in DERIVED_SOURCES)
        deleted += tx.delete_where(
            f"task_id = ? AND source IN ({marks})", (task_id, *sorted(DERIVED_SOURCES))
        )
    rows = tx.conn.execute(
        "UPDATE memory_items SET task_id = NULL WHERE task_id = ? RETURNING id", (task_id,)
    ).fetchall()
    return deleted, [str(row[0]) for row in rows]


def clear_workspace(tx: Tx, workspace_id: str) -> list[str]:
    """Every item of the workspace (workspace, task and workspace-bound contact scopes)."""
    return tx.delete_where("workspace_id = ?", (workspace_id,))


def clear_global_items(tx: Tx) -> list[str]:
    """Every global-scope item (they belong to no workspace, so clear_workspace keeps them)."""
    return tx.delete_where("scope = 'global'", ())
