"""Pure readers of other agents' memory: bytes in, `Fact`s and `Rejected` input out.

Claude Code auto-memory folders (`claude_code`) and CLAUDE.md files (`claude_md`),
Letta MemFS folders (`letta`) and agent files (`letta_af`), mem0 exports (`mem0`) and
JSONL fact dumps (`jsonl`). They never touch the file system: walking folders safely
(symlinks, sizes), following CLAUDE.md imports inside their allowed roots and streaming
large files is `memrepo.transfer`'s job, and deciding what a fact becomes (screening,
routing, the commit) is the import pipeline's. A reader raises `ImportSourceError` only
when a whole document is not of its format (nothing of it can be imported).
"""

from __future__ import annotations

from memrepo.formats.importers.claude_code import memory_name, read_memory_file
from memrepo.formats.importers.claude_md import ClaudeMd, Import, find_imports, read_claude_md
from memrepo.formats.importers.jsonl import read_line, read_object
from memrepo.formats.importers.letta import read_block_file
from memrepo.formats.importers.letta_af import read_agent_file
from memrepo.formats.importers.markdown import facts_in_markdown
from memrepo.formats.importers.mem0 import read_document
from memrepo.formats.importers.model import Fact, Rejected

__all__ = [
    "ClaudeMd",
    "Fact",
    "Import",
    "Rejected",
    "facts_in_markdown",
    "find_imports",
    "memory_name",
    "read_agent_file",
    "read_block_file",
    "read_claude_md",
    "read_document",
    "read_line",
    "read_memory_file",
    "read_object",
]
