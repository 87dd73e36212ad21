"""Every tool's input schema is self-contained: no `$defs`/`$ref` (issue #28).

Copilot CLI, Kiro, opencode and the MCP Inspector's form builder cannot follow a `$ref`:
a tool whose schema holds one (`memory_edit` did) fails to load there, or shows no form.
What a host sees is checked where it sees it: the MCP tool listing and each schema
export; and the inlined schema must accept exactly what pydantic's own schema accepts.
"""

from __future__ import annotations

import json
from itertools import product
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from memrepo.errors import ToolInputError
from memrepo.mcp.server import mcp_tool
from memrepo.tools.exporters import anthropic_tools, openai_responses_tools, openai_tools
from memrepo.tools.registry import default_registry
from memrepo.tools.tool import clean_schema

VALUES: tuple[Any, ...] = (None, "x", "", 0, 3, 1.5, True, [], ["a"], [1], {}, {"a": 1})
REF = "MEMORY.md#the-user-prefers-tea-1a2b3c"
#: Arguments of the kind the tool and MCP tests send, nested ones included.
CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("memory_recall", {"query": "tea", "limit": 5, "scope": "all", "detail": "full"}),
    ("memory_remember", {"text": "Deploys go through staging first", "kind": "fact"}),
    ("memory_edit", {"ref": REF, "text": "The user prefers coffee"}),
    ("memory_edit", {"ref": REF, "metadata": [{"key": "by", "value": "user"}]}),
    ("memory_edit", {"ref": REF, "metadata": [{"key": "expires"}]}),
    ("memory_move", {"ref": REF, "file": "people.md"}),
    ("memory_undo", {}),
    ("memory_review", {"name": "dream-1", "decision": "accept", "ops": [1]}),
    ("swarm_note", {"kind": "finding", "text": "The cache is stale", "sources": [REF]}),
)
#: A nested constraint that lives in what used to be a `$defs` entry (a key's maxLength).
NESTED_BAD = {"ref": REF, "metadata": [{"key": "k" * 41, "value": "x"}]}


def exports() -> dict[str, dict[str, Any]]:
    """Each tool's input schema as each host reads it, by `export/tool`."""
    registry = default_registry()
    shown = {f"mcp/{t.name}": mcp_tool(t).input_schema for t in registry}
    shown |= {
        f"openai/{t['function']['name']}": t["function"]["parameters"]
        for t in openai_tools(registry)
    }
    shown |= {f"responses/{t['name']}": t["parameters"] for t in openai_responses_tools(registry)}
    shown |= {f"anthropic/{t['name']}": t["input_schema"] for t in anthropic_tools(registry)}
    return shown


def holds_ref(schema: object) -> bool:
    text = json.dumps(schema)
    return '"$ref"' in text or '"$defs"' in text


def test_no_ref_reaches_the_mcp_listing_or_any_export() -> None:
    registry = default_registry()
    exports = {
        "mcp": [mcp_tool(tool).input_schema for tool in registry],
        "mcp output": [mcp_tool(tool).output_schema or {} for tool in registry],
        "openai": [t["function"]["parameters"] for t in openai_tools(registry)],
        "openai strict": [t["function"]["parameters"] for t in openai_tools(registry, strict=True)],
        "responses": [t["parameters"] for t in openai_responses_tools(registry)],
        "anthropic": [t["input_schema"] for t in anthropic_tools(registry)],
    }
    for name, schemas in exports.items():
        assert len(schemas) == len(list(registry)), name
        assert [s for s in schemas if holds_ref(s)] == [], name


def test_memory_edit_s_nested_fields_are_spelt_out_in_place() -> None:
    schema = default_registry().get("memory_edit").parameters()
    full = clean_schema(default_registry().get("memory_edit").input_model.model_json_schema())
    assert "$defs" in full  # what a host used to get
    assert not holds_ref(schema) and schema["properties"].keys() == full["properties"].keys()


@pytest.mark.parametrize("tool", list(default_registry()), ids=lambda tool: tool.name)
def test_the_inlined_schema_accepts_exactly_what_pydantic_s_accepts(tool: Any) -> None:
    full = Draft202012Validator(clean_schema(tool.input_model.model_json_schema()))
    inlined = Draft202012Validator(tool.parameters())
    required = tool.parameters().get("required", [])
    properties = list(tool.parameters()["properties"])
    tried = 0
    for name, value, filler in product(properties, VALUES, ("x", 1)):
        for args in ({name: value}, {**dict.fromkeys(required, filler), name: value}):
            assert inlined.is_valid(args) == full.is_valid(args), (tool.name, args)
            tried += 1
    assert tried >= 4 * len(VALUES) * len(properties)


@pytest.mark.parametrize(
    ("name", "arguments"), CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CALLS)]
)
def test_every_export_still_accepts_the_calls_tools_are_sent(
    name: str, arguments: dict[str, Any]
) -> None:
    default_registry().get(name).validate(arguments)  # the tool itself takes it
    shown = {where: schema for where, schema in exports().items() if where.endswith(f"/{name}")}
    assert len(shown) == 4
    for where, schema in shown.items():
        problems = [e.message for e in Draft202012Validator(schema).iter_errors(arguments)]
        assert problems == [], where


def test_a_nested_constraint_survives_the_inlining_in_every_export() -> None:
    with pytest.raises(ToolInputError, match="metadata"):
        default_registry().get("memory_edit").validate(NESTED_BAD)
    shown = {w: s for w, s in exports().items() if w.endswith("/memory_edit")}
    assert [w for w, s in shown.items() if Draft202012Validator(s).is_valid(NESTED_BAD)] == []
