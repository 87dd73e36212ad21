"""Opening the one memory_items file safely, and translating sqlite3 errors to ours.

Order matters, because a damaged or foreign file must be left byte for byte as it was:

1. An existing, non-empty file must start with the SQLite header, and unless a WAL file
   sits next to it (a checkpoint may legitimately be half done), be at least as long as
   the page count its header records: this catches garbage and truncated copies without
   reading the whole file.
2. The schema is read (`sqlite_master`, `user_version`) with no write; a newer version is
   refused (`SchemaTooNew`).
3. Only then WAL is switched on and migrations run.

A full `PRAGMA quick_check` on every open would cost O(file size); damage found later
surfaces as `StoreCorrupt` from whichever query meets it (`translate`), and
`ItemStore.check()` runs the full check on demand.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from memrepo.errors import StoreBusy, StoreCorrupt, StoreError
from memrepo.items.schema import check_version, migrate

DB_NAME = "items.sqlite3"
SQLITE_HEADER = b"SQLite format 3\x00"
DEFAULT_BUSY_TIMEOUT = 5.0

_BUSY_CODES = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB


def translate(exc: sqlite3.Error, path: Path | str) -> StoreError:
    """Our error for a sqlite3 error; raise it `from exc`."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc)
    if primary in _BUSY_CODES or "locked" in text:
        return StoreBusy(
            f"{path}: the memory_items database stayed locked by another process past the "
            "wait limit; retry, or stop the other memrepo process",
            path=str(path),
        )
    if primary in _CORRUPT_CODES or "malformed" in text or "not a database" in text:
        return corrupt(path, text)
    return StoreError(f"{path}: memory_items database error: {text}", path=str(path))


def corrupt(path: Path | str, why: str) -> StoreCorrupt:
    """The error for a file we will not touch."""
    return StoreCorrupt(
        f"{path}: not a readable memory_items database ({why}); the file was left as it "
        "is: move it aside (memrepo then starts an empty store) or restore a backup",
        path=str(path),
    )


def _check_file(path: Path) -> None:
    """Header and length checks on an existing file (step 1 of the module docstring)."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return
    if size == 0:
        return  # SQLite treats an empty file as a new database.
    with open(path, "rb") as handle:
        header = handle.read(100)
    if not header.startswith(SQLITE_HEADER):
        raise corrupt(path, "no SQLite header")
    if len(header) < 100:
        raise corrupt(path, "file shorter than the SQLite header")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    change_counter = header[24:28]
    valid_for = header[92:96]
    page_count = int.from_bytes(header[28:32], "big")
    wal = Path(f"{path}-wal")
    has_wal = wal.exists() and wal.stat().st_size > 0
    if change_counter == valid_for and not has_wal and size < page_count * page_size:
        raise corrupt(path, f"truncated: {size} bytes, header says {page_count * page_size}")


def open_connection(
    path: Path, *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT
) -> sqlite3.Connection:
    """A migrated connection to `path` (created when missing), in autocommit mode."""
    _check_file(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(
            path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error as exc:
        raise translate(exc, path) from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        check_version(conn, str(path))
        mode = _switch_to_wal(conn, busy_timeout)
        if mode != "wal":
            raise StoreError(f"{path}: could not switch the database to WAL mode", path=str(path))
        conn.execute("PRAGMA foreign_keys = ON")
        migrate(conn, path=str(path))
    except sqlite3.Error as exc:
        conn.close()
        raise translate(exc, path) from exc
    except BaseException:
        conn.close()
        raise
    return conn


def _switch_to_wal(conn: sqlite3.Connection, busy_timeout: float) -> str:
    """WAL mode, set once per file (it persists). Two processes creating the file at the
    same moment can see `PRAGMA journal_mode = WAL` fail at once with "locked": SQLite's
    busy handler does not cover that switch, so it is retried within the busy timeout."""
    row = conn.execute("PRAGMA journal_mode").fetchone()
    if row is not None and str(row[0]).lower() == "wal":
        return "wal"
    deadline = time.monotonic() + busy_timeout
    while True:
        try:
            row = conn.execute("PRAGMA journal_mode = WAL").fetchone()
            return str(row[0]).lower() if row is not None else ""
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def default_path(state_dir: Path) -> Path:
    """Where the store of a memory root lives: `<root>/.git/memrepo/items.sqlite3`."""
    return Path(os.fspath(state_dir)) / DB_NAME
