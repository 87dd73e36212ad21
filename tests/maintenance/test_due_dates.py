"""Due dates a person and an agent can set (issue #32, reference §5b), judged from
outside: the file in git, `memrepo recall` and `memrepo context` as typed, the agent
tool's result, and the maintenance pass closing a commitment that is done."""

from __future__ import annotations

import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.tools import MemoryTools, ToolContext

pytestmark = pytest.mark.slow  # real processes, a real model or long property runs


def memrepo(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memrepo", "--repo", str(root), *argv],
        capture_output=True,
        text=True,
    )


def next_weekday(name: str) -> date:
    today = date.today()
    wanted = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].index(
        name
    )
    return today + timedelta(days=(wanted - today.weekday() - 1) % 7 + 1)


def test_a_person_sets_a_due_date_in_words_and_sees_it_everywhere(memory_repo: MemoryRepo) -> None:
    root = memory_repo.root
    memory_repo.close()
    friday = next_weekday("friday")
    done = memrepo(root, "remember", "Send the Q3 report to Ana", "--due", "friday")
    assert done.returncode == 0, done.stderr
    line = next(row for row in (root / "MEMORY.md").read_text().splitlines() if "Q3 report" in row)
    assert line.endswith(f"kind: commitment; due: {friday.isoformat()}]")
    label = f"due {friday.strftime('%A')} {friday.isoformat()}"
    assert label in memrepo(root, "recall", "Q3 report").stdout
    assert f"- Send the Q3 report to Ana ({label})" in memrepo(root, "context", "report").stdout
    bad = memrepo(root, "remember", "Water the plants", "--due", "someday")
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.startswith("memrepo: due 'someday': give a date like 2026-12-11")
    assert "plants" not in (root / "MEMORY.md").read_text()


def test_an_agent_sets_one_through_its_tool(memory_repo: MemoryRepo) -> None:
    tools = MemoryTools(memory_repo, ToolContext(task_id="t1"))
    tools.dispatch("memory_remember", {"text": "Renew the TLS certificate", "due": "in 2 weeks"})
    found = tools.dispatch("memory_recall", {"query": "TLS certificate"})
    assert found["hits"][0]["due"] == (date.today() + timedelta(days=14)).isoformat()
    private = memory_repo.remember("Call the dentist", due="tomorrow", private=True)
    item = memory_repo.item(private.ref or "").item
    assert item.kind == "commitment" and item.source_ref is not None
    assert [(a.store, a.id) for a in item.source_ref.aliases] == [
        ("due", (date.today() + timedelta(days=1)).isoformat())
    ]
    memory_repo.close()


def test_a_person_changes_and_clears_an_items_due_date(memory_repo: MemoryRepo) -> None:
    """`memrepo items edit REF --due` on a stored private fact: the same item (no new
    revision), a commitment since, the day in recall; `--no-due` takes it away."""
    root = memory_repo.root
    ref = memory_repo.remember("Call the dentist", private=True, by="user").ref
    assert ref is not None
    memory_repo.close()
    friday = next_weekday("friday")
    done = memrepo(root, "items", "edit", ref[:16], "--due", "friday")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{ref}: due {friday.isoformat()} (commitment)"
    found = memrepo(root, "recall", "dentist", "--private")
    assert f"due {friday.strftime('%A')} {friday.isoformat()}" in found.stdout
    cleared = memrepo(root, "items", "edit", ref, "--no-due")
    assert cleared.stdout.strip() == f"{ref}: no due date (commitment)"
    assert "due " not in memrepo(root, "recall", "dentist", "--private").stdout
    bad = memrepo(root, "items", "edit", ref, "--due", "someday")
    assert bad.returncode == 1 and bad.stderr.startswith("memrepo: due 'someday': give")
    nothing = memrepo(root, "items", "edit", ref)
    assert (
        nothing.returncode == 1 and "give the corrected TEXT, --due or --no-due" in nothing.stderr
    )
    with MemoryRepo.open(root) as repo:
        detail = repo.item(ref)
        assert detail.chain == () and detail.item.kind == "commitment"
        with_text = repo.set_item_due(
            repo.revise_item(ref, "Call the dentist at 9").ref or "", "tomorrow"
        )
        assert with_text.item.content == "Call the dentist at 9"


def test_a_done_commitment_of_the_agent_closes_in_one_undoable_commit(
    memory_repo: MemoryRepo,
) -> None:
    root = memory_repo.root
    past = (date.today() - timedelta(days=3)).isoformat()
    memory_repo.remember("Send the Q3 report to Ana", due=past, by="agent")
    memory_repo.remember("Book the offsite venue", due=past, by="agent")  # no evidence
    memory_repo.remember("Pay the plumber", due=past, by="user")  # a person's: theirs to close
    memory_repo.remember("Sent the Q3 report to Ana today, done", by="agent")
    memory_repo.remember("Paid the plumber, done", by="agent")
    memory_repo.close()
    done = memrepo(root, "maintain")
    assert "expired or done agent entries: 1 removed" in done.stdout, done.stdout + done.stderr
    memory = (root / "MEMORY.md").read_text()
    assert "Send the Q3 report to Ana [" not in memory
    assert "Book the offsite venue" in memory and "Pay the plumber [" in memory
    assert memrepo(root, "undo").returncode == 0
    assert "Send the Q3 report to Ana [" in (root / "MEMORY.md").read_text()
