"""A file whose name holds a dot before `.md` (`v1.2.md`) is linked from the Index so
the link leads back to it: lint finds no broken link and no unlisted file."""

from __future__ import annotations

from memrepo import MemoryRepo


def test_a_dotted_file_name_is_linked_to_itself(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Release 1.2 dropped Python 3.9", file="notes/v1.2.md", by="user")
    index = (memory_repo.root / "MEMORY.md").read_text()
    assert "- [[notes/v1.2.md]]" in index
    report = memory_repo.lint()
    assert [str(problem) for problem in report.problems] == []
    memory_repo.remember("Plain names keep the short link", file="notes/plain.md", by="user")
    assert "- [[notes/plain]]" in (memory_repo.root / "MEMORY.md").read_text()
