"""One definition per tool feeds both exporters, the validation and dispatch; the registry
takes one more tool through a public call."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import Field

from memrepo import MemoryRepo
from memrepo.errors import InvalidArgument, ToolInputError
from memrepo.tools import (
    MEMORY_RECALL,
    MemoryTools,
    Tool,
    ToolContext,
    ToolEnv,
    ToolInput,
    ToolOutput,
    anthropic_tools,
    default_registry,
    openai_tools,
)

NAMES = [
    "memory_recall",
    "memory_remember",
    "memory_forget",
    "memory_read",
    "memory_list",
    "memory_edit",
    "memory_move",
    "memory_recent",
    "memory_why",
    "memory_undo",
    "memory_status",
    "memory_reviews",
    "memory_review",
    "swarm_note",
    "memory",
    "memory_held",
]


def test_both_shapes_come_from_the_same_models() -> None:
    openai = openai_tools()
    anthropic = anthropic_tools()
    assert [t["function"]["name"] for t in openai] == [t["name"] for t in anthropic] == NAMES
    for o, a in zip(openai, anthropic, strict=True):
        assert o["type"] == "function"
        assert set(o["function"]) == {"name", "description", "parameters"}
        assert set(a) == {"name", "description", "input_schema"}
        assert o["function"]["parameters"] == a["input_schema"]
        assert o["function"]["description"] == a["description"]


def test_schemas_match_the_documented_signatures() -> None:
    schemas = {t["name"]: t["input_schema"] for t in anthropic_tools()}
    expected = {
        "memory_recall": (["query"], {"query", "limit", "scope", "detail", "ids"}),
        "memory_remember": (
            ["text"],
            {"text", "kind", "scope", "subject", "pin", "user_asked", "file", "due"},
        ),
        "memory_forget": (["ref"], {"ref"}),
    }
    for name, (required, properties) in expected.items():
        schema = schemas[name]
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert schema["required"] == required and set(schema["properties"]) == properties
        assert all(prop.get("description") for prop in schema["properties"].values())
        assert "title" not in schema and all(
            "title" not in p for p in schema["properties"].values()
        )


def test_descriptions_tell_a_model_when_to_call() -> None:
    descriptions = {t["name"]: t["description"] for t in anthropic_tools()}
    assert "before you ask the user" in descriptions["memory_recall"]
    assert "when the user asks you to remember" in descriptions["memory_remember"]
    assert "asks the user first" in descriptions["memory_forget"]


class EchoInput(ToolInput):
    word: str = Field(description="a word")


class EchoOutput(ToolOutput):
    word: str
    task: str | None


def echo(env: ToolEnv, args: EchoInput) -> EchoOutput:
    return EchoOutput(word=args.word, task=env.context.task_id)


ECHO = Tool(name="echo", description="Echo a word.", input_model=EchoInput, handler=echo)


def test_one_more_tool_joins_every_face(repo: MemoryRepo) -> None:
    registry = default_registry()
    registry.register(ECHO)
    tools = MemoryTools(repo, ToolContext(task_id="t1"), registry=registry)
    assert [t["function"]["name"] for t in tools.openai_tools()] == [*NAMES, "echo"]
    assert tools.anthropic_tools()[-1]["input_schema"]["required"] == ["word"]
    assert tools.dispatch("echo", '{"word": "hi"}') == {"word": "hi", "task": "t1"}
    with pytest.raises(ToolInputError, match="extra: unknown field"):
        tools.dispatch("echo", {"word": "hi", "extra": 1})
    assert [t["name"] for t in anthropic_tools()] == NAMES  # the default is untouched


def test_a_name_registers_once() -> None:
    registry = default_registry()
    with pytest.raises(InvalidArgument, match="already registered"):
        registry.register(MEMORY_RECALL)
    assert registry.names() == NAMES


@pytest.mark.slow
def test_results_are_plain_json(repo: MemoryRepo) -> None:
    tools = MemoryTools(repo, ToolContext(task_id="t1"))
    results: list[dict[str, Any]] = [
        tools.dispatch("memory_remember", {"text": "Prefers tea over coffee"}),
        tools.dispatch("memory_recall", {"query": "tea"}),
    ]
    for result in results:
        assert json.loads(json.dumps(result)) == result
