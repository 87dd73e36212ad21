"""Import files as they arrive in real life: truncated, double-encoded, zipped, one huge
line, another encoding. Each problem is one line of the CLI's output, the rest is
imported, and no traceback ever reaches the person."""

from __future__ import annotations

import gzip
import json
import zipfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .exporters import mem0_get_all, memories

Run = Callable[..., tuple[int, str, str]]
ROWS = [{"text": f"Fact number {n} about the build"} for n in range(1, 6)]


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    return cli_in(memory_repo.root)


def jsonl(rows: Sequence[Mapping[str, object]]) -> bytes:
    return b"".join(json.dumps(row).encode() + b"\n" for row in rows)


def problem_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("  ") and ": " in line
            and not line.lstrip().startswith(("skipped:", "commit "))]  # fmt: skip


def imported(memory_repo: MemoryRepo) -> set[str]:
    return {e.text for e in memory_repo.entries()}


def test_a_jsonl_cut_mid_line_keeps_every_whole_line(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    path = tmp_path / "dump.jsonl"
    path.write_bytes(jsonl(ROWS)[:-20])
    code, out, err = run("import", "--from", "jsonl", str(path))
    assert code == 0 and "Traceback" not in err
    assert imported(memory_repo) >= {f"Fact number {n} about the build" for n in range(1, 5)}
    [line] = problem_lines(out)
    assert line.startswith("  dump.jsonl:5: line 5 is not JSON")


def test_a_mem0_document_cut_short_keeps_the_memories_before_the_cut(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    drawn = memories(41, 6)
    data = json.dumps(mem0_get_all(drawn), indent=2).encode()
    path = tmp_path / "mem0.json"
    path.write_bytes(data[: data.index(drawn[4].content.encode())])
    code, out, err = run("import", "--from", "mem0", str(path))
    assert code == 0 and "Traceback" not in err
    assert imported(memory_repo) == {m.content for m in drawn[:4]}
    [line] = problem_lines(out)
    assert line.startswith("  mem0.json: not valid JSON at line")
    assert "the 4 memories before it were read" in line


def test_a_gzip_cut_short_keeps_what_it_held(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    whole = gzip.compress(jsonl(ROWS * 40))
    path = tmp_path / "dump.jsonl.gz"
    path.write_bytes(whole[: len(whole) * 2 // 3])
    _, out, err = run("import", "--from", "jsonl", str(path))
    assert "Traceback" not in err
    assert imported(memory_repo)  # the lines before the cut
    assert any("breaks off after" in line for line in problem_lines(out))


def test_double_encoded_rows_and_documents_are_read(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    lines = tmp_path / "twice.jsonl"
    lines.write_text("".join(json.dumps(json.dumps(row)) + "\n" for row in ROWS[:2]))
    document = tmp_path / "twice.json"
    document.write_text(json.dumps(json.dumps(mem0_get_all(memories(42, 2)))))
    first = memory_repo.import_memory(lines, source="jsonl")
    second = memory_repo.import_memory(document, source="mem0")
    assert (first.written, first.problems, second.written, second.problems) == (2, (), 2, ())


def test_a_zipped_dump_is_read_member_by_member(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    path = tmp_path / "export.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("dump/facts.jsonl", jsonl(ROWS[:3]))
        archive.writestr("dump/more.json", json.dumps(mem0_get_all(memories(43, 2))))
        archive.writestr("dump/readme.txt", "exported by hand")
        archive.writestr("__MACOSX/._facts.jsonl", b"\x00\x05")
    code, out, err = run("import", "--from", "jsonl", str(path))
    assert code == 0 and "Traceback" not in err
    assert len(imported(memory_repo)) == 5
    [line] = problem_lines(out)
    assert line == "  export.zip/dump/readme.txt: not a JSON, JSONL or agent file; not read"
    assert "export.zip/dump/facts.jsonl#L1" in (memory_repo.root / "imports/jsonl.md").read_text()


def test_a_huge_single_line_is_one_problem(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    path = tmp_path / "dump.jsonl"
    huge = json.dumps({"text": "x" * (2 << 20)}).encode() + b"\n"
    path.write_bytes(jsonl(ROWS[:2]) + huge + jsonl(ROWS[2:3]))
    code, out, err = run("import", "--from", "jsonl", str(path))
    assert code == 0 and "Traceback" not in err and len(imported(memory_repo)) == 3
    [line] = problem_lines(out)
    assert line.startswith("  dump.jsonl:3: line 3 is longer than")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "utf-8-sig"])
def test_a_dump_in_another_unicode_encoding_is_read(
    memory_repo: MemoryRepo, tmp_path: Path, encoding: str
) -> None:
    path = tmp_path / "dump.jsonl"
    rows = [*ROWS[:2], {"text": "Café on the corner opens at seven"}]
    path.write_bytes(jsonl(rows).decode().encode(encoding))
    report = memory_repo.import_memory(path, source="jsonl")
    assert (report.written, report.problems) == (3, ())
    assert "Café on the corner opens at seven" in imported(memory_repo)


def test_latin1_bytes_cost_only_their_row(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    document = mem0_get_all(memories(44, 3))
    data = json.dumps(document).encode().replace(b"(note 1)", b"(caf\xe9 1)")
    path = tmp_path / "mem0.json"
    path.write_bytes(data)
    code, out, err = run("import", "--from", "mem0", str(path))
    assert code == 0 and "Traceback" not in err and len(imported(memory_repo)) == 2
    [line] = problem_lines(out)
    assert line == (
        "  mem0.json:2: memory 2: `memory` holds bytes that are not UTF-8; skipped (re-export "
        "the file as UTF-8)"
    )


def test_a_latin1_memory_file_is_one_problem_and_the_folder_imports(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "MEMORY.md").write_text("- [a](a.md)\n- [b](b.md)\n")
    (folder / "a.md").write_bytes(b"---\nname: a\n---\n\nLikes caf\xe9 con leche\n")
    (folder / "b.md").write_text("---\nname: b\n---\n\nUses fish as the shell\n")
    report = memory_repo.import_memory(folder, source="claude-code")
    assert report.written == 1
    [problem] = report.problems
    assert (problem.path, problem.reason) == ("a.md", "not_utf8")
