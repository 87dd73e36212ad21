"""The tools in the two common function-calling shapes, from the same pydantic models.

OpenAI-style: `{"type": "function", "function": {name, description, parameters}}`
(Chat Completions and compatible servers). Anthropic-style: `{name, description,
input_schema}` (Messages API). MCP uses the Anthropic shape's fields too.
"""

from __future__ import annotations

from typing import Any

from memrepo.tools.registry import ToolRegistry, default_registry


def openai_tools(registry: ToolRegistry | None = None) -> list[dict[str, Any]]:
    """The `tools` list for an OpenAI-style chat completion request."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.parameters(),
            },
        }
        for tool in (registry if registry is not None else default_registry())
    ]


def anthropic_tools(registry: ToolRegistry | None = None) -> list[dict[str, Any]]:
    """The `tools` list for an Anthropic-style messages request."""
    return [
        {"name": tool.name, "description": tool.description, "input_schema": tool.parameters()}
        for tool in (registry if registry is not None else default_registry())
    ]
