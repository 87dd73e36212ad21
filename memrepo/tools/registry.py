"""The set of tools a host exposes, built once from the tool definitions.

`default_registry()` holds the memory tools, each declared beside its handler: recall and
remember (`handlers`), forget (`forget`), reading and listing (`files`), correcting
(`changes`), history (`history`), status and dream reviews (`review`), swarm_note and the
file-command `memory` tool. A host's own tool joins with `register` on its registry; one
registry feeds MCP and every function-calling export.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from memrepo.errors import InvalidArgument, ToolInputError
from memrepo.tools.changes import EDIT_TOOL, MOVE_TOOL, UNDO_TOOL
from memrepo.tools.files import LIST_TOOL, READ_TOOL
from memrepo.tools.forget import MEMORY_FORGET
from memrepo.tools.handlers import MEMORY_RECALL, MEMORY_REMEMBER
from memrepo.tools.held import HELD_TOOL
from memrepo.tools.history import RECENT_TOOL, WHY_TOOL
from memrepo.tools.memory_tool import MEMORY_TOOL
from memrepo.tools.review import REVIEW_TOOL, REVIEWS_TOOL, STATUS_TOOL
from memrepo.tools.swarm_note import SWARM_NOTE_TOOL
from memrepo.tools.tool import Tool

__all__ = [
    "BUILTIN_TOOLS",
    "MEMORY_FORGET",
    "MEMORY_RECALL",
    "MEMORY_REMEMBER",
    "ToolRegistry",
    "default_registry",
]

#: The tools every registry starts with, in the order a model sees them. swarm_note
#: refuses a session without a task and a verifier role with a message the model can
#: read, and every changing tool asks the host's approval for what is not the task's
#: own, so offering them always is safe.
BUILTIN_TOOLS: tuple[Tool[Any], ...] = (
    MEMORY_RECALL,
    MEMORY_REMEMBER,
    MEMORY_FORGET,
    READ_TOOL,
    LIST_TOOL,
    EDIT_TOOL,
    MOVE_TOOL,
    RECENT_TOOL,
    WHY_TOOL,
    UNDO_TOOL,
    STATUS_TOOL,
    REVIEWS_TOOL,
    REVIEW_TOOL,
    SWARM_NOTE_TOOL,
    MEMORY_TOOL,
    HELD_TOOL,
)


class ToolRegistry:
    """Tools by name, in the order they were registered (the order a model sees)."""

    def __init__(self, tools: Iterable[Tool[Any]] = ()) -> None:
        self._tools: dict[str, Tool[Any]] = {}
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool[Any]) -> Callable[[], None]:
        """Add one more tool (it appears on every face built from this registry: MCP,
        OpenAI, Anthropic); a second tool with the same name is a mistake, refused. Returns
        the function that takes it out again, the shape of every memrepo extension
        (docs/architecture.md §1)."""
        if tool.name in self._tools:
            raise InvalidArgument(f"a tool named {tool.name!r} is already registered")
        self._tools[tool.name] = tool

        def unregister() -> None:
            if self._tools.get(tool.name) is tool:
                del self._tools[tool.name]

        return unregister

    def get(self, name: str) -> Tool[Any]:
        """The tool `name`; an unknown name is the model's mistake, said so it can retry."""
        try:
            return self._tools[name]
        except KeyError:
            known = ", ".join(self._tools)
            raise ToolInputError(name, [f"unknown tool; the tools are {known}"]) from None

    def names(self) -> list[str]:
        return list(self._tools)

    def __iter__(self) -> Iterator[Tool[Any]]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)


def default_registry() -> ToolRegistry:
    """A fresh registry of the built-in tools (hosts may register more on it)."""
    return ToolRegistry(BUILTIN_TOOLS)
