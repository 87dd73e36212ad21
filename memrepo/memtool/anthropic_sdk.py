"""The memory tool as the Anthropic SDK's own tool classes, for its tool runner.

`client.beta.messages.tool_runner(tools=[repo.memory_tool()], ...)` runs each command
the model sends through `run_command`: a refused command becomes the SDK's `ToolError`,
which the runner returns to the model as an error result it can read and act on. The
SDK (the `claude` extra) is imported here only, when a program asks for the tool.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from anthropic.lib.tools import (
    BetaAbstractMemoryTool,
    BetaAsyncAbstractMemoryTool,
    BetaFunctionToolResultType,
    ToolError,
)
from anthropic.types.beta import (
    BetaCacheControlEphemeralParam,
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)
from anyio.to_thread import run_sync
from pydantic import BaseModel

from memrepo.errors import MemrepoError
from memrepo.memtool.calls import run_command
from memrepo.memtool.commands import MemoryCommands


def _run(commands: MemoryCommands, call: object) -> str:
    """One call (the model's arguments, or one of the SDK's command models)."""
    if isinstance(call, BaseModel):
        call = call.model_dump(exclude_unset=True)
    if not isinstance(call, Mapping):
        raise ToolError("Invalid memory command: the input must be a JSON object")
    try:
        return run_command(commands, call)
    except MemrepoError as exc:
        raise ToolError(str(exc)) from exc


class GitMemoryTool(BetaAbstractMemoryTool):
    """`BetaAbstractMemoryTool` on a memory repo folder: each command one commit."""

    def __init__(
        self,
        commands: MemoryCommands,
        *,
        cache_control: BetaCacheControlEphemeralParam | None = None,
    ) -> None:
        super().__init__(cache_control=cache_control)
        self.commands = commands

    def call(self, input: object) -> BetaFunctionToolResultType:
        """The model's arguments as they came: checked here, not by the SDK's models,
        so a malformed call is an error result, never an exception in the runner."""
        return _run(self.commands, input)

    def view(self, command: BetaMemoryTool20250818ViewCommand) -> BetaFunctionToolResultType:
        return _run(self.commands, command)

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> BetaFunctionToolResultType:
        return _run(self.commands, command)

    def str_replace(
        self, command: BetaMemoryTool20250818StrReplaceCommand
    ) -> BetaFunctionToolResultType:
        return _run(self.commands, command)

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> BetaFunctionToolResultType:
        return _run(self.commands, command)

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> BetaFunctionToolResultType:
        return _run(self.commands, command)

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> BetaFunctionToolResultType:
        return _run(self.commands, command)


class AsyncGitMemoryTool(BetaAsyncAbstractMemoryTool):
    """The async twin: each command runs on a worker thread (git and the write lock
    block), so an event loop serving other conversations keeps going."""

    def __init__(
        self,
        commands: MemoryCommands,
        *,
        cache_control: BetaCacheControlEphemeralParam | None = None,
    ) -> None:
        super().__init__(cache_control=cache_control)
        self.commands = commands

    async def call(self, input: object) -> BetaFunctionToolResultType:
        return await self._in_thread(input)

    async def view(self, command: BetaMemoryTool20250818ViewCommand) -> BetaFunctionToolResultType:
        return await self._in_thread(command)

    async def create(
        self, command: BetaMemoryTool20250818CreateCommand
    ) -> BetaFunctionToolResultType:
        return await self._in_thread(command)

    async def str_replace(
        self, command: BetaMemoryTool20250818StrReplaceCommand
    ) -> BetaFunctionToolResultType:
        return await self._in_thread(command)

    async def insert(
        self, command: BetaMemoryTool20250818InsertCommand
    ) -> BetaFunctionToolResultType:
        return await self._in_thread(command)

    async def delete(
        self, command: BetaMemoryTool20250818DeleteCommand
    ) -> BetaFunctionToolResultType:
        return await self._in_thread(command)

    async def rename(
        self, command: BetaMemoryTool20250818RenameCommand
    ) -> BetaFunctionToolResultType:
        return await self._in_thread(command)

    async def _in_thread(self, call: Any) -> str:
        return await run_sync(_run, self.commands, call)
