"""One registry drives every face: a tool registered once appears, with the same name and
schema, in the OpenAI (Chat Completions and Responses), Anthropic and MCP tool lists,
plain and strict, and an MCP client can call it."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

import anyio
from mcp import Client
from pydantic import Field

from memrepo import MemoryRepo
from memrepo.mcp.server import build_server
from memrepo.tools import (
    MemoryTools,
    Tool,
    ToolContext,
    ToolEnv,
    ToolInput,
    ToolOutput,
    ToolRegistry,
    anthropic_tools,
    default_registry,
    openai_responses_tools,
    openai_tools,
)


class ShoutInput(ToolInput):
    word: str = Field(description="A word.")
    times: int = Field(default=1, ge=1, le=3, description="How often.")


class ShoutOutput(ToolOutput):
    said: str


def shout(env: ToolEnv, args: ShoutInput) -> ShoutOutput:
    return ShoutOutput(said=" ".join([args.word.upper()] * args.times))


SHOUT = Tool(
    name="shout",
    description="Say a word loudly.",
    input_model=ShoutInput,
    handler=shout,
    output_model=ShoutOutput,
)


def registry_with_shout() -> ToolRegistry:
    registry = default_registry()
    registry.register(SHOUT)
    return registry


async def over_mcp(tools: MemoryTools) -> tuple[list[Any], Any]:
    async with Client(build_server(tools)) as client:
        listed = await client.list_tools()
        called = await client.call_tool("shout", {"word": "hi", "times": 2.0})
    return listed.tools, called


def test_a_new_tool_appears_on_every_face_at_once(repo: MemoryRepo) -> None:
    registry = registry_with_shout()
    tools = MemoryTools(repo, ToolContext(task_id="t1"), registry=registry)
    mcp_tools, called = anyio.run(over_mcp, tools)

    expected = [*default_registry().names(), "shout"]
    faces: dict[str, list[str]] = {"mcp": [t.name for t in mcp_tools]}
    # Anthropic takes at most 24 optional parameters over a request's strict tools.
    anthropic_strict = {"memory_recall", "shout"}
    for strict in (False, True):
        faces[f"chat strict={strict}"] = [
            t["function"]["name"] for t in openai_tools(registry, strict=strict)
        ]
        faces[f"responses strict={strict}"] = [
            t["name"] for t in openai_responses_tools(registry, strict=strict)
        ]
        faces[f"anthropic strict={strict}"] = [
            t["name"]
            for t in anthropic_tools(registry, strict=anthropic_strict if strict else False)
        ]
    assert faces == dict.fromkeys(faces, expected)

    # The same schema and description on the plain faces, so the model validates
    # against exactly what it was shown.
    anthropic = anthropic_tools(registry)
    assert [t.input_schema for t in mcp_tools] == [t["input_schema"] for t in anthropic]
    assert [t.description for t in mcp_tools] == [t["description"] for t in anthropic]
    assert [t["parameters"] for t in openai_responses_tools(registry)] == [
        t["input_schema"] for t in anthropic
    ]

    assert called.is_error is False, called.content
    assert called.structured_content == {"said": "HI HI"}  # 2.0 read as 2


def test_the_default_registry_is_untouched_by_a_host_s_tool() -> None:
    registry_with_shout()
    for names in (
        [t["function"]["name"] for t in openai_tools()],
        [t["name"] for t in openai_responses_tools()],
        [t["name"] for t in anthropic_tools()],
    ):
        assert "shout" not in names and names == default_registry().names()


def test_an_unregistered_tool_leaves_every_face(repo: MemoryRepo) -> None:
    """A tool plugs in like every extension: `register` returns its way out."""
    registry = default_registry()
    unregister = registry.register(SHOUT)
    assert "shout" in [t["name"] for t in anthropic_tools(registry)]
    unregister()
    unregister()  # twice is harmless
    assert registry.names() == default_registry().names()
    assert "shout" not in [t["name"] for t in openai_responses_tools(registry)]
    listed, _ = anyio.run(over_mcp_listing, MemoryTools(repo, ToolContext(), registry=registry))
    assert "shout" not in [t.name for t in listed]


async def over_mcp_listing(tools: MemoryTools) -> tuple[list[Any], None]:
    async with Client(build_server(tools)) as client:
        listed = await client.list_tools()
    return listed.tools, None
