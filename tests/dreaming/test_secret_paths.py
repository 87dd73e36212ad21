"""A path never carries a secret, whoever derived it: the folder's path rule refuses one
(every writer runs it), a dream names its topic file from a redacted kind, and an import
skips a row whose names hold one."""

from __future__ import annotations

import subprocess
from datetime import date
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.dreaming.overflow import find_overflow
from memrepo.dreaming.snapshot import build_snapshot
from memrepo.errors import SecretInName
from memrepo.folder.paths import check_path

from .helpers import memory

TOKEN = "ghp_" + "Zq8Wm3Kx7Tb2Lp9Nc4Vr6Hs1Jd5Fg0Ya3Ue"


def test_the_path_rule_refuses_a_path_with_a_secret() -> None:
    with pytest.raises(SecretInName) as caught:
        check_path(f"notes/{TOKEN}.md")
    assert TOKEN not in str(caught.value)
    check_path("notes/github-tokens.md")  # the word is fine; the value is not


def test_a_dream_names_a_topic_file_from_a_redacted_kind() -> None:
    lines = [f"- agent fact {n:03d} {'x' * 60} [by: agent; kind: {TOKEN}]" for n in range(40)]
    files = {"MEMORY.md": memory(*lines).encode()}
    ops = find_overflow(build_snapshot("c0", files, date(2026, 3, 2)), set(), budget=600)
    assert ops
    assert all(op.dest is not None and TOKEN not in op.dest for op in ops)
    assert {op.dest for op in ops} == {"topics/redacted-github_token.md"}


def test_an_import_row_named_with_a_secret_is_skipped(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    dump = tmp_path / "dump.jsonl"
    dump.write_text(
        f'{{"text": "Deploys go through staging", "workspace": "{TOKEN}"}}\n'
        f'{{"text": "Ana prefers calls", "contact": "{TOKEN}"}}\n'
        '{"text": "The build runs nightly"}\n'
    )
    report = memory_repo.import_memory(dump, source="jsonl")
    assert report.written == 1 and report.skipped == {"secret_in_name": 2}
    objects = subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch"],
        cwd=memory_repo.root,
        capture_output=True,
        check=True,
    ).stdout
    assert TOKEN.encode() not in objects
    assert not any(TOKEN in p.name for p in memory_repo.root.rglob("*"))
