"""`memrepo import` of the new shapes as a user runs it: counts, deletions, one-line errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .test_import_support import copy_fixture

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    return cli_in(memory_repo.root)


def test_a_mem0_export_imports_and_a_deletion_is_printed(run: Run, tmp_path: Path) -> None:
    export = copy_fixture("mem0/get_all.json", tmp_path / "mem0.json")
    code, out, err = run("import", "--from", "jsonl", str(export))
    assert (code, err) == (0, "")
    assert out.startswith("imported from jsonl: 5 rows read, 4 written (1 as memory items)")
    assert "skipped: expired 1" in out
    document = json.loads(export.read_text())
    document["results"] = document["results"][1:]
    export.write_text(json.dumps(document))
    code, out, _ = run("import", "--from", "jsonl", str(export))
    assert code == 0 and "0 written (0 as memory items), 3 already known" in out
    assert "  mem0.json: mem0.json#3c90c3cc-0d44-4b50-8888-8dd25736052a was imported before" in out
    assert "`memrepo forget 'folder:imports/mem0.md#" in out  # quoted for a shell


def test_a_broken_agent_file_exits_1_with_one_line(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "agent.af"
    path.write_text('{"agents": [')
    code, out, err = run("import", "--from", "letta", str(path))
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and err.startswith("memrepo: agent.af: not JSON")


def test_an_import_cycle_exits_1_with_one_line(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_text("- Rule one of the project\n\n@a.md\n")
    (project / "a.md").write_text("@CLAUDE.md\n")
    code, out, err = run("import", "--from", "claude-code", str(project))
    assert (code, out) == (1, "")
    assert err == (
        "memrepo: a.md:1: @CLAUDE.md: an @import cycle (CLAUDE.md -> a.md -> CLAUDE.md); "
        "nothing imported\n"
    )


def test_the_cli_offers_every_import_format() -> None:
    """`--from` is spelt out in the CLI (help must not import the models): the same list."""
    from typing import get_args

    from memrepo.cli.transfer import IMPORT_FORMATS
    from memrepo.models.transfer import ImportFormat

    assert get_args(ImportFormat) == IMPORT_FORMATS
