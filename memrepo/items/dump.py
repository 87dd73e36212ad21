"""Raw memory_items rows in and out, for export and restore.

An export carries every row exactly as stored (times as UTC milliseconds, `source_ref` as
its JSON text) so a restore reproduces the store value for value. The format is JSONL:
a first line naming the columns, then one JSON array per row in that order. Arrays
rather than objects, and no pydantic round trip, because at 10,000 rows the per-row
costs were most of an export's and a restore's time. Rows read back are still checked:
the exact columns, text and integer types, the vocabularies, and the unique and foreign
key constraints of the schema, all in one transaction. An export made before a column
existed (`tainted`, schema version 4) restores with that column's default.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from memrepo.items._rows import COLUMNS, INSERT, SELECT
from memrepo.items.schema import REBUILD_REFS
from memrepo.items.store import ItemStore
from memrepo.items.vocab import KINDS, PRIVACY, SCOPES, SOURCES, STATUSES

Row = list[Any]

_AT = {name: i for i, name in enumerate(COLUMNS)}
_ID, _SUPERSEDES = _AT["id"], _AT["supersedes_id"]
_VOCABULARIES = [
    (_AT[name], frozenset(values))
    for name, values in (
        ("kind", KINDS),
        ("scope", SCOPES),
        ("source", SOURCES),
        ("status", STATUSES),
        ("privacy", PRIVACY),
    )
]
_TEXT = [_AT[c] for c in ("id", "subject_key", "content", "content_hash")]
_INTS = [_AT[c] for c in ("pinned", "reinforced_count", "created_at", "updated_at", "tainted")]
#: Columns added after exports already existed, and the value a row without them gets.
_LATER_COLUMNS: dict[str, Any] = {"tainted": 0}


def dump_rows(store: ItemStore, *, include_private: bool) -> tuple[tuple[str, ...], list[Row]]:
    """The column names and every row (any status); private rows only when asked.

    A kept row that replaced a private revision left out loses that link, so the rows
    never name a row that is not among them.
    """
    where = "" if include_private else "WHERE privacy != 'private'"
    with store._reading() as conn:
        rows = [list(row) for row in conn.execute(f"{SELECT} {where}")]
    ids = {row[_ID] for row in rows}
    for row in rows:
        if row[_SUPERSEDES] is not None and row[_SUPERSEDES] not in ids:
            row[_SUPERSEDES] = None
    return COLUMNS, rows


def load_rows(store: ItemStore, columns: Sequence[str], rows: Sequence[Row]) -> int:
    """Insert rows made by `dump_rows` (into an empty store) in one transaction.

    Raises ValueError naming the first bad row (or a cycle of revisions), StoreError when
    the rows break the store's constraints; either way nothing is inserted.
    """
    layout = _layout(columns)
    params = [
        _checked(number, [default if i is None else row[i] for i, default in layout])
        for number, row in _numbered(rows, len(columns))
    ]
    with store.transaction() as tx:
        tx.conn.executemany(INSERT, _parents_first(params))
        for statement in REBUILD_REFS:
            tx.conn.execute(statement)
        tx.bump_hot_version()
    return len(params)


def _layout(columns: Sequence[str]) -> list[tuple[int | None, Any]]:
    """Per column of ours: its position in the export's rows, or None and the default of
    a later column the export lacks."""
    given = list(columns)
    missing = set(COLUMNS) - set(given)
    if (
        len(set(given)) != len(given)
        or not set(given) <= set(COLUMNS)
        or missing - _LATER_COLUMNS.keys()
    ):
        raise ValueError(f"the columns are not memory_items' columns: {given}")
    return [
        (given.index(name), None) if name in given else (None, _LATER_COLUMNS[name])
        for name in COLUMNS
    ]


def _numbered(rows: Sequence[Row], width: int) -> Iterator[tuple[int, Row]]:
    for number, row in enumerate(rows, 1):
        if not isinstance(row, list) or len(row) != width:
            raise ValueError(f"row {number} does not have {width} values")
        yield number, row


def _checked(number: int, row: Row) -> Row:
    for i in _TEXT:
        if not isinstance(row[i], str):
            raise ValueError(f"row {number}: {COLUMNS[i]} is not text")
    for i in _INTS:
        if not isinstance(row[i], int) or isinstance(row[i], bool):
            raise ValueError(f"row {number}: {COLUMNS[i]} is not an integer")
    for i, allowed in _VOCABULARIES:
        if row[i] not in allowed:
            raise ValueError(f"row {number}: {COLUMNS[i]} {row[i]!r} is not one we know")
    return row


def _parents_first(rows: list[Row]) -> list[Row]:
    """Rows ordered so the row a `supersedes_id` names is inserted first (a foreign key)."""
    ids = {row[_ID] for row in rows}
    children: dict[str | None, list[Row]] = defaultdict(list)
    for row in rows:
        parent = row[_SUPERSEDES]
        if parent is not None and parent not in ids:
            raise ValueError(f"item {row[_ID]} replaces a row that is not there")
        children[parent].append(row)
    ordered: list[Row] = []
    queue = list(children.pop(None, []))
    while queue:
        row = queue.pop()
        ordered.append(row)
        queue.extend(children.pop(row[_ID], []))
    if len(ordered) != len(rows):
        raise ValueError("the rows' supersedes_id links form a cycle")
    return ordered
