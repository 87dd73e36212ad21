"""No importer leaves a local path in anything that syncs (issue #18): every fixture
shape, imported from a folder with a recognisable absolute path, leaves neither that path
nor a `file://` URL in any commit message, diff or tracked file; sources are recorded
relative to what was imported."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.models.transfer import ImportFormat

from .test_import_support import Git, copy_fixture, everything_git_has

#: (fixture, what to hand the importer inside the copy, format)
SHAPES: list[tuple[str, str, ImportFormat]] = [
    ("claude-code-memory", "", "claude-code"),
    ("claude-project/project", "", "claude-code"),
    ("claude-project/project", "CLAUDE.md", "claude-code"),
    ("mem0/get_all.json", "", "jsonl"),
    ("letta/agent.af", "", "letta"),
    ("letta/memfs", "", "letta"),
]


@pytest.mark.parametrize(("fixture", "inside", "fmt"), SHAPES)
def test_an_import_records_no_local_path(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git, fixture: str, inside: str, fmt: ImportFormat
) -> None:
    where = tmp_path / "somewhere-local-7f3a" / Path(fixture).name
    copy = copy_fixture(fixture, where)
    target = copy / inside if inside else copy
    report = memory_repo.import_memory(target, source=fmt)
    assert report.written + report.items_written > 0, report
    seen = everything_git_has(memory_repo, git)
    assert "somewhere-local-7f3a" not in seen
    assert str(tmp_path) not in seen and "file://" not in seen
    assert str(Path.home()) not in seen
