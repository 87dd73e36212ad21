"""The file-command memory tool (Anthropic's `memory_20250818`, Letta's `memory`) on a
memory repo: `/memories` is a folder of it, and each command is one screened, undoable
commit by the agent (`commands.MemoryCommands`). The Anthropic SDK's tool classes are
in `anthropic_sdk`, imported only when a program asks for them."""

from __future__ import annotations

from memrepo.memtool.commands import ORIGIN, MemoryCommands
from memrepo.memtool.mount import DEFAULT_FOLDER, VIRTUAL_ROOT, Mount

__all__ = ["DEFAULT_FOLDER", "ORIGIN", "VIRTUAL_ROOT", "MemoryCommands", "Mount"]
