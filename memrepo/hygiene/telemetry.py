"""Recognise raw tool telemetry, which agents sometimes try to remember verbatim.

A tool call log or a plan/step payload describes what the agent did, not something
worth knowing next time; remembering it floods memory and recall.
"""

from __future__ import annotations

import json

_PREFIXES = ("tool called:", "tool result for ", "step started:", "step completed:")

# Keys of tool-call, plan and step payloads (OpenAI, Anthropic, LangChain, ReAct and our
# own), compared after lowercasing and dropping "_" and "-" so toolCallId == tool_call_id.
_TELEMETRY_KEYS = frozenset(
    {
        "tool",
        "toolname",
        "toolcall",
        "toolcalls",
        "toolcallid",
        "tooluse",
        "tooluseid",
        "toolinput",
        "tooloutput",
        "toolresult",
        "function",
        "functioncall",
        "args",
        "arguments",
        "step",
        "steps",
        "stepid",
        "stepindex",
        "plan",
        "planid",
        "action",
        "actioninput",
        "observation",
    }
)
_TELEMETRY_TYPES = frozenset({"tooluse", "toolresult", "toolcall", "functioncall", "function"})


def is_telemetry(text: str) -> bool:
    """True when ``text`` (whitespace already collapsed) is a raw tool log or payload.

    That is: it starts with "Tool called:", "Tool result for ", "Step started:" or
    "Step completed:" (any case), or the whole text is a JSON object or array that looks
    like a tool call, plan or step.
    """
    if text.casefold().startswith(_PREFIXES):
        return True
    if not ((text[:1] == "{" and text[-1:] == "}") or (text[:1] == "[" and text[-1:] == "]")):
        return False
    try:
        payload: object = json.loads(text)
    except (ValueError, RecursionError):
        return False
    if isinstance(payload, list):
        return any(_is_telemetry_object(item) for item in payload)
    return _is_telemetry_object(payload)


def _normalize_key(key: str) -> str:
    return key.casefold().replace("_", "").replace("-", "")


def _is_telemetry_object(payload: object) -> bool:
    if not isinstance(payload, dict):
        return False
    keys = {_normalize_key(str(key)) for key in payload}
    if keys & _TELEMETRY_KEYS:
        return True
    kind = payload.get("type")
    return isinstance(kind, str) and _normalize_key(kind) in _TELEMETRY_TYPES
