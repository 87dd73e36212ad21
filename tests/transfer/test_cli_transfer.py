"""`memrepo export`, `memrepo restore` and `memrepo import` as a user runs them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

Run = Callable[..., tuple[int, str, str]]
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "import"

Git = Callable[..., str]


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    return cli_in(memory_repo.root)


@pytest.mark.slow
def test_encrypted_export_and_restore_round_trip(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path, git: Git, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_repo.remember("Prefers pnpm over npm")
    memory_repo.remember("Planning a surprise party", private=True)
    monkeypatch.setenv("MEMREPO_PASSPHRASE", "a long passphrase")
    backup = tmp_path / "backup.mrx"
    code, out, err = run("export", str(backup), "--encrypt", "--include-private")
    assert (code, err) == (0, "")
    assert "2 commits on 1 branch, 1 item" in out and "encrypted" in out
    code, out, _ = run("export", str(backup), "--encrypt")
    assert code == 1
    code, out, _ = run("restore", str(backup), str(tmp_path / "back"), "--json")
    assert code == 0 and json.loads(out)["items"] == 1
    assert git(tmp_path / "back", "log", "--format=%H") == git(
        memory_repo.root, "log", "--format=%H"
    )
    monkeypatch.setenv("MEMREPO_PASSPHRASE", "wrong")
    code, _, err = run("restore", str(backup), str(tmp_path / "again"))
    assert code == 1 and "wrong passphrase" in err
    assert not (tmp_path / "again").exists()


def test_export_errors_are_one_line(run: Run, tmp_path: Path) -> None:
    code, _, err = run("export", str(tmp_path / "x.mrx"), "--include-private")
    assert code == 1 and err.startswith("memrepo: include_private needs encrypt")
    code, out, _ = run("export", str(tmp_path / "f.jsonl"), "--format", "jsonl", "--json")
    assert code == 0 and json.loads(out)["format"] == "jsonl"


def test_import_prints_counts_and_problems(run: Run, tmp_path: Path) -> None:
    dump = tmp_path / "dump.jsonl"
    dump.write_text('{"text": "Uses uv for Python envs"}\nnot json\n')
    code, out, err = run("import", "--from", "jsonl", str(dump), "--dry-run")
    assert (code, err) == (0, "")
    assert out.startswith("would import from jsonl: 2 rows read, 1 written")
    assert "dump.jsonl:2: line 2 is not JSON" in out
    code, out, _ = run("import", "--from", "claude-code", str(FIXTURES / "claude-code"), "--json")
    report = json.loads(out)
    assert code == 0 and report["written"] == 5 and report["commit"]
    code, out, _ = run("import", "--from", "claude-code", str(FIXTURES / "claude-code"))
    assert code == 0 and "0 written (0 as memory items), 5 already known" in out


def test_import_of_a_wrong_source_fails_cleanly(run: Run) -> None:
    code, _, err = run("import", "--from", "claude-code", str(FIXTURES / "letta"))
    assert code == 1 and "no MEMORY.md" in err
