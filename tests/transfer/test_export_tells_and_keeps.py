"""An export says what it leaves out, and a restore keeps what dreaming remembers
(issue #31): from the CLI as typed, and git's view of the restored repo."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memrepo import MemoryRepo


def memrepo(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memrepo", *argv], capture_output=True, text=True)


@pytest.mark.slow
def test_a_plain_export_says_it_leaves_private_items_out(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    memory_repo.remember("Prefers tea", by="user")
    memory_repo.remember("Blood type is AB", private=True)
    memory_repo.close()
    done = memrepo("--repo", str(memory_repo.root), "export", str(tmp_path / "m.mrx"))
    assert done.returncode == 0, done.stderr
    assert (
        "memrepo: not in the export: 1 private item (add --encrypt --include-private" in done.stderr
    )
    flat = memrepo(
        "--repo", str(memory_repo.root), "export", str(tmp_path / "m.jsonl"), "--format", "jsonl"
    )
    assert "1 private item" in flat.stderr


@pytest.mark.slow
def test_a_restore_keeps_the_changes_a_person_rejected(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    root = memory_repo.root
    memory = root / "MEMORY.md"
    memory.write_text(
        memory.read_text().replace(
            "## Index",
            "- The nightly backup of the orders database runs at two at night [by: user]\n"
            "- The nightly backup of the orders database runs at two at night UTC [by: agent]\n"
            "\n## Index",
        )
    )
    memory_repo.remember("Commit the hand edit", by="user")
    memory_repo.close()
    dreamt = memrepo("--repo", str(root), "dream", "--json")
    assert dreamt.returncode == 0, dreamt.stderr
    name = dreamt.stdout.split('"review": "')[1].split('"')[0]
    assert memrepo("--repo", str(root), "review", "reject", name).returncode == 0
    assert memrepo("--repo", str(root), "export", str(tmp_path / "m.mrx")).returncode == 0
    assert memrepo("restore", str(tmp_path / "m.mrx"), str(tmp_path / "back")).returncode == 0
    state = Path(".git") / "memrepo" / "dream.json"
    assert (tmp_path / "back" / state).read_bytes() == (root / state).read_bytes()
    again = memrepo("--repo", str(tmp_path / "back"), "dream", "--json")
    assert again.returncode == 0, again.stderr
    assert '"review": null' in again.stdout  # the rejected merge is not proposed again
