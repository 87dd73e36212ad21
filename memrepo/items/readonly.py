"""The store's read-only open: counts from the memory_items database through a query-only
connection, for readers that must not change it (health, sources).

It never goes through `ItemStore` (whose open migrates and switches WAL on), and it
lives here, beside the store, so only `items/` touches SQLite: the file is opened only
if it exists (`mode=rw` never creates one), with `PRAGMA query_only`, and every count is
read in one read transaction so the numbers agree with each other. Being the last
connection, its close removes the WAL side files SQLite made for it, leaving the
directory as it was.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from memrepo.errors import StoreError
from memrepo.items.db import DB_NAME, translate
from memrepo.items.schema import check_version

_ACTIVE = "FROM memory_items WHERE status = 'active'"
_PRODUCER = (
    "COALESCE(CASE WHEN json_valid(source_ref) THEN json_extract(source_ref, '$.store') END, "
    "'unknown')"
)
_BUSY_MS = 2000


@dataclass(frozen=True, slots=True)
class StoreFacts:
    """What health and sources need from memory_items; `error` says why counts are 0."""

    path: Path
    present: bool = False
    size_bytes: int = 0
    error: str | None = None
    hot_version: int | None = None
    active: int = 0
    #: Active and not yet expired at the moment asked for: what the index projects
    #: (`memrepo.recall.expiry`); expired rows wait for retention.
    live: int = 0
    private: int = 0
    duplicates: int = 0
    sources: tuple[tuple[str, str, str, int], ...] = field(default_factory=tuple)


def read_store_facts(state_dir: Path, now_ms: int | None = None) -> StoreFacts:
    """Counts of `<state_dir>/items.sqlite3`; `present=False` when there is no file yet.
    `live` counts the active items not expired at `now_ms` (all active ones without it)."""
    path = state_dir / DB_NAME
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return StoreFacts(path=path)
    wal = Path(f"{path}-wal")
    size += wal.stat().st_size if wal.exists() else 0
    try:
        return _read(path, size, now_ms)
    except StoreError as exc:
        return StoreFacts(path=path, present=True, size_bytes=size, error=str(exc))


def _read(path: Path, size: int, now_ms: int | None) -> StoreFacts:
    uri = f"file:{quote(str(path.resolve()))}?mode=rw"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=_BUSY_MS / 1000)
    except sqlite3.Error as exc:
        raise translate(exc, path) from exc
    try:
        conn.execute("PRAGMA query_only = ON")
        conn.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
        conn.execute("BEGIN")
        try:
            return _counts(conn, path, size, now_ms)
        finally:
            conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        raise translate(exc, path) from exc
    finally:
        conn.close()


def _counts(conn: sqlite3.Connection, path: Path, size: int, now_ms: int | None) -> StoreFacts:
    check_version(conn, str(path))
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "memory_items" not in tables:
        return StoreFacts(path=path, present=True, size_bytes=size)
    hot = None
    if "items_meta" in tables:
        row = conn.execute("SELECT value FROM items_meta WHERE key = 'hot_version'").fetchone()
        hot = int(row[0]) if row is not None and str(row[0]).isdigit() else None
    active, live, private, distinct = conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(expires_at IS NULL OR expires_at > ?), 0), "
        "COALESCE(SUM(privacy = 'private'), 0), "
        "COUNT(DISTINCT COALESCE(workspace_id, '') || char(31) || COALESCE(scope_ref, '') "
        "|| char(31) || content_hash) " + _ACTIVE,
        (now_ms if now_ms is not None else -(2**62),),
    ).fetchone()
    sources = conn.execute(
        f"SELECT source, {_PRODUCER}, scope, COUNT(*) {_ACTIVE} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
    ).fetchall()
    return StoreFacts(
        path=path,
        present=True,
        size_bytes=size,
        hot_version=hot,
        active=int(active),
        live=int(live),
        private=int(private),
        duplicates=int(active) - int(distinct),
        sources=tuple((str(s), str(p), str(c), int(n)) for s, p, c, n in sources),
    )
