"""The queries and writes of one open transaction; only `ItemStore.transaction` makes one.

Lookups repeat the exact expressions of the unique partial indexes (`SCOPE_KEY` and
`status = 'active'`) so SQLite answers them from those indexes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memrepo.items._rows import COLUMNS, INSERT, fetch_items, ref_keys, to_ms, to_params
from memrepo.layout import ITEM_REF_PREFIX
from memrepo.models.items import MemoryItem

_UPDATABLE = tuple(c for c in COLUMNS if c != "id")

SCOPE_KEY = "COALESCE(workspace_id, '') = ? AND scope = ? AND COALESCE(scope_ref, '') = ?"


@dataclass(frozen=True, slots=True)
class ScopeKey:
    """The (workspace, scope, scope_ref) an item's invariants hold in."""

    workspace_id: str | None
    scope: str
    scope_ref: str | None

    def params(self) -> tuple[str, str, str]:
        return (self.workspace_id or "", self.scope, self.scope_ref or "")


class Tx:
    """Reads and writes inside one `BEGIN IMMEDIATE` transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def items(self, where: str, params: Sequence[Any] = ()) -> list[MemoryItem]:
        return fetch_items(self.conn, where, params)

    def one(self, where: str, params: Sequence[Any] = ()) -> MemoryItem | None:
        found = self.items(f"{where} LIMIT 1", params)
        return found[0] if found else None

    def active_by_hash(self, key: ScopeKey, kind: str, content_hash: str) -> MemoryItem | None:
        return self.one(
            f"WHERE {SCOPE_KEY} AND kind = ? AND content_hash = ? AND status = 'active'",
            (*key.params(), kind, content_hash),
        )

    def active_by_subject(self, key: ScopeKey, subject_key: str) -> MemoryItem | None:
        return self.one(
            f"WHERE {SCOPE_KEY} AND subject_key = ? AND status = 'active'",
            (*key.params(), subject_key),
        )

    def by_source_ref(self, store: str, ref_id: str, *, active: bool) -> list[MemoryItem]:
        """Items whose source_ref or an alias is `store:ref_id`, newest first."""
        status = "AND status = 'active'" if active else ""
        return self.items(
            "WHERE id IN (SELECT item_id FROM memory_item_refs WHERE store = ? AND ref_id = ?) "
            f"{status} ORDER BY updated_at DESC, id",
            (store, ref_id),
        )

    def get(self, item_id: str) -> MemoryItem | None:
        return self.one("WHERE id = ?", (item_id,))

    def insert(self, item: MemoryItem) -> None:
        self.conn.execute(INSERT, to_params(item))
        self.add_refs(item.id, ref_keys(item.source_ref))

    def insert_many(self, items: Iterable[MemoryItem]) -> int:
        """Bulk insert (imports, benchmarks): no pipeline, the invariants still hold."""
        rows = list(items)
        self.conn.executemany(INSERT, [to_params(item) for item in rows])
        self.conn.executemany(
            "INSERT OR IGNORE INTO memory_item_refs(store, ref_id, item_id) VALUES (?, ?, ?)",
            [(s, r, item.id) for item in rows for s, r in ref_keys(item.source_ref)],
        )
        return len(rows)

    def add_refs(self, item_id: str, keys: Iterable[tuple[str, str]]) -> None:
        self.conn.executemany(
            "INSERT OR IGNORE INTO memory_item_refs(store, ref_id, item_id) VALUES (?, ?, ?)",
            [(store, ref_id, item_id) for store, ref_id in keys],
        )

    def update(self, item: MemoryItem) -> None:
        """Write every column of `item` over the row with its id (refs are only added)."""
        values = dict(zip(COLUMNS, to_params(item), strict=True))
        self.conn.execute(_UPDATE, (*(values[c] for c in _UPDATABLE), item.id))
        self.add_refs(item.id, ref_keys(item.source_ref))

    def set_status(self, item_ids: Sequence[str], status: str, now: datetime) -> None:
        self.conn.executemany(
            "UPDATE memory_items SET status = ?, updated_at = ? WHERE id = ?",
            [(status, to_ms(now), item_id) for item_id in item_ids],
        )

    def chain_ids(self, item_id: str) -> list[str]:
        """Every revision of the record `item_id` belongs to (older and newer ones)."""
        rows = self.conn.execute(_CHAIN, (item_id, item_id)).fetchall()
        return [str(row[0]) for row in rows]

    def delete_where(self, where: str, params: Sequence[Any]) -> list[str]:
        """Hard-delete matching rows; return their ids (refs go by ON DELETE CASCADE,
        usage rows here)."""
        rows = self.conn.execute(
            f"DELETE FROM memory_items WHERE {where} RETURNING id", tuple(params)
        ).fetchall()
        ids = [str(row[0]) for row in rows]
        # The usage log names any ref (folder lines too), so it has no foreign key.
        self.conn.executemany(
            "DELETE FROM memory_usage WHERE ref = ?", [(ITEM_REF_PREFIX + i,) for i in ids]
        )
        return ids

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM items_meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO items_meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def bump_hot_version(self) -> int:
        """One more than the last hot-memory version any process wrote."""
        row = self.conn.execute(
            "INSERT INTO items_meta(key, value) VALUES ('hot_version', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 "
            "RETURNING value"
        ).fetchone()
        return int(row[0])


_UPDATE = f"UPDATE memory_items SET {', '.join(f'{c} = ?' for c in _UPDATABLE)} WHERE id = ?"

# Walk down (older revisions via supersedes_id) and up (rows superseding this one).
_CHAIN = """
WITH RECURSIVE
  down(id, prev, n) AS (
    SELECT id, supersedes_id, 0 FROM memory_items WHERE id = ?
    UNION
    SELECT m.id, m.supersedes_id, down.n + 1 FROM memory_items AS m
      JOIN down ON m.id = down.prev WHERE down.n < 100000
  ),
  up(id, n) AS (
    SELECT id, 0 FROM memory_items WHERE id = ?
    UNION
    SELECT m.id, up.n + 1 FROM memory_items AS m JOIN up ON m.supersedes_id = up.id
      WHERE up.n < 100000
  )
SELECT id FROM down UNION SELECT id FROM up
"""
