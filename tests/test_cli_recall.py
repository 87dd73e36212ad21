"""`memrepo recall` and `memrepo reindex`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    memory_repo.remember("We ship the postgres 16 migration on March 3")
    memory_repo.remember("My blood type is AB", private=True, by="user")
    return cli_in(memory_repo.root)


@pytest.mark.slow
def test_recall_prints_ranked_hits(run: Run) -> None:
    code, out, _ = run("recall", "when do we ship the postgres migration")
    assert code == 0
    assert out.startswith(" 1. We ship the postgres 16 migration on March 3\n")
    assert "MEMORY.md:3" in out


@pytest.mark.slow
def test_private_needs_the_flag(run: Run) -> None:
    assert run("recall", "blood type")[1].strip() == "nothing found"
    code, out, _ = run("recall", "blood type", "--private", "--json")
    assert code == 0
    payload = json.loads(out)
    assert [hit["text"] for hit in payload["hits"]] == ["My blood type is AB"]
    assert payload["hits"][0]["lane"] == "memory"


@pytest.mark.slow
def test_hostile_query_and_bad_trust(run: Run) -> None:
    assert run("recall", "AND OR ( ) * :")[0] == 0
    code, _, err = run("recall", "postgres", "--min-trust", "gossip")
    assert code == 1 and "min_trust" in err


@pytest.mark.slow
def test_reindex(run: Run) -> None:
    code, out, _ = run("reindex", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["folder_entries"] == 1 and report["items"] == 1


@pytest.mark.slow
def test_invalid_bytes_in_a_query_give_valid_json(memory_repo: MemoryRepo) -> None:
    """argv bytes that are not UTF-8 reach Python as lone surrogates."""
    import subprocess
    import sys

    memory_repo.remember("We ship the postgres 16 migration on March 3")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from memrepo.cli import main; raise SystemExit(main())",
            "--repo",
            str(memory_repo.root),
            "recall",
            b"postgres \xff\xfe",
            "--json",
        ],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["hits"][0]["text"] == "We ship the postgres 16 migration on March 3"


@pytest.mark.slow
def test_recall_explain_prints_where_words_matched(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "mem"
    assert run("init", str(root))[0] == 0
    assert run("--repo", str(root), "remember", "Ana: I made pasta yesterday")[0] == 0
    code, out, err = run("--repo", str(root), "recall", "ana pasta", "--explain")
    assert code == 0 and not err
    assert "matched: text[ana, pasta]  label[ana]" in out
    assert "score: index " in out and "x label 1.5" in out and "folder 0.0164" in out
    code, out, _err = run("--repo", str(root), "recall", "ana pasta", "--explain", "--json")
    assert code == 0 and '"explain"' in out and '"term_scores"' in out
