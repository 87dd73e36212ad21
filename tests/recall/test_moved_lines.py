"""A recall names the line an entry is on now, though the index keeps a document whose
only change is its line (issue #28: a `remember` inserted near the top of a file used to
rewrite every document below it, 0.8 s of CPU per write into a 500-entry MEMORY.md)."""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo

from .files import Git


def _line_of(text: str, content: str) -> int:
    return next(n for n, line in enumerate(content.splitlines(), 1) if text in line)


@pytest.mark.slow
def test_a_hit_names_its_current_line_after_entries_are_inserted_above_it(
    memory_repo: MemoryRepo, git: Git
) -> None:
    root = memory_repo.root
    memory = root / "MEMORY.md"
    lines = "".join(f"- fact {n} about the hangar doors\n" for n in range(30))
    memory.write_text(memory.read_text() + "\n## Hangar\n" + lines)
    git(root, "commit", "-qam", "a person's list")
    before = memory_repo.recall("fact 29 hangar doors", limit=1).hits[0]
    for n in range(3):  # each lands above the list: every line below moves down
        memory_repo.remember(f"the runway lights were checked, round {n}")
    hit = memory_repo.recall("fact 29 hangar doors", limit=1).hits[0]
    head = git(root, "show", "HEAD:MEMORY.md")
    assert hit.ref == before.ref
    assert before.provenance.line is not None
    assert hit.provenance.line == _line_of("fact 29 about", head) > before.provenance.line
    # The line and the commit named beside it agree: git shows the entry there.
    assert hit.provenance.commit is not None
    at_commit = git(root, "show", f"{hit.provenance.commit}:MEMORY.md").splitlines()
    assert "fact 29 about" in at_commit[hit.provenance.line - 1]
    (expanded,) = memory_repo.expand([hit.ref])
    assert expanded.provenance.line == hit.provenance.line


@pytest.mark.slow
def test_a_hit_in_a_file_edited_by_hand_names_its_line_in_the_working_tree(
    memory_repo: MemoryRepo,
) -> None:
    memory = memory_repo.root / "MEMORY.md"
    tail = "".join(f"- note {n} on the depot\n" for n in range(12))
    memory.write_text("# Memory\n\n## Top\n- first\n\n## Power\n" + tail)
    memory_repo.recall("warm up")
    for word in ("one", "two"):  # two hand edits far above it, a recall after each
        memory.write_text(memory.read_text().replace("- first\n", f"- first\n- {word}\n", 1))
        hit = memory_repo.recall("note 11 depot", limit=1).hits[0]
        assert hit.provenance.uncommitted
        assert hit.provenance.line == _line_of("note 11 on", memory.read_text())
