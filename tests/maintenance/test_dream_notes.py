"""A person can give a dream the notes that prove a commitment done, tied to the
workspace they come from (issue #32, reference §5b): from the CLI as typed."""

from __future__ import annotations

import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.models.items import candidate


def memrepo(root: Path, *argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memrepo", "--repo", str(root), *argv],
        capture_output=True, text=True, input=stdin,
    )  # fmt: skip


def commitment(repo: MemoryRepo, text: str, workspace: str | None) -> str:
    due = (date.today() - timedelta(days=3)).isoformat()
    ref = {"store": "task", "id": text, "aliases": [{"store": "due", "id": due}]}
    scope = "workspace" if workspace else "global"
    made = repo._parts.items.ingest(
        candidate(
            content=text, kind="commitment", source_ref=ref, scope=scope, workspace_id=workspace
        )
    )
    assert made.item is not None
    return made.item.id


@pytest.mark.slow
def test_notes_close_only_the_commitments_of_their_workspace(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    shop = commitment(memory_repo, "Send the invoice to Ana", "web-shop")
    clinic = commitment(memory_repo, "Send the invoice to Ben", "clinic")
    memory_repo.close()
    notes = tmp_path / "notes.txt"
    notes.write_text("Sent the invoice to Ana, done\nSent the invoice to Ben, done\n")
    done = memrepo(memory_repo.root, "dream", "--notes", str(notes), "--workspace", "Web shop")
    assert done.returncode == 0, done.stderr
    assert "closed 1 done commitment(s)" in done.stdout
    with MemoryRepo.open(memory_repo.root) as repo:
        assert repo.item(shop).item.status == "archived"
        assert repo.item(clinic).item.status == "active"  # a web-shop note says nothing of it
    again = memrepo(
        memory_repo.root,
        "dream",
        "--note",
        "Sent the invoice to Ben, done",
        "--workspace",
        "clinic",
    )
    assert "closed 1 done commitment(s)" in again.stdout, again.stdout + again.stderr
