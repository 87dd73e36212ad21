"""One memory-tool call as a host passes it on: a JSON object with a `command` field.

Every face (the Anthropic SDK's tool runner, the MCP `memory` tool, a Letta-style host
dispatching by hand) hands the model's arguments here unchanged, so a call with a
missing, extra or wrong-typed field, a control character or an oversized text gets the
same one error, and nothing is read or written for it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from memrepo.errors import MemoryToolError
from memrepo.memtool.commands import MemoryCommands

#: Fields each command requires, then those it may have.
COMMANDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "view": (("path",), ("view_range",)),
    "create": (("path", "file_text"), ()),
    "str_replace": (("path", "old_str", "new_str"), ()),
    "insert": (("path", "insert_line", "insert_text"), ()),
    "delete": (("path",), ()),
    "rename": (("old_path", "new_path"), ()),
}
#: Characters of one text field at most (a memory file is not a dump).
MAX_TEXT_CHARS = 100_000
MAX_PATH_CHARS = 1_000
_TEXT_FIELDS = ("file_text", "old_str", "new_str", "insert_text")
#: NUL and the C0/C1 controls; tab, newline and carriage return are text.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def run_command(commands: MemoryCommands, call: Mapping[str, Any]) -> str:
    """Check `call` and run it; the result text, or MemoryToolError."""
    name = call.get("command")
    if not isinstance(name, str) or name not in COMMANDS:
        raise MemoryToolError(
            f"Unknown command {name!r}: use one of {', '.join(COMMANDS)}"
            if name is not None
            else f"`command` is required: one of {', '.join(COMMANDS)}"
        )
    args = _checked(name, call)
    if name == "view":
        return commands.view(args["path"], args.get("view_range"))
    if name == "create":
        return commands.create(args["path"], args["file_text"])
    if name == "str_replace":
        return commands.str_replace(args["path"], args["old_str"], args["new_str"])
    if name == "insert":
        return commands.insert(args["path"], args["insert_line"], args["insert_text"])
    if name == "delete":
        return commands.delete(args["path"])
    return commands.rename(args["old_path"], args["new_path"])


def _checked(name: str, call: Mapping[str, Any]) -> dict[str, Any]:
    required, optional = COMMANDS[name]
    given = {key: value for key, value in call.items() if key != "command" and value is not None}
    missing = [key for key in required if key not in given]
    extra = sorted(set(given) - set(required) - set(optional))
    problems = [f"`{key}` is required for {name}" for key in missing]
    problems += [f"`{key}` is not a field of {name}" for key in extra]
    for key, value in given.items():
        if key in extra:
            continue
        problem = _type_problem(key, value)
        if problem:
            problems.append(problem)
    if problems:
        raise MemoryToolError("Invalid memory command: " + "; ".join(problems))
    return given


def _type_problem(key: str, value: Any) -> str | None:
    if key == "insert_line":
        ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else "`insert_line` must be an integer"
    if key == "view_range":
        ok = (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in value)
        )
        return None if ok else "`view_range` must be two integers, [start, end]"
    if not isinstance(value, str):
        return f"`{key}` must be a string"
    limit = MAX_TEXT_CHARS if key in _TEXT_FIELDS else MAX_PATH_CHARS
    if len(value) > limit:
        return f"`{key}` is {len(value):,} characters; at most {limit:,} are accepted"
    if _CONTROL.search(value):
        return f"`{key}` holds a control character (NUL or another); nothing was written"
    return None
