"""Letta agent files (`.af`): one JSON document holding agents and their memory blocks.

The current schema is Letta's `AgentFileSchema` (letta/schemas/agent_file.py): top-level
`agents`, `blocks`, `tools`, `groups`, `files`, `sources`, `mcp_servers`, `metadata`;
each block has `id`, `label`, `value`, `limit`, `read_only`, `description`; an agent
names its blocks in `block_ids` (and may inline more in `memory_blocks`). The first
schema (Agent File's launch, letta/serialize_schemas/pydantic_agent_schema.py) was one
agent object with its blocks inlined as `core_memory`. Both are read.

A block's value is plain text that Letta's memory tools edit line by line (an append is
a new line), so each non-empty line is a fact; a starter template's scaffolding and the
persona block are not (see `letta.py`). Messages, tools and the system prompt are the
agent's program, not its memory, and are not imported.

Some agent files are stored double-encoded: the whole document is one JSON string
holding the JSON text (letta-ai/agent-file's `memgpt_agent/memgpt_agent.af`). Such a
string is decoded once more; a string that does not hold a JSON object is not an agent
file.

Facts are named `<file>/<label>` (a block shared by two agents is imported once) and
keep the block's limit and read-only flag.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from memrepo.errors import ImportSourceError
from memrepo.formats.importers.letta import block_meta, is_persona, persona_line, scaffolding
from memrepo.formats.importers.model import Fact, Rejected
from memrepo.formats.importers.privacy import marked

#: How many times a document stored as a JSON string is decoded again, at most.
_MAX_ENCODINGS = 2


def read_agent_file(data: bytes, name: str) -> list[Fact | Rejected]:
    """The facts of a whole agent file; ImportSourceError when it is not one."""
    document = _load(data, name)
    blocks = list(_blocks(document, name))
    if not blocks:
        raise ImportSourceError(
            f"{name}: a Letta agent file without memory blocks (no `blocks` with a "
            "`label` and `value`); nothing to import"
        )
    found: list[Fact | Rejected] = []
    seen: set[tuple[str, str]] = set()
    for block in blocks:
        label, value = str(block["label"]), str(block["value"])
        if (label, value) in seen:
            continue
        seen.add((label, value))
        path = f"{name}/{label}"
        found.extend(marked(_block_facts(block, path), block, path))
    return found


def _load(data: bytes, name: str) -> dict[str, object]:
    try:
        document: object = json.loads(data.decode("utf-8"))
        for _ in range(_MAX_ENCODINGS):
            if not isinstance(document, str):
                break
            document = json.loads(document)  # stored double-encoded: a string of JSON
    except UnicodeDecodeError as exc:
        raise ImportSourceError(f"{name}: not UTF-8 at byte {exc.start}") from exc
    except (ValueError, RecursionError) as exc:
        raise ImportSourceError(f"{name}: not JSON ({exc}); is it a Letta .af file?") from exc
    if not isinstance(document, dict):
        raise ImportSourceError(
            f"{name}: a Letta agent file is a JSON object with `agents` and `blocks`, "
            f"not a {type(document).__name__}"
        )
    return document


def _blocks(document: dict[str, object], name: str) -> Iterator[dict[str, object]]:
    """Every memory block of the file, in file order: `blocks`, then what agents inline
    (`memory_blocks`), then the first schema's `core_memory`."""
    sources: list[object] = [document.get("blocks")]
    agents = document.get("agents")
    if isinstance(agents, list):
        sources += [a.get("memory_blocks") for a in agents if isinstance(a, dict)]
    sources.append(document.get("core_memory"))
    if not any(isinstance(s, list) for s in sources) and not isinstance(agents, list):
        raise ImportSourceError(
            f"{name}: a JSON object without `agents`, `blocks` or `core_memory`: not a "
            "Letta agent file (export one with `letta` / the ADE's Export Agent)"
        )
    for source in sources:
        if not isinstance(source, list):
            continue
        for block in source:
            if (
                isinstance(block, dict)
                and isinstance(block.get("label"), str)
                and isinstance(block.get("value"), str)
            ):
                yield block


def _block_facts(block: dict[str, object], path: str) -> list[Fact | Rejected]:
    label = str(block["label"])
    meta = block_meta(block.get("limit"), block.get("read_only"))
    persona = is_persona(label)
    found: list[Fact | Rejected] = []
    for number, raw in enumerate(str(block["value"]).splitlines(), start=1):
        text = " ".join(raw.strip().removeprefix("- ").split())
        if not text:
            continue
        skipped = persona_line(path, number) if persona else scaffolding(path, number, text)
        found.append(skipped or Fact(text, path, number, kind=label, meta=meta))
    return found
