"""OpenMemory's export, as its backup router writes it: only live memories come in.

The zip and its members are built by `exporters.openmemory_zip` from OpenMemory's own
export code (mem0ai/mem0 openmemory/api/app/routers/backup.py, `MemoryState` in
app/models.py). Checked from outside: the files in git, the CLI's lines, recall.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .exporters import Memory, memories, openmemory_lines, openmemory_zip
from .test_import_support import Git, everything_git_has

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    return cli_in(memory_repo.root)


def four_states() -> list[Memory]:
    return [
        Memory("0b1c-active", "Prefers dark roast coffee", "active", ["preferences"]),
        Memory("0b1c-paused", "Is training for a marathon", "paused", ["health"]),
        Memory("0b1c-archived", "Works at Initech", "archived", ["work"]),
        Memory("0b1c-deleted", "Lives in Porto", "deleted", ["personal_details"]),
    ]


@pytest.mark.parametrize("fmt", ["openmemory", "jsonl", "mem0"])
@pytest.mark.slow
def test_only_active_memories_of_the_zip_are_imported_under_any_json_format(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path, git: Git, fmt: str
) -> None:
    export = openmemory_zip(tmp_path / "memories_export_dana.zip", four_states())
    code, out, err = run("import", "--from", fmt, str(export))
    assert (code, err) == (0, "")
    assert out.startswith(f"imported from {fmt}: 4 rows read, 1 written")
    assert "skipped: archived 1, deleted 1, paused 1" in out
    text = (memory_repo.root / "imports" / "openmemory.md").read_text()
    assert "Prefers dark roast coffee" in text
    assert "categories: preferences" in text and "app: openmemory" in text
    assert "user: dana" in text  # the export's user, not OpenMemory's internal id
    history = everything_git_has(memory_repo, git)
    assert not any(t in history for t in ("marathon", "Initech", "Porto"))
    hits = [hit.text for hit in memory_repo.recall("Porto").hits]
    assert not any("Porto" in hit for hit in hits)


def test_the_gzipped_lines_alone_import_the_same(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    lines = tmp_path / "memories.jsonl.gz"
    lines.write_bytes(openmemory_lines(four_states()))
    report = memory_repo.import_memory(lines, source="openmemory")
    assert (report.rows, report.written, report.skipped) == (
        4,
        1,
        {"archived": 1, "deleted": 1, "paused": 1},
    )


def test_a_memory_deleted_in_openmemory_after_import_is_reported_once(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    drawn = four_states()
    export = openmemory_zip(tmp_path / "export.zip", drawn)
    run("import", "--from", "openmemory", str(export))
    drawn[0].state = "deleted"
    drawn.append(Memory("0b1c-new", "Switched to oat milk", "active"))
    openmemory_zip(export, drawn)
    code, out, _ = run("import", "--from", "openmemory", str(export))
    assert code == 0
    assert "was imported before and is gone from the source" in out
    assert "memories.json#0b1c-active" in out
    code, out, _ = run("import", "--from", "openmemory", str(export))
    assert "gone from the source" not in out  # reported once


def test_an_export_with_nothing_live_exits_1_saying_why(run: Run, tmp_path: Path) -> None:
    gone = [m for m in four_states() if m.state != "active"]
    export = openmemory_zip(tmp_path / "export.zip", gone)
    code, _, err = run("import", "--from", "openmemory", str(export))
    assert code == 1
    assert err.startswith("memrepo: nothing imported from export.zip: none of its 3 rows")
    assert "archived 1, deleted 1, paused 1" in err


def test_a_zip_that_is_not_an_openmemory_export_is_one_error(run: Run, tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "photos.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a.jpg", b"\xff\xd8")
    code, _, err = run("import", "--from", "openmemory", str(path))
    assert code != 0 and "not an OpenMemory export" in err and "Traceback" not in err


@pytest.mark.parametrize("seed", [11, 12])
def test_every_drawn_export_counts_each_row_once(
    memory_repo: MemoryRepo, tmp_path: Path, seed: int
) -> None:
    drawn = memories(seed, 40)
    export = openmemory_zip(tmp_path / "export.zip", drawn)
    dry = memory_repo.import_memory(export, source="openmemory", dry_run=True)
    real = memory_repo.import_memory(export, source="openmemory")
    live = sum(m.state == "active" for m in drawn)
    assert real.rows == len(drawn) and real.written == live
    assert real.rows == real.written + real.reinforced + real.skipped_total
    counts = ("rows", "written", "reinforced", "items_written", "skipped")
    assert [getattr(dry, k) for k in counts] == [getattr(real, k) for k in counts]
