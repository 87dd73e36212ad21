"""Team repos in the prompt: their MEMORY.md entries join L0 when the gate allows it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.models.prompt_context import ContextRequest

from .test_teams import TEAM_MEMORY, publish

Git = Callable[..., str]


@pytest.mark.slow
def test_team_entries_join_l0_with_their_refs(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    from .conftest import make_bare

    bare = make_bare(tmp_path / "team.git")
    publish(git, tmp_path / "mate", bare, {"MEMORY.md": TEAM_MEMORY}, "team memory")
    memory_repo.remember("Own fact: the user writes Go", by="user")
    memory_repo.team_add("core", str(bare))

    blocks = memory_repo.context(ContextRequest(query="", preview=True))

    [l0] = [block for block in blocks.blocks if block.name == "l0"]
    # A team's rule says whose it is; the user's own line does not (issue #31).
    line = next(row for row in l0.text.splitlines() if "Deploys happen on Tuesdays" in row)
    assert line.endswith(" (team core)")
    assert "- Own fact: the user writes Go\n" in l0.text
    assert any(ref.startswith("team:core:MEMORY.md#") for ref in l0.refs)
    # A team agent's note is no one's word: like the user's own agent lines it stands in
    # L0 only once a person confirms it (reference §4a); recall still finds it.
    assert "kestrel" not in l0.text
    assert any("kestrel" in hit.text for hit in memory_repo.recall("staging cluster").hits)

    public = memory_repo.context(ContextRequest(query="", gateway="public", preview=True))
    assert "Tuesdays" not in public.text and not public.decision.team


def test_no_teams_means_no_team_lines(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Only fact", by="user")

    blocks = memory_repo.context(ContextRequest(query="", preview=True))

    assert not any(ref.startswith("team:") for ref in blocks.refs)


def test_remember_into_a_team_ref_is_refused_and_writes_nothing(
    memory_repo: MemoryRepo, git: Git
) -> None:
    from memrepo.errors import ReadOnlyRef

    head = git(memory_repo.root, "rev-parse", "HEAD")

    with pytest.raises(ReadOnlyRef, match="team repo"):
        memory_repo.remember("A fact for the team", file="team:core:MEMORY.md")

    assert git(memory_repo.root, "rev-parse", "HEAD") == head
    assert sorted(p.name for p in memory_repo.root.iterdir()) == [".git", "MEMORY.md"]
