"""Bad rows cost only themselves; a document of any size on one line imports whole.

What a person sees through the CLI: one line per bad row (its number and why), the rest
imported, exit 0; a run that imported nothing exits 1 with one line saying why (issue
#27). The mem0 document reader streams, so a 40,000-memory export written on one line
(well over the 1 MiB a JSONL line may hold) imports every memory.
"""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.formats.importers.mem0 import read_stream
from memrepo.formats.importers.model import Fact

from .test_import_support import ALL_ITEMS

Run = Callable[..., tuple[int, str, str]]
Git = Callable[..., str]
SURROGATE_ROW = '{"memory": "\\ud800 x"}'  # valid JSON, no character: a lone surrogate


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    return cli_in(memory_repo.root)


def _mem0(count: int, *, text: str = "Fact number {n} about the build farm") -> dict[str, object]:
    """A mem0 `get_all` result of `count` memories."""
    return {
        "results": [
            {
                "id": f"m-{n:06d}",
                "memory": text.format(n=n),
                "user_id": "dana",
                "categories": ["technology"],
                "created_at": "2026-01-02T03:04:05Z",
            }
            for n in range(count)
        ]
    }


def test_a_lone_surrogate_costs_its_row_only(
    run: Run, tmp_path: Path, git: Git, memory_repo: MemoryRepo
) -> None:
    dump = tmp_path / "dump.jsonl"
    dump.write_text(
        '{"memory": "The build host is osprey"}\n'
        f"{SURROGATE_ROW}\n"
        '{"memory": "Deploys on Tuesdays", "metadata": {"note": "\\udc00"}}\n'
        '{"memory": "The cache lives on kestrel"}\n'
    )
    code, out, err = run("import", "--from", "jsonl", str(dump))
    assert (code, err) == (0, "")
    assert "2 written" in out
    assert "  dump.jsonl:2: line 2: `memory` holds a lone UTF-16 surrogate" in out
    assert "  dump.jsonl:3: line 3: `note` holds a lone UTF-16 surrogate" in out
    shown = git(memory_repo.root, "show", "main:imports/jsonl.md")
    assert "osprey" in shown and "kestrel" in shown and "Tuesdays" not in shown


def test_a_lone_surrogate_in_a_mem0_document_costs_that_memory_only(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    document = _mem0(3)
    document["results"][1]["memory"] = "\ud800 broken"  # type: ignore[index]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document))  # ensure_ascii writes it as an escape
    report = memory_repo.import_memory(path, source="jsonl")
    assert (report.written, report.skipped) == (2, {"lone_surrogate": 1})
    assert [p.line for p in report.problems] == [2]


@pytest.mark.slow
def test_a_one_line_document_over_a_mib_imports_whole(run: Run, tmp_path: Path, git: Git) -> None:
    document = _mem0(5_000, text="Fact number {n} about the build farm, " + "x" * 200)
    path = tmp_path / "mem0-export.json"
    path.write_text(json.dumps(document))  # one line
    assert path.stat().st_size > 1 << 20 and path.read_text().count("\n") == 0
    code, out, err = run("import", "--from", "jsonl", str(path))
    assert (code, err) == (0, "")
    assert out.startswith("imported from jsonl: 5000 rows read, 5000 written")
    shown = git(tmp_path / "mem", "show", "main:imports/mem0.md")
    assert "Fact number 0 about" in shown and "Fact number 4999 about" in shown


@pytest.mark.slow
def test_a_one_line_bare_list_over_a_mib_imports_whole(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    memories = _mem0(5_000, text="Memory {n} " + "y" * 220)["results"]
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(memories))
    assert path.stat().st_size > 1 << 20
    assert memory_repo.import_memory(path, source="jsonl").written == 5_000


class _Counted(io.BytesIO):
    """A file that remembers how far it has been read."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.high = 0

    def read(self, size: int | None = -1, /) -> bytes:
        got = super().read(size)
        self.high = self.tell()
        return got


@pytest.mark.slow
def test_the_document_reader_streams_rather_than_reading_it_whole() -> None:
    data = json.dumps(_mem0(40_000)).encode()
    handle = _Counted(data)
    facts = read_stream(handle.read, "big.json")
    first = next(facts)
    assert isinstance(first, Fact) and first.text == "Fact number 0 about the build farm"
    assert handle.high < len(data) // 4  # the first memory came before most was read
    assert sum(1 for _ in facts) == 39_999


@pytest.mark.slow
def test_forty_thousand_memories_on_one_line_import_with_progress_on_a_terminal(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    path = tmp_path / "mem0-export.json"
    path.write_text(json.dumps(_mem0(40_000)))
    assert path.stat().st_size > 1 << 20
    main_pty, child_pty = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "120"}
    with subprocess.Popen(
        [sys.executable, "-m", "memrepo", "--repo", str(memory_repo.root), "import",
         "--from", "jsonl", str(path)],
        stdout=subprocess.PIPE, stderr=child_pty, env=env,
    ) as proc:  # fmt: skip
        os.close(child_pty)
        seen = b""
        while True:
            try:
                chunk = os.read(main_pty, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        out = proc.stdout.read().decode() if proc.stdout else ""
        assert proc.wait() == 0
    os.close(main_pty)
    assert out.startswith("imported from jsonl: 40000 rows read, 40000 written")
    assert b"reading facts" in seen  # the progress line was drawn on the terminal
    assert git(memory_repo.root, "grep", "-c", "about the build farm", "main", "--",
               "imports/mem0.md").strip().endswith(":40000")  # fmt: skip


def test_a_run_that_imports_nothing_exits_1_with_one_line(run: Run, tmp_path: Path) -> None:
    dump = tmp_path / "dump.jsonl"
    dump.write_text('not json\n{"memory": "\\ud800"}\n{"text": ""}\n')
    code, out, err = run("import", "--from", "jsonl", str(dump))
    assert code == 1
    assert err.count("\n") == 1
    assert err.startswith("memrepo: nothing imported from dump.jsonl: none of its 3 rows")
    assert "  dump.jsonl:1: line 1 is not JSON" in out  # each bad row is still named
    assert "  dump.jsonl:2: " in out and "  dump.jsonl:3: " in out


def test_an_empty_file_imports_nothing_and_says_so(run: Run, tmp_path: Path) -> None:
    dump = tmp_path / "empty.jsonl"
    dump.write_text("\n\n")
    code, _, err = run("import", "--from", "jsonl", str(dump))
    assert (code, err) == (1, "memrepo: nothing imported from empty.jsonl: it holds no memories\n")


def test_a_run_with_some_bad_rows_exits_0_and_names_each(
    run: Run, tmp_path: Path, memory_repo: MemoryRepo
) -> None:
    rows = [json.dumps({"memory": f"Fact {n} of the batch"}) for n in range(30)]
    for bad in (3, 11, 17, 22, 25, 26, 27, 28, 29, 0, 1, 2):
        rows[bad] = json.dumps({"memory": f"Private {bad}", "privacy": "perhaps"})
    (tmp_path / "d.jsonl").write_text("\n".join(rows) + "\n")
    code, out, err = run("import", "--from", "jsonl", str(tmp_path / "d.jsonl"))
    assert (code, err) == (0, "")
    named = sorted(int(line.split(":")[1]) for line in out.splitlines() if "held back" in line)
    assert named == [1, 2, 3, 4, 12, 18, 23, 26, 27, 28, 29, 30]
    assert memory_repo.list_items(ALL_ITEMS) == []


def test_reads_cut_anywhere_give_the_same_memories() -> None:
    """Seven bytes a read cut numbers, escapes, literals and UTF-8 characters apart;
    the memories are the ones json.loads reads from the whole document."""
    memories = [
        {"id": n, "memory": f'Café {n} \\u00e9 ☕ 🎉 "q" \\\\ {n * 1.5e3}', "ok": n % 2 == 0}
        for n in range(60)
    ]
    document = {
        "count": 123456789,
        "results": memories,
        "relations": [{"source": "a", "target": "b"}],
    }
    data = json.dumps(document, ensure_ascii=False, indent=1).encode()
    handle = io.BytesIO(data)
    facts = list(read_stream(lambda n: handle.read(7), "cut.json"))
    assert [f.text for f in facts if isinstance(f, Fact)] == [m["memory"] for m in memories]
