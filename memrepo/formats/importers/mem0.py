"""mem0 exports: one JSON document of memories, as mem0's `get_all` returns them.

mem0's open-source `Memory.get_all()` returns `{"results": [...]}` (and `"relations"`
with a graph store); the platform's `MemoryClient.get_all()` returns the same
`{"results": [...]}` page (v2, with `count`, `next`, `previous`) or, in v1, a bare list.
Each memory is `{"id", "memory", "hash", "metadata", "categories", "created_at",
"updated_at", "user_id", ...}` (platform memories add `agent_id`, `app_id`, `run_id`,
`immutable`, `expiration_date`, `owner`, `organization`); see docs.mem0.ai "Get
Memories" and mem0/memory/main.py. A file written by `json.dump(memory.get_all(...))`
is what this reads; `jsonl.py` reads the same memories one per line.

The document is streamed (`json_stream.py`): a 40,000-memory export on one line costs
the largest memory, not the file. If it is not JSON, not one of those shapes, or not one
of its entries has a memory text, `ImportSourceError` is raised (the import reads
everything before it writes, so nothing is imported) and the error says which. A
document that breaks after some memories (a truncated download) keeps those: the break
is reported as one problem (`broken_json`) and the memories before it are imported. An
entry without text, with bytes that are not UTF-8 or with a lone surrogate, among good
ones is reported and the rest imported, like a JSONL line.

mem0's graph memory returns `relations` (`{source, relationship, destination}` triples
its LLM drew from the same messages as the memories) beside `results`: they are not
facts of their own, so each is counted as skipped (`graph_relation`) and one problem
line says so, rather than dropping them without a word.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace

from memrepo.errors import ImportSourceError
from memrepo.formats.importers.json_stream import Outer, Read, stream_elements
from memrepo.formats.importers.jsonl import TEXT_KEYS, read_object
from memrepo.formats.importers.model import Fact, Rejected

#: Where a document keeps its memories: mem0's `results`, or a `memories` list.
LIST_KEYS = ("results", "memories")
RELATIONS = "relations"


def read_document(data: bytes, name: str) -> list[Fact | Rejected]:
    """The facts of a mem0 export held in memory; ImportSourceError when it is not one."""
    return list(read_stream(io.BytesIO(data).read, name))


def read_stream(read: Read, name: str) -> Iterator[Fact | Rejected]:
    """The facts of a mem0 export read through `read(n)`, one memory at a time."""
    outer = Outer()
    count = facts = textless = 0
    elements = stream_elements(read, name, LIST_KEYS, outer)
    while True:
        try:
            memory = next(elements)
        except StopIteration:
            break
        except ImportSourceError as exc:
            if not facts:
                raise
            yield _broken(name, count, exc)
            return
        count += 1
        if not isinstance(memory, dict):
            raise ImportSourceError(
                f"{name}: memory {count} is a JSON {_kind(memory)}, not an object; "
                "not a mem0 export"
            )
        item = _by_id(read_object(memory, name, count, where=f"memory {count}"))
        facts += isinstance(item, Fact)
        textless += isinstance(item, Rejected) and item.reason == "no_text"
        yield item
    yield from _relations(name, outer.count_of(RELATIONS))
    if not outer.found_list:
        single = _single(outer, name)
        count = 1
        item = _by_id(read_object(single, name, 1, where="memory 1"))
        facts += isinstance(item, Fact)
        yield item
    if count and textless == count:
        raise ImportSourceError(
            f"{name}: none of its {count} entries has a memory text "
            f"({', '.join(TEXT_KEYS)}); not a mem0 export"
        )


def _broken(name: str, count: int, exc: ImportSourceError) -> Rejected:
    """The point where a document that held memories breaks off, as one problem."""
    why = str(exc).removeprefix(f"{name}: ").removesuffix(" (nothing was imported)")
    return Rejected(
        name,
        None,
        "broken_json",
        f"{why}; the {count} memories before it were read, the rest of the file was not",
    )


def _relations(name: str, count: int) -> Iterator[Rejected]:
    """Each graph relation as a skipped row; the first one says why, once."""
    for number in range(1, count + 1):
        yield Rejected(
            name,
            number,
            "graph_relation",
            f"its {count} graph relations (`relations`) are not imported: mem0 drew them "
            "from the same messages as its memories, which are",
            quiet=number > 1,
        )


def _single(outer: Outer, name: str) -> dict[str, object]:
    """A document without a memory list: one memory (as `Memory.get(id)` returns it),
    or ImportSourceError naming what it is."""
    document = outer.fields
    if not outer.is_object:
        raise ImportSourceError(
            f"{name}: a JSON {_kind(document.get('value'))}, not a mem0 export (expected an "
            "object with `results` or a list of memories)"
        )
    if any(isinstance(document.get(key), str) for key in TEXT_KEYS):
        return document
    keys = ", ".join(sorted(document)[:5]) or "no keys"
    raise ImportSourceError(
        f"{name}: a JSON object with {keys} but no `results` list: not a mem0 export "
        '(expected {"results": [...]} from get_all, or a list of memories)'
    )


def _by_id(item: Fact | Rejected) -> Fact | Rejected:
    """A memory without an id is named by its position (`#3`), never by a line."""
    if isinstance(item, Fact) and item.anchor is None:
        return replace(item, anchor=str(item.line))
    return item


def _kind(value: object) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number")
