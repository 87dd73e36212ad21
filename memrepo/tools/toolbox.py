"""MemoryTools: the memory tools bound to one repo and one task, ready to apply calls.

A host makes one per task, updates `context` each turn, hands `openai_tools()` or
`anthropic_tools()` to its model and passes every tool call it gets back to `dispatch`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from memrepo.errors import ToolInputError
from memrepo.tools.approval import ForgetApproval, deny_all
from memrepo.tools.exporters import Strict, anthropic_tools, openai_responses_tools, openai_tools
from memrepo.tools.registry import ToolRegistry, default_registry
from memrepo.tools.tool import ToolEnv
from memrepo.tools.tool_context import ToolContext

if TYPE_CHECKING:
    from memrepo.engine import MemoryRepo


class MemoryTools:
    """The tools of `registry` applied to `repo` in one task's `context`.

    `context` is replaced, not mutated: `tools.context = tools.context.next_turn(msg)`.
    `approval` is asked before forgetting anything the task did not infer itself; the
    default denies.
    """

    def __init__(
        self,
        repo: MemoryRepo,
        context: ToolContext | None = None,
        *,
        approval: ForgetApproval = deny_all,
        registry: ToolRegistry | None = None,
    ) -> None:
        self.repo = repo
        self.context = context if context is not None else ToolContext()
        self.approval = approval
        self.registry = registry if registry is not None else default_registry()

    def openai_tools(self, *, strict: Strict = False) -> list[dict[str, Any]]:
        """This registry's tools in the OpenAI Chat Completions function-calling shape."""
        return openai_tools(self.registry, strict=strict)

    def openai_responses_tools(self, *, strict: Strict = False) -> list[dict[str, Any]]:
        """This registry's tools in the OpenAI Responses API shape."""
        return openai_responses_tools(self.registry, strict=strict)

    def anthropic_tools(self, *, strict: Strict = False) -> list[dict[str, Any]]:
        """This registry's tools in the Anthropic tool-use shape."""
        return anthropic_tools(self.registry, strict=strict)

    def dispatch(
        self,
        name: str,
        arguments: str | bytes | Mapping[str, Any] | None = None,
        context: ToolContext | None = None,
    ) -> dict[str, Any]:
        """Apply one tool call; `arguments` as the model sent them (a JSON object text
        or an already parsed mapping). Returns the result as a JSON-serializable dict.
        `context` replaces `self.context` for this call only (a server that serves
        several tasks over one connection names the call's task with it).

        A malformed call raises ToolInputError, a refused or impossible one the specific
        MemrepoError (ApprovalDenied, EntryNotFound, ...): give `str(exc)` back to the
        model as the tool's error result. Nothing is written when either is raised.
        """
        tool = self.registry.get(name)
        env = ToolEnv(self.repo, context or self.context, self.approval)
        return tool.run(env, parse_arguments(name, arguments))


def parse_arguments(
    tool: str, arguments: str | bytes | Mapping[str, Any] | None
) -> Mapping[str, Any]:
    """The call's arguments as a mapping; ToolInputError when they are not a JSON object."""
    if arguments is None:
        return {}
    if isinstance(arguments, Mapping):
        return arguments
    text = arguments.decode("utf-8", "replace") if isinstance(arguments, bytes) else arguments
    if not text.strip():
        return {}
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolInputError(tool, [f"arguments are not valid JSON ({exc.msg})"]) from exc
    except (ValueError, RecursionError) as exc:  # an integer of 5,000 digits, deep nesting
        raise ToolInputError(tool, ["arguments are not valid JSON (a value is too large)"]) from exc
    if not isinstance(parsed, dict):
        raise ToolInputError(tool, ["arguments must be a JSON object"])
    return parsed
