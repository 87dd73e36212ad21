"""OpenMemory (mem0's local app) exports: `memories.json`, as its backup router writes it.

OpenMemory's `POST /api/v1/backup/export` (openmemory/api/app/routers/backup.py in
mem0ai/mem0) returns a zip, `memories_export_<user_id>.zip`, of two members:

* `memories.json`, its SQLite rows as one JSON document (indent 2): `user` (`id`,
  `user_id`, `name`, `email`, ...), `apps` (`id`, `name`, ...), `categories` (`id`,
  `name`, `description`, ...), `memories`, `memory_categories`, `status_history`,
  `access_controls` and `export_meta` (`version`, `generated_at`, the filters). Each
  memory is `{id, user_id, app_id, content, metadata, state, created_at, updated_at,
  archived_at, deleted_at, category_ids}`; `state` is OpenMemory's `MemoryState`:
  `active`, `paused`, `archived` or `deleted` (a deletion only sets the state).
* `memories.jsonl.gz`, the same memories one per line (`id`, `content`, `metadata`,
  `created_at`, `updated_at`, `state`, `app` by name, `categories` by name), gzipped.

Only `active` memories are live: the others are skipped with their state as the reason
(see `jsonl.read_object`), so a memory deleted in OpenMemory never comes back as a fact.
A memory's categories are kept by name (the document names them by id), its app by
name, and its `user_id` is the export's user (the rows hold OpenMemory's internal id).
Finding the member in the zip, and the gzipped lines, is `memrepo.transfer`'s job.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace

from memrepo.errors import ImportSourceError
from memrepo.formats.importers.jsonl import read_object
from memrepo.formats.importers.model import Fact, Rejected

#: The members of OpenMemory's export zip, in the order memrepo prefers them.
DOCUMENT_MEMBER = "memories.json"
LINES_MEMBER = "memories.jsonl.gz"
#: Keys that tell OpenMemory's document from other JSON with a `memories` list.
SHAPE_KEYS = ("user", "apps", "categories", "export_meta", "status_history")


def read_openmemory(data: bytes, name: str) -> list[Fact | Rejected]:
    """The facts of one `memories.json`; ImportSourceError when it is not one."""
    document = _load(data, name)
    memories = document.get("memories")
    if not isinstance(memories, list):
        keys = ", ".join(sorted(document)[:6]) or "no keys"
        raise ImportSourceError(
            f"{name}: a JSON object with {keys} but no `memories` list: not an OpenMemory "
            "export (its zip holds memories.json and memories.jsonl.gz)"
        )
    categories = _names(document.get("categories"))
    apps = _names(document.get("apps"))
    user = document.get("user")
    owner = user.get("user_id") if isinstance(user, dict) else None
    found: list[Fact | Rejected] = []
    for number, memory in enumerate(memories, start=1):
        where = f"memory {number}"
        if not isinstance(memory, dict):
            found.append(Rejected(name, number, "not_an_object", f"{where} is not an object"))
            continue
        row = _row(memory, categories, owner)
        item = read_object(row, name, number, where=where)
        if isinstance(item, Fact):
            app = apps.get(str(memory.get("app_id")))
            item = replace(
                item,
                anchor=item.anchor or str(number),
                meta=(*item.meta, ("app", app)) if app else item.meta,
            )
        found.append(item)
    return found


def is_openmemory(document: Mapping[str, object]) -> bool:
    """Whether a parsed JSON object is OpenMemory's `memories.json`."""
    return isinstance(document.get("memories"), list) and any(k in document for k in SHAPE_KEYS)


def _load(data: bytes, name: str) -> dict[str, object]:
    try:
        # surrogateescape: a memory holding bytes that are not UTF-8 is rejected by
        # read_object, the rest of the document is read.
        document = json.loads(data.decode("utf-8", "surrogateescape").removeprefix("\ufeff"))
    except (ValueError, RecursionError) as exc:
        raise ImportSourceError(f"{name}: not JSON ({exc}); nothing was imported") from exc
    if not isinstance(document, dict):
        raise ImportSourceError(
            f"{name}: a JSON {type(document).__name__}, not OpenMemory's memories.json "
            "(an object with `user`, `apps`, `categories` and `memories`)"
        )
    return document


def _names(rows: object) -> dict[str, str]:
    """`id -> name` of the document's apps or categories."""
    if not isinstance(rows, list):
        return {}
    return {
        str(row["id"]): str(row["name"])
        for row in rows
        if isinstance(row, dict) and row.get("id") is not None and row.get("name")
    }


def _row(memory: dict[str, object], categories: dict[str, str], owner: object) -> dict[str, object]:
    """One memory as the row reader reads it: categories by name, the export's user."""
    row = {k: v for k, v in memory.items() if k not in ("category_ids", "user_id", "app_id")}
    ids = memory.get("category_ids")
    if isinstance(ids, list):
        row["categories"] = [categories.get(str(i), str(i)) for i in ids]
    if isinstance(owner, str) and owner:
        row["user_id"] = owner
    return row
