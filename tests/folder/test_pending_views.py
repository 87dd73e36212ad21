"""Every view sees a hand edit the same way before it is committed: `entries`/`show`,
`recall` and `why` all show the entry as typed, marked uncommitted, until the next write
records it as the person's edit."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memrepo import MemoryRepo
from memrepo.cli import main

pytestmark = pytest.mark.slow

Run = Callable[..., tuple[int, str, str]]
TYPED = "- Typed by hand in the editor this morning\n"


def type_by_hand(repo: MemoryRepo) -> None:
    memory = repo.root / "MEMORY.md"
    memory.write_text(memory.read_text().replace("## Index", TYPED + "\n## Index"))
    (repo.root / "new-topic.md").write_text("# Topic\n\n- A whole new file typed by hand\n")


def test_four_views_agree_on_an_uncommitted_entry(memory_repo: MemoryRepo, run: Run) -> None:
    type_by_hand(memory_repo)
    views = {v.text: v for v in memory_repo.entries()}
    typed = views["Typed by hand in the editor this morning"]
    assert typed.uncommitted and views["A whole new file typed by hand"].uncommitted
    assert typed.path == "MEMORY.md" and typed.line == 3
    hits = memory_repo.recall("typed by hand this morning").hits
    assert hits[0].ref == typed.ref and hits[0].provenance.uncommitted
    why = memory_repo.why(typed.ref)
    assert why.present and "not committed yet" in why.explanation and not why.events
    code, out, _ = run("--repo", str(memory_repo.root), "show")
    assert code == 0 and f"{typed.ref}  (MEMORY.md:3, uncommitted)" in out
    assert main(["--repo", str(memory_repo.root), "show", "new-topic.md", "--json"]) == 0

    memory_repo.remember("A write records the hand edit first")
    views = {v.text: v for v in memory_repo.entries()}
    assert not views["Typed by hand in the editor this morning"].uncommitted
    why = memory_repo.why(typed.ref)
    assert [(e.action, e.by, e.origin) for e in why.events] == [("added", "user", "edit")]
    assert "not committed yet" not in why.explanation


def test_a_file_deleted_by_hand_is_gone_from_every_view(memory_repo: MemoryRepo) -> None:
    ref = memory_repo.remember("Lives in a file about to be deleted", file="doomed.md").ref
    (memory_repo.root / "doomed.md").unlink()
    assert all(v.path != "doomed.md" for v in memory_repo.entries())
    assert not memory_repo.recall("file about to be deleted").hits
    assert ref is not None and not memory_repo.why(ref).present
