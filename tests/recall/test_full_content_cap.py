"""`detail="full"` gives a hit's whole text up to 4,000 characters (reference §8,
issue #32): a person's hand-written line can be any length, a prompt cannot."""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo
from memrepo.tools import MemoryTools, ToolContext


@pytest.mark.slow
def test_full_content_is_capped_at_4000_characters(memory_repo: MemoryRepo) -> None:
    words = " ".join(f"glacier{n}" for n in range(2000))  # ~19,000 characters
    memory = memory_repo.root / "MEMORY.md"
    memory.write_text(memory.read_text().replace("## Index", f"- Notes on {words}\n\n## Index"))
    hit = memory_repo.recall("glacier7", detail="full").hits[0]
    assert hit.content is not None and len(hit.content) <= 4000
    assert hit.content.endswith("…") and hit.content.startswith("Notes on glacier0 glacier1")
    tools = MemoryTools(memory_repo, ToolContext())
    found = tools.dispatch("memory_recall", {"query": "glacier7", "detail": "full"})
    assert len(found["hits"][0]["content"]) <= 4000
    memory_repo.close()
