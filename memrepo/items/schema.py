"""The memory_items schema as numbered migrations, keyed on `PRAGMA user_version`.

Migration N brings a file from version N-1 to N. `migrate` applies every missing one in
one IMMEDIATE transaction (user_version is part of the database header, so it commits or
rolls back with the tables), re-reading the version inside the transaction so two
processes opening the same old file migrate it once. A file newer than this code is
refused before anything is written: an older memrepo must never "repair" a newer schema.

Vocabularies are not CHECK constraints (reference §2): a later kind needs no rebuild.
"""

from __future__ import annotations

import sqlite3

from memrepo.errors import SchemaTooNew

_ITEMS = """
CREATE TABLE memory_items (
    id TEXT PRIMARY KEY,
    workspace_id TEXT,
    scope TEXT NOT NULL,
    scope_ref TEXT,
    kind TEXT NOT NULL,
    subject_key TEXT NOT NULL,
    content TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    source TEXT NOT NULL,
    source_ref TEXT,
    confidence REAL NOT NULL,
    pinned INTEGER NOT NULL DEFAULT 0,
    privacy TEXT NOT NULL DEFAULT 'normal',
    task_id TEXT,
    status TEXT NOT NULL,
    supersedes_id TEXT REFERENCES memory_items(id) ON DELETE SET NULL,
    reinforced_count INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    last_used_at INTEGER,
    expires_at INTEGER
)
"""

# The two invariants of docs/architecture.md §5. Queries must repeat these exact expressions (and
# `status = 'active'`) for SQLite to use them; see `_tx.SCOPE_KEY`.
_INVARIANTS = (
    "CREATE UNIQUE INDEX idx_memory_items_active_hash ON memory_items("
    "COALESCE(workspace_id, ''), scope, COALESCE(scope_ref, ''), kind, content_hash) "
    "WHERE status = 'active'",
    "CREATE UNIQUE INDEX idx_memory_items_active_subject ON memory_items("
    "COALESCE(workspace_id, ''), scope, COALESCE(scope_ref, ''), subject_key) "
    "WHERE status = 'active'",
)

_LOOKUPS = (
    "CREATE INDEX idx_memory_items_workspace "
    "ON memory_items(workspace_id, status, kind, updated_at)",
    "CREATE INDEX idx_memory_items_scope ON memory_items(scope, scope_ref, status)",
    "CREATE INDEX idx_memory_items_task ON memory_items(task_id)",
    "CREATE INDEX idx_memory_items_expires ON memory_items(expires_at)",
    "CREATE INDEX idx_memory_items_supersedes ON memory_items(supersedes_id)",
)

#: Fill memory_item_refs from source_ref (primary and aliases): migration 2 and a
#: restore (`items/dump.py`) run it.
REBUILD_REFS = (
    "INSERT OR IGNORE INTO memory_item_refs(store, ref_id, item_id) "
    "SELECT json_extract(source_ref, '$.store'), json_extract(source_ref, '$.id'), id "
    "FROM memory_items WHERE json_valid(source_ref)",
    "INSERT OR IGNORE INTO memory_item_refs(store, ref_id, item_id) "
    "SELECT json_extract(a.value, '$.store'), json_extract(a.value, '$.id'), m.id "
    "FROM memory_items AS m, json_each(m.source_ref, '$.aliases') AS a "
    "WHERE json_valid(m.source_ref)",
)

# items_meta: the hot-memory version and the last retention run, shared by processes.
# memory_item_refs: an index of every {store, id} in source_ref (primary and aliases).
# source_ref stays the truth; this table only makes "which item is store:id?" an index
# lookup instead of a json_each scan of every row (reference §8 gap 6), which the ingest
# path asks on every edit. It is rebuilt from source_ref here, so a v1 file catches up.
_META_AND_REFS = (
    "CREATE TABLE items_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "INSERT INTO items_meta(key, value) VALUES ('hot_version', '0')",
    "CREATE TABLE memory_item_refs ("
    "store TEXT NOT NULL, ref_id TEXT NOT NULL, "
    "item_id TEXT NOT NULL REFERENCES memory_items(id) ON DELETE CASCADE, "
    "PRIMARY KEY (store, ref_id, item_id)) WITHOUT ROWID",
    "CREATE INDEX idx_memory_item_refs_item ON memory_item_refs(item_id)",
    *REBUILD_REFS,
)

# memory_curation_log: one row per automatic change (commitment expiry, reference §5b)
# with before/after snapshots, so it can be undone; an undone fingerprint is never applied
# again. Rows go with their item (ON DELETE CASCADE). memory_curation_searches: when each
# commitment was last searched for evidence, so a capped sweep takes the stalest first.
_CURATION = (
    "CREATE TABLE memory_curation_log ("
    "id INTEGER PRIMARY KEY AUTOINCREMENT, fingerprint TEXT NOT NULL, op TEXT NOT NULL, "
    "item_id TEXT NOT NULL REFERENCES memory_items(id) ON DELETE CASCADE, "
    "reason TEXT NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL, "
    "applied_at INTEGER NOT NULL, undone_at INTEGER)",
    "CREATE INDEX idx_memory_curation_log_fingerprint ON memory_curation_log(fingerprint)",
    "CREATE INDEX idx_memory_curation_log_item ON memory_curation_log(item_id)",
    "CREATE TABLE memory_curation_searches ("
    "item_id TEXT PRIMARY KEY REFERENCES memory_items(id) ON DELETE CASCADE, "
    "searched_at INTEGER NOT NULL) WITHOUT ROWID",
)

# tainted: 1 when the fact was written after the task read untrusted content (a web page,
# a third party's mail), so recall and prompts can flag it as the folder's `tainted: yes`
# does. Rows written before version 4 had no way to say so and stay 0.
_TAINT = ("ALTER TABLE memory_items ADD COLUMN tainted INTEGER NOT NULL DEFAULT 0",)

# memory_usage: when each memory was last put in a prompt or quoted, and by which agent
# (the host's own name: an MCP client's clientInfo.name, ToolContext.agent; '' when the
# host gave none). `ref` is any recall ref, a folder line's as well as `memory:<id>`, so
# the Hub can say "last used 2 h ago by claude-code" of both. Rows older than 90 days
# go with retention; an item's rows go with the item.
_USAGE = (
    "CREATE TABLE memory_usage ("
    "ref TEXT NOT NULL, agent TEXT NOT NULL, used_at INTEGER NOT NULL, "
    "PRIMARY KEY (ref, agent)) WITHOUT ROWID",
    "CREATE INDEX idx_memory_usage_used_at ON memory_usage(used_at)",
)

#: MIGRATIONS[n - 1] brings a file from version n - 1 to n.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (_ITEMS, *_INVARIANTS, *_LOOKUPS),
    _META_AND_REFS,
    _CURATION,
    _TAINT,
    _USAGE,
)
SCHEMA_VERSION = len(MIGRATIONS)


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the file (0 for a new, empty database)."""
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0])


def check_version(conn: sqlite3.Connection, path: str = "") -> int:
    """The file's version; `SchemaTooNew` when this code cannot know its schema."""
    found = user_version(conn)
    if found > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"{path or 'memory_items database'}: schema version {found} was written by a "
            f"newer memrepo (this one knows version {SCHEMA_VERSION}); upgrade memrepo. "
            "The file was not changed.",
            path=path,
        )
    return found


def migrate(conn: sqlite3.Connection, target: int | None = None, *, path: str = "") -> int:
    """Apply every missing migration up to `target` (default: the latest) in one transaction.

    `conn` must be in autocommit mode (`isolation_level=None`). Returns the version the
    file is at afterwards. `target` exists so tests can make files of an older version.
    """
    goal = SCHEMA_VERSION if target is None else target
    if not 0 <= goal <= SCHEMA_VERSION:
        raise ValueError(f"target must be between 0 and {SCHEMA_VERSION}, got {goal}")
    if check_version(conn, path) >= goal:
        return user_version(conn)
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Another process may have migrated between our first look and the lock.
        current = check_version(conn, path)
        for version in range(current + 1, goal + 1):
            for statement in MIGRATIONS[version - 1]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return user_version(conn)
