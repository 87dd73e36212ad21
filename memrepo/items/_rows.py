"""Row <-> model mapping for memory_items: column order, times as integer milliseconds.

Times are stored as UTC milliseconds since the epoch so they sort and compare in SQL
(retention, expiry) without parsing; models carry timezone-aware UTC datetimes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from memrepo.models.items import MemoryItem, SourceRef

COLUMNS: tuple[str, ...] = (
    "id",
    "workspace_id",
    "scope",
    "scope_ref",
    "kind",
    "subject_key",
    "content",
    "content_hash",
    "source",
    "source_ref",
    "confidence",
    "pinned",
    "privacy",
    "task_id",
    "status",
    "supersedes_id",
    "reinforced_count",
    "created_at",
    "updated_at",
    "last_used_at",
    "expires_at",
    "tainted",
)
SELECT = f"SELECT {', '.join(COLUMNS)} FROM memory_items"
INSERT = (
    f"INSERT INTO memory_items({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})"
)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


def to_ms(value: datetime) -> int:
    """UTC milliseconds of an aware datetime (exact: no float rounding)."""
    if value.tzinfo is None:
        raise ValueError("naive datetime: memory_items stores only timezone-aware times")
    return (value - _EPOCH) // _MS


def opt_ms(value: datetime | None) -> int | None:
    return None if value is None else to_ms(value)


def from_ms(value: int) -> datetime:
    return _EPOCH + timedelta(milliseconds=value)


def _opt_dt(value: int | None) -> datetime | None:
    return None if value is None else from_ms(value)


def dump_ref(ref: SourceRef | None) -> str | None:
    return None if ref is None else ref.model_dump_json()


def load_ref(raw: str | None) -> SourceRef | None:
    return None if raw is None else SourceRef.model_validate_json(raw)


def ref_keys(ref: SourceRef | None) -> list[tuple[str, str]]:
    """Every (store, id) an item answers to: its ref and its aliases."""
    if ref is None:
        return []
    return [(ref.store, ref.id), *((a.store, a.id) for a in ref.aliases)]


def to_item(row: Sequence[Any]) -> MemoryItem:
    """The model of one row selected with `SELECT`."""
    values = dict(zip(COLUMNS, row, strict=True))
    values["source_ref"] = load_ref(values["source_ref"])
    values["pinned"] = bool(values["pinned"])
    values["tainted"] = bool(values["tainted"])
    for name in ("created_at", "updated_at", "last_used_at", "expires_at"):
        values[name] = _opt_dt(values[name])
    return MemoryItem.model_validate(values)


def to_params(item: MemoryItem) -> tuple[Any, ...]:
    """The parameters of `INSERT` for one item, in column order."""
    values = item.model_dump()
    values["source_ref"] = dump_ref(item.source_ref)
    values["pinned"] = int(item.pinned)
    values["tainted"] = int(item.tainted)
    for name in ("created_at", "updated_at", "last_used_at", "expires_at"):
        values[name] = opt_ms(getattr(item, name))
    return tuple(values[name] for name in COLUMNS)


def fetch_items(conn: sqlite3.Connection, where: str, params: Sequence[Any]) -> list[MemoryItem]:
    """Items matching a WHERE clause (which may carry ORDER BY / LIMIT)."""
    return [to_item(row) for row in conn.execute(f"{SELECT} {where}", tuple(params))]
