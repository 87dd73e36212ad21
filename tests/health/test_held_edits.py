"""Health names the hand edits memrepo leaves uncommitted, with what to do (issue #27)."""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo
from memrepo.folder.hand_edits import HandEditHeld

from .conftest import check

TOKEN = "ghp_" + "1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"


def test_held_edits_warn_by_place_and_kind_never_the_value(memory_repo: MemoryRepo) -> None:
    root = memory_repo.root
    (root / "tool.md").write_text(f"# Tool\n\n- token {TOKEN}\n")
    (root / "blob.md").write_bytes(b"# Blob\n\n- a \x00 byte\n")
    (root / "typed.md").write_text("# Typed\n\n- a fine edit\n")
    with pytest.warns(HandEditHeld):
        memory_repo.remember("Builds run nightly")
    (root / "later.md").write_text("# Later\n\n- typed after the write\n")
    found = check(memory_repo, "uncommitted_edits")
    assert found.status == "WARN"
    assert "blob.md:3 (NUL byte)" in found.detail and "tool.md:3 (github_token)" in found.detail
    assert "later.md" in found.detail and "typed.md" not in found.detail  # committed
    assert TOKEN not in found.detail + found.fix
    assert "delete the byte" in found.fix
