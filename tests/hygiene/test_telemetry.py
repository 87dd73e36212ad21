"""Raw tool telemetry is recognised; notes that merely mention tools are not."""

from __future__ import annotations

import json

import pytest

from memrepo.hygiene import is_telemetry


@pytest.mark.parametrize(
    "text",
    [
        "Tool called: read_file {'path': 'a.py'}",
        "tool called: search",
        "Tool result for read_file: 200 lines",
        "Step started: 3 of 7",
        "Step completed: write tests",
        json.dumps({"tool": "bash", "args": {"cmd": "ls"}}),
        json.dumps({"tool_call_id": "call_1", "content": "ok"}),
        json.dumps({"toolCallId": "call_1", "output": "ok"}),
        json.dumps({"plan": ["a", "b"], "status": "running"}),
        json.dumps({"step": 2, "description": "run tests"}),
        json.dumps({"type": "tool_use", "id": "toolu_1", "name": "grep", "input": {}}),
        json.dumps([{"type": "function", "function": {"name": "f", "arguments": "{}"}}]),
        json.dumps([{"step_id": 1}, {"step_id": 2}]),
    ],
)
def test_telemetry(text: str) -> None:
    assert is_telemetry(text)


@pytest.mark.parametrize(
    "text",
    [
        "The user prefers the ripgrep tool over grep",
        "Step one of onboarding is reading the README",
        json.dumps({"name": "Alice", "likes": "tea"}),
        json.dumps(["tea", "coffee"]),
        '{"tool": unterminated',
        "{not json at all}",
        "[" * 100_000 + "]" * 100_000,
        '"just a json string"',
    ],
)
def test_not_telemetry(text: str) -> None:
    assert not is_telemetry(text)
