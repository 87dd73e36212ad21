"""The tools in the function-calling shapes of the common APIs, from the same pydantic
models that validate the calls.

- `openai_tools`: Chat Completions (and compatible servers),
  `{"type": "function", "function": {name, description, parameters[, strict]}}`.
- `openai_responses_tools`: the Responses API, `{"type": "function", name, description,
  parameters, strict}`. `strict` is always sent: a Responses request that omits it has its
  schema made strict by the API, which would make optional fields mandatory.
- `anthropic_tools`: the Messages API, `{name, description, input_schema[, strict]}`.
  MCP's `tools/list` publishes the same input schema.

`strict=True` asks the API to constrain the model's arguments to every tool's schema,
`strict={"memory_remember", ...}` to the named tools' (Anthropic limits strict tools per
request: see `anthropic_tools`). A strict tool's schema is in the subset its API accepts
(`memrepo.tools.strict`: every OpenAI property required and the optional ones nullable,
objects closed, keywords the API refuses moved into the descriptions). Whatever a model
sends under a strict schema validates: `null` for an optional field means "not given"
(`memrepo.tools.lenient`). The bounds a strict schema cannot carry are still checked when
the call is validated.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, TypeAlias

from memrepo.errors import InvalidArgument
from memrepo.tools.registry import ToolRegistry, default_registry
from memrepo.tools.strict import Dialect, check_anthropic_budget, strict_schema
from memrepo.tools.tool import Tool

#: True (every tool), False (none) or the names of the tools to make strict.
Strict: TypeAlias = bool | Collection[str]


def openai_tools(
    registry: ToolRegistry | None = None, *, strict: Strict = False
) -> list[dict[str, Any]]:
    """The `tools` list for an OpenAI-style chat completion request."""
    tools, chosen = _selection(registry, strict)
    return [
        {"type": "function", "function": _declaration(tool, "parameters", "openai", chosen)}
        for tool in tools
    ]


def openai_responses_tools(
    registry: ToolRegistry | None = None, *, strict: Strict = False
) -> list[dict[str, Any]]:
    """The `tools` list for an OpenAI Responses API request (`client.responses.create`)."""
    tools, chosen = _selection(registry, strict)
    return [
        {
            "type": "function",
            "name": tool.name,
            "description": tool.description,
            "parameters": _parameters(tool, "openai", tool.name in chosen),
            "strict": tool.name in chosen,
        }
        for tool in tools
    ]


def anthropic_tools(
    registry: ToolRegistry | None = None, *, strict: Strict = False
) -> list[dict[str, Any]]:
    """The `tools` list for an Anthropic-style messages request.

    Anthropic limits the strict tools of one request together (20 tools, 24 optional
    parameters, 16 union-typed ones), and the built-in tools pass the optional budget:
    name the ones that need it (`strict={"memory_remember", "memory_edit"}`).
    InvalidArgument says so, before the API refuses the whole request.
    """
    tools, chosen = _selection(registry, strict)
    exported = [_declaration(tool, "input_schema", "anthropic", chosen) for tool in tools]
    check_anthropic_budget(tool["input_schema"] for tool in exported if tool.get("strict"))
    return exported


def _selection(
    registry: ToolRegistry | None, strict: Strict
) -> tuple[ToolRegistry, frozenset[str]]:
    """The tools to export (the built-in ones unless a registry is given) and the names
    of those to make strict."""
    tools = registry if registry is not None else default_registry()
    return tools, _strict_names(tools, strict)


def _strict_names(tools: ToolRegistry, strict: Strict) -> frozenset[str]:
    """The names of the tools to make strict; a name not registered is a typo, refused."""
    if strict is True or strict is False:
        return frozenset(tools.names()) if strict else frozenset()
    names = frozenset([strict] if isinstance(strict, str) else strict)
    unknown = sorted(names - set(tools.names()))
    if unknown:
        raise InvalidArgument(
            f"strict names tools that are not registered: {', '.join(unknown)}; "
            f"the tools are {', '.join(tools.names())}"
        )
    return names


def _declaration(
    tool: Tool[Any], schema_key: str, dialect: Dialect, chosen: frozenset[str]
) -> dict[str, Any]:
    """A tool as OpenAI's chat completions and Anthropic declare it (they differ only in
    the schema's key): a strict tool says `strict: true`, any other leaves the key out."""
    strict = tool.name in chosen
    declared: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description,
        schema_key: _parameters(tool, dialect, strict),
    }
    if strict:
        declared["strict"] = True
    return declared


def _parameters(tool: Tool[Any], dialect: Dialect, strict: bool) -> dict[str, Any]:
    return strict_schema(tool.parameters(), dialect) if strict else tool.parameters()
