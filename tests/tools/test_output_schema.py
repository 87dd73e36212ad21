"""The published output schemas are lean (no `$ref`, nullable fields as type lists, which
the MCP client checks each result against at half the cost) and accept exactly what the
pydantic schemas accept: real results and each of them broken in one place."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel, Field

from memrepo import MemoryRepo
from memrepo.tools import default_registry
from memrepo.tools.tool import clean_schema, lean_schema

from .helpers import ToolsFor


def nullable_any_of(node: Any) -> bool:
    if isinstance(node, dict):
        branches = node.get("anyOf", [])
        if {"type": "null"} in branches:
            return True
        return any(nullable_any_of(value) for value in node.values())
    if isinstance(node, list):
        return any(nullable_any_of(item) for item in node)
    return False


def test_published_output_schemas_are_lean() -> None:
    for tool in default_registry():
        schema = tool.output_schema()
        assert schema is not None and schema["type"] == "object", tool.name
        text = json.dumps(schema)
        assert "$ref" not in text and "$defs" not in text, tool.name
        assert not nullable_any_of(schema), tool.name
        Draft202012Validator.check_schema(schema)


def variants(value: Any) -> Iterator[Any]:
    """`value` broken in one place at a time: each field null, a number, a list, gone;
    an extra key in each object."""
    if isinstance(value, dict):
        for key in value:
            replacements: tuple[Any, ...] = (None, 7, [], "text", {"x": 1})
            for replacement in replacements:
                broken = dict(value)
                broken[key] = replacement
                yield broken
            yield {k: v for k, v in value.items() if k != key}
            for inner in variants(value[key]):
                yield {**value, key: inner}
        yield {**value, "unexpected": 1}
    elif isinstance(value, list) and value:
        for inner in variants(value[0]):
            yield [inner, *value[1:]]


def results(repo: MemoryRepo, tools_for: ToolsFor) -> dict[str, dict[str, Any]]:
    tools = tools_for(task_id="t1", workspace="Web shop")
    repo.remember("The user prefers tea over coffee", by="user")
    written = tools.dispatch("memory_remember", {"text": "Deploys go through staging"})
    return {
        "memory_recall": tools.dispatch("memory_recall", {"query": "tea staging"}),
        "memory_remember": written,
        "memory_list": tools.dispatch("memory_list", {}),
        "memory_read": tools.dispatch("memory_read", {"ref": written["ref"]}),
        "memory_recent": tools.dispatch("memory_recent", {}),
        "memory_why": tools.dispatch("memory_why", {"ref": written["ref"]}),
        "memory_status": tools.dispatch("memory_status", {}),
        "memory_edit": tools.dispatch(
            "memory_edit", {"ref": written["ref"], "text": "Deploys go through staging first"}
        ),
    }


@pytest.mark.slow
def test_the_lean_schemas_accept_exactly_what_pydantic_s_accept(
    repo: MemoryRepo, tools_for: ToolsFor
) -> None:
    registry = default_registry()
    checked = 0
    for name, result in results(repo, tools_for).items():
        tool = registry.get(name)
        assert tool.output_model is not None
        full = clean_schema(tool.output_model.model_json_schema(mode="serialization"))
        published = tool.output_schema()
        assert published is not None
        lean, exact = Draft202012Validator(published), Draft202012Validator(full)
        assert lean.is_valid(result) and exact.is_valid(result), name
        for broken in variants(copy.deepcopy(result)):
            assert lean.is_valid(broken) == exact.is_valid(broken), (name, broken)
            checked += 1
    assert checked > 500


class Node(BaseModel):
    label: str | None = None
    children: list[Node] = Field(default_factory=list)


class Tree(BaseModel):
    root: Node


def test_a_recursive_schema_is_left_as_it_is() -> None:
    schema = clean_schema(Tree.model_json_schema(mode="serialization"))
    assert lean_schema(schema) == schema
