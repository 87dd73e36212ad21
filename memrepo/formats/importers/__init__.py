"""Pure readers of other agents' memory: bytes in, `Fact`s and `Rejected` input out.

Claude Code memory folders (`claude_code`), Letta MemFS folders (`letta`) and JSONL fact
dumps (`jsonl`). They never touch the file system: walking folders safely (symlinks,
sizes) and streaming large files is `memrepo.transfer`'s job, and deciding what a fact
becomes (screening, routing, the commit) is the import pipeline's.
"""

from __future__ import annotations

from memrepo.formats.importers.claude_code import read_memory_file
from memrepo.formats.importers.jsonl import read_line
from memrepo.formats.importers.letta import read_block_file
from memrepo.formats.importers.markdown import facts_in_markdown
from memrepo.formats.importers.model import Fact, Rejected

__all__ = [
    "Fact",
    "Rejected",
    "facts_in_markdown",
    "read_block_file",
    "read_line",
    "read_memory_file",
]
