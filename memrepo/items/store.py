"""`ItemStore`: the one connection to memory_items and the only code that writes it.

One connection per store, shared by threads under a lock (the background writer runs on
its own thread). Every write runs in `BEGIN IMMEDIATE`, so the write lock is taken up
front: two processes never both read "no such row" and then collide on insert, and a
lock held past the busy timeout fails fast as `StoreBusy` instead of deadlocking.
"""

from __future__ import annotations

import builtins
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

from memrepo.errors import InvalidArgument, StoreError
from memrepo.items._rows import fetch_items
from memrepo.items._tx import Tx
from memrepo.items.db import DEFAULT_BUSY_TIMEOUT, default_path, open_connection, translate
from memrepo.items.usage import LAST_USE_OF, LAST_USES, uses_of
from memrepo.layout import ITEM_REF_PREFIX
from memrepo.models.items import ItemDetail, ItemFilters, MemoryItem
from memrepo.models.usage import MemoryUse

#: The shortest item id prefix taken for a whole id (item ids are 32 hex digits).
MIN_ID_PREFIX = 6


class ItemStore:
    """The memory_items database of one memory root (`<root>/.git/memrepo/items.sqlite3`)."""

    def __init__(self, path: Path, *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> None:
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = open_connection(
            self.path, busy_timeout=busy_timeout
        )
        self._lock = threading.Lock()

    @classmethod
    def open(cls, state_dir: Path, *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> ItemStore:
        """The store in a memory root's state directory (`.git/memrepo/`)."""
        return cls(default_path(state_dir), busy_timeout=busy_timeout)

    def close(self) -> None:
        """Close the connection (idempotent); SQLite checkpoints the WAL on last close."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> ItemStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"{self.path}: the item store is closed", path=str(self.path))
        return self._conn

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One `BEGIN IMMEDIATE` transaction: committed on success, rolled back on error."""
        with self._lock:
            conn = self._connection()
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise translate(exc, self.path) from exc
            try:
                yield Tx(conn)
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback(conn)
                raise translate(exc, self.path) from exc
            except BaseException:
                self._rollback(conn)
                raise

    @staticmethod
    def _rollback(conn: sqlite3.Connection) -> None:
        if conn.in_transaction:
            conn.execute("ROLLBACK")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._connection()
            except sqlite3.Error as exc:
                raise translate(exc, self.path) from exc

    # Reads ---------------------------------------------------------------------------

    def ids_starting(self, prefix: str, limit: int = 2) -> builtins.list[str]:
        """Up to `limit` item ids that start with `prefix` (a short id, as git takes a
        short commit id): a range scan of the primary key, so it costs one lookup."""
        if not prefix:
            return []
        upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
        with self._reading() as conn:
            rows = conn.execute(
                "SELECT id FROM memory_items WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
                (prefix, upper, limit),
            ).fetchall()
        return [str(row[0]) for row in rows]

    def full_id(self, ref: str) -> str:
        """The full id `ref` names (`memory:<id>`, the bare id, or a unique prefix of at
        least `MIN_ID_PREFIX` characters, as git takes a short commit id): itself when it
        is one, else the one id it starts; unchanged when none does (the caller's lookup
        then says "no such item"). InvalidArgument when several match."""
        wanted = ref.strip().removeprefix(ITEM_REF_PREFIX)
        if len(wanted) < MIN_ID_PREFIX or self.get(wanted) is not None:
            return wanted
        found = self.ids_starting(wanted)
        if len(found) > 1:
            raise InvalidArgument(
                f"{ref} is ambiguous: {', '.join(found)} and maybe more; give more characters"
            )
        return found[0] if found else wanted

    def get(self, item_id: str) -> ItemDetail | None:
        """The item and its older revisions, newest first; None when there is no such id."""
        with self._reading() as conn:
            found = fetch_items(conn, "WHERE id = ?", (item_id,))
            if not found:
                return None
            chain: list[MemoryItem] = []
            seen = {item_id}
            previous = found[0].supersedes_id
            while previous is not None and previous not in seen:
                seen.add(previous)
                older = fetch_items(conn, "WHERE id = ?", (previous,))
                if not older:
                    break
                chain.append(older[0])
                previous = older[0].supersedes_id
        return ItemDetail(item=found[0], chain=tuple(chain))

    def list(self, filters: ItemFilters | None = None) -> list[MemoryItem]:
        """Items matching `filters`, most recently updated first."""
        where, params = _where(filters or ItemFilters())
        limit = (filters.limit if filters else None) or -1
        with self._reading() as conn:
            return fetch_items(
                conn, f"{where} ORDER BY updated_at DESC, id LIMIT ?", (*params, limit)
            )

    def count(self, filters: ItemFilters | None = None) -> int:
        """How many items match `filters` (the limit is ignored)."""
        where, params = _where(filters or ItemFilters())
        with self._reading() as conn:
            row = conn.execute(f"SELECT count(*) FROM memory_items {where}", params).fetchone()
        return int(row[0])

    def workspaces(self) -> builtins.list[str]:
        """The workspaces any active item belongs to, sorted (a person's "where is it")."""
        with self._reading() as conn:
            rows = conn.execute(
                "SELECT DISTINCT workspace_id FROM memory_items "
                "WHERE workspace_id IS NOT NULL AND status = 'active' ORDER BY 1"
            ).fetchall()
        return [str(row[0]) for row in rows]

    def find_by_source_ref(self, store: str, ref_id: str) -> builtins.list[MemoryItem]:
        """Every item (any status) whose source_ref or an alias is `store:ref_id`."""
        with self._reading() as conn:
            return Tx(conn).by_source_ref(store, ref_id, active=False)

    def last_uses(self, ref: str | None = None) -> dict[str, MemoryUse]:
        """The newest use of every memory used in the last 90 days (or of `ref`), by ref."""
        with self._reading() as conn:
            if ref is None:
                return uses_of(conn.execute(LAST_USES).fetchall())
            return uses_of(conn.execute(LAST_USE_OF, (ref,)).fetchall())

    def meta(self, key: str) -> str | None:
        """A value of items_meta (`hot_version`, `last_retention_at`)."""
        with self._reading() as conn:
            return Tx(conn).meta(key)

    def check(self) -> builtins.list[str]:
        """`PRAGMA integrity_check` problems (empty when the file is sound); reads it all."""
        with self._reading() as conn:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
        problems = [str(row[0]) for row in rows]
        return [] if problems == ["ok"] else problems


def _where(filters: ItemFilters) -> tuple[str, tuple[Any, ...]]:
    clauses: list[str] = []
    params: list[Any] = []
    for column in ("workspace_id", "scope", "scope_ref", "kind", "task_id", "subject_key"):
        value = getattr(filters, column)
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if filters.status != "any":
        clauses.append("status = ?")
        params.append(filters.status)
    if not filters.include_private:
        clauses.append("privacy != 'private'")
    return ("WHERE " + " AND ".join(clauses) if clauses else ""), tuple(params)
