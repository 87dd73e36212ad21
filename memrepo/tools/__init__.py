"""The agent's memory tools (docs/architecture.md §8): memory_recall, memory_remember,
memory_forget, and the rest of the surface.

One definition per tool (a pydantic input model, a description for the model, a handler)
feeds the OpenAI-style and Anthropic-style exporters, `MemoryTools.dispatch` and the MCP
server alike, so the schema a model sees is the one its call is validated against.
"""

from memrepo.tools.approval import ForgetApproval, ForgetRequest, allow_all, deny_all
from memrepo.tools.exporters import anthropic_tools, openai_responses_tools, openai_tools
from memrepo.tools.intent import asks_to_remember
from memrepo.tools.models import (
    ForgetInput,
    ForgetOutput,
    RecallInput,
    RecallOutput,
    RememberInput,
    RememberOutput,
    ToolHit,
    ToolInput,
    ToolOutput,
)
from memrepo.tools.registry import (
    BUILTIN_TOOLS,
    MEMORY_FORGET,
    MEMORY_RECALL,
    MEMORY_REMEMBER,
    ToolRegistry,
    default_registry,
)
from memrepo.tools.tool import Tool, ToolEnv
from memrepo.tools.tool_context import Role, ToolContext
from memrepo.tools.toolbox import MemoryTools

__all__ = [
    "BUILTIN_TOOLS",
    "MEMORY_FORGET",
    "MEMORY_RECALL",
    "MEMORY_REMEMBER",
    "ForgetApproval",
    "ForgetInput",
    "ForgetOutput",
    "ForgetRequest",
    "MemoryTools",
    "RecallInput",
    "RecallOutput",
    "RememberInput",
    "RememberOutput",
    "Role",
    "Tool",
    "ToolContext",
    "ToolEnv",
    "ToolHit",
    "ToolInput",
    "ToolOutput",
    "ToolRegistry",
    "allow_all",
    "anthropic_tools",
    "asks_to_remember",
    "default_registry",
    "deny_all",
    "openai_responses_tools",
    "openai_tools",
]
