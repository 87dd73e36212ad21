"""Helpers shared by the prompt-context tests: items, hand-written files, block texts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memrepo import MemoryRepo
from memrepo.models.items import candidate
from memrepo.models.prompt_context import BlockName, ContextBlocks, ContextRequest


def item(repo: MemoryRepo, content: str, **fields: Any) -> str:
    """Store an item through the real writer; returns its ref."""
    result = repo._parts.items.ingest(candidate(content=content, **fields))
    assert result.item is not None, result
    return result.item.ref


def write(repo: MemoryRepo, path: str, text: str) -> Path:
    """A file as a person writes it in an editor (uncommitted)."""
    target = repo.root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target


def texts(result: ContextBlocks, name: BlockName) -> list[str]:
    block = result.block(name)
    return [] if block is None else [line.text for line in block.lines]


def build(repo: MemoryRepo, query: str = "", **fields: Any) -> ContextBlocks:
    return repo.context(ContextRequest(query=query, **fields))
