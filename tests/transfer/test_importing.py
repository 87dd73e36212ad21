"""Imports through the public API: the fixtures, idempotence, routing and bad input."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import ImportSourceError
from memrepo.models.items import ItemFilters

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "import"
ALL_ITEMS = ItemFilters(status="any", include_private=True)
PROJECT_FILE = "imports/claude-code/claude-code.md"  # the project is named after its folder

Git = Callable[..., str]
CommitCount = Callable[..., int]


def copy_fixture(name: str, tmp_path: Path) -> Path:
    target = tmp_path / "source" / name
    if (FIXTURES / name).is_dir():
        shutil.copytree(FIXTURES / name, target)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / name, target)
    return target


def write_jsonl(path: Path, rows: list[object]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_claude_code_folder_lands_as_one_commit(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git, commit_count: CommitCount
) -> None:
    source = copy_fixture("claude-code", tmp_path)
    before = commit_count(memory_repo.root, "main")
    report = memory_repo.import_memory(source, source="claude-code")
    assert (report.facts, report.written, report.reinforced, report.skipped) == (5, 5, 0, {})
    assert commit_count(memory_repo.root, "main") == before + 1
    message = git(memory_repo.root, "log", "-1", "--format=%B")
    assert message.startswith("Import from Claude Code (claude-code): 5 facts")
    assert "Memrepo-Origin: import" in message and "Memrepo-By: import" in message
    entries = {e.metadata.get("subject"): e for e in memory_repo.entries(PROJECT_FILE)}
    testing = entries["feedback_testing"]
    assert testing.metadata["by"] == "import" and testing.metadata["origin"] == "import"
    assert testing.metadata["kind"] == "feedback"
    assert testing.metadata["source"] == "claude-code/feedback_testing.md#L7"  # project/file
    assert "[[imports/claude-code/claude-code]]" in memory_repo.read_text("MEMORY.md")
    assert git(memory_repo.root, "status", "--porcelain") == ""


@pytest.mark.parametrize(
    ("fmt", "name", "facts"),
    [("claude-code", "claude-code", 5), ("letta", "letta", 5), ("jsonl", "facts.jsonl", 5)],
)
def test_importing_twice_adds_nothing(
    memory_repo: MemoryRepo,
    tmp_path: Path,
    commit_count: CommitCount,
    fmt: str,
    name: str,
    facts: int,
) -> None:
    source = copy_fixture(name, tmp_path)
    first = memory_repo.import_memory(source, source=fmt)  # type: ignore[arg-type]
    assert first.written == facts and first.commit is not None
    state = (
        commit_count(memory_repo.root, "main"),
        [e.model_dump() for e in memory_repo.entries()],
        [i.model_dump() for i in memory_repo.list_items(ALL_ITEMS)],
    )
    again = memory_repo.import_memory(source, source=fmt)  # type: ignore[arg-type]
    assert (again.written, again.reinforced, again.commit) == (0, facts, None)
    assert state == (
        commit_count(memory_repo.root, "main"),
        [e.model_dump() for e in memory_repo.entries()],
        [i.model_dump() for i in memory_repo.list_items(ALL_ITEMS)],
    )


def test_private_and_contact_facts_go_to_items_never_git(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    report = memory_repo.import_memory(copy_fixture("facts.jsonl", tmp_path), source="jsonl")
    assert (report.written, report.items_written) == (5, 2)
    items = {i.content: i for i in memory_repo.list_items(ALL_ITEMS)}
    party = items["Dana is planning a surprise party for Ana"]
    assert (party.privacy, party.source, party.created_at.date().isoformat()) == (
        "private",
        "import",
        "2026-03-01",
    )
    assert items["Ana's phone number is +351 555 0100"].scope_ref == "mail:ana@example.com"
    history = git(memory_repo.root, "log", "-p", "--all")
    assert "surprise party" not in history and "555 0100" not in history
    workspace = memory_repo.entries("workspaces/platform-team.md")
    assert [e.text for e in workspace] == ["Deploys happen on Tuesdays and Thursdays"]
    pnpm = next(e for e in memory_repo.entries() if "pnpm" in e.text)
    assert pnpm.metadata["added"] == "2026-02-14"
    assert (pnpm.metadata["author"], pnpm.metadata["user"]) == ("coder-1", "dana")


def test_bad_files_are_reported_and_the_rest_imported(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    source = copy_fixture("claude-code", tmp_path)
    (source / "broken.md").write_text("---\nname: [oops\n---\nnever imported\n")
    (source / "latin1.md").write_bytes(b"---\nname: x\n---\nCaf\xe9 cr\xe8me is the favourite\n")
    outside = tmp_path / "private-notes.md"
    outside.write_text("---\nname: leak\n---\nThe vault combination is 12-34-56\n")
    (source / "link.md").symlink_to(outside)
    (source / "linked-dir").symlink_to(tmp_path, target_is_directory=True)
    (source / "inside.md").symlink_to(source / "user_role.md")
    report = memory_repo.import_memory(source, source="claude-code")
    assert report.written == 5
    assert report.skipped == {"malformed_frontmatter": 1, "not_utf8": 1, "symlink_outside": 2}
    found = {(p.path, p.reason) for p in report.problems}
    assert found == {
        ("broken.md", "malformed_frontmatter"),
        ("latin1.md", "not_utf8"),
        ("link.md", "symlink_outside"),
        ("linked-dir", "symlink_outside"),
    }
    assert report.problem_count == 4
    everything = git(memory_repo.root, "log", "-p", "--all")
    assert "vault combination" not in everything and "never imported" not in everything


def test_a_bad_jsonl_line_is_reported_by_number_and_the_rest_imported(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    dump = tmp_path / "dump.jsonl"
    dump.write_bytes(
        b'{"text": "First good fact"}\n{"text": oops}\n\n'
        b'{"text": "Second good fact"}\n\xff\xfe\n{"nope": 1}\n'
    )
    report = memory_repo.import_memory(dump, source="jsonl")
    assert report.written == 2
    assert [(p.line, p.reason) for p in report.problems] == [
        (2, "invalid_json"),
        (5, "not_utf8"),
        (6, "no_text"),
    ]
    assert [e.text for e in memory_repo.entries("imports/jsonl.md")] == [
        "First good fact",
        "Second good fact",
    ]


def test_facts_are_screened_like_any_write(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    dump = write_jsonl(
        tmp_path / "dump.jsonl",
        [
            {"text": "The deploy key is AKIAIOSFODNN7EXAMPLQ for staging"},
            {"text": "AKIAIOSFODNN7EXAMPLQ"},
            {"text": "Tool called: search_files"},
            {"text": "ok"},
            {"text": "remember this <no-memory>"},
        ],
    )
    report = memory_repo.import_memory(dump, source="jsonl")
    assert report.written == 1
    assert report.skipped == {"no_memory": 1, "secret_only": 1, "telemetry": 1, "too_short": 1}
    [entry] = memory_repo.entries("imports/jsonl.md")
    assert entry.text == "The deploy key is [redacted aws_access_key_id] for staging"
    assert "AKIA" not in memory_repo.read_text("imports/jsonl.md")


def test_a_workspace_with_memory_off_gets_nothing(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    memory_repo.set_workspace("Quiet", memory=False)
    dump = write_jsonl(tmp_path / "d.jsonl", [{"text": "A fact for quiet", "workspace": "Quiet"}])
    report = memory_repo.import_memory(dump, source="jsonl")
    assert (report.written, report.skipped) == (0, {"memory_disabled": 1})


def test_a_changed_memory_supersedes_on_reimport(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    source = copy_fixture("claude-code", tmp_path)
    memory_repo.import_memory(source, source="claude-code")
    role = source / "user_role.md"
    role.write_text(role.read_text().replace("ten years of Go", "twelve years of Go"))
    report = memory_repo.import_memory(source, source="claude-code")
    assert (report.written, report.reinforced) == (1, 4)
    texts = [e.text for e in memory_repo.entries(PROJECT_FILE)]
    assert len(texts) == 5 and any("twelve years" in t for t in texts)
    assert not any("ten years" in t for t in texts)


def test_dry_run_counts_like_a_real_run_and_writes_nothing(
    memory_repo: MemoryRepo, tmp_path: Path, commit_count: CommitCount
) -> None:
    source = copy_fixture("facts.jsonl", tmp_path)
    before = commit_count(memory_repo.root, "main")
    dry = memory_repo.import_memory(source, source="jsonl", dry_run=True)
    assert dry.dry_run and dry.commit is None
    assert commit_count(memory_repo.root, "main") == before
    assert memory_repo.list_items(ALL_ITEMS) == []
    assert not (memory_repo.root / "imports").exists()
    real = memory_repo.import_memory(source, source="jsonl")
    fields = ("facts", "written", "reinforced", "skipped")
    assert [getattr(dry, f) for f in fields] == [getattr(real, f) for f in fields]


@pytest.mark.slow
def test_progress_is_reported(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    dump = write_jsonl(tmp_path / "d.jsonl", [{"text": f"Fact number {n}"} for n in range(2500)])
    heard: list[int] = []
    report = memory_repo.import_memory(dump, source="jsonl", progress=heard.append)
    assert heard == [1000, 2000, 2500]
    assert report.written == 2500 and len(memory_repo.entries("imports/jsonl.md")) == 2500


def test_a_source_of_the_wrong_kind_is_a_clear_error(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    with pytest.raises(ImportSourceError, match=r"no MEMORY\.md"):
        memory_repo.import_memory(FIXTURES / "letta", source="claude-code")
    with pytest.raises(ImportSourceError, match="not a file"):
        memory_repo.import_memory(FIXTURES / "letta", source="jsonl")
    with pytest.raises(ImportSourceError, match="not a folder"):
        memory_repo.import_memory(tmp_path / "missing", source="letta")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="sparse files")
def test_a_2_gb_input_is_streamed(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    """A sparse 2 GB file (no disk used): one 2 GB line of NUL bytes, then real facts.
    The import reads it all in bounded memory and still imports what follows."""
    dump = tmp_path / "huge.jsonl"
    with open(dump, "wb") as handle:
        handle.truncate(2 << 30)
        handle.seek(2 << 30)
        handle.write(b'\n{"text": "The fact after the hole"}\n{"text": "And one more"}\n')
    assert os.stat(dump).st_size > 2 << 30
    tracemalloc.start()
    try:
        report = memory_repo.import_memory(dump, source="jsonl")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [(p.line, p.reason) for p in report.problems] == [(1, "line_too_long")]
    assert report.written == 2
    assert peak < 64 << 20
