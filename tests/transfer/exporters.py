"""Import files built the way each exporter builds them, from its own definition.

Each builder follows the exporter's code or docs, not memrepo's reader: the keys, their
order, the nesting and the packing are the exporter's (see each docstring for where it
is defined). `family(seed)` draws a varied export of each format from one seed, so the
tests can be written against one draw and checked against another (held out).
"""

from __future__ import annotations

import gzip
import io
import json
import random
import uuid
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

STATES = ("active", "paused", "archived", "deleted")
CATEGORIES = ("personal_details", "work", "preferences", "travel", "health", "technology")
_SUBJECTS = ("Dana", "The team", "Our CI", "The staging cluster", "Ana", "The API")
_VERBS = ("prefers", "uses", "runs on", "deploys with", "is moving to", "avoids")
_OBJECTS = ("pnpm", "Postgres 16", "Tuesdays", "kestrel", "ruff", "Lisbon", "Go 1.23", "uv")


@dataclass
class Memory:
    """One memory as a person would state it, with OpenMemory's state and categories."""

    id: str
    content: str
    state: str = "active"
    categories: list[str] = field(default_factory=list)
    app: str = "openmemory"
    created_at: str = "2026-03-01T09:00:00+00:00"


def sentence(rng: random.Random, n: int) -> str:
    """A distinct, plausible memory text (n makes it unique)."""
    return f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} (note {n})"


def memories(seed: int, count: int) -> list[Memory]:
    """`count` memories drawn from `seed`: every state, some categories, two apps."""
    rng = random.Random(seed)
    drawn = []
    for n in range(count):
        state = STATES[n % len(STATES)] if n < len(STATES) else rng.choice(STATES)
        drawn.append(
            Memory(
                id=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                content=sentence(rng, n),
                state=state,
                categories=rng.sample(CATEGORIES[1:4], rng.randint(0, 2)),
                app=rng.choice(("openmemory", "cursor")),
                created_at=f"2026-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T10:00:00+00:00",
            )
        )
    return drawn


# OpenMemory ----------------------------------------------------------------------------


def openmemory_document(drawn: list[Memory], user_id: str = "dana") -> dict[str, Any]:
    """`_export_sqlite`'s payload (mem0ai/mem0 openmemory/api/app/routers/backup.py):
    user, apps, categories, memories (category_ids, app_id, the internal user id,
    archived_at / deleted_at set with the state), memory_categories, status_history,
    access_controls, export_meta."""
    owner = str(uuid.uuid5(uuid.NAMESPACE_DNS, user_id))
    apps = {name: str(uuid.uuid5(uuid.NAMESPACE_URL, name)) for name in {m.app for m in drawn}}
    names = sorted({c for m in drawn for c in m.categories})
    cats = {name: str(uuid.uuid5(uuid.NAMESPACE_OID, name)) for name in names}
    stamp = "2026-04-01T12:00:00+00:00"
    return {
        "user": {
            "id": owner,
            "user_id": user_id,
            "name": None,
            "email": None,
            "metadata": {},
            "created_at": stamp,
            "updated_at": stamp,
        },
        "apps": [
            {
                "id": app_id,
                "owner_id": owner,
                "name": name,
                "description": None,
                "metadata": {},
                "is_active": True,
                "created_at": stamp,
                "updated_at": stamp,
            }
            for name, app_id in sorted(apps.items())
        ],
        "categories": [
            {"id": cat_id, "name": name, "description": None, "created_at": stamp}
            for name, cat_id in cats.items()
        ],
        "memories": [
            {
                "id": m.id,
                "user_id": owner,
                "app_id": apps[m.app],
                "content": m.content,
                "metadata": {},
                "state": m.state,
                "created_at": m.created_at,
                "updated_at": m.created_at,
                "archived_at": stamp if m.state == "archived" else None,
                "deleted_at": stamp if m.state == "deleted" else None,
                "category_ids": [cats[c] for c in m.categories],
            }
            for m in drawn
        ],
        "memory_categories": [
            {"memory_id": m.id, "category_id": cats[c]} for m in drawn for c in m.categories
        ],
        "status_history": [
            {
                "id": str(uuid.uuid5(uuid.NAMESPACE_X500, m.id)),
                "memory_id": m.id,
                "changed_by": owner,
                "old_state": "active",
                "new_state": m.state,
                "changed_at": stamp,
            }
            for m in drawn
            if m.state != "active"
        ],
        "access_controls": [],
        "export_meta": {
            "app_id_filter": None,
            "from_date": None,
            "to_date": None,
            "version": "1",
            "generated_at": stamp,
        },
    }


def openmemory_lines(drawn: list[Memory]) -> bytes:
    """`_export_logical_memories_gz`: one JSON object per line, gzipped."""
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb") as gz:
        for m in drawn:
            record = {
                "id": m.id,
                "content": m.content,
                "metadata": {},
                "created_at": m.created_at,
                "updated_at": m.created_at,
                "state": m.state,
                "app": m.app,
                "categories": list(m.categories),
            }
            gz.write((json.dumps(record) + "\n").encode("utf-8"))
    return buffer.getvalue()


def openmemory_zip(path: Path, drawn: list[Memory], user_id: str = "dana") -> Path:
    """`POST /api/v1/backup/export`'s response: memories.json (indent 2) and
    memories.jsonl.gz, deflated, as `memories_export_<user_id>.zip`."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("memories.json", json.dumps(openmemory_document(drawn, user_id), indent=2))
        archive.writestr("memories.jsonl.gz", openmemory_lines(drawn))
    return path


# mem0 ----------------------------------------------------------------------------------


def mem0_get_all(
    drawn: list[Memory], relations: int = 0, *, platform: bool = False
) -> dict[str, Any]:
    """mem0's `Memory.get_all()` with a graph store: `{"results": [...], "relations":
    [{source, relationship, target}]}` (mem0/memory/main.py, graph_memory.py); the
    platform's page adds `count`/`next`/`previous` and per-memory `immutable`,
    `expiration_date`, `categories` (docs.mem0.ai "Get Memories")."""
    results = []
    for n, m in enumerate(drawn):
        row: dict[str, Any] = {
            "id": m.id,
            "memory": m.content,
            "hash": f"{n:032x}",
            "metadata": None,
            "created_at": m.created_at,
            "updated_at": None,
            "user_id": "dana",
        }
        if platform:
            row |= {
                "agent_id": None,
                "app_id": None,
                "run_id": None,
                "categories": list(m.categories),
                "immutable": n % 3 == 0,
                "expiration_date": None,
            }
        results.append(row)
    document: dict[str, Any] = {"results": results}
    if platform:
        document = {"count": len(results), "next": None, "previous": None, **document}
    if relations:
        document["relations"] = [
            {"source": "dana", "relationship": "uses", "target": _OBJECTS[i % len(_OBJECTS)]}
            for i in range(relations)
        ]
    return document


# Letta ---------------------------------------------------------------------------------


def letta_agent_file(blocks: dict[str, str], *, limit: int = 20000) -> dict[str, Any]:
    """Letta's `AgentFileSchema` (letta/schemas/agent_file.py): agents naming their
    blocks by `block_ids`, blocks with value/limit/label/read_only/description/id."""
    ids = [f"block-{n}" for n in range(len(blocks))]
    return {
        "agents": [
            {
                "name": "memgpt_agent",
                "memory_blocks": [],
                "tool_ids": ["tool-0"],
                "block_ids": ids,
                "system": "<base_instructions>You are a helpful agent.</base_instructions>",
                "agent_type": "letta_v1_agent",
                "id": "agent-0",
                "messages": [_message("My name is Chad, call me Chad")],
            }
        ],
        "groups": [],
        "blocks": [
            {
                "value": value,
                "limit": limit,
                "project_id": None,
                "is_template": False,
                "label": label,
                "read_only": False,
                "description": f"The {label} block.",
                "metadata": {},
                "id": block_id,
            }
            for block_id, (label, value) in zip(ids, blocks.items(), strict=True)
        ],
        "files": [],
        "sources": [],
        "tools": [],
        "mcp_servers": [],
        "metadata": {"revision_id": "example"},
    }


def _message(text: str) -> dict[str, Any]:
    """A user message as an agent file keeps it (messages are not memory)."""
    content = [{"type": "text", "text": text}]
    return {"type": "message", "role": "user", "id": "message-0", "content": content}


#: The human and persona values of the MemGPT starter agent, in its shape: a lead-in,
#: `Key: value` lines with `?` for what is unknown, the persona in the first person.
MEMGPT_HUMAN = (
    "\nThis is what I know so far about the user, I should expand this as I learn more "
    "about them.\n\nFirst name: Chad\nLast name: ?\nGender: Male\nAge: ?\nNationality: ?\n"
    "Occupation: Computer science PhD student at UC Berkeley\n"
    "Interests: Formula 1, Sailing, CSGO\n"
)
MEMGPT_PERSONA = (
    "\nThe following is a starter persona, and it can be expanded as the personality "
    "develops:\n\nI am Sam.\nI don't identify as male or female, but my voice is soft.\n"
    "I'm curious, empathetic, and extraordinarily perceptive.\n"
    "Here's how I might talk:\n\"I've been thinking about my own existence.\"\n"
)


def double_encoded(document: dict[str, Any]) -> str:
    """The whole document as one JSON string, as letta-ai/agent-file stores
    memgpt_agent/memgpt_agent.af (`"{\\n  \\"agents\\": [...`)."""
    return json.dumps(json.dumps(document, indent=2))


def letta_code_memfs(root: Path) -> Path:
    """A Letta Code memory folder right after `letta` creates an agent: its starter
    blocks as `system/<label>.md` with `label`/`description` frontmatter (letta-ai/
    letta-code src/agent/prompts/human.mdx, human_tutorial.mdx, persona_empty.mdx,
    project.mdx), before the agent has learned anything."""
    system = root / "system"
    system.mkdir(parents=True)
    (system / "human.md").write_text(
        "---\nlabel: human\ndescription: What I know about the person I am working with.\n---\n\n"
        "I haven't gotten to know this person yet.\n\n"
        "I'm curious about them. What are they building and why does it matter to them?\n\n"
        "As we collaborate, I'll build up an understanding of how they think.\n"
    )
    (system / "profile.md").write_text(
        "---\nlabel: profile\ndescription: What I know about the person I am interacting with\n"
        "---\n\nName: ?\nOccupation: ?\n\n## What they work on\n?\n\n"
        "## What they are hoping to get out of Letta\n- ?\n\n## Open questions\n[none yet]\n"
    )
    (system / "persona.md").write_text(
        "---\nlabel: persona\ndescription: Learned behavioral adaptations.\n---\n\n"
        "My name is Letta Code. I'm an AI coding assistant.\n\n"
        "[This block will be populated with learned preferences as I work with the user.]\n"
    )
    (system / "project.md").write_text(
        "---\nlabel: project\ndescription: A cheatsheet for this codebase.\n---\n\n"
        "[CURRENTLY EMPTY: IMPORTANT - TODO ON FIRST BOOTUP, READ AGENTS.md OR CLAUDE.md]\n"
    )
    return root


# Claude Code ---------------------------------------------------------------------------


def claude_memory_file(name: str, kind: str, description: str, body: str) -> str:
    """An auto-memory file as Claude Code writes it: `name`, `description` and
    `metadata: {type: ...}` frontmatter, then the memory as markdown."""
    return (
        f"---\nname: {name}\ndescription: {description}\nmetadata:\n  type: {kind}\n---\n\n{body}"
    )
