"""mem0 exports: one JSON document of memories, as mem0's `get_all` returns them.

mem0's open-source `Memory.get_all()` returns `{"results": [...]}` (and `"relations"`
with a graph store); the platform's `MemoryClient.get_all()` returns the same
`{"results": [...]}` page (v2, with `count`, `next`, `previous`) or, in v1, a bare list.
Each memory is `{"id", "memory", "hash", "metadata", "categories", "created_at",
"updated_at", "user_id", ...}` (platform memories add `agent_id`, `app_id`, `run_id`,
`immutable`, `expiration_date`, `owner`, `organization`); see docs.mem0.ai "Get
Memories" and mem0/memory/main.py. A file written by `json.dump(memory.get_all(...))`
is what this reads; `jsonl.py` reads the same memories one per line.

The document is judged whole: if it is not JSON, not one of those shapes, or not one
of its entries has a memory text, nothing is imported and the error says which. An entry
without text among good ones is reported and the rest imported, like a JSONL line.
"""

from __future__ import annotations

import json
from dataclasses import replace

from memrepo.errors import ImportSourceError
from memrepo.formats.importers.jsonl import TEXT_KEYS, read_object
from memrepo.formats.importers.model import Fact, Rejected

#: Where a document keeps its memories: mem0's `results`, or a `memories` list.
LIST_KEYS = ("results", "memories")


def read_document(data: bytes, name: str) -> list[Fact | Rejected]:
    """The facts of a mem0 export; ImportSourceError when it is not one."""
    memories = memories_of(_load(data, name), name)
    found: list[Fact | Rejected] = []
    for number, memory in enumerate(memories, start=1):
        if not isinstance(memory, dict):
            raise ImportSourceError(
                f"{name}: memory {number} is a JSON {_kind(memory)}, not an object; "
                "not a mem0 export"
            )
        found.append(read_object(memory, name, number, where=f"memory {number}"))
    if memories and not any(isinstance(item, Fact) for item in found):
        raise ImportSourceError(
            f"{name}: none of its {len(memories)} entries has a memory text "
            f"({', '.join(TEXT_KEYS)}); not a mem0 export"
        )
    return [_by_id(item) for item in found]


def memories_of(document: object, name: str) -> list[object]:
    """The list of memories a document holds, or ImportSourceError naming its shape."""
    if isinstance(document, list):
        return document
    if isinstance(document, dict):
        for key in LIST_KEYS:
            value = document.get(key)
            if isinstance(value, list):
                return value
        if any(isinstance(document.get(key), str) for key in TEXT_KEYS):
            return [document]  # one memory, as `Memory.get(id)` returns it
        keys = ", ".join(sorted(str(k) for k in document)[:5]) or "no keys"
        raise ImportSourceError(
            f"{name}: a JSON object with {keys} but no `results` list: not a mem0 export "
            '(expected {"results": [...]} from get_all, or a list of memories)'
        )
    raise ImportSourceError(
        f"{name}: a JSON {_kind(document)}, not a mem0 export (expected an object with "
        "`results` or a list of memories)"
    )


def _load(data: bytes, name: str) -> object:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ImportSourceError(
            f"{name}: not UTF-8 at byte {exc.start}; re-export it as UTF-8 JSON"
        ) from exc
    try:
        return json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise ImportSourceError(
            f"{name}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from exc
    except RecursionError as exc:
        raise ImportSourceError(f"{name}: JSON nested too deeply to read") from exc


def _by_id(item: Fact | Rejected) -> Fact | Rejected:
    """A memory without an id is named by its position (`#3`), never by a line."""
    if isinstance(item, Fact) and item.anchor is None:
        return replace(item, anchor=str(item.line))
    return item


def _kind(value: object) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number")
