"""mem0 as `--from mem0`: graph relations and `immutable` said out loud, a changed memory
replacing its old text (in the folder and in memory_items), and a dry run that counts
what the real run does.

Documents from `exporters.mem0_get_all` (mem0/memory/main.py `get_all` with a graph
store: `{"results", "relations"}`; the platform page with `immutable`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .exporters import Memory, mem0_get_all, memories
from .test_import_support import ALL_ITEMS, Git

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    return cli_in(memory_repo.root)


def test_from_mem0_names_relations_and_keeps_immutable(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    drawn = memories(21, 3)
    export = tmp_path / "mem0.json"
    export.write_text(json.dumps(mem0_get_all(drawn, relations=4, platform=True)))
    code, out, err = run("import", "--from", "mem0", str(export))
    assert (code, err) == (0, "")
    assert out.startswith("imported from mem0: 7 rows read, 3 written")
    assert "skipped: graph_relation 4" in out
    assert "its 4 graph relations (`relations`) are not imported" in out
    assert out.count("graph relations") == 1  # one line, not one per relation
    [first] = [e for e in memory_repo.entries("imports/mem0.md") if e.text == drawn[0].content]
    assert first.metadata["immutable"] == "yes"  # mem0 marks every third memory immutable


def test_a_changed_memory_replaces_its_old_text_in_git_and_in_items(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    export = tmp_path / "mem0.json"
    shared = Memory("a1", "The staging cluster is called kestrel")
    private = Memory("b2", "Blood pressure is 120 over 80")
    document = mem0_get_all([shared, private])
    document["results"][1]["metadata"] = {"private": True}
    export.write_text(json.dumps(document))
    memory_repo.import_memory(export, source="mem0")
    document["results"][0]["memory"] = "The staging cluster is called osprey"
    document["results"][1]["memory"] = "Blood pressure is 118 over 79"
    export.write_text(json.dumps(document))
    report = memory_repo.import_memory(export, source="mem0")
    assert (report.written, report.reinforced) == (2, 0)
    text = (memory_repo.root / "imports" / "mem0.md").read_text()
    assert "osprey" in text and "kestrel" not in text
    diff = git(memory_repo.root, "log", "-1", "-p", "--format=")
    assert "-- The staging cluster is called kestrel" in diff
    items = memory_repo.list_items(ALL_ITEMS)
    by_status = {i.status: i.content for i in items}
    assert by_status == {
        "active": "Blood pressure is 118 over 79",
        "superseded": "Blood pressure is 120 over 80",
    }
    assert len(items) == 2


@pytest.mark.parametrize("seed", [31, 32])
def test_a_dry_run_counts_what_the_real_run_does(
    memory_repo: MemoryRepo, tmp_path: Path, seed: int
) -> None:
    drawn = memories(seed, 30)
    drawn += [Memory(f"dup-{m.id}", m.content) for m in drawn[:3]]  # the same text twice
    document = mem0_get_all(drawn, relations=2, platform=True)
    for row in document["results"][::4]:
        row["metadata"] = {"private": True}  # memory_items, deduplicated by the writer
    export = tmp_path / "mem0.json"
    export.write_text(json.dumps(document))
    counts = ("rows", "written", "reinforced", "items_written", "skipped")
    dry = memory_repo.import_memory(export, source="mem0", dry_run=True)
    real = memory_repo.import_memory(export, source="mem0")
    assert [getattr(dry, k) for k in counts] == [getattr(real, k) for k in counts]
    assert real.rows == real.written + real.reinforced + real.skipped_total == 35
